/**
 * `npm run load`: the embedded default (`npm start`) under load, on loopback, bounded in time.
 *
 * Starts `npm start` on its own ports (unless --url names one already running), then runs scenarios
 * one after the other with autocannon:
 *   post     POST /v1/clean?format=text of a ~100 KB page (a sample page with its article repeated);
 *   get      GET  /v1/clean?format=text&url=<a sample page>, fetched from the sample site and cleaned;
 *   hostile  the post scenario's clients (100 by default) beside attackers: the 200,000-link page (4 MB) posted
 *            as format=article and as format=json, one after the other in two loops, and 20 connections that
 *            declare a body, send 13 bytes and wait (opened again when closed); /healthz is asked every
 *            HEALTH_INTERVAL_MS meanwhile; and in the mix, the bail-out page (120,000 `<div>` and a script, over
 *            the block limit) posted in turn as article, json with shape=readability, markdown and text, and a
 *            page fetched by URL from a loopback origin started here that labels plain HTML
 *            `Content-Encoding: gzip` (its origin is added to DEV_ALLOWED_ORIGINS). It passes when the normal
 *            clients get no error, timeout or non-2xx answer, every /healthz is answered 200 within
 *            HEALTH_LIMIT_MS, no bail-out answer carries the page's script (but json's `html`, the page as it came), and the mislabelled page gets a 502
 *            origin-error (anything else, or no answer, fails it); the other attackers' answers are reported (a
 *            heavy page may be passed through with x-clean-bailout);
 * and prints, per scenario, requests per second, latency p50/p99, errors, timeouts and non-2xx answers
 * (with their status codes and the start of their bodies, which tell who answered: the front door, wrangler dev's
 * proxy or the Worker), the failures `npm start` reported meanwhile, and the resident memory of the service's
 * processes before and after.
 * With --url the running service is as it was started: a service with other keys answers 403, one with its rate
 * limit on 429, both counted as non-2xx; and the memory read is every workerd's on the machine (docs/performance.md).
 * A scenario during which `wrangler dev` reloaded the Worker (a watched source file changed) says so: the
 * requests in flight then are not the Worker's to answer. Exit code 1 if any scenario had an error, a
 * timeout or a non-2xx answer. WORKER_PORT and SAMPLES_PORT move the service as they move `npm start`.
 *
 *   npm run load -- [--connections 200] [--duration 60] [--url http://127.0.0.1:8787] [--scenario post|get]
 */
import autocannon from "autocannon";
import { spawn, type ChildProcess } from "node:child_process";
import { connect, type Socket } from "node:net";
import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { createInterface } from "node:readline";
import { createServer, type Server } from "node:http";
import { choiceOption, integerOption, parseCommand, runCommand, urlOption, usageText, type Command } from "./lib/cli";
import { freePort } from "./lib/free-port";
import { divsWithScript, linkPage, SCRIPT_MARKER } from "./lib/hostile-pages";
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
/** Lines of `npm start`'s output that report a failure (wrangler dev's and workerd's errors, the front door's), kept to print. */
const ERROR_LINE = /error|exception|fatal|restarted/i;
/** wrangler dev's notice that it runs without Cloudflare's Request.cf object (no network here), not a failure. */
const LOCAL_NOTICE = /Request\.cf|workers\.cloudflare\.com/;
/** Distinct error lines printed per scenario, at most. */
const ERROR_LINES_SHOWN = 10;
const SCENARIOS = ["post", "get", "hostile"] as const;
/** Links on the hostile scenario's heavy page (the page of the audit: 200,000 links, about 4 MB). */
const HOSTILE_LINKS = 200_000;
/** The hostile scenario's slow-body connections, and what each declares it will send. */
const SLOW_BODY_CONNECTIONS = 20;
const SLOW_BODY_DECLARED_BYTES = 4_000_000;
/** How often /healthz is asked during the hostile scenario, and the longest answer that passes, in milliseconds. */
const HEALTH_INTERVAL_MS = 250;
const HEALTH_LIMIT_MS = 1_000;
/** Characters of a non-2xx answer's body printed with it. */
const FAILURE_BODY_CHARACTERS = 160;
/** Clients of the hostile scenario's normal traffic when --connections is not given. */
const HOSTILE_DEFAULT_CONNECTIONS = 100;
/** `<div>` elements of the hostile scenario's bail-out page (issue 44's page: over the block limit, with a script). */
const BAILOUT_DIVS = 120_000;
/** The bail-out page's requests, in turn: the formats that promise safe HTML or text. */
const BAILOUT_QUERIES = ["format=article", "format=json&shape=readability", "format=json", "format=markdown", "format=text"] as const;
/** Host the mislabelled origin listens on (loopback), and its path. */
const MISLABELLED_HOST = "127.0.0.1";
const MISLABELLED_PATH = "/mislabelled-gzip.html";

const COMMAND: Command = {
  name: "load",
  usage: usageText("load"),
};

interface Options {
  readonly connections: number;
  /** --connections as given (null: each scenario's default). */
  readonly connectionsGiven: boolean;
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
  const scenarios = (values.scenario ?? ["post", "get"]).map((name) => choiceOption(COMMAND, "scenario", name, SCENARIOS));
  if (values.url !== undefined) urlOption(COMMAND, "url", values.url);
  return { connections, connectionsGiven: values.connections !== undefined, duration, url: values.url ?? null, scenarios };
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
/** The service's error lines so far, each with how often it came (digits left out, so that repeats count as one). */
const errorLines = new Map<string, number>();

/** `npm start` in its own process group, so that stopping it stops wrangler and workerd with it. */
function startService(extraOrigins: readonly string[]): ChildProcess {
  // Without the per-key rate limit: 200 connections of one key would otherwise measure the limiter's 429s.
  const allowed = [process.env.DEV_ALLOWED_ORIGINS ?? "", ...extraOrigins].filter((entry) => entry !== "").join(",");
  const env = { ...process.env, RATE_LIMIT: "off", ...(allowed === "" ? {} : { DEV_ALLOWED_ORIGINS: allowed }) };
  const service = spawn("npm", ["start"], { cwd: REPO_ROOT, detached: true, stdio: ["ignore", "pipe", "inherit"], env });
  if (service.stdout !== null) createInterface({ input: service.stdout }).on("line", (line) => {
    if (RELOAD_LINE.test(line)) reloads++;
    if (ERROR_LINE.test(line) && !LOCAL_NOTICE.test(line)) {
      const key = line.replace(/\d+/g, "N").slice(0, 200);
      errorLines.set(key, (errorLines.get(key) ?? 0) + 1);
    }
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
  errorLines.clear(); // what the service said while starting is not the scenario's
  if (name === "hostile") return runHostile(base, options, page);
  const samplePage = `http://127.0.0.1:${SAMPLES_PORT}/harbour-dredging-approved.html`;
  const reloadsBefore = reloads;
  const request: { url: string; method: "GET" | "POST"; body?: string; headers: Record<string, string> } = name === "post"
    ? { url: `${base}/v1/clean?format=text&site=wrenmouth-gazette.example`, method: "POST" as const, body: page, headers: { "x-api-key": API_KEY, "content-type": "text/html; charset=utf-8" } }
    : { url: `${base}/v1/clean?format=text&url=${encodeURIComponent(samplePage)}`, method: "GET" as const, headers: { "x-api-key": API_KEY } };
  const statuses = new Map<number, number>();
  const failures = new FailureSamples();
  const instance = autocannon({ ...request, connections: options.connections, duration: options.duration, timeout: REQUEST_TIMEOUT_S, requests: [{ onResponse: failures.hear }] });
  instance.on("response", (_client: unknown, status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1));
  const result = await instance;
  const statusList = [...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`).join(" ");
  console.log(
    `${name.padEnd(4)} ${(name === "post" ? `POST ${Math.round(page.length / 1000)} KB page` : "GET sample page").padEnd(20)}` +
      ` ${result.requests.average.toFixed(0)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms;` +
      ` ${result.requests.total} requests, errors ${result.errors}, timeouts ${result.timeouts}, non-2xx ${result.non2xx} (${statusList})`,
  );
  failures.print();
  printErrorLines();
  if (reloads > reloadsBefore) {
    console.log(`     wrangler dev reloaded the Worker ${reloads - reloadsBefore} time(s) during this scenario (a watched file changed): requests in flight then may fail`);
  }
  return { name, ok: result.errors === 0 && result.timeouts === 0 && result.non2xx === 0 };
}

/** The post scenario's clients beside the attackers, the attackers' answers and /healthz reported after. */
async function runHostile(base: string, options: Options, page: string): Promise<ScenarioResult> {
  const reloadsBefore = reloads;
  const stopAt = Date.now() + options.duration * 1000;
  const heavyPage = linkPage(HOSTILE_LINKS);
  const heavy = (["article", "json"] as const).map((format) => heavyLoop(base, format, heavyPage, stopAt));
  const slow = slowBodies(base, stopAt);
  const bailouts = bailoutLoop(base, stopAt);
  const mislabelled = mislabelledOrigin === null ? null : mislabelledLoop(base, mislabelledOrigin, stopAt);
  const health = healthProbe(base, stopAt);
  const connections = options.connectionsGiven ? options.connections : HOSTILE_DEFAULT_CONNECTIONS;
  const statuses = new Map<number, number>();
  const failures = new FailureSamples();
  const instance = autocannon({
    url: `${base}/v1/clean?format=text&site=wrenmouth-gazette.example`, method: "POST", body: page,
    headers: { "x-api-key": API_KEY, "content-type": "text/html; charset=utf-8" }, connections, duration: options.duration, timeout: REQUEST_TIMEOUT_S,
    requests: [{ onResponse: failures.hear }],
  });
  instance.on("response", (_client: unknown, status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1));
  const result = await instance;
  const [heavyResults, slowResult, healthResult, bailoutResult, mislabelledResult] = await Promise.all([Promise.all(heavy), slow, health, bailouts, mislabelled]);
  const statusList = [...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`).join(" ");
  console.log(
    `hostile normal: ${connections} clients POST ${Math.round(page.length / 1000)} KB page, ${result.requests.average.toFixed(0)} req/s, p50 ${result.latency.p50} ms,` +
      ` p99 ${result.latency.p99} ms, max ${result.latency.max} ms; ${result.requests.total} requests, errors ${result.errors}, timeouts ${result.timeouts},` +
      ` non-2xx ${result.non2xx} (${statusList})`,
  );
  failures.print();
  printErrorLines();
  for (const line of heavyResults) console.log(`hostile heavy:  ${line}`);
  console.log(`hostile slow:   ${SLOW_BODY_CONNECTIONS} connections declaring ${SLOW_BODY_DECLARED_BYTES} bytes: ${slowResult}`);
  console.log(`hostile bailout: ${bailoutResult.summary}`);
  console.log(`hostile gzip:   ${mislabelledResult?.summary ?? "not run: --url names a running service, whose DEV_ALLOWED_ORIGINS this run cannot set"}`);
  console.log(`hostile health: ${healthResult.summary}`);
  if (reloads > reloadsBefore) console.log(`     wrangler dev reloaded the Worker ${reloads - reloadsBefore} time(s) during this scenario`);
  const attackersOk = bailoutResult.ok && (mislabelledResult?.ok ?? true);
  return { name: "hostile", ok: result.errors === 0 && result.timeouts === 0 && result.non2xx === 0 && healthResult.ok && attackersOk };
}

/** Prints the service's error lines heard since the last call, and forgets them. */
function printErrorLines(): void {
  const lines = [...errorLines].slice(0, ERROR_LINES_SHOWN);
  for (const [line, count] of lines) console.log(`     npm start said ${count} × ${line}`);
  if (errorLines.size > lines.length) console.log(`     … and ${errorLines.size - lines.length} other error lines`);
  errorLines.clear();
}

/** The answers other than 2xx, by status and the start of their body (who answered: the front door, the dev proxy, the Worker). */
class FailureSamples {
  private readonly seen = new Map<string, number>();

  readonly hear = (status: number, body: string): void => {
    if (status >= 200 && status < 300) return;
    const key = `${status} ${body.replace(/\s+/g, " ").trim().slice(0, FAILURE_BODY_CHARACTERS)}`;
    this.seen.set(key, (this.seen.get(key) ?? 0) + 1);
  };

  print(): void {
    for (const [key, count] of this.seen) console.log(`     ${count} × ${key}`);
  }
}

/** Posts the heavy page as `format` again and again until `stopAt`; a line of what came back. */
async function heavyLoop(base: string, format: string, body: string, stopAt: number): Promise<string> {
  const outcomes = new Map<string, number>();
  const durations: number[] = [];
  while (Date.now() < stopAt) {
    const started = Date.now();
    const outcome = await fetch(`${base}/v1/clean?format=${format}`, {
      method: "POST", body, headers: { "x-api-key": API_KEY, "content-type": "text/html; charset=utf-8" }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_S * 1000),
    }).then(
      async (response) => {
        const body = await response.text();
        // A failure says who answered it (the start of its body); a bailout its reason.
        const failure = response.ok ? "" : ` ${body.replace(/\s+/g, " ").trim().slice(0, FAILURE_BODY_CHARACTERS)}`;
        return `${response.status}${response.headers.has("x-clean-bailout") ? ` ${response.headers.get("x-clean-bailout")}` : ""}${failure}`;
      },
      (error: Error) => error.name,
    );
    durations.push(Date.now() - started);
    outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
  }
  const sorted = [...durations].sort((a, b) => a - b);
  const list = [...outcomes].map(([outcome, count]) => `${outcome}×${count}`).join(", ");
  return `${Math.round(body.length / 1e5) / 10} MB page as ${format}: ${durations.length} requests (${list}), median ${sorted[Math.floor(sorted.length / 2)] ?? 0} ms, max ${sorted.at(-1) ?? 0} ms`;
}

/** Posts the bail-out page in each of BAILOUT_QUERIES in turn until `stopAt`: whether no answer carried its script. */
async function bailoutLoop(base: string, stopAt: number): Promise<{ ok: boolean; summary: string }> {
  const page = divsWithScript(BAILOUT_DIVS);
  const outcomes = new Map<string, number>();
  let unsafe = 0;
  let failed = 0;
  for (let turn = 0; Date.now() < stopAt; turn++) {
    const query = BAILOUT_QUERIES[turn % BAILOUT_QUERIES.length];
    const outcome = await fetch(`${base}/v1/clean?${query}`, {
      method: "POST", body: page, headers: { "x-api-key": API_KEY, "content-type": "text/html; charset=utf-8" }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_S * 1000),
    }).then(async (response) => {
      const body = await response.text();
      // The script as markup (json escapes "<" as \u003c or keeps it in a string: either way "<script" is its start).
      const carriesScript = carriesMarkup(query, body);
      if (carriesScript) unsafe++;
      if (response.status >= 500) failed++;
      return `${response.status} ${response.headers.get("x-clean-bailout") ?? "cleaned"}${carriesScript ? " with the script" : ""}`;
    }, (error: Error) => {
      failed++;
      return error.name;
    });
    const key = `${query}: ${outcome}`;
    outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
  }
  const list = [...outcomes].map(([outcome, count]) => `${outcome}×${count}`).join(", ");
  return {
    ok: unsafe === 0 && failed === 0,
    summary: `${Math.round(page.length / 1e5) / 10} MB page of ${BAILOUT_DIVS} <div> and a script: ${list}; ${unsafe} answers carried the script, ${failed} failed (5xx or no answer)`,
  };
}

/**
 * Whether an answer to the bail-out page carries its script as markup, in a field or format that promises text or safe
 * HTML: every field of a json answer but `html` (the page as it came, which the json document keeps as the proxy's
 * working page), and the whole body of the others.
 */
function carriesMarkup(query: string, body: string): boolean {
  let promised = body;
  if (query.startsWith("format=json")) {
    try {
      const { html: _page, ...fields } = JSON.parse(body) as Record<string, unknown>;
      promised = JSON.stringify(fields);
    } catch {
      // not the json asked for: the body is checked whole
    }
  }
  return promised.includes(`<script>${SCRIPT_MARKER}`) || /<script/i.test(promised.replace(/\\u003c/gi, "<"));
}

/** A loopback origin that answers plain HTML labelled `Content-Encoding: gzip` (the body does not decode). */
async function startMislabelledOrigin(): Promise<{ server: Server; url: string }> {
  const port = await freePort(MISLABELLED_HOST);
  const page = readFileSync(SAMPLE, "utf8");
  const server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-encoding": "gzip", "content-length": String(Buffer.byteLength(page)) });
    response.end(page);
  });
  await new Promise<void>((listening) => server.listen(port, MISLABELLED_HOST, listening));
  return { server, url: `http://${MISLABELLED_HOST}:${port}` };
}

/** Asks for the mislabelled page by URL, one request at a time, until `stopAt`: whether every answer was a 502 origin-error. */
async function mislabelledLoop(base: string, origin: string, stopAt: number): Promise<{ ok: boolean; summary: string }> {
  const outcomes = new Map<string, number>();
  let wrong = 0;
  while (Date.now() < stopAt) {
    const target = encodeURIComponent(`${origin}${MISLABELLED_PATH}`);
    const outcome = await fetch(`${base}/v1/clean?format=text&url=${target}`, { headers: { "x-api-key": API_KEY }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_S * 1000) }).then(
      async (response) => {
        const body = await response.text();
        const code = /"code"\s*:\s*"([^"]+)"/.exec(body)?.[1] ?? body.replace(/\s+/g, " ").trim().slice(0, 60);
        return `${response.status} ${code}`;
      },
      (error: Error) => error.name,
    );
    if (outcome !== "502 origin-error") wrong++;
    outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    await new Promise((done) => setTimeout(done, HEALTH_INTERVAL_MS));
  }
  const list = [...outcomes].map(([outcome, count]) => `${outcome}×${count}`).join(", ");
  return { ok: wrong === 0, summary: `plain HTML labelled gzip, by URL: ${list || "no request"}; ${wrong} not a 502 origin-error` };
}

/** SLOW_BODY_CONNECTIONS connections that declare a body, send 13 bytes and wait, each opened again when closed, until `stopAt`. */
async function slowBodies(base: string, stopAt: number): Promise<string> {
  const { hostname, port } = new URL(base);
  const answers = new Map<string, number>();
  const sockets = new Set<Socket>();
  let opened = 0;
  const open = (): void => {
    if (Date.now() >= stopAt) return;
    opened++;
    const socket = connect(Number(port), hostname);
    sockets.add(socket);
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk.toString()));
    socket.on("error", () => undefined);
    socket.on("close", () => {
      sockets.delete(socket);
      const status = /^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? "closed without an answer";
      answers.set(status, (answers.get(status) ?? 0) + 1);
      open();
    });
    socket.write(`POST /v1/clean?format=text HTTP/1.1\r\nhost: ${hostname}\r\ncontent-type: text/html\r\ncontent-length: ${SLOW_BODY_DECLARED_BYTES}\r\n\r\n<html><body>`);
  };
  for (let index = 0; index < SLOW_BODY_CONNECTIONS; index++) open();
  await new Promise((done) => setTimeout(done, Math.max(0, stopAt - Date.now())));
  for (const socket of sockets) socket.destroy();
  return `${opened} opened; answered ${[...answers].map(([status, count]) => `${status}×${count}`).join(", ") || "none"} (the rest cut at the end)`;
}

/** Asks /healthz every HEALTH_INTERVAL_MS until `stopAt`: whether every answer was a 200 within HEALTH_LIMIT_MS. */
async function healthProbe(base: string, stopAt: number): Promise<{ ok: boolean; summary: string }> {
  const latencies: number[] = [];
  let failures = 0;
  while (Date.now() < stopAt) {
    const started = Date.now();
    const ok = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(30_000) }).then(async (response) => {
      await response.arrayBuffer();
      return response.ok;
    }, () => false);
    const latency = Date.now() - started;
    if (ok) latencies.push(latency);
    else failures++;
    await new Promise((done) => setTimeout(done, Math.max(0, HEALTH_INTERVAL_MS - latency)));
  }
  const sorted = [...latencies].sort((a, b) => a - b);
  const late = latencies.filter((latency) => latency > HEALTH_LIMIT_MS).length;
  return {
    ok: failures === 0 && late === 0,
    summary: `${latencies.length + failures} asked, ${failures} failed, ${late} over ${HEALTH_LIMIT_MS} ms; p50 ${sorted[Math.floor(sorted.length / 2)] ?? 0} ms, max ${sorted.at(-1) ?? 0} ms`,
  };
}

const options = parseOptions();

/** The hostile scenario's mislabelled origin (its URL), started before `npm start` so that its origin is allowed; null when not run. */
let mislabelledOrigin: string | null = null;

async function main(): Promise<void> {
  const base = options.url ?? `http://127.0.0.1:${WORKER_PORT}`;
  const origin = options.url === null && options.scenarios.includes("hostile") ? await startMislabelledOrigin() : null;
  mislabelledOrigin = origin?.url ?? null;
  const service = options.url === null ? startService(origin === null ? [] : [origin.url]) : null;
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
    origin?.server.close();
  }
}

await runCommand(COMMAND, main);
