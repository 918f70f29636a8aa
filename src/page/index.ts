export { analysePage, analysePageSlices, walkPage, walkPageSlices } from "./analyse";
export { charsetFromContentType, decodeHtml } from "./charset";
export type { DecodeResult } from "./charset";
export { sniffBody, type BodySniff } from "./sniff";
export { findAttribute, findAttributes, readAttribute } from "./attributes";
export { decodeEntities } from "./entities";
export { HtmlScan, scanHtml, TEXT_CDATA, TEXT_DATA, TEXT_RAW, TEXT_RCDATA } from "./scanner";
export type { ScanHandler } from "./scanner";
export type { ScanLog } from "./scan-log";
export { SourceOffsetCursor, sourceOffsetOfText } from "./text-offsets";
export { FLAG_BLOCK, FLAG_HEADING, FLAG_VOID, TAG_FLAGS, TAG_NAMES, TAG_OTHER, TAG_ROOT, TAG_SELECT, tagId, tagName } from "./tags";
export {
  CLOSED_BY_ANCESTOR_END_TAG, CLOSED_BY_END_OF_PAGE, CLOSED_BY_IMPLIED_END, CLOSED_BY_OWN_END_TAG, MARKUP_COUNTERS,
  MARKUP_IMAGES, MARKUP_INPUTS, MARKUP_LINKS, MARKUP_TAGS,
} from "./types";
export type { BlockTable, ImpliedEndTable, PageModel, TextNodeTable } from "./types";
export { extractMetadata, titleWithoutSiteName, type PageMetadata } from "./metadata";
export { articleDirection, countWords, type KeptContent } from "./metadata-article";
export { headlineBlocks, headlineKey, isTitleText, statesHeadline, titleKey, type HeadlineKey } from "./headline";
export { isCodeLike, isComma, isScriptSentenceEnd, isSentenceTerminal } from "./text-marks";
export { computeFeatures, computeFeaturesSlices, FEATURE_COUNT, FEATURE_NAMES, FRAME_COLUMNS, FRAME_ELEMENTS, mainContentBlock, namesComments } from "./features";
export type { FeatureMatrix, FeatureName } from "./features";
