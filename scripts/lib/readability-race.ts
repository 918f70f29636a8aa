/**
 * `npm run bench -- --vs-readability`: clean() to text and Readability.js (on linkedom, as the evaluations run it)
 * in one Node process over the same pages, alternating page by page and which goes first, so that the machine's
 * load falls on both alike. Each page's time is the mean of RUNS runs of each; the figure is the median of the
 * per-page ratios (Readability's time over ours), overall and per set, with the absolute medians beside it.
 */
import { readFileSync } from "node:fs";
import { HTMLRewriter } from "html-rewriter-wasm";
import { parseModel } from "../../src/classify/index";
import { clean } from "../../src/clean";
import type { DatasetPage } from "../../src/evaluation/index";
import { createWasmBackend } from "../../src/runtime/index";
import { SHIPPED_MODEL } from "./paths";
import { createProgress } from "./progress";
import { readabilityText } from "./readability";

/** Runs per page and system; the page's time is their mean. */
const RUNS = 3;
/** Pages run once by both before timing, so that both have compiled their hot code. */
const WARMUP_PAGES = 30;

interface PageTimes {
  readonly set: string;
  readonly ours: number;
  readonly readability: number;
}

async function timed(run: () => unknown): Promise<number> {
  const start = performance.now();
  for (let n = 0; n < RUNS; n++) await run();
  return (performance.now() - start) / RUNS;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function summary(label: string, times: readonly PageTimes[]): string {
  const ratios = times.map((page) => page.readability / page.ours);
  const ours = median(times.map((page) => page.ours));
  const theirs = median(times.map((page) => page.readability));
  return `${label.padEnd(18)} ${String(times.length).padStart(5)} ${median(ratios).toFixed(1).padStart(8)}×` +
    `${ours.toFixed(2).padStart(11)}${theirs.toFixed(2).padStart(15)}`;
}

/** Races the two on every page; prints the table; returns the exit code. */
export async function raceReadability(pages: readonly DatasetPage[]): Promise<number> {
  const backend = createWasmBackend(HTMLRewriter);
  const parsed = parseModel(JSON.parse(readFileSync(SHIPPED_MODEL, "utf8")));
  const model = parsed.ok ? parsed.model : null;
  const ours = async (page: DatasetPage) => {
    const result = await clean({ html: page.html, site: page.site, format: "text", ruleSet: null, model, rewriter: backend });
    if (!result.ok) throw new Error(`${page.set}/${page.id}: ${result.bailout} ${result.detail}`);
  };
  const theirs = (page: DatasetPage) => readabilityText(page.html);
  for (const page of pages.slice(0, WARMUP_PAGES)) {
    await ours(page);
    theirs(page);
  }
  const progress = createProgress("vs-readability", pages.length);
  const times: PageTimes[] = [];
  for (const [n, page] of pages.entries()) {
    const first = n % 2 === 0 ? "ours" : "readability";
    const a = await timed(() => (first === "ours" ? ours(page) : theirs(page)));
    const b = await timed(() => (first === "ours" ? theirs(page) : ours(page)));
    times.push({ set: page.set, ours: first === "ours" ? a : b, readability: first === "ours" ? b : a });
    progress.step(n + 1, "pages");
  }
  progress.finish();
  console.log(`clean() to text (classifier, html-rewriter-wasm) against Readability.js on linkedom, one Node process, ` +
    `alternating page by page; each page the mean of ${RUNS} runs of each. ` +
    "Speed-up: the median of per-page ratios (Readability's time over ours); ms: medians over pages.");
  console.log(`${"set".padEnd(18)} ${"pages".padStart(5)} ${"speed-up".padStart(9)} ${"ours ms".padStart(10)} ${"Readability ms".padStart(14)}`);
  for (const set of new Set(pages.map((page) => page.set))) console.log(summary(set, times.filter((page) => page.set === set)));
  console.log(summary("all", times));
  return 0;
}
