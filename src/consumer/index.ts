/**
 * The control Worker's work (src/control.ts): mining jobs from MINE_QUEUE read a site's sampled pages from R2,
 * mine them (src/mining), merge the site's phrases into the cross-site table and publish the set as the site's
 * next revision; dead jobs are recorded. The edge Worker never imports this module (test/node/architecture.test.ts).
 */
export { consumeBatch, retryDelay, runMineJob } from "./consume";
export { mergeContribution, readCounts, SHARD_COUNT, type CrossSiteCounts } from "./cross-site-table";
export { mineSampledSite, type SampledMining } from "./mine-sampled";
export { gateLearnedSet, type GateOutcome, type GatePage } from "./evidence-gate";
