/**
 * Learning from traffic (design.md, "The learning loop"): the Worker samples the pages it cleans into R2,
 * mining jobs go through a Queue, and the queue() consumer publishes each site's learned rules to KV,
 * versioned, with a cross-site phrase table merged one site at a time. Depends on src/mining and src/rules;
 * takes the bindings it needs (LearningBindings), never the HTTP layer.
 */
export { consumeBatch, retryDelay, runMineJob, type PublishedListener } from "./consume";
export { mergeContribution, readCounts, SHARD_COUNT, type CrossSiteCounts } from "./cross-site-table";
export { enqueueJob, enqueueStaleSites, parseMineJob, readJobState, type JobReason, type JobState, type JobStatus, type MineJob } from "./jobs";
export { mineSampledSite, type SampledMining } from "./mine-sampled";
export { KEPT_REVISIONS, listRevisions, publishRuleSet, rollbackRuleSet, type PublishResult, type Revision, type RollbackResult } from "./publish";
export { listSampledPages, pageSampler, readSampledPages, rulesAreFresh, samplePage, sentWithCredentials, type CleanedPage, type PageSampler, type SampledPage } from "./sample";
export { storagePrefixes } from "./storage-keys";
export {
  DEAD_LETTER_QUEUE,
  learningEnabled,
  learnsSite,
  resolveLearningSettings,
  type LearningBindings,
  type LearningSettings,
} from "./settings";
