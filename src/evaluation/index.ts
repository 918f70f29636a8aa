// Evaluation (Node-side): the dev data, the benchmarks' scoring, and the eval gate's floors.
export { DATA_ROOT, DATA_SETS, EVALUATED_SETS, EVALUATION_ONLY_SETS, GOLD_WITHOUT_HEADER, GOLD_WITHOUT_HEADER_KINDS, goldWithoutHeader, groupBySite, hasData, loadDataset } from "./dataset";
export type { DatasetPage, PageSnippets } from "./dataset";
export { SHINGLE_SIZE, TOKEN_PATTERN, aggregateScores, meanCounts, NO_SNIPPETS, scoreSnippets, scoreText, sumSnippets, tokenize } from "./score";
export type { AggregateScore, PageCounts, PageScore, SnippetCounts } from "./score";
export { belowFloors, carriedFloors, dataDigest, FLOOR_EPSILON, KIND_FLOOR_MIN_PAGES, nextFloors, roundFloor, setOfRow, type FloorsFile, type FloorValues } from "./floors";
