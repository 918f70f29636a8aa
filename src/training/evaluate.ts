/**
 * Page-level evaluation of what ships: every dev page goes through clean() itself (the Worker's pipeline,
 * its fallbacks included: a bailout passes the page through, so its whole text is scored), with the model
 * of the page's cross-validation fold (never trained on the page's site) carrying decision settings chosen
 * without that fold. Pages of sites with 8+ pages are also cleaned with rules mined on the other half of
 * their site's pages, in the Worker's default mode.
 */
import { clean, type CleanMode } from "../clean";
import type { ClassifierModel, ModelJson } from "../classify/index";
import { aggregateScores, GOLD_WITHOUT_HEADER, scoreText, type AggregateScore, type FloorValues, type PageScore } from "../evaluation/index";
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
  const textScope = GOLD_WITHOUT_HEADER.has(page.page.set) ? "body" : "all";
  const result = await clean({ html: page.page.html, url: page.page.url, site: page.page.site, format: "text", ruleSet, model, rewriter, options: { mode, textScope } });
  return result.ok ? result.body : page.model.text;
}

/** One system's scores over pages: the aggregate, pages below LOST_PAGE_F1, and F1 per fold. */
export interface SystemScore {
  readonly aggregate: AggregateScore;
  readonly lostPages: number;
  /** Shingle F1 per fold, NaN for a fold with none of the pages. */
  readonly perFold: readonly number[];
  readonly perPage: readonly PageScore[];
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
  return { aggregate: aggregateScores(perPage), lostPages: perPage.filter((score) => pageF1(score) < LOST_PAGE_F1).length, perFold, perPage };
}

/** One row of the evaluation: a system's scores on a set (or on its pages of sites with rules, "set[8+ page sites]"). */
export interface EvaluationRow {
  readonly set: string;
  readonly system: string;
  readonly score: SystemScore;
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

/**
 * Scores clean() on every dev page with gold, out of fold, per set: the classifier alone, and on pages of
 * sites with 8+ pages the rules alone and the default mode (rules plus classifier); beside them the
 * uncleaned text and the reference system.
 */
export async function evaluateShipped(pages: readonly AnalysedPage[], folds: readonly ClassifierModel[], ruleSets: ReadonlyMap<AnalysedPage, CompiledRuleSet>, options: EvaluationOptions): Promise<EvaluationRow[]> {
  const rows: EvaluationRow[] = [];
  const sets = [...new Set(pages.map((page) => page.page.set))];
  for (const set of sets) {
    const started = performance.now();
    const setPages = pages.filter((page) => page.page.set === set && page.page.gold !== "");
    const systems = async (subset: readonly AnalysedPage[], label: string, withRules: boolean): Promise<void> => {
      const add = async (system: string, text: (page: AnalysedPage) => Promise<string> | string): Promise<void> => {
        const outputs: string[] = [];
        for (const page of subset) outputs.push(await text(page));
        rows.push({ set: label, system, score: scoreOutputs(subset, outputs) });
      };
      await add(SYSTEM_UNCLEANED, (page) => page.model.text);
      await add(SYSTEM_CLASSIFIER, (page) => shippedText(page, folds[page.fold], null, "classifier", options.rewriter));
      if (withRules) {
        await add(SYSTEM_RULES, (page) => shippedText(page, null, ruleSets.get(page)!, "rules", options.rewriter));
        await add(SYSTEM_DEFAULT, (page) => shippedText(page, folds[page.fold], ruleSets.get(page)!, "auto", options.rewriter));
      }
      if (options.reference) await add(options.reference.name, options.reference.text);
    };
    await systems(setPages, set, false);
    const ruled = setPages.filter((page) => ruleSets.has(page));
    if (ruled.length > 0) await systems(ruled, ruledLabel(set), true);
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

/** Measured scores of the shipped systems, in the floors' shape. */
export function measuredFloors(rows: readonly EvaluationRow[]): FloorValues {
  const out: FloorValues = {};
  for (const { set, system, score } of rows) {
    if (!SHIPPED_SYSTEMS.includes(system)) continue;
    out[set] ??= {};
    out[set][system] = { f1: score.aggregate.f1, tokenF1: score.aggregate.tokenF1 };
  }
  return out;
}
