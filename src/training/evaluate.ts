/**
 * Page-level evaluation of what ships: every dev page goes through clean() itself (the Worker's pipeline,
 * its fallbacks included: a bailout passes the page through, so its whole text is scored), with the model
 * of the page's cross-validation fold (never trained on the page's site) carrying decision settings chosen
 * without that fold. Pages of sites with 8+ pages are also cleaned with rules mined on the other half of
 * their site's pages, in the Worker's default mode.
 */
import { clean, type CleanMode } from "../clean";
import type { ClassifierModel, ModelJson } from "../classify/index";
import { aggregateScores, goldWithoutHeader, KIND_FLOOR_MIN_PAGES, NO_SNIPPETS, scoreSnippets, scoreText, sumSnippets, type AggregateScore, type FloorValues, type PageScore, type SnippetCounts } from "../evaluation/index";
import type { CompiledRuleSet } from "../rules/index";
import type { HtmlRewriterBackend } from "../runtime/index";
import { TRAIN_FOLDS } from "../config";
import { analyseCorpus, LABEL_SOURCES, type AnalysedPage, type LabelSource } from "./corpus";
import type { ModelKind } from "./fit";
import { siteRuleSets } from "./site-rules";
import { crossValidate, type CrossValidation } from "./train";

/** Pages scoring below this shingle F1 have lost the article (or kept mostly something else). */
export const LOST_PAGE_F1 = 0.3;

/** The text the Worker answers for a page with format=text: the cleaned text, or on a bailout the page's own text. */
export async function shippedText(page: AnalysedPage, model: ClassifierModel | null, ruleSet: CompiledRuleSet | null, mode: CleanMode | "auto", rewriter: HtmlRewriterBackend): Promise<string> {
  const textScope = goldWithoutHeader(page.page) ? "body" : "all";
  const result = await clean({ html: page.page.html, url: page.page.url, site: page.page.site, format: "text", ruleSet, model, rewriter, options: { mode, textScope } });
  return result.ok ? result.body : page.model.text;
}

/** One system's scores over pages: the aggregate, pages below LOST_PAGE_F1, F1 per fold, and the snippet measure summed over pages. */
export interface SystemScore {
  readonly aggregate: AggregateScore;
  readonly lostPages: number;
  /** Shingle F1 per fold, NaN for a fold with none of the pages. */
  readonly perFold: readonly number[];
  readonly perPage: readonly PageScore[];
  /** Snippets found and absent over the pages that have snippets (all zero where none has). */
  readonly snippets: SnippetCounts;
}

/** Lowest and highest per-fold F1 and their standard deviation (folds with none of the pages left out). */
export function foldSpread(perFold: readonly number[]): { min: number; max: number; sd: number } {
  const values = perFold.filter((f1) => !Number.isNaN(f1));
  if (values.length === 0) return { min: Number.NaN, max: Number.NaN, sd: Number.NaN };
  const mean = values.reduce((sum, f1) => sum + f1, 0) / values.length;
  const sd = Math.sqrt(values.reduce((sum, f1) => sum + (f1 - mean) ** 2, 0) / values.length);
  return { min: Math.min(...values), max: Math.max(...values), sd };
}

/** Shingle F1 of one page from its normalised counts. */
export function pageF1(score: PageScore): number {
  const { tp, fp, fn } = score.shingles;
  return tp === 0 ? 0 : (2 * tp) / (2 * tp + fp + fn);
}

/** Scores the outputs of one system (outputs[i] is the text kept for pages[i]). */
export function scoreOutputs(pages: readonly AnalysedPage[], outputs: readonly string[]): SystemScore {
  const perPage = pages.map((page, index) => scoreText(outputs[index], page.page.gold));
  const perFold = Array.from({ length: TRAIN_FOLDS }, (_, fold) => {
    const inFold = perPage.filter((_, index) => pages[index].fold === fold);
    return inFold.length === 0 ? Number.NaN : aggregateScores(inFold).f1;
  });
  const snippets = sumSnippets(pages.map((page, index) => (page.page.snippets ? scoreSnippets(outputs[index], page.page.snippets) : NO_SNIPPETS)));
  return { aggregate: aggregateScores(perPage), lostPages: perPage.filter((score) => pageF1(score) < LOST_PAGE_F1).length, perFold, perPage, snippets };
}

/**
 * One row of the evaluation: a system's scores on a set, on one kind of its pages ("set/kind", where the index gives
 * kinds) or on its pages of sites with rules ("set[8+ page sites]").
 */
export interface EvaluationRow {
  readonly set: string;
  readonly system: string;
  readonly score: SystemScore;
  /** How the row's pages are scored: the body (gold without the article's header), all the kept text, or either by page kind. */
  readonly textScope: "body" | "all" | "by kind";
  /** The page kind the row is limited to ("set/kind" rows), else null. */
  readonly kind: string | null;
  /** The row's pages, in the order of score.perPage. */
  readonly pages: readonly AnalysedPage[];
}

/** What is scored besides clean(): an optional reference system (Readability in `npm run eval`). */
export interface EvaluationOptions {
  readonly rewriter: HtmlRewriterBackend;
  readonly reference?: { readonly name: string; readonly text: (page: AnalysedPage) => string };
  readonly log: (line: string) => void;
}

/** The system names of the rows; floors are kept for SHIPPED_SYSTEMS. */
export const SYSTEM_UNCLEANED = "uncleaned";
export const SYSTEM_CLASSIFIER = "clean() classifier";
export const SYSTEM_RULES = "clean() rules";
export const SYSTEM_DEFAULT = "clean() default";
export const SHIPPED_SYSTEMS: readonly string[] = [SYSTEM_CLASSIFIER, SYSTEM_DEFAULT];

/** Label of the rows over a set's pages whose site has mined rules. */
export function ruledLabel(set: string): string {
  return `${set}[8+ page sites]`;
}

/** Label of the rows over a set's pages of one kind. */
export function kindLabel(set: string, kind: string): string {
  return `${set}/${kind}`;
}

/** A set's page kinds with their page counts, most pages first (none where the index gives no kinds). */
export function kindsOf(pages: readonly AnalysedPage[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const page of pages) if (page.page.kind !== null) counts.set(page.page.kind, (counts.get(page.page.kind) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

function scopeOf(pages: readonly AnalysedPage[]): EvaluationRow["textScope"] {
  const body = pages.filter((page) => goldWithoutHeader(page.page)).length;
  return body === pages.length ? "body" : body === 0 ? "all" : "by kind";
}

/**
 * Scores clean() on every dev page with gold, out of fold, per set: the classifier alone, and on pages of
 * sites with 8+ pages the rules alone and the default mode (rules plus classifier); beside them the
 * uncleaned text and the reference system. A set whose index gives page kinds gets a row per kind too. Each
 * system cleans a page once; the kind and ruled rows score subsets of the same outputs.
 */
export async function evaluateShipped(pages: readonly AnalysedPage[], folds: readonly ClassifierModel[], ruleSets: ReadonlyMap<AnalysedPage, CompiledRuleSet>, options: EvaluationOptions): Promise<EvaluationRow[]> {
  const rows: EvaluationRow[] = [];
  const sets = [...new Set(pages.map((page) => page.page.set))];
  for (const set of sets) {
    const started = performance.now();
    const setPages = pages.filter((page) => page.page.set === set && page.page.gold !== "");
    const ruled = setPages.filter((page) => ruleSets.has(page));
    const outputs = new Map<string, Map<AnalysedPage, string>>(); // system → page → its text
    const run = async (system: string, subset: readonly AnalysedPage[], text: (page: AnalysedPage) => Promise<string> | string): Promise<void> => {
      const byPage = new Map<AnalysedPage, string>();
      for (const page of subset) byPage.set(page, await text(page));
      outputs.set(system, byPage);
    };
    await run(SYSTEM_UNCLEANED, setPages, (page) => page.model.text);
    await run(SYSTEM_CLASSIFIER, setPages, (page) => shippedText(page, folds[page.fold], null, "classifier", options.rewriter));
    if (ruled.length > 0) {
      await run(SYSTEM_RULES, ruled, (page) => shippedText(page, null, ruleSets.get(page)!, "rules", options.rewriter));
      await run(SYSTEM_DEFAULT, ruled, (page) => shippedText(page, folds[page.fold], ruleSets.get(page)!, "auto", options.rewriter));
    }
    if (options.reference) await run(options.reference.name, setPages, options.reference.text);
    const addRows = (label: string, kind: string | null, subset: readonly AnalysedPage[], systems: readonly string[]): void => {
      for (const system of systems) {
        const byPage = outputs.get(system);
        if (byPage) rows.push({ set: label, system, score: scoreOutputs(subset, subset.map((page) => byPage.get(page)!)), textScope: scopeOf(subset), kind, pages: subset });
      }
    };
    const unruled = [SYSTEM_UNCLEANED, SYSTEM_CLASSIFIER, ...(options.reference ? [options.reference.name] : [])];
    addRows(set, null, setPages, unruled);
    for (const [kind] of kindsOf(setPages)) addRows(kindLabel(set, kind), kind, setPages.filter((page) => page.page.kind === kind), unruled);
    if (ruled.length > 0) addRows(ruledLabel(set), null, ruled, [SYSTEM_UNCLEANED, SYSTEM_CLASSIFIER, SYSTEM_RULES, SYSTEM_DEFAULT, ...unruled.slice(2)]);
    options.log(`${set}: ${setPages.length} pages scored in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  return rows;
}

/** The dev pages, cross-validated the way the shipped model was trained, and the site rules for the pages of 8+ page sites. */
export interface EvaluationCorpus {
  readonly pages: readonly AnalysedPage[];
  readonly validation: CrossValidation;
  readonly ruleSets: ReadonlyMap<AnalysedPage, CompiledRuleSet>;
}

/** Model kind and label source of a model (as fitShipped records them; gold labels for a model that does not say). */
export function shippedProtocol(model: ModelJson): { kind: ModelKind; source: LabelSource } {
  const labels = model.trainedOn?.labels;
  return { kind: model.kind, source: LABEL_SOURCES.includes(labels as LabelSource) ? (labels as LabelSource) : "gold" };
}

export function prepareEvaluation(shipped: ModelJson, log: (line: string) => void): EvaluationCorpus {
  const { pages } = analyseCorpus(log);
  const { kind, source } = shippedProtocol(shipped);
  return { pages, validation: crossValidate(pages, kind, source, log), ruleSets: siteRuleSets(pages, log) };
}

/** Measured scores of the shipped systems, in the floors' shape; a kind's row only where it has KIND_FLOOR_MIN_PAGES pages. */
export function measuredFloors(rows: readonly EvaluationRow[]): FloorValues {
  const out: FloorValues = {};
  for (const { set, system, score, kind } of rows) {
    if (!SHIPPED_SYSTEMS.includes(system)) continue;
    if (kind !== null && score.aggregate.pages < KIND_FLOOR_MIN_PAGES) continue;
    out[set] ??= {};
    out[set][system] = { f1: score.aggregate.f1, tokenF1: score.aggregate.tokenF1 };
  }
  return out;
}
