/**
 * The site-rule miner (paper 002, chapters 3-4): page text → tokens with mutable patterns → suffix
 * array + LCP → maximal repeated strings with document frequency → bimodal cutoff → cross-site filter →
 * regex rules in the RuleSet format. Node-side and offline, but free of Node APIs.
 */
export { buildSuffixArray, sortSuffixesByComparison } from "./suffix-array";
export { buildLcpArray, buildLcpArrayByComparison } from "./longest-common-prefix";
export { findMaximalRepeats } from "./maximal-repeats";
export type { RepeatInput, RepeatOptions, RepeatTable } from "./maximal-repeats";
export { MUTABLE_PATTERNS, type MutablePattern } from "./mutable-patterns";
export {
  createDictionary,
  FLAG_BLOCK_START,
  FLAG_SPACE_BEFORE,
  TOKEN_CLASS,
  TOKEN_SYMBOL,
  TOKEN_WORD,
  TokenColumns,
  tokenizeText,
  type TokenDictionary,
} from "./tokens";
export { buildCorpus, entryAt, type SiteCorpus } from "./corpus";
export { binOfDocuments, documentHistogram, findCutoff, type Cutoff, type CutoffOptions } from "./cutoff";
export { dropShared, filterAcrossSites, sharedThreshold, siteNgramKeys, type CrossSiteOptions, type SiteCandidates } from "./cross-site";
export { filterRepeats, type StringFilterOptions } from "./string-filters";
export { escapeLiteral, patternOf, writePatterns, type PatternOptions, type WrittenPattern } from "./rule-writer";
export {
  candidateKeys,
  mineSite,
  reduceContained,
  writeRuleSet,
  type SiteMining,
  type SiteMiningOptions,
  type SiteRules,
  type StageTimings,
} from "./mine-site";
export {
  DEFAULT_MINING_OPTIONS,
  mineSites,
  siteKey,
  type MiningOptions,
  type MiningProgress,
  type SiteInput,
  type SiteReport,
} from "./mine-sites";
export { mineStructure, withStructure, type StructureMining } from "./site-structure";
