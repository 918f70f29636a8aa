/**
 * Training procedure: cross-validation by site (a site's pages are scored only by a model that never saw
 * that site), calibration of the decision settings on out-of-fold pages, and the final fit.
 */
import { classifyPage, parseModel, scoreBlocks, type ClassifierModel, type ModelJson } from "../classify/index";
import { aggregateScores, scoreText, type AggregateScore } from "../evaluation/index";
import { TRAIN_FOLDS } from "../config";
import { collectExamples, keptText, type AnalysedPage } from "./corpus";
import { fitModel, type DecisionSettings, type ModelKind } from "./fit";
import { LABEL_NONE } from "./labels";

/** Candidate decision settings tried in calibration (threshold, penalty constant, characters per weight unit). */
export const THRESHOLD_GRID = [0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];
export const PENALTY_GRID = [0, 0.0003, 0.001, 0.003, 0.01, 0.03];
export const CHARS_PER_UNIT_GRID = [10, 100, 1000];
export const KEEP_CHARS_GRID = [0, 100, 200, 500, 1000];
export const KEEP_MARGIN_GRID = [0, 0.05, 0.1, 0.2];

const PROVISIONAL: DecisionSettings = { threshold: 0.5, penaltyScale: 0.003, charsPerUnit: 100, keepChars: 0, keepMargin: 0, mainOnly: 0 };

/** A parsed model, throwing on a model the fitter itself produced wrong (a programming error). */
export function compileModel(json: ModelJson): ClassifierModel {
  const parsed = parseModel(json);
  if (!parsed.ok) throw new Error(`fitted model is invalid: ${parsed.problems.join("; ")}`);
  return parsed.model;
}

/** Fold models: fold → model trained on the training pages of every other fold. */
export function foldModels(pages: readonly AnalysedPage[], kind: ModelKind, settings: DecisionSettings = PROVISIONAL): ClassifierModel[] {
  const models: ClassifierModel[] = [];
  for (let fold = 0; fold < TRAIN_FOLDS; fold++) {
    const training = pages.filter((page) => page.labels !== null && page.fold !== fold);
    models.push(compileModel(fitModel(kind, collectExamples(training), settings)));
  }
  return models;
}

/** The model that may score a page: its fold's model for training sites, else the model of all sites. */
export function modelFor(page: AnalysedPage, folds: readonly ClassifierModel[], full: ClassifierModel): ClassifierModel {
  return page.fold >= 0 ? folds[page.fold] : full;
}

/** Label agreement of out-of-fold scores: weighted log-loss and accuracy at 0.5 on labelled blocks. */
export function labelMetrics(pages: readonly AnalysedPage[], folds: readonly ClassifierModel[]): { examples: number; logLoss: number; accuracy: number } {
  let examples = 0;
  let loss = 0;
  let correct = 0;
  for (const page of pages) {
    if (!page.labels || page.fold < 0) continue;
    const scores = scoreBlocks(page.features, folds[page.fold]);
    for (let b = 1; b < page.labels.length; b++) {
      if (page.labels[b] === LABEL_NONE) continue;
      const p = Math.min(1 - 1e-6, Math.max(1e-6, scores[b]));
      loss -= page.labels[b] === 1 ? Math.log(p) : Math.log(1 - p);
      if ((p > 0.5 ? 1 : 0) === page.labels[b]) correct++;
      examples++;
    }
  }
  return { examples, logLoss: loss / Math.max(1, examples), accuracy: correct / Math.max(1, examples) };
}

/** Score of the classifier on pages with gold, each page scored by `pick`'s model. */
export function classifierScore(pages: readonly AnalysedPage[], pick: (page: AnalysedPage) => ClassifierModel, settings: DecisionSettings, smoothing: boolean, cache?: Map<AnalysedPage, Float32Array>): AggregateScore {
  const scores = pages.map((page) => {
    const model = pick(page);
    let blockScores = cache?.get(page);
    if (!blockScores) {
      blockScores = scoreBlocks(page.features, model);
      cache?.set(page, blockScores);
    }
    const { plan } = classifyPage(page.model, model, { smoothing, scores: blockScores, features: page.features, ...settings, mainOnly: settings.mainOnly === 1 });
    return scoreText(keptText(page.model, plan), page.page.gold);
  });
  return aggregateScores(scores);
}

/** Candidate values of each decision setting. */
const GRIDS: { readonly [K in keyof DecisionSettings]: readonly number[] } = {
  threshold: THRESHOLD_GRID,
  penaltyScale: PENALTY_GRID,
  charsPerUnit: CHARS_PER_UNIT_GRID,
  keepChars: KEEP_CHARS_GRID,
  keepMargin: KEEP_MARGIN_GRID,
  // mainOnly is not searched: calibrated on article pages it wins (dragnet 0.873 → 0.882, cleanportaleval
  // 0.938 → 0.945 smoothed F1) but it empties non-article pages (cleaneval-dev 0.837 → 0.805, recall
  // 0.79 → 0.72) and leaves smoothing no better than per-block scores; a template remover keeps it off.
  mainOnly: [0],
};

/** Rounds of coordinate search over the settings (each round tries every value of every setting). */
const CALIBRATION_ROUNDS = 2;

/**
 * Coordinate search of the decision settings on out-of-fold pages (one setting at a time over its grid,
 * the others fixed, CALIBRATION_ROUNDS rounds); returns the best for each mode.
 */
export function calibrate(pages: readonly AnalysedPage[], folds: readonly ClassifierModel[]): { smoothed: { settings: DecisionSettings; score: AggregateScore }; raw: { settings: DecisionSettings; score: AggregateScore } } {
  const held = pages.filter((page) => page.fold >= 0 && page.page.gold !== "");
  const pick = (page: AnalysedPage): ClassifierModel => folds[page.fold];
  const cache = new Map<AnalysedPage, Float32Array>();
  const search = (smoothing: boolean, keys: readonly (keyof DecisionSettings)[]): { settings: DecisionSettings; score: AggregateScore } => {
    let best = { settings: PROVISIONAL, score: classifierScore(held, pick, PROVISIONAL, smoothing, cache) };
    for (let round = 0; round < CALIBRATION_ROUNDS; round++) {
      for (const key of keys) {
        for (const value of GRIDS[key]) {
          if (value === best.settings[key]) continue;
          const settings = { ...best.settings, [key]: value };
          const score = classifierScore(held, pick, settings, smoothing, cache);
          if (score.f1 > best.score.f1) best = { settings, score };
        }
      }
    }
    return best;
  };
  return { raw: search(false, ["threshold", "keepChars", "keepMargin", "mainOnly"]), smoothed: search(true, ["threshold", "penaltyScale", "charsPerUnit", "keepChars", "keepMargin", "mainOnly"]) };
}

/** One model kind's cross-validated result. */
export interface CandidateResult {
  readonly kind: ModelKind;
  readonly labels: { examples: number; logLoss: number; accuracy: number };
  readonly raw: { settings: DecisionSettings; score: AggregateScore };
  readonly smoothed: { settings: DecisionSettings; score: AggregateScore };
}

export const MODEL_KINDS: readonly ModelKind[] = ["logistic", "boosted-trees", "ensemble"];

/** Set whose training-site pages calibrate the decision settings (the other sets stay evaluation-only). */
export const CALIBRATION_SET = "dragnet";

/**
 * Cross-validates every model kind, calibrates each on out-of-fold dragnet pages, picks the kind with the
 * best smoothed shingle F1 there, and fits it on all training sites.
 */
export function trainAndSelect(pages: readonly AnalysedPage[], log: (line: string) => void): { model: ModelJson; candidates: CandidateResult[]; reason: string } {
  const candidates: CandidateResult[] = [];
  const calibrationPages = pages.filter((page) => page.page.set === CALIBRATION_SET);
  for (const kind of MODEL_KINDS) {
    const started = performance.now();
    const folds = foldModels(pages, kind);
    const labels = labelMetrics(pages, folds);
    const { raw, smoothed } = calibrate(calibrationPages, folds);
    candidates.push({ kind, labels, raw, smoothed });
    log(`${kind}: cross-validated and calibrated in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  const best = candidates.reduce((a, b) => (b.smoothed.score.f1 > a.smoothed.score.f1 ? b : a));
  const other = candidates.filter((candidate) => candidate !== best).map((c) => `${c.kind} ${c.smoothed.score.f1.toFixed(4)}`).join(", ");
  const reason = `best smoothed shingle F1 on out-of-fold dragnet training-site pages: ${best.smoothed.score.f1.toFixed(4)} against ${other}`;
  const examples = collectExamples(pages);
  const fitted = fitModel(best.kind, examples, best.smoothed.settings);
  const sites = new Set(pages.filter((page) => page.labels).map((page) => `${page.page.set}/${page.page.site}`));
  const model: ModelJson = {
    ...fitted,
    rawDecision: {
      threshold: best.raw.settings.threshold,
      keepChars: best.raw.settings.keepChars,
      keepMargin: best.raw.settings.keepMargin,
      mainOnly: best.raw.settings.mainOnly === 1,
    },
    trainedOn: {
      sets: [...new Set(pages.map((page) => page.page.set))],
      sites: sites.size,
      pages: pages.filter((page) => page.labels).length,
      examples: examples.count,
      templateExamples: examples.labels.reduce((sum, label) => sum + label, 0),
      folds: TRAIN_FOLDS,
      calibratedOn: `${CALIBRATION_SET} training-site pages, out-of-fold`,
    },
  };
  return { model, candidates, reason };
}
