// Evaluation (Node-side): the dev data, the benchmarks' scoring, and the eval gate's floors.
export { DATA_ROOT, DATA_SETS, EVALUATION_ONLY_SETS, GOLD_WITHOUT_HEADER, groupBySite, hasData, loadDataset } from "./dataset";
export type { DatasetPage } from "./dataset";
export { SHINGLE_SIZE, TOKEN_PATTERN, aggregateScores, meanCounts, scoreText, tokenize } from "./score";
export type { AggregateScore, PageCounts, PageScore } from "./score";
export { belowFloors, dataDigest, FLOOR_EPSILON, nextFloors, roundFloor, type FloorsFile, type FloorValues } from "./floors";
