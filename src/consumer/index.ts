/**
 * The control Worker's work (src/control.ts): mining jobs from MINE_QUEUE read a site's sampled pages from R2,
 * mine them (src/mining), merge the site's phrases into the cross-site table and publish the set as the site's
 * next revision; dead jobs are recorded. The edge Worker never imports this module (test/node/architecture.test.ts).
 */
export type { ShardAnswer, ShardContribution } from "../durable-objects";
export { consumeBatch, migrateCrossSiteTable, retryDelay, runMineJob, type ConsumerBindings } from "./consume";
export {
  applyContributions, crossSiteSiteId, homeShard, mergeContribution, ngramHash, partition, readCounts, removeContribution, shardStub, type CrossSiteCounts, type CrossSiteNamespace, type TableCost,
} from "./cross-site-table";
export { migrateLegacyTable, type MigrationResult } from "./legacy-table";
export { mineSampledSite, type SampledMining } from "./mine-sampled";
export { gateLearnedSet, type GateOutcome, type GatePage } from "./evidence-gate";
