/**
 * Mining several sites together: each site on its own (independent, could run in parallel), then the
 * one cross-site reduce, then each site's RuleSet, validated with src/rules `parseRuleSet`.
 */
import {
  MINING_CROSS_SITE_MIN_SITES,
  MINING_CROSS_SITE_NGRAM_TOKENS,
  MINING_CROSS_SITE_SITE_SHARE,
  MINING_CUTOFF_ENERGY_TOLERANCE,
  MINING_HISTOGRAM_BINS,
  MINING_MAX_RULE_TOKENS,
  MINING_MIN_RULE_LITERAL_WORDS,
  MINING_MAX_RULES_PER_SITE,
  MINING_MIN_DOCUMENTS,
  MINING_MIN_TOKENS,
  MINING_MIN_WORD_TOKENS,
  MINING_MIN_BOUNDARY_SHARE,
  MINING_BOUNDARY_SAMPLE,
} from "../config";
import type { PageModel } from "../page/index";
import { parseRuleSet, siteKeyOfLabel, type RuleSet } from "../rules/index";
import { filterAcrossSites, type CrossSiteOptions } from "./cross-site";
import { candidateKeys, mineSite, writeRuleSet, type SiteMining, type SiteMiningOptions, type StageTimings } from "./mine-site";
import { mineStructure, withStructure, type StructureMining } from "./site-structure";

export interface MiningOptions extends SiteMiningOptions, CrossSiteOptions {}

export const DEFAULT_MINING_OPTIONS: MiningOptions = {
  minimumTokens: MINING_MIN_TOKENS,
  minimumDocuments: MINING_MIN_DOCUMENTS,
  minimumWordTokens: MINING_MIN_WORD_TOKENS,
  minimumBoundaryShare: MINING_MIN_BOUNDARY_SHARE,
  boundarySample: MINING_BOUNDARY_SAMPLE,
  bins: MINING_HISTOGRAM_BINS,
  energyTolerance: MINING_CUTOFF_ENERGY_TOLERANCE,
  maximumTokens: MINING_MAX_RULE_TOKENS,
  minimumLiteralWords: MINING_MIN_RULE_LITERAL_WORDS,
  maximumRules: MINING_MAX_RULES_PER_SITE,
  ngramTokens: MINING_CROSS_SITE_NGRAM_TOKENS,
  minimumSites: MINING_CROSS_SITE_MIN_SITES,
  siteShare: MINING_CROSS_SITE_SITE_SHARE,
};

export interface SiteInput {
  /** KV key: lower-case host without "www." (see `siteKey`). */
  readonly site: string;
  /** Page texts as src/page produces them (blocks apart by "\n"). */
  readonly pageTexts: readonly string[];
  /** The pages' models (src/page pass 1, whose texts are pageTexts): given, selectors are mined too. */
  readonly pages?: readonly PageModel[];
}

/** What the mine CLI's summary table shows for a site, and its rule set. */
export interface SiteReport {
  readonly site: string;
  readonly pages: number;
  /** Tokens in the corpus, separators excluded. */
  readonly tokens: number;
  /** Maximal repeats of 2+ words in 2+ pages that pass the string filters: the strings the histogram counts. */
  readonly candidates: number;
  /** Candidates at or above the cutoff. */
  readonly aboveCutoff: number;
  readonly cutoffShare: number;
  readonly cutoffDocuments: number;
  readonly droppedAcrossSites: number;
  readonly contained: number;
  readonly rules: number;
  readonly timings: StageTimings;
  readonly ruleSet: RuleSet;
  /** The structural miner's choice and its check on held-back pages (null when the pages' models were not given). */
  readonly structure: StructureMining | null;
  /** Problems parseRuleSet found (none expected; a site with problems must not be written). */
  readonly problems: readonly string[];
}

export interface MiningProgress {
  readonly stage: "site" | "cross-site" | "rules";
  readonly done: number;
  readonly total: number;
  readonly site?: string;
}

export function mineSites(
  inputs: readonly SiteInput[],
  options: MiningOptions = DEFAULT_MINING_OPTIONS,
  onProgress: (progress: MiningProgress) => void = () => {},
  minedAt: string = new Date().toISOString(),
): SiteReport[] {
  const minings: SiteMining[] = [];
  inputs.forEach((input, index) => {
    onProgress({ stage: "site", done: index, total: inputs.length, site: input.site });
    minings.push(mineSite(input.pageTexts, options));
  });
  onProgress({ stage: "cross-site", done: inputs.length, total: inputs.length });
  const dropped = filterAcrossSites(minings.map((mining) => ({ candidates: candidateKeys(mining) })), options);
  return minings.map((mining, index) => {
    onProgress({ stage: "rules", done: index, total: inputs.length, site: inputs[index]!.site });
    const survivors = mining.candidates.filter((_repeat, k) => dropped[index]![k] === 0);
    const written = writeRuleSet(mining, survivors, inputs[index]!.site, minedAt, options);
    const pages = inputs[index]!.pages;
    const structure = pages === undefined ? null : mineStructure(mining, pages);
    const ruleSet = structure === null ? written.ruleSet : withStructure(written.ruleSet, structure);
    const parsed = parseRuleSet(ruleSet, { checkPatterns: true });
    return {
      site: inputs[index]!.site,
      pages: mining.corpus.pageCount,
      tokens: mining.corpus.tokens.length - mining.corpus.pageCount,
      candidates: mining.strings,
      aboveCutoff: mining.candidates.length,
      cutoffShare: mining.cutoff.share,
      cutoffDocuments: mining.cutoff.minimumDocuments,
      droppedAcrossSites: mining.candidates.length - survivors.length,
      contained: written.contained,
      rules: ruleSet.rules.length,
      timings: mining.timings,
      ruleSet,
      structure,
      problems: parsed.ok ? [] : parsed.problems,
    };
  });
}

/** KV key of a site label (the one definition is siteKeyOfLabel in src/rules). */
export const siteKey = siteKeyOfLabel;
