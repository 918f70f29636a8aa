export { decodeHtml } from "./charset";
export type { DecodeResult } from "./charset";
export type { BlockTable, PageModel, RemovalPlan, TextNodeTable } from "./types";
export { FEATURE_COUNT, FEATURE_NAMES, computeFeatures, type FeatureMatrix, type FeatureName } from "./features";
export { extractMetadata, type PageMetadata } from "./metadata";
