/**
 * Model fitting on labelled block examples: feature normalisation, logistic regression (full-batch Adam
 * with L2) and small gradient-boosted trees (second-order, histogram splits, depth-limited). Both write
 * the model JSON that src/classify reads.
 */
import { MODEL_VERSION, type BoostedJson, type ModelJson, type UnsureMargins } from "../classify/index";
import {
  BOOSTED_BINS,
  BOOSTED_DEPTH,
  BOOSTED_LEARNING_RATE,
  BOOSTED_L2,
  BOOSTED_MIN_HESSIAN,
  BOOSTED_TREES,
  LOGISTIC_EPOCHS,
  LOGISTIC_L2,
  LOGISTIC_STEP,
} from "../config";
import { FEATURE_NAMES } from "../page/index";

/** Training examples: row-major features (example × FEATURE_COUNT), label 1 template / 0 content, weight. */
export interface ExampleSet {
  readonly count: number;
  readonly width: number;
  readonly features: Float32Array;
  readonly labels: Uint8Array;
  readonly weights: Float32Array;
}

export type ModelKind = ModelJson["kind"];

/** Settings that are not learned from the labels (calibrated on out-of-fold pages). */
export interface DecisionSettings {
  readonly threshold: number;
  readonly penaltyScale: number;
  readonly charsPerUnit: number;
  readonly keepChars: number;
  readonly keepMargin: number;
  /** 1: the base threshold applies outside the main-content block (model field mainOnly), 0: not. */
  readonly mainOnly: number;
  /** Least share of the page's prose kept (model field keepProse; 0 off). */
  readonly keepProse: number;
  /** Page kind → the unsure margin of its fall-back (model field unsureMargins; chosen per kind after the others). */
  readonly unsureMargins?: UnsureMargins;
}

/** Mean and standard deviation per feature (scale 1 for constant features). */
export function normalisation(examples: ExampleSet): { mean: number[]; scale: number[] } {
  const { count, width, features } = examples;
  const mean = new Array<number>(width).fill(0);
  const square = new Array<number>(width).fill(0);
  for (let i = 0; i < count; i++) {
    for (let f = 0; f < width; f++) {
      const value = features[i * width + f];
      mean[f] += value;
      square[f] += value * value;
    }
  }
  const scale = mean.map((sum, f) => {
    const average = sum / Math.max(1, count);
    const variance = square[f] / Math.max(1, count) - average * average;
    return variance > 1e-12 ? Math.sqrt(variance) : 1;
  });
  // Rounded before the data is normalised with them, so training and the Worker use the same numbers;
  // four digits of a shift and a scale change nothing the model can learn and halve their size in model.json.
  return { mean: mean.map((sum) => roundTo(sum / Math.max(1, count), NORMALISATION_DIGITS)), scale: scale.map((value) => roundTo(value, NORMALISATION_DIGITS)) };
}

const NORMALISATION_DIGITS = 4;

const roundTo = (value: number, digits: number): number => Number(value.toPrecision(digits));

/**
 * The number with the fewest significant digits in [low, high), low itself when none is shorter. A split at
 * training value low sends the same training examples left as a split anywhere below the next value seen, high;
 * the shortest such number keeps model.json small (a tree threshold at full precision is 20 characters).
 */
export function shortestIn(low: number, high: number): number {
  for (let digits = 1; digits < 17; digits++) {
    const nearest = roundTo(low, digits);
    if (nearest >= low && nearest < high) return nearest;
    const unit = 10 ** (Math.floor(Math.log10(Math.abs(low))) - digits + 1);
    const above = roundTo(Math.ceil(low / unit) * unit, digits);
    if (above >= low && above < high) return above;
  }
  return low;
}

/** Normalised copy of the features, computed exactly as scoreBlocks does. */
function normalised(examples: ExampleSet, mean: number[], scale: number[]): Float64Array {
  const { count, width, features } = examples;
  const out = new Float64Array(count * width);
  for (let i = 0; i < count; i++) for (let f = 0; f < width; f++) out[i * width + f] = (features[i * width + f] - mean[f]) / scale[f];
  return out;
}

/** The model fields that hold decision settings. */
export function decisionFields(settings: DecisionSettings): Pick<ModelJson, "threshold" | "keepChars" | "keepMargin" | "mainOnly" | "keepProse" | "smoothing" | "unsureMargins"> {
  return {
    ...(settings.unsureMargins === undefined ? {} : { unsureMargins: { ...settings.unsureMargins } }),
    threshold: settings.threshold,
    keepChars: settings.keepChars,
    keepMargin: settings.keepMargin,
    mainOnly: settings.mainOnly === 1,
    keepProse: settings.keepProse,
    smoothing: { penaltyScale: settings.penaltyScale, charsPerUnit: settings.charsPerUnit },
  };
}

/** Fits a model of the given kind; the decision settings are written into it. */
export function fitModel(kind: ModelKind, examples: ExampleSet, settings: DecisionSettings): ModelJson {
  const { mean, scale } = normalisation(examples);
  const x = normalised(examples, mean, scale);
  const base = { version: MODEL_VERSION as typeof MODEL_VERSION, features: FEATURE_NAMES.length, normalisation: { mean, scale }, ...decisionFields(settings) };
  if (kind === "logistic") return { ...base, kind, logistic: fitLogistic(x, examples) };
  if (kind === "boosted-trees") return { ...base, kind, boosted: fitBoosted(x, examples) };
  return { ...base, kind, logistic: fitLogistic(x, examples), boosted: fitBoosted(x, examples) };
}

// ── logistic regression ──────────────────────────────────────────────────────────────────────────────

function fitLogistic(x: Float64Array, examples: ExampleSet): { weights: number[]; bias: number } {
  const { count, width, labels, weights: exampleWeights } = examples;
  const parameters = new Float64Array(width + 1); // feature weights, then the bias
  const gradient = new Float64Array(width + 1);
  const moment = new Float64Array(width + 1);
  const velocity = new Float64Array(width + 1);
  let totalWeight = 0;
  for (let i = 0; i < count; i++) totalWeight += exampleWeights[i];
  for (let epoch = 1; epoch <= LOGISTIC_EPOCHS; epoch++) {
    gradient.fill(0);
    for (let i = 0; i < count; i++) {
      let sum = parameters[width];
      const row = i * width;
      for (let f = 0; f < width; f++) sum += parameters[f] * x[row + f];
      const error = (1 / (1 + Math.exp(-sum)) - labels[i]) * exampleWeights[i];
      for (let f = 0; f < width; f++) gradient[f] += error * x[row + f];
      gradient[width] += error;
    }
    for (let p = 0; p <= width; p++) {
      const g = gradient[p] / totalWeight + (p < width ? LOGISTIC_L2 * parameters[p] : 0);
      moment[p] = 0.9 * moment[p] + 0.1 * g;
      velocity[p] = 0.999 * velocity[p] + 0.001 * g * g;
      const corrected = moment[p] / (1 - 0.9 ** epoch);
      parameters[p] -= (LOGISTIC_STEP * corrected) / (Math.sqrt(velocity[p] / (1 - 0.999 ** epoch)) + 1e-8);
    }
  }
  return { weights: Array.from(parameters.subarray(0, width)), bias: parameters[width] };
}

// ── boosted trees ────────────────────────────────────────────────────────────────────────────────────

/**
 * Per-feature split candidates: sorted distinct quantiles of the normalised values, each moved up to the
 * shortest number below the next distinct value (the same split of every training example, see shortestIn).
 */
function binEdges(x: Float64Array, count: number, width: number): Float64Array[] {
  const edges: Float64Array[] = [];
  const column = new Float64Array(count);
  for (let f = 0; f < width; f++) {
    for (let i = 0; i < count; i++) column[i] = x[i * width + f];
    column.sort();
    const chosen: number[] = [];
    for (let b = 1; b < BOOSTED_BINS; b++) {
      const value = column[Math.min(count - 1, Math.floor((b * count) / BOOSTED_BINS))];
      if (chosen.length === 0 || value > chosen[chosen.length - 1]) chosen.push(value);
    }
    for (let c = 0; c < chosen.length; c++) chosen[c] = shortestIn(chosen[c], nextAbove(column, count, chosen[c]));
    edges.push(Float64Array.from(chosen));
  }
  return edges;
}

/** The least value of the sorted column above value (Infinity when none is). */
function nextAbove(column: Float64Array, count: number, value: number): number {
  let low = 0;
  let high = count;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (column[middle] <= value) low = middle + 1;
    else high = middle;
  }
  return low < count ? column[low] : Infinity;
}

/** Example × feature → bin: the first edge the value is <= to (edges.length when above all). */
function binExamples(x: Float64Array, count: number, width: number, edges: Float64Array[]): Uint8Array {
  const bins = new Uint8Array(count * width);
  for (let i = 0; i < count; i++) {
    for (let f = 0; f < width; f++) {
      const list = edges[f];
      const value = x[i * width + f];
      let low = 0;
      let high = list.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (value <= list[middle]) high = middle;
        else low = middle + 1;
      }
      bins[i * width + f] = low;
    }
  }
  return bins;
}

/** A tree as growTree builds it: every node of the full heap, -1 for a leaf's feature. */
interface Tree {
  readonly feature: number[];
  readonly value: number[];
}

function fitBoosted(x: Float64Array, examples: ExampleSet): BoostedJson {
  const { count, width, labels, weights } = examples;
  const edges = binEdges(x, count, width);
  const bins = binExamples(x, count, width, edges);
  let positive = 0;
  let total = 0;
  for (let i = 0; i < count; i++) {
    positive += labels[i] * weights[i];
    total += weights[i];
  }
  const prior = Math.min(0.99, Math.max(0.01, positive / Math.max(1e-9, total)));
  const base = Math.log(prior / (1 - prior));
  const logOdds = new Float64Array(count).fill(base);
  const trees: Tree[] = [];
  const gradient = new Float64Array(count);
  const hessian = new Float64Array(count);
  for (let t = 0; t < BOOSTED_TREES; t++) {
    for (let i = 0; i < count; i++) {
      const p = 1 / (1 + Math.exp(-logOdds[i]));
      gradient[i] = (p - labels[i]) * weights[i];
      hessian[i] = Math.max(1e-6, p * (1 - p)) * weights[i];
    }
    const { tree, leafOf } = growTree(bins, count, width, edges, gradient, hessian);
    for (let i = 0; i < count; i++) logOdds[i] += BOOSTED_LEARNING_RATE * tree.value[leafOf[i]];
    trees.push(tree);
  }
  // model.json's layout: the inner nodes' features of every tree, then every node's value.
  const inner = 2 ** BOOSTED_DEPTH - 1;
  return { base, learningRate: BOOSTED_LEARNING_RATE, depth: BOOSTED_DEPTH, feature: trees.flatMap((tree) => tree.feature.slice(0, inner)), value: trees.flatMap((tree) => tree.value) };
}

interface Split {
  feature: number;
  bin: number;
  gain: number;
}

/**
 * Grows one depth-limited tree level by level, in heap order (node n's children are 2n+1 and 2n+2, the
 * layout model.json stores); returns it and each example's leaf.
 */
function growTree(bins: Uint8Array, count: number, width: number, edges: Float64Array[], gradient: Float64Array, hessian: Float64Array): { tree: Tree; leafOf: Int32Array } {
  const size = 2 ** (BOOSTED_DEPTH + 1) - 1;
  const tree: Tree = { feature: new Array<number>(size).fill(-1), value: new Array<number>(size).fill(0) };
  const nodeOf = new Int32Array(count); // example → current node
  const splitBin = new Int32Array(size).fill(-1); // node → bin of its split (examples with bin <= it go left)
  let frontier = [0];
  for (let depth = 0; depth < BOOSTED_DEPTH && frontier.length > 0; depth++) {
    const splits = bestSplits(bins, count, width, edges, frontier, nodeOf, gradient, hessian, size);
    const next: number[] = [];
    frontier.forEach((node, slot) => {
      const split = splits[slot];
      if (split.gain <= 0) return;
      tree.feature[node] = split.feature;
      tree.value[node] = edges[split.feature][split.bin];
      splitBin[node] = split.bin;
      next.push(2 * node + 1, 2 * node + 2);
    });
    for (let i = 0; i < count; i++) {
      const node = nodeOf[i];
      if (tree.feature[node] >= 0) nodeOf[i] = 2 * node + (bins[i * width + tree.feature[node]] <= splitBin[node] ? 1 : 2);
    }
    frontier = next;
  }
  const sums = new Float64Array(size * 2); // node → gradient sum, hessian sum
  for (let i = 0; i < count; i++) {
    sums[nodeOf[i] * 2] += gradient[i];
    sums[nodeOf[i] * 2 + 1] += hessian[i];
  }
  // A leaf's value is its log-odds step; a node no example reaches keeps 0.
  for (let node = 0; node < size; node++) if (tree.feature[node] < 0 && sums[node * 2 + 1] > 0) tree.value[node] = -sums[node * 2] / (sums[node * 2 + 1] + BOOSTED_L2);
  return { tree, leafOf: nodeOf };
}

/** Best split of each frontier node from gradient/hessian histograms (one pass over the examples). */
function bestSplits(bins: Uint8Array, count: number, width: number, edges: Float64Array[], frontier: number[], nodeOf: Int32Array, gradient: Float64Array, hessian: Float64Array, nodeCount: number): Split[] {
  const binCount = BOOSTED_BINS + 1;
  const slotOf = new Int32Array(nodeCount).fill(-1);
  frontier.forEach((node, slot) => (slotOf[node] = slot));
  const histogram = new Float64Array(frontier.length * width * binCount * 2); // (slot, feature, bin) → gradient, hessian
  for (let i = 0; i < count; i++) {
    const slot = slotOf[nodeOf[i]];
    if (slot < 0) continue;
    const g = gradient[i];
    const h = hessian[i];
    const base = slot * width * binCount;
    for (let f = 0; f < width; f++) {
      const cell = (base + f * binCount + bins[i * width + f]) * 2;
      histogram[cell] += g;
      histogram[cell + 1] += h;
    }
  }
  return frontier.map((_, slot) => {
    const best: Split = { feature: -1, bin: -1, gain: 0 };
    for (let f = 0; f < width; f++) {
      const base = (slot * width + f) * binCount * 2;
      let totalG = 0;
      let totalH = 0;
      for (let b = 0; b < binCount; b++) { totalG += histogram[base + b * 2]; totalH += histogram[base + b * 2 + 1]; }
      const parentScore = (totalG * totalG) / (totalH + BOOSTED_L2);
      let leftG = 0;
      let leftH = 0;
      for (let b = 0; b < edges[f].length; b++) {
        leftG += histogram[base + b * 2];
        leftH += histogram[base + b * 2 + 1];
        const rightH = totalH - leftH;
        if (leftH < BOOSTED_MIN_HESSIAN || rightH < BOOSTED_MIN_HESSIAN) continue;
        const rightG = totalG - leftG;
        const gain = (leftG * leftG) / (leftH + BOOSTED_L2) + (rightG * rightG) / (rightH + BOOSTED_L2) - parentScore;
        if (gain > best.gain) { best.feature = f; best.bin = b; best.gain = gain; }
      }
    }
    return best;
  });
}
