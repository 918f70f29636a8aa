/**
 * End-to-end measure of mined rules: for each site with enough pages, mine on every other page (all
 * sites of a fold together, so the cross-site filter works as in production), clean the held-out pages,
 * and score them against gold (shingle F1, ../shared/data/README.md) beside the uncleaned page text.
 * Two folds (even pages mined / odd held out, then the reverse), so every page is scored once.
 *
 * The cleaner is pluggable: the Worker in workerd with the rules in KV (what the e2e test and
 * `npm run mine:eval` use), or the rules module applied to the page text directly (fast, for tuning).
 * Several modes may be scored on the same held-out pages (rules alone, the classifier alone, the default),
 * beside an optional reference system that needs no rules (Readability).
 */
import { aggregateScores, scoreText, type AggregateScore, type PageScore } from "../src/evaluation/index";
import { mineSites, type MiningOptions, DEFAULT_MINING_OPTIONS } from "../src/mining/index";
import { analysePage } from "../src/page/index";
import { compileRuleSet, findRuleIntervals, type RuleSet } from "../src/rules/index";
import type { InputPage, InputSite } from "./mining-input";

/** Cleans one page of a site with the given rule set; returns the cleaned text. */
export interface RuleCleaner {
  /** Makes the rule set available under `key` (a KV put for the Worker). */
  install(key: string, ruleSet: RuleSet): Promise<void>;
  /** `mode`: the cleaning mode (the Worker's ?mode=); absent, the cleaner's own. */
  clean(key: string, page: InputPage, mode?: string): Promise<string>;
}

/** A system scored beside the modes that needs no rules (Readability): page → its text. */
export interface ReferenceSystem {
  readonly name: string;
  text(page: InputPage): string;
}

export interface SiteEvaluation {
  readonly site: string;
  /** The input the site was read from (InputSite.group). */
  readonly group: string;
  readonly pages: number;
  /** Rules per fold (text rules + selectors). */
  readonly rules: readonly string[];
  /** Default mode each fold's rule set chose, and how (RuleSet.defaultMode). */
  readonly chosen: readonly string[];
  readonly uncleaned: AggregateScore;
  /** The first mode's scores (what the one-mode table shows). */
  readonly cleaned: AggregateScore;
  /** Mode → scores, in the order asked. */
  readonly modes: ReadonlyMap<string, AggregateScore>;
  readonly reference: AggregateScore | null;
}

export interface MiningEvaluation {
  readonly sites: SiteEvaluation[];
  readonly modes: readonly string[];
  readonly referenceName: string | null;
  /** Means over sites (each site weighs the same) of the per-site F1 values. */
  readonly meanUncleanedF1: number;
  readonly meanCleanedF1: number;
  /** Over all held-out pages together. */
  readonly allUncleaned: AggregateScore;
  readonly allCleaned: AggregateScore;
}

export interface EvaluationChoices {
  /** Modes to score (the cleaner's own when absent). */
  readonly modes?: readonly string[];
  readonly reference?: ReferenceSystem;
  readonly onSite?: (site: string, fold: number) => void;
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
  choices: EvaluationChoices = {},
  folds: number = DEFAULT_FOLDS,
): Promise<MiningEvaluation> {
  const modes = choices.modes ?? [""];
  const analysed = sites.map((site) => site.pages.map((page) => analysePage(page.html)));
  const uncleaned: PageScore[][] = sites.map(() => []);
  const cleaned: PageScore[][][] = modes.map(() => sites.map(() => []));
  const reference: PageScore[][] = sites.map(() => []);
  const rules: string[][] = sites.map(() => []);
  const chosen: string[][] = sites.map(() => []);
  for (let fold = 0; fold < folds; fold++) {
    const reports = mineSites(
      sites.map((site, s) => {
        const pages = analysed[s]!.filter((_page, index) => isMined(index, fold, folds));
        return { site: site.site, pageTexts: pages.map((page) => page.text), pages };
      }),
      options,
    );
    for (let s = 0; s < sites.length; s++) {
      const site = sites[s]!;
      choices.onSite?.(site.site, fold);
      const key = foldKey(site.site, fold);
      const ruleSet = { ...reports[s]!.ruleSet, site: key };
      rules[s]!.push(ruleSummary(ruleSet));
      chosen[s]!.push(ruleSet.defaultMode === undefined ? "-" : `${ruleSet.defaultMode.mode} (${ruleSet.defaultMode.by})`);
      await cleaner.install(key, ruleSet);
      for (let index = 0; index < site.pages.length; index++) {
        if (isMined(index, fold, folds)) continue;
        const page = site.pages[index]!;
        uncleaned[s]!.push(scoreText(analysed[s]![index]!.text, page.gold));
        for (let m = 0; m < modes.length; m++) cleaned[m]![s]!.push(scoreText(await cleaner.clean(key, page, modes[m] || undefined), page.gold));
        if (choices.reference !== undefined) reference[s]!.push(scoreText(choices.reference.text(page), page.gold));
      }
    }
  }
  const evaluations: SiteEvaluation[] = sites.map((site, s) => {
    const byMode = new Map(modes.map((mode, m) => [mode, aggregateScores(cleaned[m]![s]!)]));
    return {
      site: site.site, group: site.group, pages: site.pages.length, rules: rules[s]!, chosen: chosen[s]!, uncleaned: aggregateScores(uncleaned[s]!),
      cleaned: byMode.get(modes[0]!)!, modes: byMode, reference: choices.reference === undefined ? null : aggregateScores(reference[s]!),
    };
  });
  return {
    sites: evaluations,
    modes,
    referenceName: choices.reference?.name ?? null,
    meanUncleanedF1: mean(evaluations.map((evaluation) => evaluation.uncleaned.f1)),
    meanCleanedF1: mean(evaluations.map((evaluation) => evaluation.cleaned.f1)),
    allUncleaned: aggregateScores(uncleaned.flat()),
    allCleaned: aggregateScores(cleaned[0]!.flat()),
  };
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
}

/** "12" for text rules alone; "12 s3 m2 k1" with strip, main and keep selectors. */
function ruleSummary(ruleSet: RuleSet): string {
  const selectors = [["s", ruleSet.strip], ["m", ruleSet.main], ["k", ruleSet.keep]] as const;
  return [String(ruleSet.rules.length), ...selectors.filter(([, list]) => (list?.length ?? 0) > 0).map(([name, list]) => `${name}${list!.length}`)].join(" ");
}

/** Rules applied in Node to the page text (no markup, no classifier, no selectors): the text rules' own contribution. */
export function directCleaner(): RuleCleaner {
  const installed = new Map<string, ReturnType<typeof compileRuleSet>>();
  return {
    async install(key, ruleSet) {
      installed.set(key, compileRuleSet(ruleSet));
    },
    async clean(key, page) {
      const text = analysePage(page.html).text;
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

const f3 = (value: number): string => value.toFixed(3);
const delta = (value: number): string => (value >= 0 ? "+" : "") + f3(value);

/** The per-site table and the means, as the closing note shows them. */
export function formatEvaluation(evaluation: MiningEvaluation, cleanedLabel: string): string {
  if (evaluation.modes.length > 1 || evaluation.referenceName !== null) return formatModes(evaluation);
  const header = ["site", "pages", "rules", "uncleaned P", "R", "F1", `${cleanedLabel} P`, "R", "F1", "ΔF1"];
  const rows = evaluation.sites.map((site) => [
    site.site, String(site.pages), site.rules.join("+"),
    f3(site.uncleaned.precision), f3(site.uncleaned.recall), f3(site.uncleaned.f1),
    f3(site.cleaned.precision), f3(site.cleaned.recall), f3(site.cleaned.f1), delta(site.cleaned.f1 - site.uncleaned.f1),
  ]);
  const pages = evaluation.sites.reduce((sum, site) => sum + site.pages, 0);
  const summary = (label: string, uncleaned: AggregateScore | null, cleaned: AggregateScore | null, u: number, c: number) => [
    label, String(pages), "", uncleaned ? f3(uncleaned.precision) : "", uncleaned ? f3(uncleaned.recall) : "", f3(u),
    cleaned ? f3(cleaned.precision) : "", cleaned ? f3(cleaned.recall) : "", f3(c), delta(c - u),
  ];
  rows.push(summary("mean of sites", null, null, evaluation.meanUncleanedF1, evaluation.meanCleanedF1));
  rows.push(summary("all pages", evaluation.allUncleaned, evaluation.allCleaned, evaluation.allUncleaned.f1, evaluation.allCleaned.f1));
  return formatTable(header, rows);
}

/**
 * Several modes side by side: per site the F1 of each (and the reference's), which wins, and the default mode
 * the rule sets chose; then per mode the mean of the sites' F1, precision and recall, and over all pages.
 */
function formatModes(evaluation: MiningEvaluation): string {
  const systems = [...evaluation.modes, ...(evaluation.referenceName === null ? [] : [evaluation.referenceName])];
  const scoresOf = (site: SiteEvaluation): AggregateScore[] => [...evaluation.modes.map((mode) => site.modes.get(mode)!), ...(site.reference === null ? [] : [site.reference])];
  const header = ["site", "pages", "rules", "uncleaned", ...systems.map((name) => `${name} F1`), "best", "rules chose"];
  const rows = evaluation.sites.map((site) => {
    const scores = scoresOf(site);
    const best = scores.reduce((top, score, index) => (score.f1 > scores[top]!.f1 ? index : top), 0);
    return [site.site, String(site.pages), site.rules.join(" | "), f3(site.uncleaned.f1), ...scores.map((score) => f3(score.f1)), systems[best]!, [...new Set(site.chosen)].join(" / ")];
  });
  const pages = evaluation.sites.reduce((sum, site) => sum + site.pages, 0);
  const wins = systems.map((_name, index) => evaluation.sites.filter((site) => {
    const scores = scoresOf(site);
    return scores.every((score) => score.f1 <= scores[index]!.f1);
  }).length);
  const groups = [...new Set(evaluation.sites.map((site) => site.group))];
  const meanRows = (label: string, sites: readonly SiteEvaluation[], pageCount: number): string[][] => {
    const meanOf = (pick: (score: AggregateScore) => number, index: number) => mean(sites.map((site) => pick(scoresOf(site)[index]!)));
    const uncleaned = (pick: (score: AggregateScore) => number) => f3(mean(sites.map((site) => pick(site.uncleaned))));
    return (["F1", "P", "R"] as const).map((name) => {
      const pick = name === "F1" ? (score: AggregateScore) => score.f1 : name === "P" ? (score: AggregateScore) => score.precision : (score: AggregateScore) => score.recall;
      return [`mean ${name}${label}`, name === "F1" ? String(pageCount) : "", "", uncleaned(pick), ...systems.map((_name, index) => f3(meanOf(pick, index))), "", ""];
    });
  };
  if (groups.length > 1) {
    for (const group of groups) {
      const sites = evaluation.sites.filter((site) => site.group === group);
      rows.push(...meanRows(` · ${group} (${sites.length} sites)`, sites, sites.reduce((sum, site) => sum + site.pages, 0)));
    }
  }
  rows.push(...meanRows("", evaluation.sites, pages));
  rows.push(["sites won", "", "", "", ...wins.map(String), "", ""]);
  const comparison = defaultComparison(evaluation, groups, systems, scoresOf);
  return formatTable(header, rows) + (comparison === "" ? "" : `\n${comparison}`);
}

/**
 * Per group of sites (and over all), the default mode's mean F1 against each other system's: the default is meant
 * to be at least the classifier alone and at least the reference (Readability) on every group.
 */
function defaultComparison(evaluation: MiningEvaluation, groups: readonly string[], systems: readonly string[], scoresOf: (site: SiteEvaluation) => AggregateScore[]): string {
  const auto = systems.indexOf("auto");
  if (auto < 0 || systems.length < 2) return "";
  const lines = [...groups, ""].map((group) => {
    const sites = evaluation.sites.filter((site) => group === "" || site.group === group);
    const meanF1 = (index: number) => mean(sites.map((site) => scoresOf(site)[index]!.f1));
    const against = systems.flatMap((name, index) => (index === auto || name === "rules" ? [] : [`${meanF1(auto) >= meanF1(index) ? ">=" : "<"} ${name} ${f3(meanF1(index))}`]));
    const classifier = systems.indexOf("classifier");
    const below = classifier < 0 ? [] : sites.filter((site) => scoresOf(site)[auto]!.f1 < scoresOf(site)[classifier]!.f1).map((site) => site.site);
    const belowText = classifier < 0 ? "" : `; below the classifier alone on ${below.length} site(s)${below.length > 0 ? ` (${below.join(", ")})` : ""}`;
    return `default on ${group === "" ? "all sites" : group} (${sites.length}): ${f3(meanF1(auto))} ${against.join(", ")}${belowText}`;
  });
  return lines.join("\n");
}

function formatTable(header: readonly string[], rows: readonly string[][]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const format = (row: readonly string[]) => row.map((cell, column) => (column === 0 || column === 2 || column === row.length - 1 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join("  ");
  return [format(header), ...rows.map(format)].join("\n");
}
