/**
 * npm run bench:learn [-- --runs N --sites N]
 *
 * What learning one site costs, measured in workerd (Miniflare, local R2, KV and a queue) on the dev pages of
 * ../shared/data:
 *  1. mining CPU per site, in ms, for 10, 20 and 50 pages (the queue consumer's own code, mineSampledSite;
 *     median of N runs): the two dev sites with 20+ pages, and for 50 pages those two sites' pages together,
 *     since no dev site has 50;
 *  2. the R2, KV and queue operations of learning a site (10 pages sampled one by one, then its job), counted
 *     call by call on the real bindings, and the bytes it leaves in R2 and KV, for N dragnet sites learned one
 *     after the other (the cross-site table grows with each).
 * docs/learning.md turns these figures into the arithmetic for a million sites.
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Miniflare } from "miniflare";
import type { DatasetPage } from "../src/evaluation/index";
import { integerOption, parseCommand, runCommand, type Command } from "./lib/cli";

const COMMAND: Command = {
  name: "bench:learn",
  usage: `usage: npm run bench:learn -- [--runs N] [--sites N]

What learning one site costs, in workerd (Miniflare, local R2, KV and a queue) on the dev pages of
../shared/data: mining CPU for 10, 20 and 50 pages, then the R2, KV and queue operations and the bytes of
learning N dev sites one after the other. About half a minute.

  --runs N     mining runs per row, the median printed (default 3)
  --sites N    dev sites learned for the operation counts (default 5)`,
};

const { values } = parseCommand(COMMAND, { options: { runs: { type: "string" }, sites: { type: "string" } } });
const runs = integerOption(COMMAND, "runs", values.runs, 3);
const siteCount = integerOption(COMMAND, "sites", values.sites, 5);
// Loaded after the arguments are read, so that --help and a mistyped option answer at once.
const { build } = await import("esbuild");
const { Miniflare: MiniflareClass } = await import("miniflare");
const { groupBySite, hasData, loadDataset } = await import("../src/evaluation/index");
const { siteKeyOfLabel } = await import("../src/rules/index");

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const PAGE_COUNTS = [10, 20, 50] as const;
/** Pages sampled per site in the operations count (LEARN_MIN_PAGES' default: the 10th sample enqueues the job). */
const LEARNED_PAGES = 10;

interface MineAnswer {
  readonly milliseconds: number;
  readonly candidates: number;
  readonly rules: number;
  readonly problems: string[];
}

interface LearnAnswer {
  readonly sampling: Record<string, number>;
  readonly job: Record<string, number>;
  readonly state: { readonly status: string; readonly rules?: number; readonly revision?: number; readonly error?: string };
  readonly stored: Record<string, number>;
  readonly kvBytes: number;
}

async function bundle(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [resolve(REPO_ROOT, entry)],
    bundle: true, format: "esm", platform: "neutral", target: "es2022", mainFields: ["module", "main"],
    conditions: ["workerd", "worker", "browser"], external: ["node:*", "cloudflare:*"], write: false, logLevel: "silent",
  });
  return result.outputFiles[0].text;
}

/** The compatibility settings of wrangler.toml (the file is ours: simple patterns read it). */
function compatibility(): { compatibilityDate: string; compatibilityFlags: string[] } {
  const toml = readFileSync(resolve(REPO_ROOT, "wrangler.toml"), "utf8");
  const date = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(toml)?.[1] ?? "2026-04-01";
  const flags = /^compatibility_flags\s*=\s*\[([^\]]*)\]/m.exec(toml)?.[1] ?? "";
  return { compatibilityDate: date, compatibilityFlags: [...flags.matchAll(/"([^"]+)"/g)].map((match) => match[1]) };
}

async function post<T>(miniflare: Miniflare, path: string, body: unknown): Promise<T> {
  const response = await miniflare.dispatchFetch(`http://bench.test${path}`, { method: "POST", body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const kilobytes = (pages: readonly DatasetPage[]) => Math.round(pages.reduce((sum, page) => sum + page.html.length, 0) / 1024);

async function benchMining(miniflare: Miniflare, bySite: Map<string, DatasetPage[]>, runs: number): Promise<void> {
  const large = [...bySite.entries()].filter(([, pages]) => pages.length >= 20).sort((a, b) => b[1].length - a[1].length);
  console.log(`\nMining CPU per site in workerd (mineSampledSite, median of ${runs} runs; HTML in KB of decoded text)`);
  console.log("site                                pages   HTML KB   candidates  rules    ms");
  const rows: [string, DatasetPage[]][] = [];
  for (const [site, pages] of large) for (const count of PAGE_COUNTS) if (count <= pages.length) rows.push([site, pages.slice(0, count)]);
  const together = large.flatMap(([, pages]) => pages).slice(0, 50);
  if (together.length === 50) rows.push([`${large.map(([site]) => site).join(" + ")}`, together]);
  for (const [site, pages] of rows) {
    const times: number[] = [];
    let answer: MineAnswer | null = null;
    for (let run = 0; run < runs; run++) {
      answer = await post<MineAnswer>(miniflare, "/mine", { site: "bench.example", pages: pages.map((page) => page.html), repeat: 1 });
      times.push(answer.milliseconds);
    }
    const label = site.length > 34 ? `${site.slice(0, 33)}…` : site;
    console.log(`${label.padEnd(34)} ${String(pages.length).padStart(6)} ${String(kilobytes(pages)).padStart(9)} ${String(answer!.candidates).padStart(12)} ${String(answer!.rules).padStart(6)} ${median(times).toFixed(0).padStart(5)}`);
  }
}

function total(counts: Record<string, number>, names: readonly string[]): number {
  return names.reduce((sum, name) => sum + (counts[name] ?? 0), 0);
}

/** R2 class A (writes and lists) and class B (reads) operations, KV reads and writes, queue sends. */
function operations(counts: Record<string, number>): string {
  const classA = total(counts, ["R2.put", "R2.list", "R2.delete", "R2.createMultipartUpload"]);
  const classB = total(counts, ["R2.get", "R2.head"]);
  return `R2 A ${classA}, R2 B ${classB}, KV read ${total(counts, ["KV.get"])}, KV write ${total(counts, ["KV.put", "KV.delete"])}, queue ${total(counts, ["Queue.send", "Queue.sendBatch"])}`;
}

async function benchOperations(miniflare: Miniflare, bySite: Map<string, DatasetPage[]>, siteCount: number): Promise<void> {
  // Sampling keeps one page per URL: sites whose dev pages have no URLs would keep one page.
  const withUrls = (pages: readonly DatasetPage[]) => [...new Map(pages.filter((page) => page.url !== "").map((page) => [page.url, page])).values()];
  const sites = [...bySite.entries()].map(([site, pages]) => [site, withUrls(pages)] as const).filter(([, pages]) => pages.length >= LEARNED_PAGES).slice(0, siteCount);
  console.log(`\nLearning one site on real local bindings: ${LEARNED_PAGES} pages sampled one by one (the 10th enqueues the job), then the job`);
  let tableBefore = 0;
  let learned = 0;
  for (const [label, pages] of sites) {
    const site = siteKeyOfLabel(label, pages.map((page) => page.url));
    const answer = await post<LearnAnswer>(miniflare, "/learn", {
      site, pages: pages.slice(0, LEARNED_PAGES).map((page) => ({ url: page.url, html: page.html })), minPages: String(LEARNED_PAGES),
    });
    const { stored } = answer;
    console.log(`${site}: job ${answer.state.status}, ${answer.state.rules ?? 0} rules, revision ${answer.state.revision ?? "-"}${answer.state.error ? ` (${answer.state.error})` : ""}`);
    console.log(`  sampling ${LEARNED_PAGES} pages: ${operations(answer.sampling)}   (calls: ${JSON.stringify(answer.sampling)})`);
    console.log(`  the job:            ${operations(answer.job)}   (${JSON.stringify(answer.job)})`);
    console.log(`  stored: pages ${stored.pages} B, history ${stored.history} B, job ${stored.job} B, contribution ${stored.contribution} B, KV value ${answer.kvBytes} B; cross-site table ${stored.crossSiteTable} B (+${stored.crossSiteTable - tableBefore} B)`);
    tableBefore = stored.crossSiteTable;
    if (answer.state.revision !== undefined) learned += 1;
  }
  console.log(`\ncross-site table after ${learned} learned sites: ${tableBefore} B in 16 shards, ${Math.round(tableBefore / Math.max(1, learned))} B a site (every job reads all of it)`);
}

async function main(): Promise<number> {
  if (!hasData()) {
    process.stderr.write("npm run bench:learn: ../shared/data is not beside the repository (the dev pages it mines)\n");
    return 1;
  }
  const bySite = new Map<string, DatasetPage[]>();
  for (const set of ["dragnet", "cleanportaleval"]) for (const [site, pages] of groupBySite(loadDataset(set).pages)) bySite.set(site, pages);
  const miniflare = new MiniflareClass({
    modules: true,
    script: await bundle("scripts/bench-learn-worker.ts"),
    ...compatibility(),
    r2Buckets: ["PAGES"],
    kvNamespaces: ["RULES"],
    queueProducers: { MINE_QUEUE: "edge-cleaner-mine" },
  });
  try {
    await miniflare.ready;
    await benchMining(miniflare, bySite, runs);
    await benchOperations(miniflare, bySite, siteCount);
  } finally {
    await miniflare.dispose();
  }
  return 0;
}

await runCommand(COMMAND, main);
