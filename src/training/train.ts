/**
 * Training procedure: cross-validation grouped by site over every dev set. Each page is scored by the model
 * of its fold, trained without its site, and under decision settings chosen without its fold (on the other
 * folds' out-of-fold pages). The shipped model is fitted on all pages, with the settings that do best on
 * all out-of-fold pages.
 */
import { articleBodyMarks, classifyPage, commentBlocks, commentPlan, fallbackKind, parseModel, recognisePageKind, unreadBlocks, relatedBlocks, scoreBlocks, type ClassifierModel, type ModelJson } from "../classify/index";
import { mergePlans, type NormalisedPlan } from "../plan/index";
import { articleBody, outsideBody } from "../rewrite/index";
import { TRAIN_FOLDS, UNSURE_MARGIN_GRID } from "../config";
import { EVALUATION_ONLY_SETS, goldWithoutHeader, meanCounts, type PageCounts } from "../evaluation/index";
import { collectExamples, labelsOf, type AnalysedPage, type LabelSource } from "./corpus";
import { decisionFields, fitModel, type DecisionSettings, type ExampleSet, type ModelKind } from "./fit";
import { FEATURE_NAMES, mainContentBlock, titleWithoutSiteName } from "../page/index";
import { LABEL_NONE } from "./labels";
import { keptTextNodes, pageScorer, scoreKept, type PageScorer } from "./page-scorer";

/** Candidate decision settings (each list is one setting's grid; calibration tries their product). */
export const THRESHOLD_GRID = [0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5];
export const PENALTY_GRID = [0, 0.0001, 0.0003, 0.001, 0.003];
export const CHARS_PER_UNIT_GRID = [100];
export const KEEP_CHARS_GRID = [0, 200, 500];
export const KEEP_MARGIN_GRID = [0, 0.1];
/**
 * The article guard's share is tuned but never turned off: the pages it saves (those whose article would go)
 * are rare among any fold's calibration pages, so a mean over them sees the guard's small cost and not its
 * worth. Folds whose calibration turned it off lost 0.5 to 1 point out of fold; by set, keeping it on is worth
 * 0.003 (docs/classifier.md).
 */
export const KEEP_PROSE_GRID = [0.25, 0.5];

/** Settings of fold models before calibration (they only score blocks; no decision is taken with them). */
const PROVISIONAL: DecisionSettings = { threshold: 0.5, penaltyScale: 0.003, charsPerUnit: 100, keepChars: 0, keepMargin: 0, mainOnly: 0, keepProse: 0 };

export const MODEL_KINDS: readonly ModelKind[] = ["logistic", "boosted-trees", "ensemble"];

/** A parsed model, throwing on a model the fitter itself produced wrong (a programming error). */
export function compileModel(json: ModelJson): ClassifierModel {
  const parsed = parseModel(json);
  if (!parsed.ok) throw new Error(`fitted model is invalid: ${parsed.problems.join("; ")}`);
  return parsed.model;
}

/** Fold → model JSON fitted on the labelled pages of every other fold (`dropFeatures` held at zero). */
export function foldModels(pages: readonly AnalysedPage[], kind: ModelKind, source: LabelSource, dropFeatures: readonly string[] = []): ModelJson[] {
  const models: ModelJson[] = [];
  for (let fold = 0; fold < TRAIN_FOLDS; fold++) {
    const examples = collectExamples(pages.filter((page) => page.fold !== fold), source);
    for (const name of dropFeatures) zeroColumn(examples, (FEATURE_NAMES as readonly string[]).indexOf(name));
    models.push(fitModel(kind, examples, PROVISIONAL));
  }
  return models;
}

/** Sets one feature to zero in every example: fitted so, the model gives it no weight and no split. */
function zeroColumn(examples: ExampleSet, column: number): void {
  if (column < 0) throw new Error("zeroColumn: unknown feature");
  for (let i = 0; i < examples.count; i++) examples.features[i * examples.width + column] = 0;
}

/** Label agreement of out-of-fold scores: weighted log-loss and accuracy at 0.5 on labelled blocks. */
export function labelMetrics(pages: readonly AnalysedPage[], scores: ReadonlyMap<AnalysedPage, Float32Array>, source: LabelSource): { examples: number; logLoss: number; accuracy: number } {
  let examples = 0;
  let loss = 0;
  let correct = 0;
  for (const page of pages) {
    const labels = labelsOf(page, source);
    const blockScores = scores.get(page);
    if (!labels || !blockScores) continue;
    for (let b = 1; b < labels.length; b++) {
      if (labels[b] === LABEL_NONE) continue;
      const p = Math.min(1 - 1e-6, Math.max(1e-6, blockScores[b]));
      loss -= labels[b] === 1 ? Math.log(p) : Math.log(1 - p);
      if ((p > 0.5 ? 1 : 0) === labels[b]) correct++;
      examples++;
    }
  }
  return { examples, logLoss: loss / Math.max(1, examples), accuracy: correct / Math.max(1, examples) };
}

/** Every combination of the grids, smoothing on; `keepProseGrid` [0] gives the settings without the article guard. */
export function candidateSettings(keepProseGrid: readonly number[] = KEEP_PROSE_GRID): DecisionSettings[] {
  const out: DecisionSettings[] = [];
  for (const threshold of THRESHOLD_GRID) for (const penaltyScale of PENALTY_GRID) for (const charsPerUnit of CHARS_PER_UNIT_GRID) {
    for (const keepChars of KEEP_CHARS_GRID) for (const keepMargin of KEEP_MARGIN_GRID) for (const keepProse of keepProseGrid) {
      out.push({ threshold, penaltyScale, charsPerUnit, keepChars, keepMargin, mainOnly: 0, keepProse });
    }
  }
  return out;
}

/**
 * Candidate → page → normalised shingle counts of the plan those settings give (pages with gold only).
 * Smoothing depends only on the penalty settings, so it runs once per page and penalty setting.
 */
export function calibrationTable(
  pages: readonly AnalysedPage[], scores: ReadonlyMap<AnalysedPage, Float32Array>, models: readonly ClassifierModel[], candidates: readonly DecisionSettings[], rules: DecisionRules,
): PageCounts[][] {
  const scorers = new Map<AnalysedPage, PageScorer>(pages.map((page) => [page, pageScorer(page.model, page.page.gold)]));
  // What ships leaves reader comments out (clean()'s default), so the settings are chosen on that plan.
  const comments = new Map(pages.map((page) => [page, commentBlocks(page.model, page.features)]));
  const commentPlans = new Map(pages.map((page) => [page, commentPlan(comments.get(page)!)]));
  // Related-content sections, like comments, do not depend on the settings: found once per page.
  const related = new Map(pages.map((page) => [page, relatedBlocks(page.model, page.features, mainContentBlock(page.features))]));
  const hidden = new Map(pages.map((page) => [page, rules.hidden ? unreadBlocks(page.model, page.features) : new Uint8Array(page.model.blockCount)]));
  const articleBody = new Map(pages.map((page) => [page, rules.articleEnd ? articleBodyMarks(page.model, hidden.get(page)!) : null]));
  const smoothed = new Map<string, Float32Array[]>(); // penalty settings → page index → smoothed scores
  return candidates.map((settings) => {
    const key = `${settings.penaltyScale}/${settings.charsPerUnit}`;
    const cached = smoothed.get(key) ?? [];
    smoothed.set(key, cached);
    return pages.map((page, index) => {
      const options = { smoothing: true, scores: scores.get(page)!, features: page.features, comments: comments.get(page)!, related: related.get(page)!, hidden: hidden.get(page)!, articleBody: articleBody.get(page)!, ...settings, mainOnly: false, smoothed: cached[index] };
      const result = classifyPage(page.model, models[page.fold], options);
      cached[index] = result.smoothed;
      const plan = mergePlans(page.model, result.plan, commentPlans.get(page)!);
      return scoreKept(scorers.get(page)!, writtenTextNodes(page, plan, keptTextNodes(page.model, plan)));
    });
  });
}

/**
 * Kept text nodes as clean()'s text writes them: on pages whose gold is the article's body (goldWithoutHeader), the
 * text format's default, without the article's header and figures' captions; on the others all the kept text (the
 * textScope "all" they are scored with).
 */
function writtenTextNodes(page: AnalysedPage, plan: NormalisedPlan, kept: Uint8Array): Uint8Array {
  if (!goldWithoutHeader(page.page)) return kept;
  const body = articleBody(page.model, plan, titleWithoutSiteName(page.model, page.page.url === "" ? undefined : page.page.url));
  for (let t = 0; t < page.model.textNodeCount; t++) if (outsideBody(page.model, body, t)) kept[t] = 0;
  return kept;
}

/**
 * Estimates closer than this are a tie: half the last digit the tables print, far inside the noise of the
 * estimate (settings that far apart swap places when one site moves between folds).
 */
export const CALIBRATION_TIE = 0.00005;

/**
 * Index of the candidate with the best F1 over the pages `use` accepts, averaged over the dev sets (each set
 * is a kind of page: news, blogs, portals, pages that are not articles; the web has all of them, so each
 * kind weighs the same however many pages its set has). Of candidates tied with the best (CALIBRATION_TIE),
 * the one whose output is largest: when the pages cannot tell two settings apart, the one that removes less
 * risks less of what a reader came for.
 */
export function bestCandidate(table: readonly PageCounts[][], pages: readonly AnalysedPage[], use: (page: AnalysedPage) => boolean, sets: (set: string) => boolean = TRAINING_SETS): number {
  const f1s = table.map((row) => meanOverSets(row, pages, use, sets));
  const bestF1 = Math.max(...f1s);
  let best = -1;
  let bestOutput = -1;
  table.forEach((row, candidate) => {
    if (f1s[candidate] < bestF1 - CALIBRATION_TIE) return;
    let output = 0; // normalised output shingles, summed over the pages used
    row.forEach((counts, index) => {
      if (use(pages[index])) output += counts.tp + counts.fp;
    });
    if (output > bestOutput) [best, bestOutput] = [candidate, output];
  });
  return best;
}

/** The sets whose pages choose the shared settings: all but EVALUATION_ONLY_SETS, which are scored but no part of the choice. */
const TRAINING_SETS = (set: string): boolean => !EVALUATION_ONLY_SETS.has(set);
/** Every set: the per-kind settings are chosen on the pages of that kind wherever they are (KIND_SETTINGS). */
const EVERY_SET = (): boolean => true;

/** Shingle F1 of each dev set `sets` accepts over the pages `use` accepts (counts[i] belongs to pages[i]), averaged over the sets. */
export function meanOverSets(counts: readonly PageCounts[], pages: readonly AnalysedPage[], use: (page: AnalysedPage) => boolean = () => true, sets: (set: string) => boolean = TRAINING_SETS): number {
  let sum = 0;
  let setCount = 0;
  for (const set of new Set(pages.map((page) => page.page.set))) {
    if (!sets(set)) continue;
    const inSet = counts.filter((_, index) => pages[index].page.set === set && use(pages[index]));
    if (inSet.length === 0) continue;
    sum += meanCounts(inSet).f1;
    setCount++;
  }
  return setCount === 0 ? 0 : sum / setCount;
}

/** The outcome of cross-validating one model kind under one label source. */
export interface CrossValidation {
  readonly kind: ModelKind;
  readonly source: LabelSource;
  /** Fold → its model, carrying the decision settings chosen on the other folds' pages. */
  readonly folds: readonly ClassifierModel[];
  /** Fold → the decision settings its model carries. */
  readonly foldSettings: readonly DecisionSettings[];
  /** Settings that do best on all out-of-fold pages (the shipped model's). */
  readonly settings: DecisionSettings;
  /** Out-of-fold label agreement. */
  readonly labels: { examples: number; logLoss: number; accuracy: number };
  /** Calibration estimate of out-of-fold F1 (fast scorer): the mean over sets, per fold over all pages, per set. */
  readonly estimate: { all: number; perFold: number[]; perSet: Record<string, number> };
}

/** Fold models fitted without each fold, with their out-of-fold block scores (before calibration). */
export interface FittedFolds {
  readonly kind: ModelKind;
  readonly source: LabelSource;
  readonly jsons: readonly ModelJson[];
  readonly models: readonly ClassifierModel[];
  readonly scores: ReadonlyMap<AnalysedPage, Float32Array>;
}

/** Fits the fold models; `dropFeatures` are held at zero in training (an ablation: the model cannot use them). */
export function fitFolds(pages: readonly AnalysedPage[], kind: ModelKind, source: LabelSource, log: (line: string) => void, dropFeatures: readonly string[] = []): FittedFolds {
  const started = performance.now();
  const jsons = foldModels(pages, kind, source, dropFeatures);
  const models = jsons.map(compileModel);
  const scores = new Map(pages.map((page) => [page, scoreBlocks(page.features, models[page.fold])]));
  log(`${kind}/${source}: ${TRAIN_FOLDS} fold models fitted in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { kind, source, jsons, models, scores };
}

/**
 * The decision rules that read the page's markup rather than the model's scores, each on unless turned off for an
 * ablation (`npm run train -- --ablation`): hidden elements and consent banners go (unreadBlocks), and so do the blocks after the article's
 * end that its schema.org articleBody marks (articleBodyMarks).
 */
export interface DecisionRules {
  readonly hidden: boolean;
  readonly articleEnd: boolean;
}
export const ALL_DECISION_RULES: DecisionRules = { hidden: true, articleEnd: true };

/** Chooses each fold's decision settings on the other folds' pages (see the module note), then each KIND_SETTINGS entry per page kind. */
export function calibrateFolds(
  pages: readonly AnalysedPage[], fitted: FittedFolds, log: (line: string) => void, candidates: readonly DecisionSettings[] = candidateSettings(), rules: DecisionRules = ALL_DECISION_RULES,
  kindSettings: readonly KindSetting[] = KIND_SETTINGS,
): CrossValidation {
  const started = performance.now();
  const { kind, source, scores, models } = fitted;
  const withGold = pages.filter((page) => page.page.gold !== "");
  const table = calibrationTable(withGold, scores, models, candidates, rules);
  let foldSettings = Array.from({ length: TRAIN_FOLDS }, (_, fold) => candidates[bestCandidate(table, withGold, (page) => page.fold !== fold)]);
  let settings = candidates[bestCandidate(table, withGold, () => true)];
  let chosen = withGold.map((page, index) => table[candidates.indexOf(foldSettings[page.fold])][index]);
  if (kindSettings.length > 0) {
    ({ foldSettings, settings } = calibrateKindSettings(withGold, fitted, { foldSettings, settings }, kindSettings, rules, log));
    chosen = chosenCounts(withGold, fitted, foldSettings, rules);
  }
  const perFold = Array.from({ length: TRAIN_FOLDS }, (_, fold) => meanCounts(chosen.filter((_, index) => withGold[index].fold === fold)).f1);
  const perSet: Record<string, number> = {};
  for (const set of new Set(withGold.map((page) => page.page.set))) perSet[set] = meanCounts(chosen.filter((_, index) => withGold[index].page.set === set)).f1;
  log(`${kind}/${source}: ${candidates.length} settings calibrated in ${((performance.now() - started) / 1000).toFixed(1)} s; per fold ${foldSettings.map(describeSettings).join(" | ")}; on all pages (the shipped model's) ${describeSettings(settings)}`);
  return {
    kind, source, settings, foldSettings,
    folds: fitted.jsons.map((json, fold) => compileModel(withSettings(json, foldSettings[fold]))),
    labels: labelMetrics(pages, scores, source),
    estimate: { all: meanOverSets(chosen, withGold), perFold, perSet },
  };
}

/** Each page's counts under its own fold's settings. */
function chosenCounts(pages: readonly AnalysedPage[], fitted: FittedFolds, foldSettings: readonly DecisionSettings[], rules: DecisionRules): PageCounts[] {
  const table = calibrationTable(pages, fitted.scores, fitted.models, foldSettings, rules);
  return pages.map((page, index) => table[page.fold][index]);
}

/**
 * A decision setting chosen per page kind, inside the folds: the hook for settings that should differ by what a page
 * is (issue 43: keep more where a page is not an article and the classifier is unsure). The kind is the one clean()
 * itself recognises on the page (`kindOf`), not a data set's label, so the value chosen for a kind holds for every
 * page clean() gives that kind, on every set. Register one in KIND_SETTINGS: `npm run train` and `npm run eval` then
 * calibrate it (calibrateKindSettings) after the shared settings, and fitShipped writes the shipped values.
 */
export interface KindSetting {
  /** For progress lines. */
  readonly name: string;
  /** Candidate values, each tried on a kind's pages; the first leaves them as they are without the setting. */
  readonly values: readonly number[];
  /** The kind clean() gives the page; pages of kind null take no part in the choice. */
  readonly kindOf: (page: AnalysedPage) => string | null;
  /**
   * The settings with this setting at `value` for pages of `kind` (DecisionSettings carries the value, decisionFields
   * writes it into the model, and classifyPage reads it; apply must leave the pages of other kinds as they were).
   */
  readonly apply: (settings: DecisionSettings, kind: string, value: number) => DecisionSettings;
}

/**
 * The registered per-kind settings: the fall-back's unsure margin (classify/decide.ts fallbackKind), for each kind a page
 * falls back as. Chosen on every set with such pages, wceb2026 among them (the only one with many pages that are not
 * articles), each set weighing the same: a margin that lifts the modern pages and costs the older sets' unknown pages
 * that fall back is not chosen.
 */
export const KIND_SETTINGS: readonly KindSetting[] = [{
  name: "unsure margin",
  values: UNSURE_MARGIN_GRID,
  kindOf: (page) => fallbackKind(page.model, recognisePageKind(page.model).kind, page.features),
  apply: (settings, kind, value) => ({ ...settings, unsureMargins: { ...settings.unsureMargins, [kind]: value } }),
}];

/**
 * For each setting, each kind and each fold: the value whose plans do best (bestCandidate: F1 averaged over sets, ties
 * to the larger output) on the other folds' pages of that kind, under that fold's settings, among the values that leave
 * no set's pages of that kind worse than the first value does (harmless): a setting stays only where no set gets worse.
 * The shipped value is chosen so on all pages of the kind under the shipped settings.
 */
export function calibrateKindSettings(
  pages: readonly AnalysedPage[], fitted: FittedFolds, start: { foldSettings: readonly DecisionSettings[]; settings: DecisionSettings }, kindSettings: readonly KindSetting[], rules: DecisionRules,
  log: (line: string) => void,
): { foldSettings: DecisionSettings[]; settings: DecisionSettings } {
  const foldSettings = [...start.foldSettings];
  let settings = start.settings;
  for (const setting of kindSettings) {
    const kinds = new Map<string, AnalysedPage[]>();
    for (const page of pages) {
      const kind = setting.kindOf(page);
      if (kind === null) continue;
      const list = kinds.get(kind);
      if (list) list.push(page);
      else kinds.set(kind, [page]);
    }
    for (const [kind, kindPages] of kinds) {
      const choose = (base: DecisionSettings, use: (page: AnalysedPage) => boolean): { value: number; settings: DecisionSettings } => {
        const candidates = setting.values.map((value) => setting.apply(base, kind, value));
        const table = calibrationTable(kindPages, fitted.scores, fitted.models, candidates, rules);
        const allowed = harmless(table, kindPages, use);
        const best = allowed[bestCandidate(allowed.map((candidate) => table[candidate]), kindPages, use, EVERY_SET)];
        return { value: setting.values[best], settings: candidates[best] };
      };
      const perFold = foldSettings.map((base, fold) => choose(base, (page) => page.fold !== fold));
      perFold.forEach((choice, fold) => (foldSettings[fold] = choice.settings));
      const shipped = choose(settings, () => true);
      settings = shipped.settings;
      log(`${setting.name} for ${kind} (${kindPages.length} pages): per fold ${perFold.map((choice) => choice.value).join(" | ")}; shipped ${shipped.value}`);
    }
  }
  return { foldSettings, settings };
}

/**
 * The candidates (indices into `table`) under which no set's pages that `use` accepts score an F1 below the first
 * candidate's (beyond CALIBRATION_TIE); the first is always among them.
 */
export function harmless(table: readonly PageCounts[][], pages: readonly AnalysedPage[], use: (page: AnalysedPage) => boolean): number[] {
  const sets = [...new Set(pages.filter(use).map((page) => page.page.set))];
  const f1 = (row: readonly PageCounts[], set: string): number => meanCounts(row.filter((_, index) => pages[index].page.set === set && use(pages[index]))).f1;
  const first = sets.map((set) => f1(table[0], set));
  return table.flatMap((row, candidate) => (sets.every((set, s) => f1(row, set) >= first[s] - CALIBRATION_TIE) ? [candidate] : []));
}

/** Cross-validates one model kind under one label source: fold models, then settings chosen inside the folds. */
export function crossValidate(pages: readonly AnalysedPage[], kind: ModelKind, source: LabelSource, log: (line: string) => void): CrossValidation {
  return calibrateFolds(pages, fitFolds(pages, kind, source, log), log);
}

/** Settings in a few words, for progress lines. */
export function describeSettings(settings: DecisionSettings): string {
  return `threshold ${settings.threshold}, penalty ${settings.penaltyScale}, keep chars ${settings.keepChars}, margin ${settings.keepMargin}, prose ${settings.keepProse}`;
}

/** A model JSON with other decision settings. */
export function withSettings(json: ModelJson, settings: DecisionSettings): ModelJson {
  return { ...json, ...decisionFields(settings) };
}

/** The model that scores a page out of fold. */
export function modelFor(page: AnalysedPage, folds: readonly ClassifierModel[]): ClassifierModel {
  return folds[page.fold];
}

/** The shipped model: fitted on every labelled page, with the cross-validation's settings and a record of how. */
export function fitShipped(pages: readonly AnalysedPage[], validation: CrossValidation): ModelJson {
  const examples = collectExamples(pages, validation.source);
  const fitted = fitModel(validation.kind, examples, validation.settings);
  // The pages the model learns from: those with labels (an evaluation-only set's pages have none).
  const trained = pages.filter((page) => labelsOf(page, validation.source) !== null);
  return {
    ...fitted,
    trainedOn: {
      sets: [...new Set(trained.map((page) => page.page.set))],
      labels: validation.source,
      sites: new Set(trained.map((page) => `${page.page.set}/${page.page.site}`)).size,
      pages: trained.length,
      examples: examples.count,
      templateExamples: examples.labels.reduce((sum, label) => sum + label, 0),
      folds: TRAIN_FOLDS,
      calibratedOn: "all dev pages with gold, out of fold",
      outOfFoldF1: Number(validation.estimate.all.toFixed(4)),
    },
  };
}


