/**
 * Regularised isotonic regression on the block tree (paper 003, section 4), L1 distance.
 *
 * Given per-block template scores x, weights w >= 0 and penalties g >= 0, find y minimising
 *   sum_i w_i |x_i - y_i| + sum_{i not root} g_i [y_i != y_parent(i)]
 * subject to y_parent(i) <= y_i (a block is at most as "template" as any of its children).
 *
 * Candidate values: only the distinct input scores. An optimum exists among them: take any optimum,
 * group the blocks by value level; moving one level's value between its neighbouring levels keeps every
 * constraint and every segment boundary, and the cost is linear in that value between consecutive
 * input scores, so the level can slide to an input score (or merge with a neighbour, which only saves
 * penalty) without raising the cost (paper 003, lemma 3, extended to weights and penalties).
 *
 * Dynamic programme over candidate levels k = 0..K-1 (K distinct scores):
 *   E_i(k) = w_i |x_i - v_k| + sum_{c child of i} F_c(k)
 *   F_c(k) = min(E_c(k), g_c + min_{k' > k} E_c(k'))
 * Time O(n K), memory n K doubles (a reused scratch buffer); the paper's version is O(n^2 log n).
 * The classifier quantises its scores to a few levels, so K stays small and a 3,000-block page smooths
 * in well under a millisecond.
 */

/** Reused scratch for the cost table (block ordinal * K + level → E_i(level)); grows up to SCRATCH_KEPT_ENTRIES. */
let costScratch = new Float64Array(0);
/** Largest cost table kept between calls (entries; 8 MB): bigger pages get a table of their own, freed after. */
const SCRATCH_KEPT_ENTRIES = 1 << 20;

/** The input of one smoothing run, all indexed by block ordinal; parent[i] < i, parent[0] = -1. */
export interface SmoothingProblem {
  /** Block ordinal → parent ordinal (-1 for the root, ordinal 0). */
  readonly parent: Int32Array;
  /** Block ordinal → classifier score (any real; the output takes values among these). */
  readonly scores: Float32Array;
  /** Block ordinal → weight of its L1 distance term (>= 0). */
  readonly weights: Float32Array;
  /** Block ordinal → penalty for starting a new segment at this block (>= 0; ignored for the root). */
  readonly penalties: Float32Array;
  /** distinctLevels(scores), where the caller knows them without sorting every score. */
  readonly levels?: Float32Array;
}

/** Sorted distinct values of `scores`. */
export function distinctLevels(scores: Float32Array): Float32Array {
  const sorted = Float32Array.from(scores).sort();
  let count = 0;
  for (let i = 0; i < sorted.length; i++) {
    if (count === 0 || sorted[i] !== sorted[count - 1]) sorted[count++] = sorted[i];
  }
  return sorted.slice(0, count);
}

/** Solves the problem exactly; returns y (block ordinal → smoothed score). */
export function isotonicSmooth(problem: SmoothingProblem): Float32Array {
  const count = problem.parent.length;
  const result = new Float32Array(count);
  if (count === 0) return result;
  const levels = problem.levels ?? distinctLevels(problem.scores);
  const shortcut = shortcutLeaves(problem, levels);
  const cost = buildCosts(problem, levels, shortcut);
  const levelOf = new Int32Array(count); // block ordinal → chosen level index
  const width = levels.length;
  let best = 0;
  for (let k = 1; k < width; k++) if (cost[k] < cost[best]) best = k;
  levelOf[0] = best;
  result[0] = levels[best];
  for (let i = 1; i < count; i++) {
    const parentLevel = levelOf[problem.parent[i]];
    if (shortcut[i] === 1) {
      // The lowest cost above the parent's level is 0, at the leaf's own level, if that is above; else it stays.
      const x = problem.scores[i];
      const distance = x - levels[parentLevel];
      const stay = problem.weights[i] * (distance < 0 ? -distance : distance);
      let own = parentLevel;
      if (levels[parentLevel] < x && 0 + problem.penalties[i] < stay) while (levels[own] < x) own++;
      levelOf[i] = own;
      result[i] = levels[own];
      continue;
    }
    const row = i * width;
    let chosen = parentLevel;
    let bestHigher = Infinity;
    let bestHigherLevel = -1;
    for (let k = parentLevel + 1; k < width; k++) {
      if (cost[row + k] < bestHigher) { bestHigher = cost[row + k]; bestHigherLevel = k; }
    }
    if (bestHigher + problem.penalties[i] < cost[row + parentLevel]) chosen = bestHigherLevel;
    levelOf[i] = chosen;
    result[i] = levels[chosen];
  }
  return result;
}

/**
 * Block ordinal → 1 for the leaves whose cost row need not be kept: a block without children, with a finite score, a
 * penalty >= 0, and a weight w > 0, finite, with w times the least gap between levels above 0. Its row
 * E(k) = w |x - v_k| is then 0 at its own level j alone and grows away from it, so that what it adds to its parent's row,
 * min(E(k), g + min over k' > k of E(k')), is E(k) from j up and min(E(k), g) below j; and with the parent at level P,
 * it takes level j where P < j and g < E(P), else P. Each is the value the full table gives, with the same ties.
 * About 60% of a dev page's blocks are leaves.
 */
function shortcutLeaves({ parent, scores, weights, penalties }: SmoothingProblem, levels: Float32Array): Uint8Array {
  const count = parent.length;
  const shortcut = new Uint8Array(count).fill(1);
  shortcut[0] = 0; // the root adds to no parent
  for (let i = 1; i < count; i++) shortcut[parent[i]] = 0;
  let gap = Infinity; // NaN where a level is NaN: no shortcut then
  for (let k = 1; k < levels.length; k++) gap = Math.min(gap, levels[k] - levels[k - 1]);
  for (let i = 1; i < count; i++) {
    const weight = weights[i];
    if (!(weight > 0 && weight < Infinity && weight * gap > 0 && penalties[i] >= 0 && Math.abs(scores[i]) < Infinity)) shortcut[i] = 0;
  }
  return shortcut;
}

/** Bottom-up pass: fills and returns the cost table E (row per block, column per level); a shortcut leaf's row is left at 0. */
function buildCosts(problem: SmoothingProblem, levels: Float32Array, shortcut: Uint8Array): Float64Array {
  const { parent, scores, weights, penalties } = problem;
  const count = parent.length;
  const width = levels.length;
  const size = count * width;
  if (costScratch.length < size && size <= SCRATCH_KEPT_ENTRIES) costScratch = new Float64Array(size);
  const cost = costScratch.length >= size ? costScratch : new Float64Array(size);
  cost.fill(0, 0, count * width);
  for (let i = count - 1; i >= 0; i--) {
    const row = i * width;
    const x = scores[i];
    const weight = weights[i];
    if (shortcut[i] === 1) {
      const parentRow = parent[i] * width;
      const jump = penalties[i] + 0; // g + the least cost above any level below the leaf's own: 0
      for (let k = 0; k < width; k++) {
        const distance = x - levels[k];
        const own = weight * (distance < 0 ? -distance : distance);
        cost[parentRow + k] += levels[k] < x && !(own < jump) ? jump : own;
      }
      continue;
    }
    if (i === 0) {
      for (let k = 0; k < width; k++) {
        const distance = x - levels[k];
        cost[k] += weight * (distance < 0 ? -distance : distance);
      }
      break;
    }
    // E_i(k) completed with the block's own term (its children's are in), and F_i(k) = min(E_i(k), g_i + min over
    // higher levels) added to the parent's row, in one pass from the top level down.
    const parentRow = parent[i] * width;
    const penalty = penalties[i];
    let suffixMin = Infinity;
    for (let k = width - 1; k >= 0; k--) {
      const distance = x - levels[k];
      const own = (cost[row + k] += weight * (distance < 0 ? -distance : distance));
      const jump = penalty + suffixMin;
      cost[parentRow + k] += own < jump ? own : jump;
      if (own < suffixMin) suffixMin = own;
    }
  }
  return cost;
}

/** The objective of the problem for a given y (for tests and diagnostics). */
export function smoothingCost(problem: SmoothingProblem, smoothed: Float32Array): number {
  let total = 0;
  for (let i = 0; i < smoothed.length; i++) {
    total += problem.weights[i] * Math.abs(problem.scores[i] - smoothed[i]);
    if (i > 0 && smoothed[i] !== smoothed[problem.parent[i]]) total += problem.penalties[i];
  }
  return total;
}

/** True when y never decreases from a block to its children. */
export function isMonotone(parent: Int32Array, smoothed: Float32Array): boolean {
  for (let i = 1; i < smoothed.length; i++) if (smoothed[i] < smoothed[parent[i]]) return false;
  return true;
}
