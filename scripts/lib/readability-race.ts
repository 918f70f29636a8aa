/**
 * `npm run bench -- --vs-readability`: clean() to text and Readability.js (on linkedom, as the evaluations run it)
 * in one Node process over the same decoded strings, timing what a user pays: each page cleaned once per round by
 * each system. A round visits every page once; the next round starts ROUNDS-th of the way further along, so no
 * system meets the same page twice in a row (a cache across different pages counts, as a server has one; a repeat of
 * the same page does not). Within a page, which system goes first alternates. A page's time is the median of its
 * rounds; the figure is the median of per-page ratios (Readability's time over ours), overall and per set. The spread
 * is each round's own median speed-up per set, as min-max over the rounds.
 *
 * Garbage collection is timed apart (a PerformanceObserver on "gc" entries, each charged to the run it started in): the
 * two systems' share of collector time is part of the answer to why harnesses disagree.
 */
import { readFileSync } from "node:fs";
import { PerformanceObserver } from "node:perf_hooks";
import { HTMLRewriter } from "html-rewriter-wasm";
import { parseModel } from "../../src/classify/index";
import { clean } from "../../src/clean";
import type { DatasetPage } from "../../src/evaluation/index";
import { createWasmBackend } from "../../src/runtime/index";
import { SHIPPED_MODEL } from "./paths";
import { createProgress } from "./progress";
import { readabilityText } from "./readability";

/** Rounds: each page is cleaned once per round by each system; its time is the median over rounds. */
const ROUNDS = 5;
/** Pages run once by both before timing, so that both have compiled their hot code; round 1 meets them last. */
const WARMUP_PAGES = 30;

const SYSTEMS = ["ours", "readability"] as const;
type System = (typeof SYSTEMS)[number];

/** Milliseconds per page (index) and round, for each system; collector milliseconds inside those runs beside them. */
interface RaceTimes {
  readonly run: Record<System, Float64Array[]>;
  readonly collector: Record<System, Float64Array[]>;
}

function median(values: ArrayLike<number>): number {
  const sorted = Float64Array.from(values).sort();
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Collections seen while the race runs: when each started and how long it took (ms on the performance clock). */
function collectorLog(): { entries: { startTime: number; duration: number }[]; stop(): void } {
  const entries: { startTime: number; duration: number }[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) entries.push({ startTime: entry.startTime, duration: entry.duration });
  });
  observer.observe({ entryTypes: ["gc"] });
  return { entries, stop: () => observer.disconnect() };
}

/** The collector time that started inside [start, end), summed: `starts` sorted, `ends` its running sums. */
function collectedWithin(starts: Float64Array, sums: Float64Array, start: number, end: number): number {
  const firstAtOrAfter = (time: number) => {
    let low = 0;
    let high = starts.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (starts[middle] < time) low = middle + 1;
      else high = middle;
    }
    return low;
  };
  return sums[firstAtOrAfter(end)] - sums[firstAtOrAfter(start)];
}

/** The order of round `round`: every page once, starting `round`/ROUNDS of the way along, past the warm-up pages. */
function roundOrder(count: number, round: number): number[] {
  const start = (WARMUP_PAGES + Math.floor((round * count) / ROUNDS)) % count;
  return Array.from({ length: count }, (_, step) => (start + step) % count);
}

async function race(pages: readonly DatasetPage[], systems: Record<System, (page: DatasetPage) => Promise<unknown>>): Promise<RaceTimes> {
  const perRound = () => Array.from({ length: ROUNDS }, () => new Float64Array(pages.length));
  const times: RaceTimes = { run: { ours: perRound(), readability: perRound() }, collector: { ours: perRound(), readability: perRound() } };
  const started = { ours: perRound(), readability: perRound() };
  const log = collectorLog();
  const progress = createProgress("vs-readability", ROUNDS * pages.length);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [step, index] of roundOrder(pages.length, round).entries()) {
      const order = (index + round) % 2 === 0 ? SYSTEMS : ([...SYSTEMS].reverse() as System[]);
      for (const system of order) {
        const start = performance.now();
        await systems[system](pages[index]);
        started[system][round][index] = start;
        times.run[system][round][index] = performance.now() - start;
      }
      progress.step(round * pages.length + step + 1, `round ${round + 1}`);
    }
  }
  progress.finish();
  // Entries are delivered some time after their collection: wait for the last ones before charging them to runs.
  await new Promise((resolve) => setTimeout(resolve, 100));
  log.stop();
  const entries = [...log.entries].sort((a, b) => a.startTime - b.startTime);
  const starts = Float64Array.from(entries, (entry) => entry.startTime);
  const sums = new Float64Array(entries.length + 1);
  entries.forEach((entry, n) => { sums[n + 1] = sums[n] + entry.duration; });
  for (const system of SYSTEMS) {
    for (let round = 0; round < ROUNDS; round++) {
      for (let index = 0; index < pages.length; index++) {
        const start = started[system][round][index];
        times.collector[system][round][index] = collectedWithin(starts, sums, start, start + times.run[system][round][index]);
      }
    }
  }
  return times;
}

/** Per-page medians over rounds of one system's series. */
function pageMedians(series: readonly Float64Array[], indexes: readonly number[]): number[] {
  return indexes.map((index) => median(series.map((round) => round[index])));
}

function row(label: string, times: RaceTimes, indexes: readonly number[]): string {
  const ours = pageMedians(times.run.ours, indexes);
  const theirs = pageMedians(times.run.readability, indexes);
  const speedUp = median(indexes.map((_, n) => theirs[n] / ours[n]));
  const perRound = times.run.ours.map((round, r) => median(indexes.map((index) => times.run.readability[r][index] / round[index])));
  const collectorShare = (system: System) => {
    let collecting = 0;
    let running = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (const index of indexes) {
        collecting += times.collector[system][round][index];
        running += times.run[system][round][index];
      }
    }
    return running > 0 ? collecting / running : 0;
  };
  return `${label.padEnd(18)} ${String(indexes.length).padStart(5)} ${speedUp.toFixed(1).padStart(8)}×` +
    `${`${Math.min(...perRound).toFixed(1)}-${Math.max(...perRound).toFixed(1)}×`.padStart(13)}` +
    `${median(ours).toFixed(2).padStart(9)}${median(theirs).toFixed(2).padStart(15)}` +
    `${`${(100 * collectorShare("ours")).toFixed(0)}% / ${(100 * collectorShare("readability")).toFixed(0)}%`.padStart(13)}`;
}

/** Races the two on every page; prints the table; returns the exit code. */
export async function raceReadability(pages: readonly DatasetPage[]): Promise<number> {
  const backend = createWasmBackend(HTMLRewriter);
  const parsed = parseModel(JSON.parse(readFileSync(SHIPPED_MODEL, "utf8")));
  const model = parsed.ok ? parsed.model : null;
  const systems: Record<System, (page: DatasetPage) => Promise<unknown>> = {
    async ours(page) {
      const result = await clean({ html: page.html, site: page.site, format: "text", ruleSet: null, model, rewriter: backend });
      if (!result.ok) throw new Error(`${page.set}/${page.id}: ${result.bailout} ${result.detail}`);
    },
    async readability(page) {
      return readabilityText(page.html);
    },
  };
  for (const page of pages.slice(0, WARMUP_PAGES)) for (const system of SYSTEMS) await systems[system](page);
  const times = await race(pages, systems);
  console.log(`clean() to text (classifier, html-rewriter-wasm) against Readability.js on linkedom, one Node process, the same ` +
    `decoded string to both. ${ROUNDS} rounds; a round cleans every page once with each system (which goes first alternates), ` +
    "and starts further along than the last, so no page is met twice in a row. A page's time is its median over rounds; " +
    "speed-up: the median of per-page ratios (Readability's time over ours); rounds: the range of each round's own " +
    "median speed-up; ms: medians over pages; gc: the share of each system's time spent collecting garbage.");
  console.log(`${"set".padEnd(18)} ${"pages".padStart(5)} ${"speed-up".padStart(9)} ${"rounds".padStart(12)}` +
    `${"ours ms".padStart(9)}${"Readability ms".padStart(15)}${"gc ours/R.".padStart(13)}`);
  const indexesOf = (set: string | null) => pages.flatMap((page, index) => (set === null || page.set === set ? [index] : []));
  for (const set of new Set(pages.map((page) => page.set))) console.log(row(set, times, indexesOf(set)));
  console.log(row("all", times, indexesOf(null)));
  return 0;
}
