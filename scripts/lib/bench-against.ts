/**
 * `npm run bench -- --against <revision>`: the pipeline of this tree against an earlier revision's, in workerd, in
 * one run. The revision's sources are exported from git (git archive) into a temporary folder, and both trees' bench
 * Workers (scripts/bench-worker.ts, each with its tree's model and site rules) are bundled into one Worker, under
 * /before/ and /after/, so that both run in one workerd isolate: two processes running the same code differed by 1%
 * overall and 3% on a set, one isolate by 0.2%, within the noise. Pages alternate between the two, and which goes
 * first alternates too, so that the machine's load falls on both alike; each page's time is the faster of ROUNDS
 * rounds of WORKERD_REPEAT runs. The figure is the geometric mean of the per-page ratios (this tree's time over the
 * revision's) with its 95% interval, overall and per set, beside their median and spread, and the two trees'
 * medians, p99 and pages over 10 ms. On a machine whose load varies, a ratio measured this way holds where two
 * separate bench runs do not.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DatasetPage } from "../../src/evaluation/index";
import { ruleSetFileName } from "../../src/rules/index";
import { BENCH_STAGES, overLimits, percentile, stageShares, TIME_HEADING, timeRow, WORKERD_BATCH, WORKERD_REPEAT, WARMUP_PAGES } from "./bench-figures";
import { REPO_ROOT } from "./paths";
import { createProgress } from "./progress";
import { startWorkerd, type WorkerdHandle } from "./workerd";

/** Rounds per page and tree; the page's time is the fastest round's (the machine's load only ever adds time). */
const ROUNDS = 2;

interface Side {
  readonly label: string;
  readonly root: string;
  /** Where the combined Worker routes this tree's requests. */
  readonly prefix: "/before" | "/after";
  /** Page index → the fastest round's milliseconds. */
  readonly times: number[];
  readonly stages: Record<string, number>;
}

/** The revision's tree in a temporary folder (what the bench Worker needs: sources, scripts, model and rules). */
function exportRevision(revision: string): { root: string; commit: string } {
  let commit: string;
  try {
    commit = execFileSync("git", ["rev-parse", "--short", "--verify", `${revision}^{commit}`], { cwd: REPO_ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
  } catch {
    throw new Error(`--against ${revision}: not a revision of this repository (git rev-parse found no commit)`);
  }
  const root = mkdtempSync(join(tmpdir(), "bench-against-"));
  const archive = join(root, "tree.tar");
  execFileSync("git", ["archive", "--format=tar", "-o", archive, commit, "src", "scripts", "rules"], { cwd: REPO_ROOT });
  execFileSync("tar", ["-xf", archive, "-C", root]);
  if (!existsSync(join(root, "scripts", "bench-worker.ts"))) {
    rmSync(root, { recursive: true, force: true });
    throw new Error(`--against ${revision}: ${commit} has no scripts/bench-worker.ts to time`);
  }
  return { root, commit };
}

/** One Worker holding both trees' bench Workers: /before/... goes to the revision's, /after/... to this tree's. */
function combinedEntry(revisionRoot: string): string {
  const benchWorker = (root: string): string => JSON.stringify(join(root, "scripts", "bench-worker.ts"));
  return `import before from ${benchWorker(revisionRoot)};
import after from ${benchWorker(REPO_ROOT)};
export default {
  fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const prefix = url.pathname.startsWith("/before/") ? "/before" : "/after";
    url.pathname = url.pathname.slice(prefix.length);
    return (prefix === "/before" ? before : after).fetch(new Request(url, request));
  },
};
`;
}

async function post(worker: WorkerdHandle, side: Side, path: string, body: unknown): Promise<Response> {
  const response = await worker.fetch(side.prefix + path, { method: "POST", body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${side.label}'s bench Worker, ${path}: ${response.status} ${await response.text()}`);
  return response;
}

/** Times one page's pipeline runs on a side; adds its stage times. */
async function timePage(worker: WorkerdHandle, side: Side, key: string): Promise<number> {
  const reply = (await (await post(worker, side, "/time", { keys: [key], kind: "pipeline", repeat: WORKERD_REPEAT })).json()) as { milliseconds: number[]; stageTotals: Record<string, number> };
  for (const [stage, milliseconds] of Object.entries(reply.stageTotals)) side.stages[stage] = (side.stages[stage] ?? 0) + milliseconds;
  return reply.milliseconds[0];
}

async function loadRules(worker: WorkerdHandle, side: Side, sites: ReadonlySet<string>): Promise<void> {
  for (const site of sites) {
    const path = join(side.root, "rules", `${ruleSetFileName(site)}.json`);
    if (existsSync(path)) await post(worker, side, "/rules", { site, ruleSet: JSON.parse(readFileSync(path, "utf8")) });
  }
}

function figures(side: Side): string {
  return `${timeRow(side.label, side.times)}   ${overLimits(side.times)}`;
}

/**
 * The geometric mean of per-page ratios with its 95% interval (from the standard error of their logarithms). A page's
 * time moves in steps of 1/WORKERD_REPEAT ms (workerd's clock has 1 ms steps), so many pages tie and their median ratio
 * sits at 1.000; the mean of the logarithms counts every page's shift, and its interval says whether it is noise.
 */
function geometricMean(ratios: readonly number[]): string {
  const logs = ratios.map(Math.log);
  const mean = logs.reduce((sum, value) => sum + value, 0) / logs.length;
  const variance = logs.reduce((sum, value) => sum + (value - mean) ** 2, 0) / Math.max(1, logs.length - 1);
  const margin = 1.96 * Math.sqrt(variance / logs.length);
  return `${Math.exp(mean).toFixed(3)} (95% ${Math.exp(mean - margin).toFixed(3)}-${Math.exp(mean + margin).toFixed(3)})`;
}

function spread(ratios: readonly number[]): string {
  return `geometric mean ${geometricMean(ratios)}, median ${percentile(ratios, 0.5).toFixed(3)} (p10 ${percentile(ratios, 0.1).toFixed(3)}, p90 ${percentile(ratios, 0.9).toFixed(3)})`;
}

/** Runs the comparison and prints it; returns the process's exit status. */
export async function benchAgainst(revision: string, pages: readonly DatasetPage[]): Promise<number> {
  const { root, commit } = exportRevision(revision);
  const before: Side = { label: `${revision} (${commit})`, root, prefix: "/before", times: [], stages: {} };
  const after: Side = { label: "this tree", root: REPO_ROOT, prefix: "/after", times: [], stages: {} };
  const sides = [before, after];
  let worker: WorkerdHandle | null = null;
  try {
    worker = await startWorkerd({ entrySource: combinedEntry(root) });
    console.log(`npm run bench -- --against ${revision}: ${pages.length} pages in one workerd isolate, this tree and ${commit} alternating page by page ` +
      `(each tree with its own model and site rules); each page the faster of ${ROUNDS} rounds of ${WORKERD_REPEAT} runs.`);
    const sites = new Set(pages.map((page) => page.site));
    for (const side of sides) await loadRules(worker, side, sites);
    const progress = createProgress("against", pages.length);
    for (let first = 0; first < pages.length; first += WORKERD_BATCH) {
      const batch = pages.slice(first, first + WORKERD_BATCH);
      const keys = batch.map((page) => `${page.set}/${page.id}`);
      for (const side of sides) {
        for (const page of batch) await post(worker, side, "/page", { key: `${page.set}/${page.id}`, html: page.html, site: page.site });
        if (first === 0) await post(worker, side, "/time", { keys: keys.slice(0, WARMUP_PAGES), kind: "pipeline", repeat: 1 });
      }
      for (const [offset, key] of keys.entries()) {
        const index = first + offset;
        for (let round = 0; round < ROUNDS; round++) {
          for (const side of (index + round) % 2 === 0 ? [before, after] : [after, before]) {
            const milliseconds = await timePage(worker, side, key);
            side.times[index] = round === 0 ? milliseconds : Math.min(side.times[index], milliseconds);
          }
        }
      }
      for (const side of sides) await post(worker, side, "/clear", {});
      progress.step(Math.min(first + WORKERD_BATCH, pages.length), "pages");
    }
    progress.finish();
    console.log(TIME_HEADING);
    for (const side of sides) console.log(figures(side));
    const ratios = pages.map((_, index) => after.times[index] / before.times[index]);
    const sum = (times: readonly number[]): number => times.reduce((total, time) => total + time, 0);
    console.log(`\nthis tree's time over ${commit}'s, per page: ${spread(ratios)}; all pages' time together ${(sum(after.times) / sum(before.times)).toFixed(3)}`);
    const bySet = [...new Set(pages.map((page) => page.set))].map((set) => `${set} ${geometricMean(ratios.filter((_, index) => pages[index].set === set))}`);
    console.log(`geometric mean per set: ${bySet.join(", ")}`);
    const runs = pages.length * ROUNDS * WORKERD_REPEAT;
    for (const side of sides) console.log(`mean ms per page by stage, ${side.label}: ${stageShares(side.stages, runs)}`);
    console.log(`(stages named: ${BENCH_STAGES.join(", ")}; a ratio below 1 means this tree is faster)`);
    return 0;
  } finally {
    await worker?.dispose();
    rmSync(root, { recursive: true, force: true });
  }
}
