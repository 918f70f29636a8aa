/**
 * The edge Worker's cold start, measured locally on the script as `wrangler deploy` uploads it, each run on a
 * fresh isolate that has never run it:
 *   startup        a new Node process imports the script (V8, the engine workerd embeds): parsing it and running
 *                  its global scope, what Cloudflare's "Worker startup time" limit caps. Timed in-process around
 *                  the import, so the process's own start is left out. (Timing workerd's start instead, Miniflare's
 *                  `ready` less an empty Worker's, was measured and not kept: on this shared machine workerd's own
 *                  400-600 ms start varied by more than the script's whole cost.) The script imports workerd's
 *                  built-in `cloudflare:workers` (the Durable Objects' base class); a loader hook gives Node that
 *                  module's classes, as workerd does, so the script runs unchanged and its own code is all that
 *                  is timed. Any other name it imports from there fails the measurement rather than being faked.
 *   first request  a fresh workerd (Miniflare) with the script, its first request (a sample page posted to
 *                  /v1/clean, cleaned to Markdown): lazy compilation of every function the request reaches, and
 *                  the work itself
 *   warm request   the same request again on the same isolate (the work alone)
 * Each figure is the median of the runs. The machine's load moves them all; compare figures of one run.
 */
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolve } from "node:path";
import { REPO_ROOT } from "./paths";

export interface ColdStart {
  readonly runs: number;
  /** Median ms to import the script in a new process (parse and global scope). */
  readonly startupMs: number;
  readonly firstRequestMs: number;
  readonly warmRequestMs: number;
}

/**
 * workerd's `cloudflare:workers` base classes as the runtime defines them: the constructor keeps `ctx` and `env`
 * (RpcTarget takes nothing). Only classes: the script's global scope may extend them; nothing else is stood in for.
 */
const WORKERS_MODULE = [
  "export class DurableObject{constructor(ctx,env){this.ctx=ctx;this.env=env}}",
  "export class WorkerEntrypoint{constructor(ctx,env){this.ctx=ctx;this.env=env}}",
  "export class WorkflowEntrypoint{constructor(ctx,env){this.ctx=ctx;this.env=env}}",
  "export class RpcTarget{}",
].join("\n");
const dataUrl = (source: string): string => `data:text/javascript,${encodeURIComponent(source)}`;
/** The loader hook: `cloudflare:workers` resolves to WORKERS_MODULE, every other name as Node resolves it. */
const HOOKS = dataUrl(
  `export async function resolve(specifier,context,next){return specifier==="cloudflare:workers"?{url:${JSON.stringify(dataUrl(WORKERS_MODULE))},shortCircuit:true}:next(specifier,context)}`,
);

/**
 * Imports the module and prints how long it took (run by a new Node process each time). `cloudflare:workers` is
 * imported before the clock starts (workerd has its built-ins before a script starts), which also starts the
 * hooks' thread: with it, the edge Worker's import took as long as a copy with the classes inlined and no hook
 * (medians of 11: 25.7 and 26.6 ms).
 */
const IMPORT_TIMER =
  `import{register}from"node:module";register(${JSON.stringify(HOOKS)});await import("cloudflare:workers");` +
  "const s=performance.now();await import(process.argv[1]);process.stdout.write(String(performance.now()-s));";

/** Ms to import the script at `file` in a new Node process: parsing it and running its global scope. */
export function startupMs(file: string): number {
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", IMPORT_TIMER, file], { encoding: "utf8" });
  const ms = Number(run.stdout);
  if (run.status !== 0 || !Number.isFinite(ms)) throw new Error(`cold start: importing the script in Node failed: ${run.stderr.slice(0, 300)}`);
  return ms;
}

/** The page the first request cleans: a sample page the project ships. */
const SAMPLE_PAGE = resolve(REPO_ROOT, "samples/wrenmouth-gazette.example/harbour-dredging-approved.html");
const KEY = "cold-start-key";

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function compatibility(): { compatibilityDate: string; compatibilityFlags: string[] } {
  const toml = readFileSync(resolve(REPO_ROOT, "wrangler.toml"), "utf8");
  const flags = /^compatibility_flags\s*=\s*\[([^\]]*)\]/m.exec(toml)?.[1] ?? "";
  return {
    compatibilityDate: /^compatibility_date\s*=\s*"([^"]+)"/m.exec(toml)?.[1] ?? "2026-11-17",
    compatibilityFlags: [...flags.matchAll(/"([^"]+)"/g)].map((match) => match[1]),
  };
}

function startWorkerd(script: string): Miniflare {
  // The module listed as it is: Miniflare parses a `script` to find its imports (in Node, before workerd starts).
  return new Miniflare(convertV4MiniflareOptions({
    modules: [{ type: "ESModule", path: "worker.mjs", contents: script }], ...compatibility(), kvNamespaces: ["RULES"], bindings: { API_KEYS: KEY, RATE_LIMIT: "off" },
  }));
}

async function timedRequest(miniflare: Miniflare, page: string): Promise<number> {
  const started = performance.now();
  const response = await miniflare.dispatchFetch("http://cleaner.test/v1/clean?format=markdown&site=wrenmouth-gazette.example", {
    method: "POST",
    headers: { authorization: `Bearer ${KEY}`, "content-type": "text/html; charset=utf-8" },
    body: page,
  });
  const body = await response.text();
  if (response.status !== 200) throw new Error(`cold start: the sample request answered ${response.status}: ${body.slice(0, 200)}`);
  return performance.now() - started;
}

/** Imports the script in `runs` new processes and starts it in `runs` new workerd instances. */
export async function measureColdStart(script: string, runs: number): Promise<ColdStart> {
  const page = readFileSync(SAMPLE_PAGE, "utf8");
  const startup: number[] = [];
  const first: number[] = [];
  const warm: number[] = [];
  const folder = mkdtempSync(join(tmpdir(), "cold-start-"));
  const file = join(folder, "worker.mjs");
  writeFileSync(file, script);
  for (let run = 0; run < runs; run++) {
    startup.push(startupMs(file));
    const miniflare = startWorkerd(script);
    try {
      await miniflare.ready;
      first.push(await timedRequest(miniflare, page));
      warm.push(await timedRequest(miniflare, page));
    } finally {
      await miniflare.dispose();
    }
  }
  rmSync(folder, { recursive: true, force: true });
  return { runs, startupMs: median(startup), firstRequestMs: median(first), warmRequestMs: median(warm) };
}
