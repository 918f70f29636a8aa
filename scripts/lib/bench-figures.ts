/**
 * What `npm run bench` and its comparison of two revisions (bench-against.ts) share: how workerd pages are run and
 * how their times are summed up.
 */

/**
 * Runs per page in workerd, where performance.now() has 1 ms steps, so that a page's time has steps of 1/runs ms: 20
 * pipeline runs give 0.05 ms (about 2% of the median page's), 100 bare passes 0.01 ms (4%; 20 gave 0.05 ms, a fifth of
 * the bare median, and the ratio of the medians moved by as much between runs).
 */
export const WORKERD_REPEAT = 20;
export const WORKERD_BARE_REPEAT = 100;
/** Pages run once before timing, so that the engine has compiled the hot code. */
export const WARMUP_PAGES = 30;
/** Pages sent to a bench Worker at a time (they are held in isolate memory). */
export const WORKERD_BATCH = 40;
/** clean()'s stages, in order (CleanResult.timings). */
export const BENCH_STAGES = ["analyse", "rules", "classify", "smooth", "decide", "rewrite", "format"] as const;
/** The Free plan's CPU limit per request, and a page five times past it: pages over each are counted. */
export const CPU_LIMITS_MS = [10, 50] as const;

/** The value at `share` (0 to 1) of the sorted values, nearest rank. */
export function percentile(values: readonly number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))];
}

/** A row of a page-time table: the label, then the median, p95, p99 and max of the values (ms). */
export function timeRow(label: string, values: readonly number[]): string {
  const columns = [0.5, 0.95, 0.99, 1].map((share) => percentile(values, share).toFixed(2).padStart(9));
  return `${label.padEnd(26)} ${columns.join(" ")}`;
}

/** The heading of timeRow's columns, on a line of its own after a blank one. */
export const TIME_HEADING = `\n${"".padEnd(26)} ${["median ms", "p95 ms", "p99 ms", "max ms"].map((title) => title.padStart(9)).join(" ")}`;

export function overLimits(values: readonly number[]): string {
  return CPU_LIMITS_MS.map((limit) => `${values.filter((value) => value > limit).length} over ${limit} ms`).join(", ");
}

/** Each stage's mean milliseconds per run and its share, from the stages' sums over `runs` runs. */
export function stageShares(stages: Readonly<Record<string, number>>, runs: number): string {
  const total = BENCH_STAGES.reduce((sum, stage) => sum + (stages[stage] ?? 0), 0);
  return BENCH_STAGES.map((stage) => {
    const value = stages[stage] ?? 0;
    return `${stage} ${(value / runs).toFixed(2)} (${((100 * value) / total).toFixed(0)}%)`;
  }).join(", ");
}
