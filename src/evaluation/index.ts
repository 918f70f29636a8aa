// Evaluation support for Node (tests, eval, bench, training): the development data and the benchmark scoring.
export { DATA_ROOT, DATA_SETS, groupBySite, hasData, loadDataset } from "./dataset";
export type { DatasetPage } from "./dataset";
export { SHINGLE_SIZE, aggregateScores, scoreText, tokenize } from "./score";
export type { AggregateScore, PageCounts, PageScore } from "./score";
