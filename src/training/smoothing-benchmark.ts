import { isotonicSmooth, type SmoothingProblem } from "../classify/index";

/** What one smoothing micro-benchmark measured. */
export interface SmoothingBenchmark {
  readonly blocks: number;
  readonly levels: number;
  readonly medianMs: number;
  readonly p95Ms: number;
}

/**
 * Times isotonic smoothing on a random tree of `blocks` blocks with scores on `levels` distinct values
 * (the classifier's quantisation), `repeats` runs after a warm-up. Exported for `npm run bench` and
 * printed by `npm run train`.
 */
export function benchmarkSmoothing(blocks = 3000, levels = 32, repeats = 200): SmoothingBenchmark {
  const problem = randomTree(blocks, levels);
  for (let i = 0; i < 20; i++) isotonicSmooth(problem);
  const times = new Float64Array(repeats);
  for (let i = 0; i < repeats; i++) {
    const start = performance.now();
    isotonicSmooth(problem);
    times[i] = performance.now() - start;
  }
  times.sort();
  return { blocks, levels, medianMs: times[repeats >> 1], p95Ms: times[Math.floor(repeats * 0.95)] };
}

/** A random tree shaped like a page (parents chosen among recent blocks), seeded for repeatability. */
function randomTree(blocks: number, levels: number): SmoothingProblem {
  let state = 12345;
  const random = (): number => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 4294967296;
  };
  const parent = new Int32Array(blocks);
  parent[0] = -1;
  for (let i = 1; i < blocks; i++) parent[i] = Math.max(0, i - 1 - Math.floor(random() * Math.min(i, 8)));
  const scores = new Float32Array(blocks);
  const weights = new Float32Array(blocks);
  const penalties = new Float32Array(blocks);
  for (let i = 0; i < blocks; i++) {
    scores[i] = Math.floor(random() * levels) / levels;
    weights[i] = 1 + Math.floor(random() * 100);
    penalties[i] = random() * 5;
  }
  return { parent, scores, weights, penalties };
}
