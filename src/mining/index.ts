/**
 * The site-rule miner (paper 002, chapters 3-4): page text → tokens with mutable patterns → suffix
 * array + LCP → maximal repeated strings with document frequency → bimodal cutoff → cross-site filter →
 * regex rules in the RuleSet format. Node-side, offline; uses src/page for the page text.
 */
export { buildSuffixArray, sortSuffixesByComparison } from "./suffix-array";
export { buildLcpArray, buildLcpArrayByComparison } from "./longest-common-prefix";
export { findMaximalRepeats } from "./maximal-repeats";
export type { RepeatInput, RepeatOptions, RepeatTable } from "./maximal-repeats";
