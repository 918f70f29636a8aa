// Training (Node-side): automatic labels, the corpus, model fitting, cross-validation and calibration.
export { countLabels, labelSite, LABEL_CONTENT, LABEL_NONE, LABEL_TEMPLATE, normaliseBlockText, type PageLabels, type SiteLabelCounts } from "./labels";
export { analyseSet, analyseTrainingCorpus, collectExamples, keptText, minimumSitePages, siteFold, TRAINING_SETS, type AnalysedPage } from "./corpus";
export { fitModel, normalisation, type DecisionSettings, type ExampleSet, type ModelKind } from "./fit";
export { calibrate, CALIBRATION_SET, classifierScore, compileModel, foldModels, labelMetrics, MODEL_KINDS, modelFor, trainAndSelect, type CandidateResult } from "./train";
export { benchmarkSmoothing, type SmoothingBenchmark } from "./smoothing-benchmark";
export { classifierScores, evaluationPlan, prepareEvaluation, scoreSystem, type EvaluationCorpus } from "./evaluate";
export { siteRulePlans } from "./site-rules";
