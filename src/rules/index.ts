/**
 * Site rules: the RuleSet format and its validation, the linear-time pattern check, compiled rule sets with
 * an isolate cache, and the order-free interval union (paper 002, 3.4.1); src/plan turns the intervals into a removal plan.
 */
export {
  RULESET_VERSION,
  RULESET_VERSION_SELECTORS,
  RULESET_VERSIONS,
  METADATA_SELECTOR_FIELDS,
  selectorEntries,
  type MetadataSelectors,
  type RuleSetVersion,
  parseRuleSet,
  parseRuleSetText,
  type MutablePattern,
  type ParseRuleSetOptions,
  type Rule,
  type RuleSet,
  type RuleSetParse,
  RULE_SET_SOURCES,
  type RuleSetSource,
  DEFAULT_MODES,
  type DefaultMode,
  type DefaultModeChoice,
} from "./rule-set";
export { checkFragmentSafety, checkPatternSafety, type PatternSafety } from "./pattern-safety";
export {
  compileRuleSet,
  createRuleSetCache,
  DEFAULT_COMPILE_OPTIONS,
  RULE_FLAGS,
  type CompiledRule,
  type CompiledRuleSet,
  type CompileOptions,
  type RuleSetCache,
  type RuleSetCacheOptions,
  type RuleSetLoad,
  type SkippedRule,
} from "./compile";
export {
  DEFAULT_INTERVAL_OPTIONS,
  EMPTY_INTERVALS,
  findRuleIntervals,
  matchRules,
  type IntervalOptions,
  type RuleMatching,
  type RuleOverflow,
} from "./intervals";
export { isSeparatorCode, requiredWords } from "./prefilter";
export { contentEdgeIntervals } from "./content-edges";
export { explainRules, explainSelectors, type RuleEffect, type RulesExplanation, type SelectorEffect } from "./explain";
export { parseSiteKey, ruleSetFileName, SITE_KEY_PATTERN, siteKeyCandidates, siteKeyOfLabel, siteOfHost } from "./site-key";
export { compileSiteSelectors, mainMatches, selectorsClean, selectorsReadMetadata, type SiteSelectors } from "./site-selectors";
