/**
 * `npm run load`: the embedded default (`npm start`) under load, on loopback, bounded in time.
 *
 * Starts `npm start` on its own ports (unless --url names one already running), then runs two scenarios
 * one after the other with autocannon:
 *   post  POST /v1/clean?format=text of a ~100 KB page (a sample page with its article repeated);
 *   get   GET  /v1/clean?format=text&url=<a sample page>, fetched from the sample site and cleaned;
 * and prints, per scenario, requests per second, latency p50/p99, errors, timeouts and non-2xx answers
 * (with their status codes), and the resident memory of the service's processes before and after.
 * A scenario during which `wrangler dev` reloaded the Worker (a watched source file changed) says so: the
 * requests in flight then are not the Worker's to answer. Exit code 1 if any scenario had an error, a
 * timeout or a non-2xx answer. WORKER_PORT and SAMPLES_PORT move the service as they move `npm start`.
 *
 *   npm run load -- [--connections 200] [--duration 60] [--url http://127.0.0.1:8787] [--scenario post|get]
 */
import autocannon from "autocannon";
import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { createInterface } from "node:readline";
import { choiceOption, integerOption, parseCommand, runCommand, urlOption, usageText, type Command } from "./lib/cli";
import { REPO_ROOT, SAMPLE_FOLDER } from "./lib/paths";

const SAMPLE = resolve(SAMPLE_FOLDER, "harbour-dredging-approved.html");
const API_KEY = "local-dev-key";
/** Size of the posted page, in bytes (the page of the load report was 109 KB). */
const POST_PAGE_BYTES = 100_000;
/** autocannon's per-request timeout, in seconds: a request slower than this counts as a timeout. */
const REQUEST_TIMEOUT_S = 30;
const READY_TIMEOUT_MS = 90_000;
const WORKER_PORT = Number(process.env.WORKER_PORT ?? 8787);
const SAMPLES_PORT = Number(process.env.SAMPLES_PORT ?? 8788);
/** What wrangler dev prints when it rebuilds and restarts the Worker. */
const RELOAD_LINE = /Reloading local server/;

const COMMAND: Command = {
  name: "load",
  usage: usageText("load"),
};

interface Options {
  readonly connections: number;
  readonly duration: number;
  readonly url: string | null;
  readonly scenarios: readonly string[];
}

function parseOptions(): Options {
  const { values } = parseCommand(COMMAND, {
    options: { connections: { type: "string" }, duration: { type: "string" }, url: { type: "string" }, scenario: { type: "string", multiple: true } },
  });
  const connections = integerOption(COMMAND, "connections", values.connections, 200);
  const duration = integerOption(COMMAND, "duration", values.duration, 60);
  const scenarios = (values.scenario ?? ["post", "get"]).map((name) => choiceOption(COMMAND, "scenario", name, ["post", "get"]));
  if (values.url !== undefined) urlOption(COMMAND, "url", values.url);
  return { connections, duration, url: values.url ?? null, scenarios };
}

/** The sample page with its article paragraphs repeated until the page is about POST_PAGE_BYTES long. */
function largePage(): string {
  const page = readFileSync(SAMPLE, "utf8");
  const paragraphs = page.match(/<p>[\s\S]*?<\/p>/g) ?? ["<p>Paragraph.</p>"];
  const extra: string[] = [];
  for (let length = page.length, index = 0; length < POST_PAGE_BYTES; index++) {
    const paragraph = paragraphs[index % paragraphs.length].replace("<p>", `<p>(${index}) `);
    extra.push(paragraph);
    length += paragraph.length + 1;
  }
  return page.replace("</article>", `${extra.join("\n")}\n</article>`);
}

/**
 * Resident memory (MB) of the service's processes (of its process group when started here, else every workerd
 * running), by a label: `wrangler dev` runs two workerd, its dev proxy and the runtime that runs the Worker
 * (the one with an inspector); `npm start`'s own Node process is the front door.
 */
function serviceMemory(group: number | null): Map<string, number> {
  const memory = new Map<string, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const label = processLabel(entry, group);
      const rss = label === null ? null : /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${entry}/status`, "utf8"));
      if (rss != null) memory.set(`${label} (pid ${entry})`, Math.round(Number(rss[1]) / 1024));
    } catch {
      // the process ended while being read
    }
  }
  return memory;
}

function processLabel(pid: string, group: number | null): string | null {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
  if (group !== null && Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]) !== group) return null;
  const commandLine = readFileSync(`/proc/${pid}/cmdline`, "utf8");
  if (name === "workerd") return commandLine.includes("--inspector-addr") ? "workerd runtime" : "workerd dev proxy";
  return group !== null && name === "node" && commandLine.includes("scripts/run.mjs\0start") ? "front door (node)" : null;
}

function formatMemory(memory: Map<string, number>): string {
  return [...memory].map(([label, mb]) => `${label} ${mb} MB`).join(", ") || "no process found";
}

async function waitUntilReady(url: string, deadline: number, service: ChildProcess | null): Promise<boolean> {
  while (Date.now() < deadline && (service === null || service.exitCode === null)) {
    if (await fetch(`${url}/healthz`).then((response) => response.ok, () => false)) return true;
    await new Promise((done) => setTimeout(done, 500));
  }
  return false;
}

/** Reloads of the Worker by wrangler dev seen so far (counted from `npm start`'s output). */
let reloads = 0;

/** `npm start` in its own process group, so that stopping it stops wrangler and workerd with it. */
function startService(): ChildProcess {
  // Without the per-key rate limit: 200 connections of one key would otherwise measure the limiter's 429s.
  const service = spawn("npm", ["start"], { cwd: REPO_ROOT, detached: true, stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, RATE_LIMIT: "off" } });
  if (service.stdout !== null) createInterface({ input: service.stdout }).on("line", (line) => {
    if (RELOAD_LINE.test(line)) reloads++;
  });
  return service;
}

/** Stops `npm start` and everything it started: Ctrl-C first (it stops wrangler), then SIGTERM, then SIGKILL, to its process group. */
async function stopService(service: ChildProcess): Promise<void> {
  for (const signal of ["SIGINT", "SIGTERM", "SIGKILL"] as const) {
    if (service.pid === undefined || !groupAlive(service.pid)) return;
    try {
      process.kill(-service.pid, signal);
    } catch {
      return; // the group is gone
    }
    for (let waited = 0; waited < 10_000 && groupAlive(service.pid); waited += 250) await new Promise((done) => setTimeout(done, 250));
  }
}

/** Whether any process of the group is left (signal 0 tests without sending). */
function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

interface ScenarioResult {
  readonly name: string;
  readonly ok: boolean;
}

async function runScenario(name: string, base: string, options: Options, page: string): Promise<ScenarioResult> {
  const samplePage = `http://127.0.0.1:${SAMPLES_PORT}/harbour-dredging-approved.html`;
  const reloadsBefore = reloads;
  const request: { url: string; method: "GET" | "POST"; body?: string; headers: Record<string, string> } = name === "post"
    ? { url: `${base}/v1/clean?format=text&site=wrenmouth-gazette.example`, method: "POST" as const, body: page, headers: { "x-api-key": API_KEY, "content-type": "text/html; charset=utf-8" } }
    : { url: `${base}/v1/clean?format=text&url=${encodeURIComponent(samplePage)}`, method: "GET" as const, headers: { "x-api-key": API_KEY } };
  const statuses = new Map<number, number>();
  const instance = autocannon({ ...request, connections: options.connections, duration: options.duration, timeout: REQUEST_TIMEOUT_S });
  instance.on("response", (_client: unknown, status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1));
  const result = await instance;
  const statusList = [...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`).join(" ");
  console.log(
    `${name.padEnd(4)} ${(name === "post" ? `POST ${Math.round(page.length / 1000)} KB page` : "GET sample page").padEnd(20)}` +
      ` ${result.requests.average.toFixed(0)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms;` +
      ` ${result.requests.total} requests, errors ${result.errors}, timeouts ${result.timeouts}, non-2xx ${result.non2xx} (${statusList})`,
  );
  if (reloads > reloadsBefore) {
    console.log(`     wrangler dev reloaded the Worker ${reloads - reloadsBefore} time(s) during this scenario (a watched file changed): requests in flight then may fail`);
  }
  return { name, ok: result.errors === 0 && result.timeouts === 0 && result.non2xx === 0 };
}

const options = parseOptions();

async function main(): Promise<void> {
  const base = options.url ?? `http://127.0.0.1:${WORKER_PORT}`;
  const service = options.url === null ? startService() : null;
  try {
    if (!(await waitUntilReady(base, Date.now() + READY_TIMEOUT_MS, service))) {
      console.error(`${base} did not answer /healthz${service === null ? "" : " (see npm start's output above)"}`);
      process.exitCode = 1;
      return;
    }
    const page = largePage();
    const group = service?.pid ?? null;
    console.log(`${options.connections} connections, ${options.duration} s per scenario, against ${base}`);
    console.log(`memory before: ${formatMemory(serviceMemory(group))}`);
    const results: ScenarioResult[] = [];
    for (const name of options.scenarios) results.push(await runScenario(name, base, options, page));
    console.log(`memory after:  ${formatMemory(serviceMemory(group))}`);
    await new Promise((done) => setTimeout(done, 10_000));
    console.log(`memory 10 s later: ${formatMemory(serviceMemory(group))}`);
    if (results.some((result) => !result.ok)) process.exitCode = 1;
  } finally {
    if (service !== null) await stopService(service);
  }
}

await runCommand(COMMAND, main);
