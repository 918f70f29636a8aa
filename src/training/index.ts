// Training (Node-side): labels (automatic and from gold), the corpus, model fitting, cross-validation by site and calibration, evaluation of clean().
export { countLabels, labelSite, LABEL_CONTENT, LABEL_NONE, LABEL_TEMPLATE, normaliseBlockText, type PageLabels, type SiteLabelCounts } from "./labels";
export { labelFromGold, tokensInGold } from "./gold-labels";
export { analyseCorpus, analyseSet, collectExamples, foldKeys, keptText, LABEL_SOURCES, labelsOf, minimumSitePages, siteFold, type AnalysedPage, type LabelSource } from "./corpus";
export { fitModel, normalisation, shortestIn, type DecisionSettings, type ExampleSet, type ModelKind } from "./fit";
export {
  ALL_DECISION_RULES, bestCandidate, CALIBRATION_TIE, harmless, calibrateFolds, calibrateKindSettings, KIND_SETTINGS, candidateSettings, compileModel, crossValidate, describeSettings, fitFolds, fitShipped, foldModels, labelMetrics, meanOverSets,
  MODEL_KINDS, modelFor, withSettings, type CrossValidation, type FittedFolds, type KindSetting,
} from "./train";
export { keptTextNodes, pageScorer, scoreKept, type PageScorer } from "./page-scorer";
export { benchmarkSmoothing, type SmoothingBenchmark } from "./smoothing-benchmark";
export {
  evaluateShipped, foldSpread, kindLabel, kindsOf, LOST_PAGE_F1, measuredFloors, pageF1, prepareEvaluation, ruledLabel, scoreOutputs, SHIPPED_SYSTEMS, shippedProtocol, shippedText,
  SYSTEM_CLASSIFIER, SYSTEM_DEFAULT, SYSTEM_RULES, SYSTEM_UNCLEANED, type EvaluationCorpus, type EvaluationRow, type SystemScore,
} from "./evaluate";
export { siteRuleSets } from "./site-rules";
