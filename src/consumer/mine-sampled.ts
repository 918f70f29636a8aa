/**
 * Mining one site's sampled pages, with the same stages as `npm run mine` (src/mining: page text → miner →
 * cross-site filter → structural rules → RuleSet validated by src/rules), the cross-site counts coming from the
 * merged table.
 */
import {
  candidateKeys, DEFAULT_MINING_OPTIONS, dropShared, mineSite, mineStructure, siteNgramKeys, withStructure, writeRuleSet, type MiningOptions,
} from "../mining";
import { analysePage } from "../page";
import { parseRuleSet, type RuleSet } from "../rules";
import type { CrossSiteCounts } from "./cross-site-table";

export interface SampledMining {
  /** The set, with source "learned" (no revision yet), or null when validation refused it. */
  readonly ruleSet: RuleSet | null;
  readonly problems: readonly string[];
  readonly pages: number;
  readonly candidates: number;
  readonly droppedAcrossSites: number;
  /** Milliseconds: page analysis, then the miner's stages, then the filter and the rule writer. */
  readonly milliseconds: { readonly analyse: number; readonly mine: number; readonly rules: number };
}

/** The site's n-gram keys for the table are taken first (`contribute`), then its candidates are filtered. */
export async function mineSampledSite(
  site: string,
  htmlPages: readonly string[],
  contribute: (keys: ReadonlySet<string>) => Promise<Pick<CrossSiteCounts, "countOf" | "siteTotal">>,
  minedAt: string,
  options: MiningOptions = DEFAULT_MINING_OPTIONS,
): Promise<SampledMining> {
  let started = performance.now();
  const pages = htmlPages.map((html) => analysePage(html));
  const texts = pages.map((page) => page.text);
  const analyse = performance.now() - started;
  started = performance.now();
  const mining = mineSite(texts, options);
  const candidates = { candidates: candidateKeys(mining) };
  const mine = performance.now() - started;
  const counts = await contribute(siteNgramKeys(candidates, options));
  started = performance.now();
  const dropped = dropShared(candidates, counts.countOf, counts.siteTotal, options);
  const survivors = mining.candidates.filter((_repeat, index) => dropped[index] === 0);
  const written = writeRuleSet(mining, survivors, site, minedAt, options);
  // The structural rules and the default mode, as `npm run mine` writes them (src/mining/site-structure.ts).
  const ruleSet: RuleSet = { ...withStructure(written.ruleSet, mineStructure(mining, pages)), source: "learned" };
  const parsed = parseRuleSet(ruleSet, { checkPatterns: true });
  const rules = performance.now() - started;
  return {
    ruleSet: parsed.ok ? ruleSet : null,
    problems: parsed.ok ? [] : parsed.problems,
    pages: texts.length,
    candidates: mining.candidates.length,
    droppedAcrossSites: mining.candidates.length - survivors.length,
    milliseconds: { analyse, mine, rules },
  };
}
