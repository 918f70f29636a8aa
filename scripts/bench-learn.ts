/**
 * npm run bench:learn [-- --runs N --dev-sites N --sites N[,N…] --jobs N --rounds N]
 *
 * What learning one site costs, measured in workerd (Miniflare, local R2, KV, a queue and SQLite-backed Durable
 * Objects) on the dev pages of ../shared/data:
 *  1. mining CPU per site, in ms, for 10, 20 and 50 pages (the queue consumer's own code, mineSampledSite;
 *     median of N runs): the two dev sites with 20+ pages, and for 50 pages those two sites' pages together,
 *     since no dev site has 50;
 *  2. the R2, KV, queue and Durable Object operations of learning a site (10 pages sampled one by one, then its
 *     job), counted call by call on the real bindings, and the bytes it leaves in R2 and KV, for N dev sites;
 *  3. the cross-site table at scale: a table for each N of --sites, built of N synthetic sites' contributions
 *     (their n-grams drawn like the dev sites'), then --rounds rounds in which the tables take turns: one job
 *     alone, then --jobs dev sites' jobs at once, each measured at the table; the same load for every N.
 * docs/learning.md turns these figures into the arithmetic for a million sites.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { readFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Miniflare } from "miniflare";
import type { DatasetPage } from "../src/evaluation/index";
import { integerOption, parseCommand, runCommand, usageError, type Command } from "./lib/cli";

const COMMAND: Command = {
  name: "bench:learn",
  usage: `usage: npm run bench:learn -- [--runs N] [--dev-sites N] [--sites N[,N…]] [--jobs N] [--rounds N]

What learning one site costs, in workerd (Miniflare, local R2, KV, a queue and Durable Objects) on the dev
pages of ../shared/data: mining CPU for 10, 20 and 50 pages; the R2, KV, queue and Durable Object operations
and the bytes of learning dev sites one after the other; then the cross-site table with N synthetic sites
added (n-grams drawn like the dev sites'), one table for each N, and jobs measured against the tables in
turns (one alone, then several at once), per job: keys sent, objects touched, bytes sent and received, rows
read and written, milliseconds (median and p99), retries, and each N's figures over the first N's. Building
100,000 sites' table takes some minutes and 2 GB in a temporary folder.

  --runs N        mining runs per row, the median printed (default 3; 0 leaves the section out)
  --dev-sites N   dev sites learned for the operation counts (default 5; 0 leaves the section out)
  --sites N,…     synthetic sites in each table, in rising order (default 1000; a table of 1,000 is added
                  first as the base when N starts higher; 0 leaves the section out)
  --jobs N        jobs run at once at each N (default 8)
  --rounds N      rounds of jobs against every table (default 5)`,
};

const { values } = parseCommand(COMMAND, {
  options: { runs: { type: "string" }, "dev-sites": { type: "string" }, sites: { type: "string" }, jobs: { type: "string" }, rounds: { type: "string" } },
});
const runs = integerOption(COMMAND, "runs", values.runs, 3, 0);
const siteCount = integerOption(COMMAND, "dev-sites", values["dev-sites"], 5, 0);
const jobCount = integerOption(COMMAND, "jobs", values.jobs, 8);
const rounds = integerOption(COMMAND, "rounds", values.rounds, 5);
const syntheticCounts = (values.sites ?? "1000").split(",").map((entry) => integerOption(COMMAND, "sites", entry.trim().replace(/_/g, ""), 1000, 0));
if (syntheticCounts.some((count, index) => index > 0 && count < syntheticCounts[index - 1]!)) usageError(COMMAND, "--sites needs its counts in rising order");
// Loaded after the arguments are read, so that --help and a mistyped option answer at once.
const { build } = await import("esbuild");
const { convertV4MiniflareOptions, Miniflare: MiniflareClass } = await import("miniflare");
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
  const date = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(toml)?.[1] ?? "2026-11-17";
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

/** R2 class A (writes and lists) and class B (reads) operations, KV reads and writes, queue sends, Durable Object calls. */
function operations(counts: Record<string, number>): string {
  const classA = total(counts, ["R2.put", "R2.list", "R2.delete", "R2.createMultipartUpload"]);
  const classB = total(counts, ["R2.get", "R2.head"]);
  const objects = Object.entries(counts).filter(([name]) => name.startsWith("DO.")).reduce((sum, [, count]) => sum + count, 0);
  return `R2 A ${classA}, R2 B ${classB}, KV read ${total(counts, ["KV.get"])}, KV write ${total(counts, ["KV.put", "KV.delete"])}, queue ${total(counts, ["Queue.send", "Queue.sendBatch"])}, DO calls ${objects}`;
}

async function benchOperations(miniflare: Miniflare, bySite: Map<string, DatasetPage[]>, siteCount: number): Promise<void> {
  // Sampling keeps one page per URL: sites whose dev pages have no URLs would keep one page.
  const withUrls = (pages: readonly DatasetPage[]) => [...new Map(pages.filter((page) => page.url !== "").map((page) => [page.url, page])).values()];
  const sites = [...bySite.entries()].map(([site, pages]) => [site, withUrls(pages)] as const).filter(([, pages]) => pages.length >= LEARNED_PAGES).slice(0, siteCount);
  console.log(`\nLearning one site on real local bindings: ${LEARNED_PAGES} pages sampled one by one (the 10th enqueues the job), then the job`);
  for (const [label, pages] of sites) {
    const site = siteKeyOfLabel(label, pages.map((page) => page.url));
    const answer = await post<LearnAnswer>(miniflare, "/learn", {
      site, pages: pages.slice(0, LEARNED_PAGES).map((page) => ({ url: page.url, html: page.html })), minPages: String(LEARNED_PAGES),
    });
    const { stored } = answer;
    console.log(`${site}: job ${answer.state.status}, ${answer.state.rules ?? 0} rules, revision ${answer.state.revision ?? "-"}${answer.state.error ? ` (${answer.state.error})` : ""}`);
    console.log(`  sampling ${LEARNED_PAGES} pages: ${operations(answer.sampling)}   (calls: ${JSON.stringify(answer.sampling)})`);
    console.log(`  the job:            ${operations(answer.job)}   (${JSON.stringify(answer.job)})`);
    console.log(`  stored: pages ${stored.pages} B, history ${stored.history} B, job ${stored.job} B, KV value ${answer.kvBytes} B`);
  }
}

interface JobMeasure {
  readonly site: string;
  readonly status: string;
  readonly error?: string;
  readonly keys: number;
  readonly objects: number;
  readonly calls: number;
  readonly bytesSent: number;
  readonly bytesReceived: number;
  readonly rowsRead: number;
  readonly rowsWritten: number;
  readonly retries: number;
  readonly tableMilliseconds: number;
  readonly jobMilliseconds: number;
}

/** Sites a /synthetic request adds (about 4.8 M keys, a shard's 150,000 in one call: sorted writes in large runs). */
const SYNTHETIC_BATCH = 5000;
const SYNTHETIC_SEED = 20260101;
const BASE_SITES = 1000;

/** The SQLite files under a folder (the Durable Objects' storage), path → bytes. */
function folderFiles(folder: string, files = new Map<string, number>()): Map<string, number> {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) folderFiles(path, files);
    else files.set(path, statSync(path).size);
  }
  return files;
}

/** The dev sites' keys as a profile: keys a site, and the keys on two dev sites or more with how many have each. */
async function devProfile(miniflare: Miniflare, bySite: Map<string, DatasetPage[]>) {
  const sites = [...bySite.entries()].filter(([, pages]) => pages.length >= 4);
  const keyCounts: number[] = [];
  const seen = new Map<string, number>();
  const keysOf: Set<string>[] = [];
  for (const [site, pages] of sites) {
    const { keys } = await post<{ keys: string[] }>(miniflare, "/keys", { site, pages: pages.slice(0, LEARNED_PAGES).map((page) => page.html) });
    keyCounts.push(keys.length);
    keysOf.push(new Set(keys));
    for (const key of keys) seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  const shared = [...seen].filter(([, count]) => count >= 2).map(([key, count]) => ({ key, sites: count }));
  const shares = keysOf.map((keys) => [...keys].filter((key) => (seen.get(key) ?? 0) >= 2).length / Math.max(1, keys.size));
  const sharedShare = shares.reduce((sum, share) => sum + share, 0) / Math.max(1, shares.length);
  const sorted = [...keyCounts].sort((a, b) => a - b);
  console.log(`\nThe dev sites' n-grams (${sites.length} sites of 4+ pages, ${LEARNED_PAGES} pages each): keys a site median ${median(keyCounts)}, range ${sorted[0]}-${sorted.at(-1)}; ${shared.length} keys on 2+ dev sites, ${(100 * sharedShare).toFixed(1)} % of a site's keys`);
  return { keyCounts, shared, sharedShare };
}

/** The value below which 99 % of the values lie (nearest rank: the largest of fewer than 100). */
function p99(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(0.99 * sorted.length) - 1)]!;
}

const loadAverage = () => loadavg().map((value) => value.toFixed(1)).join(" ");

interface TableFigures {
  readonly keys: number;
  readonly objects: number;
  readonly sentKB: number;
  readonly receivedKB: number;
  readonly rowsRead: number;
  readonly rowsWritten: number;
  readonly tableMs: number;
  readonly tableP99: number;
  readonly jobMs: number;
  readonly jobP99: number;
  readonly aloneMs: number;
  readonly aloneP99: number;
  readonly retries: number;
  readonly failed: number;
  readonly jobs: number;
}

function figures(together: readonly JobMeasure[], alone: readonly JobMeasure[]): TableFigures {
  const all = [...together, ...alone];
  const pick = (value: (row: JobMeasure) => number) => median(together.map(value));
  return {
    keys: pick((row) => row.keys), objects: pick((row) => row.objects), sentKB: pick((row) => row.bytesSent) / 1024, receivedKB: pick((row) => row.bytesReceived) / 1024,
    rowsRead: pick((row) => row.rowsRead), rowsWritten: pick((row) => row.rowsWritten),
    tableMs: pick((row) => row.tableMilliseconds), tableP99: p99(together.map((row) => row.tableMilliseconds)),
    jobMs: pick((row) => row.jobMilliseconds), jobP99: p99(together.map((row) => row.jobMilliseconds)),
    aloneMs: median(alone.map((row) => row.tableMilliseconds)), aloneP99: p99(alone.map((row) => row.tableMilliseconds)),
    retries: all.reduce((sum, row) => sum + row.retries, 0), failed: all.filter((row) => row.status !== "done").length, jobs: all.length,
  };
}

/**
 * The cross-site table at scale: one table per N of --sites, each built to its N synthetic sites (setup, not
 * measured), then the same jobs measured against every table in turns, so that every N sees the same machine:
 * each round runs, table after table (the order reversed every other round), one job alone and then --jobs jobs
 * at once, each dev site's pages sampled beforehand under a new name (a first contribution every time).
 */
async function benchTable(miniflare: Miniflare, bySite: Map<string, DatasetPage[]>, persist: string): Promise<void> {
  const profile = await devProfile(miniflare, bySite);
  const withUrls = (pages: readonly DatasetPage[]) => [...new Map(pages.filter((page) => page.url !== "").map((page) => [page.url, page])).values()];
  const jobSites = [...bySite.entries()].map(([site, pages]) => [site, withUrls(pages)] as const).filter(([, pages]) => pages.length >= LEARNED_PAGES).slice(0, jobCount);
  // The base every N is compared with: 1,000 sites, measured in the same run when --sites starts higher.
  const given = syntheticCounts.filter((count) => count > 0);
  const sizes = [...new Set(given[0]! > BASE_SITES ? [BASE_SITES, ...given] : given)];
  const tableOf = (size: number) => `n${size}`;
  console.log(`\nThe cross-site table at scale: a table for each N (${sizes.map((size) => size.toLocaleString("en-US")).join(", ")} synthetic sites), then ${rounds} rounds of jobs against each table in turns`);
  const tableBytes = new Map<number, number>();
  for (const size of sizes) {
    const before = folderFiles(persist);
    const started = performance.now();
    let rowsWritten = 0;
    let applyMilliseconds = 0;
    for (let added = 0; added < size;) {
      const count = Math.min(SYNTHETIC_BATCH, size - added);
      const answer = await post<{ rowsWritten: number; milliseconds: number }>(miniflare, "/synthetic", { table: tableOf(size), size, from: added, count, seed: SYNTHETIC_SEED, profile });
      rowsWritten += answer.rowsWritten;
      applyMilliseconds += answer.milliseconds;
      added += count;
      process.stderr.write(`  N = ${size.toLocaleString("en-US")}: ${added.toLocaleString("en-US")} synthetic sites in the table, ${((performance.now() - started) / 1000).toFixed(0)} s\r`);
    }
    process.stderr.write("\n");
    const bytes = [...folderFiles(persist)].reduce((sum, [path, size]) => sum + size - (before.get(path) ?? 0), 0);
    tableBytes.set(size, bytes);
    console.log(`N = ${size.toLocaleString("en-US")}: built in ${((performance.now() - started) / 1000).toFixed(0)} s (${(applyMilliseconds / 1000).toFixed(0)} s in the objects' calls), ${rowsWritten.toLocaleString("en-US")} rows written, SQLite files ${(bytes / 2 ** 20).toFixed(0)} MB; load average ${loadAverage()}`);
  }

  // Every job's pages sampled first (R2 and the sample gates; not measured), under a name of its round and table.
  const names = (round: number, size: number) => ({
    alone: `r${round}.${tableOf(size)}.alone.${jobSites[0]![0]}`,
    together: jobSites.map(([site]) => `r${round}.${tableOf(size)}.${site}`),
  });
  for (let round = 0; round < rounds; round++) {
    for (const size of sizes) {
      const { alone, together } = names(round, size);
      for (const [name, pages] of [[alone, jobSites[0]![1]] as const, ...jobSites.map(([, pages], index) => [together[index]!, pages] as const)]) {
        await post(miniflare, "/sample", { site: name, pages: pages.slice(0, LEARNED_PAGES).map((page) => ({ url: page.url, html: page.html })) });
      }
    }
  }

  console.log(`\nRounds: one job alone, then ${jobSites.length} dev sites' jobs (${LEARNED_PAGES} pages each) at once in one isolate, at each table in turns`);
  console.log("(per job: keys sent to the table, objects touched, KB sent and received, SQLite rows read and written, ms from its first table call to its last answer, ms of the whole job)");
  console.log("round         N  alone table ms  at once: keys objects  sent KB  recv KB  rows read  written  table ms median/max  job ms median/max  retries  failed");
  const loadBefore = loadAverage();
  const together = new Map(sizes.map((size) => [size, [] as JobMeasure[]]));
  const alone = new Map(sizes.map((size) => [size, [] as JobMeasure[]]));
  for (let round = 0; round < rounds; round++) {
    for (const size of round % 2 === 0 ? sizes : [...sizes].reverse()) {
      const { alone: aloneName, together: togetherNames } = names(round, size);
      const solo = (await post<{ jobs: JobMeasure[] }>(miniflare, "/jobs", { table: tableOf(size), sites: [aloneName] })).jobs;
      const { jobs } = await post<{ jobs: JobMeasure[] }>(miniflare, "/jobs", { table: tableOf(size), sites: togetherNames });
      alone.get(size)!.push(...solo);
      together.get(size)!.push(...jobs);
      for (const job of [...solo, ...jobs]) if (job.error) console.log(`  ${job.site}: ${job.status} (${job.error})`);
      const row = figures(jobs, solo);
      const tableMax = Math.max(...jobs.map((job) => job.tableMilliseconds));
      const jobMax = Math.max(...jobs.map((job) => job.jobMilliseconds));
      console.log(`${String(round + 1).padStart(5)} ${size.toLocaleString("en-US").padStart(9)} ${row.aloneMs.toFixed(0).padStart(15)} ${String(row.keys).padStart(15)} ${String(row.objects).padStart(7)} ${row.sentKB.toFixed(1).padStart(8)} ${row.receivedKB.toFixed(1).padStart(8)} ${String(row.rowsRead).padStart(10)} ${String(row.rowsWritten).padStart(8)} ${`${row.tableMs.toFixed(0)} / ${tableMax.toFixed(0)}`.padStart(20)} ${`${row.jobMs.toFixed(0)} / ${jobMax.toFixed(0)}`.padStart(18)} ${String(row.retries).padStart(8)} ${String(row.failed).padStart(7)}`);
    }
  }
  const loadAfter = loadAverage();

  const rows = sizes.map((size) => [size, figures(together.get(size)!, alone.get(size)!)] as const);
  console.log(`\nPer job over the ${rounds} rounds at each N (the ${jobSites.length} at once: median and p99 of ${rounds * jobSites.length} jobs; alone: of ${rounds}); retries and failed jobs are totals over all ${rounds * (jobSites.length + 1)} jobs`);
  console.log(`load average (1, 5, 15 min) before the rounds ${loadBefore}, after ${loadAfter}`);
  console.log("        N   keys objects  sent KB  recv KB  rows read  written  table ms med / p99  job ms med / p99  alone table ms med / p99  retries  failed  SQLite MB");
  for (const [size, row] of rows) {
    console.log(`${size.toLocaleString("en-US").padStart(9)} ${String(row.keys).padStart(6)} ${String(row.objects).padStart(7)} ${row.sentKB.toFixed(1).padStart(8)} ${row.receivedKB.toFixed(1).padStart(8)} ${String(row.rowsRead).padStart(10)} ${String(row.rowsWritten).padStart(8)} ${`${row.tableMs.toFixed(0)} / ${row.tableP99.toFixed(0)}`.padStart(19)} ${`${row.jobMs.toFixed(0)} / ${row.jobP99.toFixed(0)}`.padStart(17)} ${`${row.aloneMs.toFixed(0)} / ${row.aloneP99.toFixed(0)}`.padStart(25)} ${String(row.retries).padStart(8)} ${String(row.failed).padStart(7)} ${((tableBytes.get(size) ?? 0) / 2 ** 20).toFixed(0).padStart(10)}`);
  }
  const [smallest, base] = rows[0]!;
  for (const [size, row] of rows.slice(1)) {
    const ratio = (name: keyof TableFigures) => (row[name] / Math.max(1e-9, base[name])).toFixed(2);
    console.log(`${size.toLocaleString("en-US")} / ${smallest.toLocaleString("en-US")}: sent KB ${ratio("sentKB")}, received KB ${ratio("receivedKB")}, rows read ${ratio("rowsRead")}, rows written ${ratio("rowsWritten")}, table ms ${ratio("tableMs")} (p99 ${ratio("tableP99")}), job ms ${ratio("jobMs")} (p99 ${ratio("jobP99")}), alone table ms ${ratio("aloneMs")} (p99 ${ratio("aloneP99")})`);
  }
}

async function main(): Promise<number> {
  if (!hasData()) {
    process.stderr.write("npm run bench:learn: ../shared/data is not beside the repository (the dev pages it mines)\n");
    return 1;
  }
  const bySite = new Map<string, DatasetPage[]>();
  for (const set of ["dragnet", "cleanportaleval"]) for (const [site, pages] of groupBySite(loadDataset(set).pages)) bySite.set(site, pages);
  // The objects' SQLite files on disk (at 100,000 sites about 2 GB), in a folder removed at the end.
  const persist = mkdtempSync(join(tmpdir(), "bench-learn-"));
  const miniflare = new MiniflareClass(convertV4MiniflareOptions({
    modules: true,
    script: await bundle("scripts/bench-learn-worker.ts"),
    ...compatibility(),
    r2Buckets: ["PAGES"],
    kvNamespaces: ["RULES"],
    queueProducers: { MINE_QUEUE: "edge-cleaner-mine" },
    durableObjects: { CROSS_SITE: { className: "CrossSiteShard", useSQLite: true }, SAMPLE_GATE: { className: "SampleGate", useSQLite: true } },
    resourcePersistencePath: persist,
  }));
  try {
    await miniflare.ready;
    if (runs > 0) await benchMining(miniflare, bySite, runs);
    if (siteCount > 0) await benchOperations(miniflare, bySite, siteCount);
    if (syntheticCounts.some((count) => count > 0)) await benchTable(miniflare, bySite, persist);
  } finally {
    await miniflare.dispose();
    rmSync(persist, { recursive: true, force: true });
  }
  return 0;
}

await runCommand(COMMAND, main);
