export { distinctLevels, isMonotone, isotonicSmooth, smoothingCost, type SmoothingProblem } from "./smoothing";
export { isLeafValue, MODEL_VERSION, parseModel, rawThreshold, scoreBlocks, type ClassifierModel, type ModelJson, type ParseModelResult, type BoostedJson, type FallbackKind, type UnsureMargins } from "./model";
export { classifyPage, fallbackKind, planFromClassifier, smoothScores, smoothingInputs, unreadBlocks, type Classification, type ClassifyOptions } from "./decide";
export { hiddenBlocks } from "./hidden";
export { commentBlocks, commentPlan, commentText, keepComments } from "./comments";
export { relatedBlocks } from "./related";
export { articleBodyMarks, type ArticleBodyMarks } from "./article-body";
export { PAGE_KINDS, postRunShares, recognisePageKind, schemaTypes, type KindEvidence, type PageKind, type PageKindFinding } from "./kind";
