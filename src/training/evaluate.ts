/**
 * Page-level evaluation of the classifier on the dev sets, with training and evaluation pages apart:
 * a page of a training site (dragnet sites with 8+ pages, cleanportaleval sites) is scored by the model
 * of its cross-validation fold, trained without that site; every other page (dragnet's other sites, all
 * of cleaneval-dev) by the shipped model, which was trained on the training sites only.
 */
import { classifyPage, type ClassifierModel } from "../classify/index";
import { aggregateScores, DATA_SETS, scoreText, type AggregateScore, type PageScore } from "../evaluation/index";
import type { RemovalPlan } from "../page/index";
import { analyseSet, keptText, type AnalysedPage } from "./corpus";
import type { ModelKind } from "./fit";
import { foldModels, modelFor } from "./train";

/** The analysed dev sets, with fold models for the pages of training sites. */
export interface EvaluationCorpus {
  readonly sets: readonly { readonly set: string; readonly pages: readonly AnalysedPage[] }[];
  readonly folds: readonly ClassifierModel[];
  readonly shipped: ClassifierModel;
}

/** Analyses every dev set and trains the fold models with the shipped model's kind and settings. */
export function prepareEvaluation(shipped: ClassifierModel, log: (line: string) => void): EvaluationCorpus {
  const sets = DATA_SETS.map((set) => {
    const started = performance.now();
    const { pages, problems } = analyseSet(set);
    for (const problem of problems) log(`${set}: ${problem}`);
    log(`${set}: ${pages.length} pages analysed in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return { set, pages: pages.filter((page) => page.page.gold !== "") };
  });
  const started = performance.now();
  const json = shipped.json;
  const settings = { threshold: json.threshold, penaltyScale: json.smoothing.penaltyScale, charsPerUnit: json.smoothing.charsPerUnit, keepChars: json.keepChars ?? 0, keepMargin: json.keepMargin ?? 0, mainOnly: json.mainOnly ? 1 : 0 };
  const folds = foldModels(sets.flatMap((entry) => entry.pages), json.kind as ModelKind, settings);
  log(`fold models trained in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { sets, folds, shipped };
}

/** The classifier's plan for a page under evaluation (its fold's model, or the shipped one). */
export function evaluationPlan(corpus: EvaluationCorpus, page: AnalysedPage, smoothing: boolean): RemovalPlan {
  const model = modelFor(page, corpus.folds, corpus.shipped);
  // Fold models carry provisional decision settings; the shipped model's calibrated ones apply to all.
  const json = corpus.shipped.json;
  const decision = smoothing ? json : json.rawDecision ?? json;
  return classifyPage(page.model, model, {
    smoothing,
    features: page.features,
    threshold: decision.threshold,
    penaltyScale: json.smoothing.penaltyScale,
    charsPerUnit: json.smoothing.charsPerUnit,
    keepChars: decision.keepChars ?? 0,
    keepMargin: decision.keepMargin ?? 0,
    mainOnly: decision.mainOnly ?? false,
  }).plan;
}

/** Scores of one system over pages: `output` gives the text a system keeps for a page. */
export function scoreSystem(pages: readonly AnalysedPage[], output: (page: AnalysedPage) => string): { aggregate: AggregateScore; perPage: PageScore[] } {
  const perPage = pages.map((page) => scoreText(output(page), page.page.gold));
  return { aggregate: aggregateScores(perPage), perPage };
}

/** Classifier scores per set, without and with smoothing (what the eval gate re-computes). */
export function classifierScores(corpus: EvaluationCorpus): Record<string, { raw: AggregateScore; smoothed: AggregateScore }> {
  const result: Record<string, { raw: AggregateScore; smoothed: AggregateScore }> = {};
  for (const { set, pages } of corpus.sets) {
    result[set] = {
      raw: scoreSystem(pages, (page) => keptText(page.model, evaluationPlan(corpus, page, false))).aggregate,
      smoothed: scoreSystem(pages, (page) => keptText(page.model, evaluationPlan(corpus, page, true))).aggregate,
    };
  }
  return result;
}
