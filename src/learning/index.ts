/**
 * Learning from traffic (design.md, "The learning loop"), the part both Workers share: the edge Worker samples
 * the pages it cleans into R2 and enqueues mining jobs on MINE_QUEUE; job states, the rule set history and the
 * storage layout live here too. Mining the jobs is the control Worker's (src/consumer, src/control.ts), so
 * nothing here imports src/mining. Takes the bindings it needs (LearningBindings), never the HTTP layer.
 */
export {
  enqueueJob, enqueueStaleSites, parseMineJob, readJobState, requireBindings, writeJobState, type JobReason, type JobState, type JobStatus, type MineJob,
} from "./jobs";
export { KEPT_REVISIONS, listRevisions, publishRuleSet, rollbackRuleSet, type PublishResult, type Revision, type RollbackResult } from "./publish";
export {
  isOwnSite, listSampledPages, pageSampler, readSampledPages, rulesAreFresh, samplePage, sentWithCredentials, type CleanedPage, type EvidencedPage, type PageEvidence, type PageSampler, type SampledPage,
} from "./sample";
export { coversSite, deletePostingKey, isKeyId, keyIdOf, listPostingKeys, readPostingKey, writePostingKey, KEY_ID_DIGITS, MAX_POSTING_SITES, type PostingKey } from "./posting-keys";
export { approvePendingReview, dropPendingReview, readPendingReview, writePendingReview, type PendingReview, type RemovalMeasure } from "./review";
export { admitSample, samplePeriod, type SampleGateNamespace } from "./sample-gate";
export { LEGACY_CROSS_SITE_PREFIXES, storagePrefixes } from "./storage-keys";
export {
  DEAD_LETTER_QUEUE,
  learningEnabled,
  learnsSite,
  MAX_RETRY_SECONDS,
  resolveLearningSettings,
  type LearningBindings,
  type LearningSettings,
} from "./settings";
