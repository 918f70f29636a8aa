import { describe, expect, it } from "vitest";
import { distinctLevels, isMonotone, isotonicSmooth, smoothingCost, type SmoothingProblem } from "../../src/classify/index";
import { seededRandom as randomSource } from "../../scripts/lib/seeded-random";

function randomProblem(random: () => number, count: number, scoreLevels: number): SmoothingProblem {
  const parent = new Int32Array(count);
  parent[0] = -1;
  for (let i = 1; i < count; i++) parent[i] = Math.floor(random() * i);
  const scores = new Float32Array(count);
  const weights = new Float32Array(count);
  const penalties = new Float32Array(count);
  for (let i = 0; i < count; i++) {
    scores[i] = Math.floor(random() * scoreLevels) / scoreLevels;
    weights[i] = random() < 0.2 ? 0 : Math.round(random() * 40) / 10;
    penalties[i] = random() < 0.3 ? 0 : Math.round(random() * 20) / 10;
  }
  return { parent, scores, weights, penalties };
}

/**
 * Brute force over a candidate set wider than the input scores (midpoints and values outside the range
 * too): if the restriction to input scores lost the optimum, some assignment here would beat the DP.
 */
function bruteForceOptimum(problem: SmoothingProblem): number {
  const base = [...new Set(Array.from(problem.scores))].sort((a, b) => a - b);
  const candidates = [base[0] - 0.25, ...base, base[base.length - 1] + 0.25];
  for (let i = 0; i + 1 < base.length; i++) candidates.push((base[i] + base[i + 1]) / 2);
  const values = Float32Array.from(candidates.sort((a, b) => a - b));
  const count = problem.parent.length;
  const assignment = new Float32Array(count);
  let best = Infinity;
  const visit = (i: number): void => {
    if (i === count) {
      best = Math.min(best, smoothingCost(problem, assignment));
      return;
    }
    for (const value of values) {
      if (i > 0 && value < assignment[problem.parent[i]]) continue;
      assignment[i] = value;
      visit(i + 1);
    }
  };
  visit(0);
  return best;
}

describe("isotonic smoothing on trees", () => {
  it("equals the brute-force optimum on random small trees", () => {
    for (let seed = 1; seed <= 400; seed++) {
      const random = randomSource(seed);
      const count = 1 + Math.floor(random() * 6);
      const problem = randomProblem(random, count, 2 + Math.floor(random() * 3));
      const smoothed = isotonicSmooth(problem);
      expect(isMonotone(problem.parent, smoothed), `seed ${seed}`).toBe(true);
      const scoreSet = new Set(Array.from(problem.scores));
      for (const value of smoothed) expect(scoreSet.has(value), `seed ${seed}`).toBe(true);
      expect(smoothingCost(problem, smoothed), `seed ${seed}`).toBeCloseTo(bruteForceOptimum(problem), 5);
    }
  });

  it("leaves monotone input with zero penalties unchanged", () => {
    const parent = Int32Array.from([-1, 0, 0, 1, 1, 2]);
    const scores = Float32Array.from([0.1, 0.2, 0.5, 0.3, 0.9, 0.5]);
    const smoothed = isotonicSmooth({ parent, scores, weights: new Float32Array(6).fill(1), penalties: new Float32Array(6) });
    expect(Array.from(smoothed)).toEqual(Array.from(scores));
  });

  it("merges a noisy leaf into its parent's segment when a segment costs more than the disagreement", () => {
    // A navigation list (high scores) with one low-scoring item: the item follows its list.
    const parent = Int32Array.from([-1, 0, 1, 1, 1, 1]);
    const scores = Float32Array.from([0, 0.9, 0.9, 0.9, 0.2, 0.9]);
    const weights = Float32Array.from([2, 1, 1, 1, 1, 1]);
    const smoothed = isotonicSmooth({ parent, scores, weights, penalties: new Float32Array(6).fill(1) });
    expect(Array.from(smoothed).map((value) => Math.round(value * 10) / 10)).toEqual([0, 0.9, 0.9, 0.9, 0.9, 0.9]);
  });

  it("gives every block the level of the full cost table, leaves it shortcuts included, ties and odd values too", () => {
    const random = randomSource(31);
    const odd = [0, -0, 1e-40, Infinity, NaN];
    for (let trial = 0; trial < 3000; trial++) {
      const problem = randomProblem(random, 1 + Math.floor(random() * 40), 1 + Math.floor(random() * 32));
      if (trial % 5 === 0) {
        for (const values of [problem.scores, problem.weights, problem.penalties] as Float32Array[]) {
          if (random() < 0.5) values[Math.floor(random() * values.length)] = odd[Math.floor(random() * odd.length)];
        }
      }
      expect(Array.from(isotonicSmooth(problem)), `trial ${trial}`).toEqual(Array.from(fullTableSmooth(problem)));
    }
  });

  it("keeps the optimum of a 3,000-block tree with quantised scores equal to a slower reference", () => {
    const random = randomSource(7);
    const problem = randomProblem(random, 3000, 32);
    const smoothed = isotonicSmooth(problem);
    expect(isMonotone(problem.parent, smoothed)).toBe(true);
    // Reference: the same optimum is found when every block's candidate set is all of [0, 1] in 1/64 steps,
    // a superset of the input scores, computed by the plain O(n K^2) recursion.
    expect(smoothingCost(problem, smoothed)).toBeCloseTo(referenceOptimum(problem, 64), 3);
  });
});

/** isotonicSmooth as it was before its leaf shortcut: every block's cost row kept, every level choice read from it. */
function fullTableSmooth({ parent, scores, weights, penalties }: SmoothingProblem): Float32Array {
  const count = parent.length;
  const levels = distinctLevels(scores);
  const width = levels.length;
  const cost = new Float64Array(count * width);
  for (let i = count - 1; i >= 0; i--) {
    for (let k = 0; k < width; k++) cost[i * width + k] += weights[i] * Math.abs(scores[i] - levels[k]);
    if (i === 0) break;
    let suffixMin = Infinity;
    for (let k = width - 1; k >= 0; k--) {
      const own = cost[i * width + k];
      const jump = penalties[i] + suffixMin;
      cost[parent[i] * width + k] += own < jump ? own : jump;
      if (own < suffixMin) suffixMin = own;
    }
  }
  const levelOf = new Int32Array(count);
  for (let k = 1; k < width; k++) if (cost[k] < cost[levelOf[0]]) levelOf[0] = k;
  for (let i = 1; i < count; i++) {
    const up = levelOf[parent[i]];
    let best = Infinity;
    let bestLevel = -1;
    for (let k = up + 1; k < width; k++) if (cost[i * width + k] < best) [best, bestLevel] = [cost[i * width + k], k];
    levelOf[i] = best + penalties[i] < cost[i * width + up] ? bestLevel : up;
  }
  return Float32Array.from(levelOf, (level) => levels[level]);
}

/** Plain O(n K^2) dynamic programme over an explicit grid of candidate values (reference for large trees). */
function referenceOptimum(problem: SmoothingProblem, steps: number): number {
  const grid = Array.from({ length: steps + 1 }, (_, k) => Math.fround(k / steps));
  const count = problem.parent.length;
  const table = Array.from({ length: count }, () => new Float64Array(grid.length));
  for (let i = count - 1; i >= 0; i--) {
    for (let k = 0; k < grid.length; k++) table[i][k] += problem.weights[i] * Math.abs(problem.scores[i] - grid[k]);
    if (i === 0) break;
    const up = table[problem.parent[i]];
    for (let k = 0; k < grid.length; k++) {
      let best = table[i][k];
      for (let higher = k + 1; higher < grid.length; higher++) best = Math.min(best, problem.penalties[i] + table[i][higher]);
      up[k] += best;
    }
  }
  return Math.min(...table[0]);
}
