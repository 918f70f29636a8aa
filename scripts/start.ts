/**
 * `npm start`: the embedded default on one machine, offline.
 *
 * 1. Every rule set in rules/ (validated, unsafe patterns refused) goes into the local KV namespace RULES
 *    through the publisher (scripts/publish.ts: `wrangler kv bulk put --local`). The sample site's rule
 *    set is also stored under the host that serves it here (127.0.0.1), so that fetching and proxying its
 *    pages by that address find the rules.
 * 2. The sample site (samples/wrenmouth-gazette.example, a made-up local newspaper) is served on
 *    http://127.0.0.1:8788 by a small static server in this process.
 * 3. `wrangler dev` runs the edge Worker (wrangler.toml) in local workerd, with development-only vars:
 *    the dev API key, the sample site's origin allowed as a fetch target (its own, and those listed in
 *    DEV_ALLOWED_ORIGINS; every other loopback, private or metadata target stays refused), and the proxy
 *    mapping /sample/ to the sample site.
 * 4. Learning from traffic is on for every site (LEARN_SITES=*, every cleaned page sampled), with local R2
 *    and Queues, and the dev admin key local-admin-key for /admin/*. The control Worker
 *    (wrangler.control.toml) runs in the same session, so the jobs the edge enqueues are mined and published
 *    at once; its cron is not triggered locally (POST /admin/learn runs its step, POST /admin/learn/:site
 *    enqueues one site). Pages are sampled and learned from seconds apart here (a deployment keeps a page an hour
 *    and needs a day of pages: LEARN_SAMPLE_SPACING_MINUTES, LEARN_MIN_SPAN_HOURS). The second sample site,
 *    samples/learn-test.example (a walking club's journal, another template, and no rule set), is there to be
 *    learned from its own origin, served beside and listed in DEV_ALLOWED_ORIGINS: see printTryLines.
 * 5. The service's port, http://127.0.0.1:8787, is a front door in this process (scripts/front-door.ts): it
 *    hands requests to wrangler dev, on a free port of its own, at most MAX_IN_FLIGHT at a time (and one large body
 *    beside them, from bounded queues where clients take turns: front-door.ts), since local
 *    workerd drops and starves requests when it holds hundreds of connections at once (docs/performance.md, "Load").
 * Ctrl-C stops all three. Ports: WORKER_PORT and SAMPLES_PORT override 8787 and 8788.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseCommand, usageText, type Command } from "./lib/cli";
import { freePort } from "./lib/free-port";
import { bulkPut, collectRuleSets, type KvEntry } from "./publish";
import { demoSamples } from "./demo-samples";
import { startFrontDoor, type FrontDoor } from "./front-door";
import { startStaticServer, type StaticServer } from "./static-server";

const REPO_ROOT = resolve(fileURLToPath(import.meta.url), "../..");
const RULES_FOLDER = resolve(REPO_ROOT, "rules");
const SAMPLE_SITE = "wrenmouth-gazette.example";
const SAMPLE_FOLDER = resolve(REPO_ROOT, "samples", SAMPLE_SITE);
const HOST = "127.0.0.1";
/** The API key of the local default. Development only: deployments set API_KEYS as a secret. */
export const DEV_API_KEY = "local-dev-key";
/** The admin key of the local default (/admin/*). Development only: deployments set ADMIN_KEY as a secret. */
export const DEV_ADMIN_KEY = "local-admin-key";
/** The sample site without rules, learned from its pages served on LEARN_PORT (printTryLines). */
const LEARN_SITE = "learn-test.example";
/** How long to wait for `wrangler dev` to answer /healthz before giving up, in milliseconds. */
const READY_TIMEOUT_MS = 60_000;
/**
 * Requests the front door hands to wrangler dev at once. One isolate runs one request at a time, so a few
 * suffice to keep it busy while others wait on I/O (a fetched page); 200 at once measured resets and 30 s
 * timeouts, 16 none. Requests handed over queue inside the isolate, where /healthz cannot pass them: at 16 a
 * /healthz waited behind up to 16 cleans (over 1 s at load average 13-16), at 4 behind 4, and post and get
 * ran no slower (docs/performance.md, "Hostile load").
 */
const MAX_IN_FLIGHT = 4;

const COMMAND: Command = {
  name: "start",
  usage: usageText("start"),
};
parseCommand(COMMAND, {});

const workerPort = Number(process.env.WORKER_PORT ?? 8787);
const samplesPort = Number(process.env.SAMPLES_PORT ?? 8788);
// Offline and loopback only: no usage metrics, and no fetch of Request.cf's sample values from Cloudflare at start.
const wranglerEnvironment = { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" };

/** rules/ as KV entries (validated by the publisher), plus the sample site's set under the host serving it here. */
function localEntries(): KvEntry[] {
  const collected = collectRuleSets(RULES_FOLDER);
  for (const refusal of collected.refused) console.warn(`  refused ${refusal}`);
  const sample = collected.entries.find((entry) => entry.key === SAMPLE_SITE);
  return sample === undefined ? collected.entries : [...collected.entries, { key: HOST, value: sample.value }];
}

/**
 * The fetch targets allowed whatever their address: the sample site, plus DEV_ALLOWED_ORIGINS
 * (comma-separated origins such as "http://127.0.0.1:3000"). Anything else in that list is an error.
 */
function allowedOrigins(): string[] {
  const origins = [`http://${HOST}:${samplesPort}`];
  for (const entry of (process.env.DEV_ALLOWED_ORIGINS ?? "").split(",").map((text) => text.trim()).filter((text) => text !== "")) {
    const url = parseUrl(entry);
    if (url === null || (url.protocol !== "http:" && url.protocol !== "https:") || url.origin !== entry.replace(/\/$/, "")) {
      throw new UsageError(`DEV_ALLOWED_ORIGINS: ${JSON.stringify(entry)} is not an origin such as http://127.0.0.1:3000`);
    }
    origins.push(url.origin);
  }
  return origins;
}

class UsageError extends Error {}

function parseUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null; // reported by the caller as a usage error
  }
}

function startWorker(origins: readonly string[], wranglerPort: number): ChildProcess {
  // The proxy serves the sample site under /sample/, cleaned with the rules of the site it stands for.
  const proxyOrigins = JSON.stringify({ "/sample": { origin: `http://${HOST}:${samplesPort}`, site: SAMPLE_SITE } });
  const args = [
    // Both Workers in one session: the first config's is served on the port and takes the --var values below; the
    // control Worker consumes the local queue the edge sends to (local KV, R2 and Queues are shared by name).
    "wrangler", "dev", "-c", "wrangler.toml", "-c", devControlConfig(),
    "--local", "--ip", HOST, "--port", String(wranglerPort), "--show-interactive-dev-session=false",
    "--var", `API_KEYS:${DEV_API_KEY}`,
    "--var", `ADMIN_KEY:${DEV_ADMIN_KEY}`,
    // Learning from traffic: every site, every cleaned page sampled (a deployment samples a share: LEARN_SAMPLE_RATE).
    "--var", "LEARN_SITES:*",
    "--var", "LEARN_SAMPLE_RATE:1",
    // Learned from pages read a moment ago (development only: a deployment keeps one page an hour, over a day).
    "--var", `LEARN_SAMPLE_SPACING_MINUTES:${DEV_LEARNING_VARS.LEARN_SAMPLE_SPACING_MINUTES}`,
    "--var", `LEARN_MIN_SPAN_HOURS:${DEV_LEARNING_VARS.LEARN_MIN_SPAN_HOURS}`,
    "--var", `ALLOWED_TARGET_ORIGINS:${origins.join(",")}`,
    // One resolution per fetch: a name is fetched at the address its check resolved (local workerd resolves again otherwise).
    "--var", "PIN_TARGETS:on",
    "--var", `PROXY_ORIGINS:${proxyOrigins}`,
    // Browser apps allowed to call the API (CORS): the sample site's origin, plus DEV_CORS_ALLOWED_ORIGINS (comma-separated).
    "--var", `CORS_ALLOWED_ORIGINS:${[`http://${HOST}:${samplesPort}`, ...(process.env.DEV_CORS_ALLOWED_ORIGINS ?? "").split(",").map((entry) => entry.trim()).filter((entry) => entry !== "")].join(",")}`,
    // The demo page (GET /): the sample pages to pick from, and the dev key its form starts with.
    "--var", `DEMO_SAMPLES:${JSON.stringify(demoSamples(SAMPLE_FOLDER, `http://${HOST}:${samplesPort}`))}`,
    "--var", `DEMO_API_KEY:${DEV_API_KEY}`,
    // `npm run load` measures the Worker, not the limiter: it starts the service with RATE_LIMIT=off.
    ...(process.env.RATE_LIMIT === "off" ? ["--var", "RATE_LIMIT:off"] : []),
  ];
  // The dev keys also in the environment, where wrangler dev looks for the secrets wrangler.toml requires, so it
  // does not warn that they are missing; the --var values above win over any .dev.vars.
  const env = { ...wranglerEnvironment, API_KEYS: DEV_API_KEY, ADMIN_KEY: DEV_ADMIN_KEY };
  return spawn("npx", args, { cwd: REPO_ROOT, env, stdio: "inherit" });
}

/** Development-only learning vars, for both Workers: the control Worker's job checks the span. */
const DEV_LEARNING_VARS = { LEARN_SAMPLE_SPACING_MINUTES: "0", LEARN_MIN_SPAN_HOURS: "0" };

/**
 * wrangler.control.toml with DEV_LEARNING_VARS as its [vars], written under .wrangler/ (git-ignored, wrangler's own
 * local state): `--var` and `--env-file` reach the first config's Worker only.
 */
function devControlConfig(): string {
  const vars = Object.entries(DEV_LEARNING_VARS).map(([name, value]) => `${name} = "${value}"`).join("\n");
  const text = readFileSync(resolve(REPO_ROOT, "wrangler.control.toml"), "utf8")
    .replace(/^main = "src\//m, 'main = "../src/')
    .replace(/^\[vars\]$/m, `[vars]\n${vars}`);
  const file = resolve(REPO_ROOT, ".wrangler", "start-control.toml");
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

async function waitUntilReady(url: string, worker: ChildProcess): Promise<boolean> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline && worker.exitCode === null) {
    const ready = await fetch(url).then((response) => response.ok, () => false);
    if (ready) return true;
    await new Promise((done) => setTimeout(done, 300));
  }
  return false;
}

function printTryLines(origins: readonly string[]): void {
  const api = `http://${HOST}:${workerPort}`;
  // The learning site's own origin: the first DEV_ALLOWED_ORIGINS entry on this host, else the port after the samples'.
  const listed = origins.slice(1).map((origin) => new URL(origin)).find((url) => url.hostname === HOST);
  const LEARN_PORT = listed?.port ?? String(samplesPort + 1);
  // Its pages under /learn-test.example/ there: a path key of its own, apart from 127.0.0.1 (the gazette's rules here).
  const LEARN_KEY = `${HOST}/${LEARN_SITE}`;
  const page = `http://${HOST}:${samplesPort}/harbour-dredging-approved.html`;
  const lines = [
    "",
    `The cleaner runs on ${api} (local workerd, local KV; wrangler dev's own port above is internal); the sample site on http://${HOST}:${samplesPort}/`,
    `Dev API key: ${DEV_API_KEY} (local only). Fetch targets on loopback or private addresses: only ${origins.join(", ")} (add more with DEV_ALLOWED_ORIGINS). Try:`,
    "",
    `  curl -s '${api}/v1/clean?url=${page}&format=text' -H 'x-api-key: ${DEV_API_KEY}'`,
    `  curl -s '${api}/v1/clean?url=${page}&format=markdown&key=${DEV_API_KEY}'`,
    `  curl -si '${api}/v1/clean?url=${page}&format=html' -H 'authorization: Bearer ${DEV_API_KEY}' | head -20`,
    `  curl -s '${api}/v1/clean?url=${page}&format=json' -H 'x-api-key: ${DEV_API_KEY}'`,
    `  curl -s '${api}/v1/clean?site=${SAMPLE_SITE}&format=text' -H 'x-api-key: ${DEV_API_KEY}' \\`,
    `       -H 'content-type: text/html' --data-binary @samples/${SAMPLE_SITE}/library-reopens.html`,
    `  curl -s '${api}/v1/rules/${SAMPLE_SITE}' -H 'x-api-key: ${DEV_API_KEY}'`,
    `  curl -s '${api}/v1/read/${page}' -H 'authorization: Bearer ${DEV_API_KEY}'   (Jina Reader's text envelope; docs/agents.md)`,
    `  curl -s '${api}/v1/mcp' -H 'authorization: Bearer ${DEV_API_KEY}' -H 'content-type: application/json' \\`,
    `       -d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_url","arguments":{"url":"${page}"}}}'   (MCP)`,
    `  open ${api}/sample/harbour-dredging-approved.html   (proxy mode: the sample site, cleaned)`,
    `  open ${api}/   (demo page: pick a sample, see it cleaned beside the original with removed blocks outlined)`,
    "",
    `Learning (LEARN_SITES=*, admin key ${DEV_ADMIN_KEY}, local only): ${LEARN_SITE} has no rules. Rules are learned only from pages the`,
    `service fetched from the site's own origin: serve samples/ on a port, list it, read ten pages, learn, and see the rules applied:`,
    "",
    `  python3 -m http.server ${LEARN_PORT} --bind ${HOST} --directory samples &   # then restart with DEV_ALLOWED_ORIGINS=http://${HOST}:${LEARN_PORT}`,
    `  for page in $(ls samples/${LEARN_SITE} | head -10); do`,
    `    curl -s -o /dev/null -w '%{http_code} ' "${api}/v1/clean?url=http://${HOST}:${LEARN_PORT}/${LEARN_SITE}/$page&site=${LEARN_KEY}&format=text" -H 'x-api-key: ${DEV_API_KEY}'; done; echo`,
    `  curl -s -X POST '${api}/admin/learn/${LEARN_KEY}' -H 'x-api-key: ${DEV_ADMIN_KEY}'`,
    `  curl -s '${api}/v1/rules/${LEARN_KEY}' -H 'x-api-key: ${DEV_API_KEY}' | head -c 300; echo   (a few seconds later: "source":"learned", published by the control Worker)`,
    `  curl -s -D - -o /dev/null '${api}/v1/clean?url=http://${HOST}:${LEARN_PORT}/${LEARN_SITE}/volunteer-stile-repairs.html&site=${LEARN_KEY}&format=text' \\`,
    `       -H 'x-api-key: ${DEV_API_KEY}' | grep x-clean-rules   (applied once the edge's cached "no rules", kept 60 s after its last page, has expired)`,
    `  curl -s '${api}/admin/learn/${LEARN_KEY}' -H 'x-api-key: ${DEV_ADMIN_KEY}'   (sampled pages and their evidence, last job, versions, a set waiting for review)`,
    `  curl -s -X POST '${api}/admin/rules/${LEARN_KEY}/rollback' -H 'authorization: Bearer ${DEV_ADMIN_KEY}'`,
    `  curl -s -X POST '${api}/admin/learn' -H 'x-api-key: ${DEV_ADMIN_KEY}'   (the cron's step now: every sampled site whose rules are missing or stale)`,
    "",
  ];
  console.log(lines.join("\n"));
}

async function main(): Promise<void> {
  let origins: string[];
  try {
    origins = allowedOrigins();
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(error.message);
    process.exitCode = 2;
    return;
  }
  console.log("Filling the local KV namespace RULES from rules/ …");
  const entries = localEntries();
  if (entries.length > 0) {
    const written = bulkPut(entries, { remote: false });
    if (!written.ok) throw new Error(`wrangler kv bulk put --local failed:\n${written.output}`);
  }
  const sites = entries.map((entry) => entry.key);
  console.log(`  ${sites.length} rule sets (${sites.includes(SAMPLE_SITE) ? SAMPLE_SITE : "no sample site"} among them)`);
  const servers = await startLocalServers();
  if (servers === null) {
    process.exitCode = 1;
    return;
  }
  const worker = startWorker(origins, servers.wranglerPort);
  const closeServers = (): void => {
    void servers.samples.close();
    void servers.front.close();
  };
  const stop = (): void => {
    worker.kill("SIGINT");
    closeServers();
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  worker.on("exit", (code) => {
    closeServers();
    process.exitCode = code ?? 0;
  });
  if (await waitUntilReady(`http://${HOST}:${workerPort}/healthz`, worker)) printTryLines(origins);
  else console.error("wrangler dev did not become ready; see its output above");
}

interface LocalServers {
  readonly samples: StaticServer;
  readonly front: FrontDoor;
  /** The port wrangler dev is to listen on, behind the front door. */
  readonly wranglerPort: number;
}

/** The sample site and the front door, in this process; null (said why) when a port is taken. */
async function startLocalServers(): Promise<LocalServers | null> {
  const samples = await startStaticServer(SAMPLE_FOLDER, HOST, samplesPort, { publicOrigin: `https://${SAMPLE_SITE}` }).catch((error: NodeJS.ErrnoException) => {
    console.error(`cannot serve the sample site on ${HOST}:${samplesPort} (${error.code ?? error.message}); set SAMPLES_PORT to another port`);
    return null;
  });
  if (samples === null) return null;
  const wranglerPort = await freePort(HOST);
  const front = await startFrontDoor({ host: HOST, port: workerPort, upstreamPort: wranglerPort, maxInFlight: MAX_IN_FLIGHT }).catch((error: NodeJS.ErrnoException) => {
    console.error(`cannot listen on ${HOST}:${workerPort} (${error.code ?? error.message}); set WORKER_PORT to another port`);
    return null;
  });
  if (front === null) {
    await samples.close();
    return null;
  }
  return { samples, front, wranglerPort };
}

await main();
