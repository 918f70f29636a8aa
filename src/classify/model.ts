/**
 * The classifier model (rules/model.json): feature names, their normalisation, a logistic regression or
 * small boosted trees, the removal threshold and the smoothing settings. Versioned and validated.
 */
import * as v from "valibot";
import { validationProblems } from "../validation";
import { FEATURE_NAMES, type FeatureMatrix } from "../page/index";

export const MODEL_VERSION = 1;

const finite = v.pipe(v.number(), v.finite());
const nodeIndex = v.pipe(v.number(), v.integer(), v.minValue(-1));
const nonNegative = v.pipe(v.number(), v.minValue(0));

const treeSchema = v.object({
  /** Node index → feature column (in the model's feature list) tested, -1 for a leaf. */
  feature: v.array(nodeIndex),
  /** Node index → split value: normalised feature <= threshold goes left. */
  threshold: v.array(finite),
  left: v.array(nodeIndex),
  right: v.array(nodeIndex),
  /** Node index → leaf value (log-odds contribution); ignored for inner nodes. */
  value: v.array(finite),
});

const modelSchema = v.object({
  version: v.literal(MODEL_VERSION),
  /** "ensemble": the mean of the logistic and the boosted trees' log-odds. */
  kind: v.picklist(["logistic", "boosted-trees", "ensemble"]),
  features: v.pipe(v.array(v.string()), v.minLength(1)),
  normalisation: v.object({ mean: v.array(finite), scale: v.array(finite) }),
  logistic: v.optional(v.object({ weights: v.array(finite), bias: finite })),
  boosted: v.optional(v.object({ base: finite, learningRate: finite, trees: v.array(treeSchema) })),
  /** Smoothed template score above which a block is removed. */
  threshold: finite,
  /** The decision settings used when smoothing is off (calibrated apart); the top-level ones otherwise. */
  rawDecision: v.optional(v.object({ threshold: finite, keepChars: v.pipe(v.number(), v.integer(), v.minValue(0)), keepMargin: nonNegative, mainOnly: v.boolean() })),
  /** The least template-like block with at least this many characters is always kept (0: off). */
  keepChars: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  /** Blocks scoring at most this much above that block are kept too. */
  keepMargin: v.optional(nonNegative),
  /** Outside the main-content block and its ancestors, the base threshold applies (see classify/decide.ts). */
  mainOnly: v.optional(v.boolean()),
  /** The guard against losing the article: the threshold rises until at least this share of the page's prose is kept (0: off). */
  keepProse: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(1))),
  smoothing: v.object({
    /** Penalty constant c of gamma_i = c * (page chars + 1) / (block chars + 1) (paper 003 sec. 5.3, text for area). */
    penaltyScale: nonNegative,
    /** Weight of a block's L1 term: 1 + own characters / charsPerUnit. */
    charsPerUnit: v.pipe(v.number(), v.gtValue(0)),
  }),
  trainedOn: v.optional(v.record(v.string(), v.unknown())),
});

export type ModelJson = v.InferOutput<typeof modelSchema>;
export type TreeJson = v.InferOutput<typeof treeSchema>;

/** A validated model, with its feature columns resolved against this build's feature list. */
export interface ClassifierModel {
  readonly json: ModelJson;
  /** Model feature index → column in the feature matrix. */
  readonly columns: Int32Array;
  /** The boosted trees flattened for scoring (empty for a logistic model). */
  readonly forest: Forest;
}

/**
 * All trees in flat typed arrays, node index global: tree t's root is at roots[t]; for node n, feature[n]
 * is the model feature tested (-1 for a leaf), threshold[n] the split, left/right[n] the children and
 * value[n] the leaf value times the learning rate.
 */
interface Forest {
  readonly roots: Int32Array;
  readonly feature: Int32Array;
  readonly threshold: Float64Array;
  readonly left: Int32Array;
  readonly right: Int32Array;
  readonly value: Float64Array;
}

function flattenTrees(json: ModelJson): Forest {
  const trees = json.boosted?.trees ?? [];
  const size = trees.reduce((sum, tree) => sum + tree.feature.length, 0);
  const forest = {
    roots: new Int32Array(trees.length), feature: new Int32Array(size), threshold: new Float64Array(size),
    left: new Int32Array(size), right: new Int32Array(size), value: new Float64Array(size),
  };
  let offset = 0;
  trees.forEach((tree, index) => {
    forest.roots[index] = offset;
    for (let node = 0; node < tree.feature.length; node++) {
      forest.feature[offset + node] = tree.feature[node];
      forest.threshold[offset + node] = tree.threshold[node];
      forest.left[offset + node] = offset + tree.left[node];
      forest.right[offset + node] = offset + tree.right[node];
      forest.value[offset + node] = (json.boosted?.learningRate ?? 0) * tree.value[node];
    }
    offset += tree.feature.length;
  });
  return forest;
}

export type ParseModelResult = { ok: true; model: ClassifierModel } | { ok: false; problems: string[] };

/** Validates a model value (from JSON); reports every problem rather than throwing. */
export function parseModel(value: unknown): ParseModelResult {
  const parsed = v.safeParse(modelSchema, value);
  if (!parsed.success) return { ok: false, problems: validationProblems(parsed.issues) };
  const json = parsed.output;
  const problems: string[] = [];
  const width = json.features.length;
  const columns = new Int32Array(width);
  json.features.forEach((name, index) => {
    columns[index] = (FEATURE_NAMES as readonly string[]).indexOf(name);
    if (columns[index] < 0) problems.push(`features.${index}: unknown feature "${name}"`);
  });
  if (json.normalisation.mean.length !== width || json.normalisation.scale.length !== width) problems.push("normalisation: one mean and scale per feature");
  if (json.normalisation.scale.some((scale) => scale <= 0)) problems.push("normalisation.scale: must be positive");
  if (json.kind !== "boosted-trees" && json.logistic?.weights.length !== width) problems.push("logistic.weights: one weight per feature");
  if (json.kind !== "logistic") problems.push(...treeProblems(json, width));
  return problems.length > 0 ? { ok: false, problems } : { ok: true, model: { json, columns, forest: flattenTrees(json) } };
}

function treeProblems(json: ModelJson, width: number): string[] {
  if (!json.boosted) return ["boosted: missing"];
  const problems: string[] = [];
  json.boosted.trees.forEach((tree, index) => {
    const size = tree.feature.length;
    if ([tree.threshold, tree.left, tree.right, tree.value].some((list) => list.length !== size)) problems.push(`boosted.trees.${index}: arrays differ in length`);
    for (let node = 0; node < size; node++) {
      if (tree.feature[node] < 0) continue;
      // Children point forward only, so evaluation always ends.
      const childrenOk = tree.left[node] > node && tree.right[node] > node && tree.left[node] < size && tree.right[node] < size;
      if (tree.feature[node] >= width || !childrenOk) problems.push(`boosted.trees.${index}.${node}: bad feature or child`);
    }
  });
  return problems;
}

/** Block ordinal → template probability in [0, 1]. */
export function scoreBlocks(features: FeatureMatrix, model: ClassifierModel): Float32Array {
  const { json, columns } = model;
  const width = columns.length;
  // Hoisted into typed arrays: this loop runs for every block of every page the Worker cleans.
  const mean = Float64Array.from(json.normalisation.mean);
  const scale = Float64Array.from(json.normalisation.scale);
  const weights = json.logistic ? Float64Array.from(json.logistic.weights) : null;
  const bias = json.logistic?.bias ?? 0;
  const normalised = new Float64Array(width);
  const scores = new Float32Array(features.blockCount);
  const { data, featureCount } = features;
  for (let b = 0; b < features.blockCount; b++) {
    const row = b * featureCount;
    for (let f = 0; f < width; f++) normalised[f] = (data[row + columns[f]] - mean[f]) / scale[f];
    const logOdds =
      json.kind === "logistic" ? logisticLogOdds(weights!, bias, normalised)
      : json.kind === "boosted-trees" ? boostedLogOdds(json, model.forest, normalised)
      : (logisticLogOdds(weights!, bias, normalised) + boostedLogOdds(json, model.forest, normalised)) / 2;
    scores[b] = 1 / (1 + Math.exp(-logOdds));
  }
  return scores;
}

function logisticLogOdds(weights: Float64Array, bias: number, normalised: Float64Array): number {
  let sum = bias;
  for (let f = 0; f < weights.length; f++) sum += weights[f] * normalised[f];
  return sum;
}

function boostedLogOdds(json: ModelJson, forest: Forest, normalised: Float64Array): number {
  const { roots, feature, threshold, left, right, value } = forest;
  let sum = json.boosted!.base;
  for (let t = 0; t < roots.length; t++) {
    let node = roots[t];
    while (feature[node] >= 0) node = normalised[feature[node]] <= threshold[node] ? left[node] : right[node];
    sum += value[node];
  }
  return sum;
}
