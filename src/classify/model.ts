/**
 * The classifier model (rules/model.json): feature names, their normalisation, a logistic regression or
 * small boosted trees, the removal threshold and the smoothing settings. Versioned and validated.
 */
import * as v from "../validation";
import { FEATURE_NAMES, type FeatureMatrix } from "../page/index";
import { PAGE_KINDS, type PageKind } from "./kind";

/** The kinds a fall-back margin may be given for: every kind but an article's (classify/decide.ts fallbackKind). */
const FALLBACK_KINDS = PAGE_KINDS.filter((kind): kind is FallbackKind => kind !== "article");
export type FallbackKind = Exclude<PageKind, "article">;
/** Page kind → the unsure margin of its fall-back; a kind without one, or 0, takes none. */
export type UnsureMargins = Readonly<Partial<Record<FallbackKind, number>>>;

/** 3: the trees' nodes in two flat lists (2 had one object per tree; 1 had child links). */
export const MODEL_VERSION = 3;

const finite = v.number({ finite: true });
const nonNegative = v.number({ min: 0 });
const count = v.number({ integer: true, min: 0 });

/**
 * The boosted trees, all of one depth d, each in heap order: node n's children are 2n+1 (feature value <= split)
 * and 2n+2. Stored this way a tree is its inner nodes' features and all its nodes' values, with no child links
 * and no per-tree object to write: tree t's inner node n is feature[t * (2^d - 1) + n], its node n (inner or leaf)
 * value[t * (2^(d+1) - 1) + n].
 */
const boostedSchema = v.object({
  /** Log-odds every tree adds to. */
  base: finite,
  learningRate: finite,
  depth: v.number({ integer: true, min: 1, max: 12 }),
  /** Inner node → feature column (in the model's feature list) tested, -1 where the node is a leaf. */
  feature: v.array(v.number({ integer: true, min: -1 })),
  /** Node → its split threshold (an inner node: normalised feature <= value goes left), or its log-odds (a leaf). */
  value: v.array(finite),
});

const modelSchema = v.object({
  version: v.literal(MODEL_VERSION),
  /** "ensemble": the mean of the logistic and the boosted trees' log-odds. */
  kind: v.picklist(["logistic", "boosted-trees", "ensemble"]),
  /**
   * The features, in the model's column order: their names, or n for the first n of FEATURE_NAMES (that list is
   * append-only, so n names the same features in every later build; what `npm run train` writes).
   */
  features: v.union([v.array(v.string(), { minLength: 1 }), v.number({ integer: true, min: 1, max: FEATURE_NAMES.length })]),
  normalisation: v.object({ mean: v.array(finite), scale: v.array(finite) }),
  logistic: v.optional(v.object({ weights: v.array(finite), bias: finite })),
  boosted: v.optional(boostedSchema),
  /** Smoothed template score above which a block is removed. */
  threshold: finite,
  /** The decision settings used when smoothing is off (calibrated apart); the top-level ones otherwise. */
  rawDecision: v.optional(v.object({ threshold: finite, keepChars: count, keepMargin: nonNegative, mainOnly: v.boolean() })),
  /** The least template-like block with at least this many characters is always kept (0: off). */
  keepChars: v.optional(count),
  /** Blocks scoring at most this much above that block are kept too. */
  keepMargin: v.optional(nonNegative),
  /** Outside the main-content block and its ancestors, the base threshold applies (see classify/decide.ts). */
  mainOnly: v.optional(v.boolean()),
  /** The guard against losing the article: the threshold rises until at least this share of the page's prose is kept (0: off). */
  keepProse: v.optional(v.number({ min: 0, max: 1 })),
  /** Page kind → the unsure margin of its fall-back (classify/decide.ts fallbackKind); absent or 0: none. */
  unsureMargins: v.optional(v.record(v.picklist(FALLBACK_KINDS), v.number({ min: 0, max: 1 }))),
  smoothing: v.object({
    /** Penalty constant c of gamma_i = c * (page chars + 1) / (block chars + 1) (paper 003 sec. 5.3, text for area). */
    penaltyScale: nonNegative,
    /** Weight of a block's L1 term: 1 + own characters / charsPerUnit. */
    charsPerUnit: v.number({ gt: 0 }),
  }),
  trainedOn: v.optional(v.record(v.string(), v.unknown())),
});

export type ModelJson = v.Infer<typeof modelSchema>;
export type BoostedJson = v.Infer<typeof boostedSchema>;

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
  /** Weight → place of its column among the columns the trees test (Forest.tested), where addLinear copies it; -1 if untested. */
  readonly copyTo: Int32Array;
}

/**
 * All trees in flat typed arrays, each padded to the same full depth so that scoring walks exactly `depth`
 * levels with no leaf test (a leaf above the last level is copied down to the nodes below it, under splits
 * every value passes). Tree t's node n (heap order: children 2n+1 and 2n+2) is at t * nodes + n; column is
 * the tested column's place in `tested`, threshold the split on the raw feature value, value the leaf value times
 * the learning rate (read at the last level only).
 */
interface Forest {
  readonly trees: number;
  readonly depth: number;
  /** Nodes per tree: 2^(depth+1) - 1. */
  readonly nodes: number;
  /** The feature-matrix columns the trees read, each once: only these are copied column-major for scoring. */
  readonly tested: Int32Array;
  readonly column: Int32Array;
  readonly threshold: Float64Array;
  readonly value: Float64Array;
}

function foldLinear(json: ModelJson, columns: Int32Array, forest: Forest): Linear | null {
  if (json.kind === "boosted-trees" || !json.logistic) return null;
  const { mean, scale } = json.normalisation;
  const weights = json.logistic.weights.map((weight, f) => weight / scale[f]);
  const bias = json.logistic.weights.reduce((sum, weight, f) => sum - (weight * mean[f]) / scale[f], json.logistic.bias);
  const copyTo = columns.map((column) => forest.tested.indexOf(column));
  return { columns, weights: Float64Array.from(weights), bias, copyTo };
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
  const boosted = json.boosted;
  if (!boosted) return { trees: 0, depth: 0, nodes: 1, tested: new Int32Array(0), column: new Int32Array(0), threshold: new Float64Array(0), value: new Float64Array(0) };
  const { depth, feature, value, learningRate } = boosted;
  const { inner, nodes, trees } = treeShape(boosted);
  const { mean, scale } = json.normalisation;
  // Matrix column → its place among the tested columns. A padded node reads place 0, whatever it holds: every path
  // below it ends at the same leaf.
  const places = new Map<number, number>();
  const place = (column: number): number => {
    if (!places.has(column)) places.set(column, places.size);
    return places.get(column)!;
  };
  const forest = { trees, depth, nodes, tested: new Int32Array(0), column: new Int32Array(trees * nodes), threshold: new Float64Array(trees * nodes), value: new Float64Array(trees * nodes) };
  for (let tree = 0; tree < trees; tree++) {
    const offset = tree * nodes;
    // A leaf above the last level is copied down to every node below it, under splits every value passes (x <= Infinity).
    const fillLeaf = (node: number, leaf: number): void => {
      if (2 * node + 1 >= nodes) {
        forest.value[offset + node] = leaf;
        return;
      }
      forest.threshold[offset + node] = Infinity;
      fillLeaf(2 * node + 1, leaf);
      fillLeaf(2 * node + 2, leaf);
    };
    const fill = (node: number): void => {
      const tested = node < inner ? feature[tree * inner + node] : -1;
      if (tested < 0) return fillLeaf(node, learningRate * value[offset + node]);
      forest.column[offset + node] = place(columns[tested]);
      forest.threshold[offset + node] = rawThreshold(value[offset + node], mean[tested], scale[tested]);
      fill(2 * node + 1);
      fill(2 * node + 2);
    };
    fill(0);
  }
  return { ...forest, tested: Int32Array.from(places.keys()) };
}

/** Inner nodes and nodes per tree of the boosted part's depth (1 or more), and how many trees its feature list holds. */
function treeShape({ depth, feature }: BoostedJson): { inner: number; nodes: number; trees: number } {
  const inner = 2 ** depth - 1;
  return { inner, nodes: 2 * inner + 1, trees: Math.floor(feature.length / inner) };
}

/** Whether the value at `index` of the boosted part's value list is a leaf's: a node below the inner ones, or an inner node with no split. */
export function isLeafValue(boosted: BoostedJson, index: number): boolean {
  const { inner, nodes } = treeShape(boosted);
  const node = index % nodes;
  return node >= inner || boosted.feature[Math.floor(index / nodes) * inner + node] < 0;
}

export type ParseModelResult = { ok: true; model: ClassifierModel } | { ok: false; problems: string[] };

/** Validates a model value (from JSON); reports every problem rather than throwing. */
export function parseModel(value: unknown): ParseModelResult {
  const parsed = v.parse(modelSchema, value);
  if (!parsed.ok) return parsed;
  const json = parsed.value;
  const problems: string[] = [];
  const names: readonly string[] = typeof json.features === "number" ? FEATURE_NAMES.slice(0, json.features) : json.features;
  const width = names.length;
  const columns = new Int32Array(width);
  names.forEach((name, index) => {
    columns[index] = (FEATURE_NAMES as readonly string[]).indexOf(name);
    if (columns[index] < 0) problems.push(`features.${index}: unknown feature "${name}"`);
  });
  if (json.normalisation.mean.length !== width || json.normalisation.scale.length !== width) problems.push("normalisation: one mean and scale per feature");
  if (json.normalisation.scale.some((scale) => scale <= 0)) problems.push("normalisation.scale: must be positive");
  if (json.kind !== "boosted-trees" && json.logistic?.weights.length !== width) problems.push("logistic.weights: one weight per feature");
  if (json.kind !== "logistic") problems.push(...treeProblems(json, width));
  if (problems.length > 0) return { ok: false, problems };
  const forest = flattenTrees(json, columns);
  return { ok: true, model: { json, columns, linear: foldLinear(json, columns, forest), forest } };
}

function treeProblems(json: ModelJson, width: number): string[] {
  if (!json.boosted) return ["boosted: missing"];
  const { feature, value } = json.boosted;
  const { inner, nodes, trees } = treeShape(json.boosted);
  if (feature.length !== trees * inner || value.length !== trees * nodes) return [`boosted: ${trees} trees need ${trees * inner} features and ${trees * nodes} values`];
  const problems: string[] = [];
  feature.forEach((tested, index) => {
    if (tested >= width) problems.push(`boosted.feature.${index}: no feature ${tested}`);
  });
  return problems;
}

/**
 * Block ordinal → template probability in [0, 1].
 *
 * The linear part reads the feature matrix row by row (addLinear), and copies out column-major the columns the trees
 * test. The trees are then summed one at a time over all blocks: a tree's splits are loop constants, and consecutive
 * blocks' walks do not wait on each other (block by block, each level's load waited on the one before). Every block's
 * sums add the same terms in the same order as before.
 */
export function scoreBlocks(features: FeatureMatrix, model: ClassifierModel): Float32Array {
  const { json, linear, forest } = model;
  const count = features.blockCount;
  const logOdds = scratch.sums(count, 0);
  const columns = scratch.floats(count * forest.tested.length);
  if (json.kind === "logistic") addLinear(linear!, features, logOdds, columns);
  else {
    const trees = scratch.sums(count, 1).fill(0, 0, count);
    // The linear part reads every feature of the model, so every column the trees test: it copies them as it goes.
    if (json.kind === "ensemble") addLinear(linear!, features, logOdds, columns);
    else transpose(features, forest.tested, columns);
    addForest(forest, columns, count, trees);
    const base = json.boosted?.base ?? 0;
    if (json.kind === "boosted-trees") for (let b = 0; b < count; b++) logOdds[b] = base + trees[b];
    else for (let b = 0; b < count; b++) logOdds[b] = (logOdds[b] + base + trees[b]) / 2;
  }
  const scores = new Float32Array(count);
  for (let b = 0; b < count; b++) scores[b] = 1 / (1 + Math.exp(-logOdds[b]));
  return scores;
}

/**
 * Scratch arrays reused from page to page (scoring runs to its end without yielding, so no two pages share them at
 * once): a new typed array of a page's size cost nearly as much as the transpose loop that fills it (58 us against
 * 70 us for 300 blocks' 85 columns in Node, on a loaded machine). A page whose arrays outgrow SCRATCH_KEPT_BYTES gets
 * its own, freed after.
 */
const scratch = {
  columns: new Float32Array(0),
  sumsOf: [new Float64Array(0), new Float64Array(0)],
  /** A Float32Array of at least `size` entries. */
  floats(size: number): Float32Array {
    if (this.columns.length >= size) return this.columns;
    const floats = new Float32Array(size);
    if (size * 4 <= SCRATCH_KEPT_BYTES) this.columns = floats;
    return floats;
  },
  /** Float64Array `which` (0 or 1) of at least `size` entries. */
  sums(size: number, which: number): Float64Array {
    if (this.sumsOf[which].length >= size) return this.sumsOf[which];
    const sums = new Float64Array(size);
    if (size * 8 <= SCRATCH_KEPT_BYTES) this.sumsOf[which] = sums;
    return sums;
  },
};
/** Largest scratch array kept between pages (bytes; 2 MiB holds the shipped model's 64 tested columns for 8,192 blocks). */
const SCRATCH_KEPT_BYTES = 2 << 20;

/** Copies the tested columns of the feature matrix column-major: tested column c of block b at c * blockCount + b. */
function transpose({ blockCount, featureCount, data }: FeatureMatrix, tested: Int32Array, columns: Float32Array): void {
  for (let c = 0, at = 0; c < tested.length; c++) {
    for (let b = 0, from = tested[c]; b < blockCount; b++, from += featureCount) columns[at++] = data[from];
  }
}

/**
 * Sets sums[b] to the linear part's log-odds of block b (the bias, then each weighted feature in model order), reading
 * the row-major matrix four blocks at a time: the four sums are independent chains, where one block's 85 additions would
 * each wait on the one before. The values the trees test are copied out column-major (as transpose does) on the way,
 * while the rows are at hand: one pass over the matrix instead of two.
 */
function addLinear({ columns: read, weights, bias, copyTo }: Linear, { blockCount: count, featureCount, data }: FeatureMatrix, sums: Float64Array, columns: Float32Array): void {
  const width = weights.length;
  let b = 0;
  for (; b + 4 <= count; b += 4) {
    const r0 = b * featureCount, r1 = r0 + featureCount, r2 = r1 + featureCount, r3 = r2 + featureCount;
    let s0 = bias, s1 = bias, s2 = bias, s3 = bias;
    for (let f = 0; f < width; f++) {
      const weight = weights[f], column = read[f];
      const x0 = data[r0 + column], x1 = data[r1 + column], x2 = data[r2 + column], x3 = data[r3 + column];
      s0 += weight * x0;
      s1 += weight * x1;
      s2 += weight * x2;
      s3 += weight * x3;
      if (copyTo[f] < 0) continue;
      const at = copyTo[f] * count + b;
      columns[at] = x0, columns[at + 1] = x1, columns[at + 2] = x2, columns[at + 3] = x3;
    }
    sums[b] = s0, sums[b + 1] = s1, sums[b + 2] = s2, sums[b + 3] = s3;
  }
  for (; b < count; b++) {
    const row = b * featureCount;
    let sum = bias;
    for (let f = 0; f < width; f++) {
      const x = data[row + read[f]];
      sum += weights[f] * x;
      if (copyTo[f] >= 0) columns[copyTo[f] * count + b] = x;
    }
    sums[b] = sum;
  }
}

/** Adds each tree's leaf value to sums[b], tree after tree. */
function addForest({ trees, depth, nodes, column, threshold, value }: Forest, columns: Float32Array, count: number, sums: Float64Array): void {
  if (depth === 3) return addForestOfDepth3(trees, nodes, column, threshold, value, columns, count, sums);
  const node = new Int32Array(count);
  for (let t = 0, offset = 0; t < trees; t++, offset += nodes) {
    node.fill(0);
    for (let level = 0; level < depth; level++) {
      for (let b = 0; b < count; b++) {
        const at = offset + node[b];
        node[b] = 2 * node[b] + 2 - +(columns[column[at] * count + b] <= threshold[at]);
      }
    }
    for (let b = 0; b < count; b++) sums[b] += value[offset + node[b]];
  }
}

/** addForest unrolled for trees of depth 3 (the shipped model's): a tree's seven splits and eight leaves are locals. */
function addForestOfDepth3(
  trees: number, nodes: number, column: Int32Array, threshold: Float64Array, value: Float64Array, columns: Float32Array, count: number, sums: Float64Array,
): void {
  for (let t = 0, o = 0; t < trees; t++, o += nodes) {
    const c0 = column[o] * count, c1 = column[o + 1] * count, c2 = column[o + 2] * count, c3 = column[o + 3] * count;
    const c4 = column[o + 4] * count, c5 = column[o + 5] * count, c6 = column[o + 6] * count;
    const t0 = threshold[o], t1 = threshold[o + 1], t2 = threshold[o + 2], t3 = threshold[o + 3], t4 = threshold[o + 4], t5 = threshold[o + 5], t6 = threshold[o + 6];
    const v7 = value[o + 7], v8 = value[o + 8], v9 = value[o + 9], v10 = value[o + 10], v11 = value[o + 11], v12 = value[o + 12], v13 = value[o + 13], v14 = value[o + 14];
    for (let b = 0; b < count; b++) {
      sums[b] += columns[c0 + b] <= t0
        ? columns[c1 + b] <= t1 ? (columns[c3 + b] <= t3 ? v7 : v8) : (columns[c4 + b] <= t4 ? v9 : v10)
        : columns[c2 + b] <= t2 ? (columns[c5 + b] <= t5 ? v11 : v12) : (columns[c6 + b] <= t6 ? v13 : v14);
    }
  }
}
