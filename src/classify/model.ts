/**
 * The classifier model (rules/model.json): feature names, their normalisation, a logistic regression or
 * small boosted trees, the removal threshold and the smoothing settings. Versioned and validated.
 */
import * as v from "valibot";
import { validationProblems } from "../validation";
import { FEATURE_NAMES, type FeatureMatrix } from "../page/index";

/** 2: trees in heap order (1 had child links). */
export const MODEL_VERSION = 2;

const finite = v.pipe(v.number(), v.finite());
const nonNegative = v.pipe(v.number(), v.minValue(0));

/**
 * One tree in heap order: node n's children are 2n+1 (feature value <= split) and 2n+2. Stored this way,
 * a tree of depth 3 is two arrays of 15 numbers, with no child links to write.
 */
const treeSchema = v.object({
  /** Node → feature column (in the model's feature list) tested, -1 for a leaf. */
  feature: v.array(v.pipe(v.number(), v.integer(), v.minValue(-1))),
  /** Node → its split threshold (an inner node: normalised feature <= value goes left), or its log-odds (a leaf). */
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
  /** The logistic part on raw feature values (normalisation folded in); null for a trees-only model. */
  readonly linear: Linear | null;
  /** The boosted trees flattened for scoring, on raw feature values (empty for a logistic model). */
  readonly forest: Forest;
}

/**
 * The scorer reads the feature matrix as it is, never a normalised copy: w·((x - mean) / scale) + bias is
 * the same sum as (w / scale)·x + (bias - w·mean / scale), and a tree's test (x - mean) / scale <= t is
 * exactly x <= T for the largest T that passes it (see rawThreshold). That saves a subtraction and a division
 * per feature and block, on every page the Worker cleans.
 */
interface Linear {
  /** Feature-matrix column of each weight. */
  readonly columns: Int32Array;
  readonly weights: Float64Array;
  readonly bias: number;
}

/**
 * All trees in flat typed arrays, each padded to the same full depth so that scoring walks exactly `depth`
 * levels with no leaf test (a leaf above the last level is copied down to the nodes below it, under splits
 * every value passes). Tree t's node n (heap order: children 2n+1 and 2n+2) is at t * nodes + n; column is
 * the feature-matrix column tested, threshold the split on the raw feature value, value the leaf value times
 * the learning rate (read at the last level only).
 */
interface Forest {
  readonly trees: number;
  readonly depth: number;
  /** Nodes per tree: 2^(depth+1) - 1. */
  readonly nodes: number;
  readonly column: Int32Array;
  readonly threshold: Float64Array;
  readonly value: Float64Array;
}

function foldLinear(json: ModelJson, columns: Int32Array): Linear | null {
  if (json.kind === "boosted-trees" || !json.logistic) return null;
  const { mean, scale } = json.normalisation;
  const weights = json.logistic.weights.map((weight, f) => weight / scale[f]);
  const bias = json.logistic.weights.reduce((sum, weight, f) => sum - (weight * mean[f]) / scale[f], json.logistic.bias);
  return { columns, weights: Float64Array.from(weights), bias };
}

/**
 * The largest double x with (x - mean) / scale <= threshold. The normalised value only grows with x (each
 * rounded operation is monotone, scale > 0), so x <= this bound exactly when the normalised test holds. The
 * first guess is close, but near zero a few units of its last place are millions of doubles: the bound is
 * bracketed by doubling a step away from the guess, then bisected until the two ends are adjacent doubles.
 */
export function rawThreshold(threshold: number, mean: number, scale: number): number {
  const holds = (x: number): boolean => (x - mean) / scale <= threshold;
  const guess = threshold * scale + mean;
  if (!Number.isFinite(guess)) return guess;
  let low = guess; // holds
  let high = guess; // fails
  let step = Math.abs(guess) * Number.EPSILON || Number.MIN_VALUE;
  if (holds(guess)) {
    for (high = guess + step; holds(high); high = guess + step) [low, step] = [high, step * 2];
  } else {
    for (low = guess - step; !holds(low); low = guess - step) [high, step] = [low, step * 2];
  }
  for (;;) {
    const middle = low / 2 + high / 2;
    if (middle <= low || middle >= high) return low;
    if (holds(middle)) low = middle;
    else high = middle;
  }
}

function flattenTrees(json: ModelJson, columns: Int32Array): Forest {
  const trees = json.boosted?.trees ?? [];
  const { mean, scale } = json.normalisation;
  // A heap of n nodes reaches depth ceil(log2(n + 1)) - 1; a tree need not fill its last level.
  const depth = Math.max(0, ...trees.map((tree) => Math.ceil(Math.log2(tree.feature.length + 1)) - 1));
  const nodes = 2 ** (depth + 1) - 1;
  const forest = { trees: trees.length, depth, nodes, column: new Int32Array(trees.length * nodes), threshold: new Float64Array(trees.length * nodes), value: new Float64Array(trees.length * nodes) };
  const rate = json.boosted?.learningRate ?? 0;
  trees.forEach((tree, index) => {
    const offset = index * nodes;
    // A leaf above the last level is copied down to every node below it, under splits every value passes (x <= Infinity).
    const fillLeaf = (node: number, value: number): void => {
      if (2 * node + 1 >= nodes) {
        forest.value[offset + node] = value;
        return;
      }
      forest.threshold[offset + node] = Infinity;
      fillLeaf(2 * node + 1, value);
      fillLeaf(2 * node + 2, value);
    };
    const place = (node: number): void => {
      const feature = node < tree.feature.length ? tree.feature[node] : -1;
      if (feature < 0) return fillLeaf(node, rate * tree.value[node]);
      forest.column[offset + node] = columns[feature];
      forest.threshold[offset + node] = rawThreshold(tree.value[node], mean[feature], scale[feature]);
      place(2 * node + 1);
      place(2 * node + 2);
    };
    place(0);
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
  return problems.length > 0 ? { ok: false, problems } : { ok: true, model: { json, columns, linear: foldLinear(json, columns), forest: flattenTrees(json, columns) } };
}

function treeProblems(json: ModelJson, width: number): string[] {
  if (!json.boosted) return ["boosted: missing"];
  const problems: string[] = [];
  json.boosted.trees.forEach((tree, index) => {
    const size = tree.feature.length;
    if (tree.value.length !== size) problems.push(`boosted.trees.${index}: feature and value differ in length`);
    for (let node = 0; node < size; node++) {
      if (tree.feature[node] < 0) continue;
      // Children lie further on (2n+1, 2n+2), so evaluation always ends; they must exist.
      if (tree.feature[node] >= width || 2 * node + 2 >= size) problems.push(`boosted.trees.${index}.${node}: bad feature or child`);
    }
  });
  return problems;
}

/** Block ordinal → template probability in [0, 1]. */
export function scoreBlocks(features: FeatureMatrix, model: ClassifierModel): Float32Array {
  const { json, linear, forest } = model;
  const scores = new Float32Array(features.blockCount);
  const { data, featureCount } = features;
  const base = json.boosted?.base ?? 0;
  for (let b = 0; b < features.blockCount; b++) {
    const row = b * featureCount;
    const logOdds =
      json.kind === "logistic" ? linearLogOdds(linear!, data, row)
      : json.kind === "boosted-trees" ? base + forestLogOdds(forest, data, row)
      : (linearLogOdds(linear!, data, row) + base + forestLogOdds(forest, data, row)) / 2;
    scores[b] = 1 / (1 + Math.exp(-logOdds));
  }
  return scores;
}

function linearLogOdds({ columns, weights, bias }: Linear, data: Float32Array, row: number): number {
  let sum = bias;
  for (let f = 0; f < weights.length; f++) sum += weights[f] * data[row + columns[f]];
  return sum;
}

function forestLogOdds({ trees, depth, nodes, column, threshold, value }: Forest, data: Float32Array, row: number): number {
  let sum = 0;
  for (let t = 0, offset = 0; t < trees; t++, offset += nodes) {
    let node = 0;
    for (let level = 0; level < depth; level++) node = 2 * node + 2 - +(data[row + column[offset + node]] <= threshold[offset + node]);
    sum += value[offset + node];
  }
  return sum;
}
