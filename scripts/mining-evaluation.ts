/**
 * End-to-end measure of mined rules: for each site with enough pages, mine on every other page (all
 * sites of a fold together, so the cross-site filter works as in production), clean the held-out pages,
 * and score them against gold (shingle F1, ../shared/data/README.md) beside the uncleaned page text.
 * Two folds (even pages mined / odd held out, then the reverse), so every page is scored once.
 *
 * The cleaner is pluggable: the Worker in workerd with the rules in KV (what the e2e test and
 * `npm run mine:eval` use), or the rules module applied to the page text directly (fast, for tuning).
 */
import { aggregateScores, scoreText, type AggregateScore, type PageScore } from "../src/evaluation/index";
import { mineSites, type MiningOptions, DEFAULT_MINING_OPTIONS } from "../src/mining/index";
import { compileRuleSet, findRuleIntervals, type RuleSet } from "../src/rules/index";
import { pageTextOf, type InputPage, type InputSite } from "./mining-input";

/** Cleans one page of a site with the given rule set; returns the cleaned text. */
export interface RuleCleaner {
  /** Makes the rule set available under `key` (a KV put for the Worker). */
  install(key: string, ruleSet: RuleSet): Promise<void>;
  clean(key: string, page: InputPage): Promise<string>;
}

export interface SiteEvaluation {
  readonly site: string;
  readonly pages: number;
  /** Rules per fold. */
  readonly rules: readonly number[];
  readonly uncleaned: AggregateScore;
  readonly cleaned: AggregateScore;
}

export interface MiningEvaluation {
  readonly sites: SiteEvaluation[];
  /** Means over sites (each site weighs the same) of the per-site F1 values. */
  readonly meanUncleanedF1: number;
  readonly meanCleanedF1: number;
  /** Over all held-out pages together. */
  readonly allUncleaned: AggregateScore;
  readonly allCleaned: AggregateScore;
}

/** Folds of the evaluation (see isMined). */
export const DEFAULT_FOLDS = 2;

/**
 * Whether page `index` is mined in `fold`. With 2 folds, fold 0 mines the even pages and holds out the odd
 * ones, fold 1 the reverse; with k folds, fold f holds out the pages whose index mod k is f.
 */
function isMined(index: number, fold: number, folds: number): boolean {
  return folds === 2 ? index % 2 === fold : index % folds !== fold;
}

/** KV key of a site's rules in one fold: fold 0 uses the site itself, fold 1 a sub-domain of it. */
export function foldKey(site: string, fold: number): string {
  return fold === 0 ? site : `fold${fold}.${site}`;
}

export async function evaluateMinedRules(
  sites: readonly InputSite[],
  cleaner: RuleCleaner,
  options: MiningOptions = DEFAULT_MINING_OPTIONS,
  onSite: (site: string, fold: number) => void = () => {},
  folds: number = DEFAULT_FOLDS,
): Promise<MiningEvaluation> {
  const texts = sites.map((site) => site.pages.map((page) => pageTextOf(page.html)));
  const uncleaned: PageScore[][] = sites.map(() => []);
  const cleaned: PageScore[][] = sites.map(() => []);
  const rules: number[][] = sites.map(() => []);
  for (let fold = 0; fold < folds; fold++) {
    const reports = mineSites(
      sites.map((site, s) => ({ site: site.site, pageTexts: texts[s]!.filter((_text, index) => isMined(index, fold, folds)) })),
      options,
    );
    for (let s = 0; s < sites.length; s++) {
      const site = sites[s]!;
      onSite(site.site, fold);
      const key = foldKey(site.site, fold);
      const ruleSet = { ...reports[s]!.ruleSet, site: key };
      rules[s]!.push(ruleSet.rules.length);
      await cleaner.install(key, ruleSet);
      for (let index = 0; index < site.pages.length; index++) {
        if (isMined(index, fold, folds)) continue;
        const page = site.pages[index]!;
        uncleaned[s]!.push(scoreText(texts[s]![index]!, page.gold));
        cleaned[s]!.push(scoreText(await cleaner.clean(key, page), page.gold));
      }
    }
  }
  const evaluations = sites.map((site, s) => ({
    site: site.site,
    pages: site.pages.length,
    rules: rules[s]!,
    uncleaned: aggregateScores(uncleaned[s]!),
    cleaned: aggregateScores(cleaned[s]!),
  }));
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
  return {
    sites: evaluations,
    meanUncleanedF1: mean(evaluations.map((evaluation) => evaluation.uncleaned.f1)),
    meanCleanedF1: mean(evaluations.map((evaluation) => evaluation.cleaned.f1)),
    allUncleaned: aggregateScores(uncleaned.flat()),
    allCleaned: aggregateScores(cleaned.flat()),
  };
}

/** Rules applied in Node to the page text (no markup, no classifier): the rules' own contribution. */
export function directCleaner(): RuleCleaner {
  const installed = new Map<string, ReturnType<typeof compileRuleSet>>();
  return {
    async install(key, ruleSet) {
      installed.set(key, compileRuleSet(ruleSet));
    },
    async clean(key, page) {
      const text = pageTextOf(page.html);
      const compiled = installed.get(key);
      if (compiled === undefined) return text;
      const intervals = findRuleIntervals(compiled, text);
      let kept = "";
      let from = 0;
      for (let i = 0; i < intervals.length; i += 2) {
        kept += text.slice(from, intervals[i]) + "\n";
        from = intervals[i + 1]!;
      }
      return kept + text.slice(from);
    },
  };
}

/** The per-site table and the means, as the closing note shows them. */
export function formatEvaluation(evaluation: MiningEvaluation, cleanedLabel: string): string {
  const header = ["site", "pages", "rules", "uncleaned P", "R", "F1", `${cleanedLabel} P`, "R", "F1", "ΔF1"];
  const f = (value: number) => value.toFixed(3);
  const rows = evaluation.sites.map((site) => [
    site.site,
    String(site.pages),
    site.rules.join("+"),
    f(site.uncleaned.precision),
    f(site.uncleaned.recall),
    f(site.uncleaned.f1),
    f(site.cleaned.precision),
    f(site.cleaned.recall),
    f(site.cleaned.f1),
    (site.cleaned.f1 - site.uncleaned.f1 >= 0 ? "+" : "") + f(site.cleaned.f1 - site.uncleaned.f1),
  ]);
  const pages = evaluation.sites.reduce((sum, site) => sum + site.pages, 0);
  const summary = (label: string, uncleaned: AggregateScore | null, cleaned: AggregateScore | null, u: number, c: number) => [
    label, String(pages), "", uncleaned ? f(uncleaned.precision) : "", uncleaned ? f(uncleaned.recall) : "", f(u),
    cleaned ? f(cleaned.precision) : "", cleaned ? f(cleaned.recall) : "", f(c), (c - u >= 0 ? "+" : "") + f(c - u),
  ];
  rows.push(summary("mean of sites", null, null, evaluation.meanUncleanedF1, evaluation.meanCleanedF1));
  rows.push(summary("all pages", evaluation.allUncleaned, evaluation.allCleaned, evaluation.allUncleaned.f1, evaluation.allCleaned.f1));
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const format = (row: string[]) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join("  ");
  return [format(header), ...rows.map(format)].join("\n");
}
