/**
 * `npm run bench -- --against <revision>`: the pipeline of this tree against an earlier revision's, in workerd, in
 * one run. The revision's sources are exported from git (git archive) into a temporary folder, and each tree's bench
 * Worker (scripts/bench-worker.ts, with that tree's model and site rules) runs in its own workerd. Pages alternate
 * between the two, and which goes first alternates too, so that the machine's load falls on both alike; each page's
 * time is the faster of ROUNDS rounds of WORKERD_REPEAT runs. The figure is the median of the per-page ratios (this
 * tree's time over the revision's), with its spread, per set, and the two trees' medians, p99 and pages over 10 ms.
 * On a machine whose load varies, a ratio measured this way holds where two separate bench runs do not.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DatasetPage } from "../../src/evaluation/index";
import { ruleSetFileName } from "../../src/rules/index";
import { BENCH_STAGES, overLimits, percentile, stageShares, WORKERD_BATCH, WORKERD_REPEAT, WARMUP_PAGES } from "./bench-figures";
import { REPO_ROOT } from "./paths";
import { createProgress } from "./progress";
import { startWorkerd, type WorkerdHandle } from "./workerd";

/** Rounds per page and tree; the page's time is the fastest round's (the machine's load only ever adds time). */
const ROUNDS = 2;

interface Side {
  readonly label: string;
  readonly root: string;
  readonly worker: WorkerdHandle;
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

async function post(side: Side, path: string, body: unknown): Promise<Response> {
  const response = await side.worker.fetch(path, { method: "POST", body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${side.label}'s bench Worker, ${path}: ${response.status} ${await response.text()}`);
  return response;
}

/** Times one page's pipeline runs on a side; adds its stage times. */
async function timePage(side: Side, key: string): Promise<number> {
  const reply = (await (await post(side, "/time", { keys: [key], kind: "pipeline", repeat: WORKERD_REPEAT })).json()) as { milliseconds: number[]; stageTotals: Record<string, number> };
  for (const [stage, milliseconds] of Object.entries(reply.stageTotals)) side.stages[stage] = (side.stages[stage] ?? 0) + milliseconds;
  return reply.milliseconds[0];
}

async function loadRules(side: Side, sites: ReadonlySet<string>): Promise<void> {
  for (const site of sites) {
    const path = join(side.root, "rules", `${ruleSetFileName(site)}.json`);
    if (existsSync(path)) await post(side, "/rules", { site, ruleSet: JSON.parse(readFileSync(path, "utf8")) });
  }
}

function figures(side: Side): string {
  const { times } = side;
  return `${side.label.padEnd(26)} ${[0.5, 0.95, 0.99, 1].map((share) => percentile(times, share).toFixed(2).padStart(9)).join(" ")}   ${overLimits(times)}`;
}

function spread(ratios: readonly number[]): string {
  return `${percentile(ratios, 0.5).toFixed(3)} (p10 ${percentile(ratios, 0.1).toFixed(3)}, p90 ${percentile(ratios, 0.9).toFixed(3)})`;
}

/** Runs the comparison and prints it; returns the process's exit status. */
export async function benchAgainst(revision: string, pages: readonly DatasetPage[]): Promise<number> {
  const { root, commit } = exportRevision(revision);
  const sides: Side[] = [];
  try {
    for (const [label, treeRoot] of [[`${revision} (${commit})`, root], ["this tree", REPO_ROOT]] as const) {
      const worker = await startWorkerd({ entry: "scripts/bench-worker.ts", root: treeRoot });
      sides.push({ label, root: treeRoot, worker, times: [], stages: {} });
    }
    const [before, after] = sides;
    console.log(`npm run bench -- --against ${revision}: ${pages.length} pages in workerd, this tree and ${commit} alternating page by page ` +
      `(each tree with its own model and site rules); each page the faster of ${ROUNDS} rounds of ${WORKERD_REPEAT} runs.`);
    const sites = new Set(pages.map((page) => page.site));
    for (const side of sides) await loadRules(side, sites);
    const progress = createProgress("against", pages.length);
    for (let first = 0; first < pages.length; first += WORKERD_BATCH) {
      const batch = pages.slice(first, first + WORKERD_BATCH);
      const keys = batch.map((page) => `${page.set}/${page.id}`);
      for (const side of sides) {
        for (const page of batch) await post(side, "/page", { key: `${page.set}/${page.id}`, html: page.html, site: page.site });
        if (first === 0) await post(side, "/time", { keys: keys.slice(0, WARMUP_PAGES), kind: "pipeline", repeat: 1 });
      }
      for (const [offset, key] of keys.entries()) {
        const index = first + offset;
        for (let round = 0; round < ROUNDS; round++) {
          for (const side of (index + round) % 2 === 0 ? [before, after] : [after, before]) {
            const milliseconds = await timePage(side, key);
            side.times[index] = round === 0 ? milliseconds : Math.min(side.times[index], milliseconds);
          }
        }
      }
      for (const side of sides) await post(side, "/clear", {});
      progress.step(Math.min(first + WORKERD_BATCH, pages.length), "pages");
    }
    progress.finish();
    console.log(`\n${"".padEnd(26)} ${["median ms", "p95 ms", "p99 ms", "max ms"].map((title) => title.padStart(9)).join(" ")}`);
    for (const side of sides) console.log(figures(side));
    const ratios = pages.map((_, index) => after.times[index] / before.times[index]);
    const sum = (times: readonly number[]): number => times.reduce((total, time) => total + time, 0);
    console.log(`\nthis tree's time over ${commit}'s, per page: median ${spread(ratios)}; all pages' time together ${(sum(after.times) / sum(before.times)).toFixed(3)}`);
    const bySet = [...new Set(pages.map((page) => page.set))].map((set) => `${set} ${percentile(ratios.filter((_, index) => pages[index].set === set), 0.5).toFixed(3)}`);
    console.log(`median per set: ${bySet.join(", ")}`);
    const runs = pages.length * ROUNDS * WORKERD_REPEAT;
    for (const side of sides) console.log(`mean ms per page by stage, ${side.label}: ${stageShares(side.stages, runs)}`);
    console.log(`(stages named: ${BENCH_STAGES.join(", ")}; a ratio below 1 means this tree is faster)`);
    return 0;
  } finally {
    for (const side of sides) await side.worker.dispose();
    rmSync(root, { recursive: true, force: true });
  }
}
