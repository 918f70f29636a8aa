/**
 * `npm start`: the embedded default on one machine, offline.
 *
 * 1. Every rule set in rules/ (validated, unsafe patterns refused) goes into the local KV namespace RULES
 *    with `wrangler kv bulk put --local`. The sample site's rule set is also stored under the host that
 *    serves it here (127.0.0.1), so that fetching and proxying its pages by that address find the rules.
 * 2. The sample site (samples/wrenmouth-gazette.example, a made-up local newspaper) is served on
 *    http://127.0.0.1:8788 by a small static server in this process.
 * 3. `wrangler dev` runs the Worker in local workerd on http://127.0.0.1:8787, with development-only vars:
 *    the dev API key, loopback targets allowed, and the proxy mapping /sample/ to the sample site.
 * Ctrl-C stops both. Ports: WORKER_PORT and SAMPLES_PORT override 8787 and 8788.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseRuleSetText } from "../src/rules/index";
import { startStaticServer } from "./static-server";

const REPO_ROOT = resolve(fileURLToPath(import.meta.url), "../..");
const RULES_FOLDER = resolve(REPO_ROOT, "rules");
const SAMPLE_SITE = "wrenmouth-gazette.example";
const SAMPLE_FOLDER = resolve(REPO_ROOT, "samples", SAMPLE_SITE);
const STATE_FOLDER = resolve(REPO_ROOT, ".wrangler/start");
const HOST = "127.0.0.1";
/** The API key of the local default. Development only: deployments set API_KEYS as a secret. */
export const DEV_API_KEY = "local-dev-key";
/** How long to wait for `wrangler dev` to answer /healthz before giving up, in milliseconds. */
const READY_TIMEOUT_MS = 60_000;

const workerPort = Number(process.env.WORKER_PORT ?? 8787);
const samplesPort = Number(process.env.SAMPLES_PORT ?? 8788);
const wranglerEnvironment = { ...process.env, WRANGLER_SEND_METRICS: "false" };

interface BulkEntry {
  readonly key: string;
  readonly value: string;
}

/** rules/*.json (model.json aside) as KV entries, each rule set validated with its patterns checked. */
function ruleSetEntries(): BulkEntry[] {
  const entries: BulkEntry[] = [];
  const files = readdirSync(RULES_FOLDER).filter((name) => name.endsWith(".json") && name !== "model.json");
  for (const file of files.sort()) {
    const text = readFileSync(resolve(RULES_FOLDER, file), "utf8");
    const parsed = parseRuleSetText(text, { checkPatterns: true });
    if (!parsed.ok) {
      console.warn(`  skipped rules/${file}: ${parsed.problems.slice(0, 3).join("; ")}`);
      continue;
    }
    entries.push({ key: parsed.ruleSet.site, value: text });
    if (parsed.ruleSet.site === SAMPLE_SITE) entries.push({ key: HOST, value: text });
  }
  return entries;
}

function fillLocalKv(entries: readonly BulkEntry[]): void {
  mkdirSync(STATE_FOLDER, { recursive: true });
  const bulkFile = resolve(STATE_FOLDER, "rules-bulk.json");
  writeFileSync(bulkFile, JSON.stringify(entries));
  const result = spawnSync("npx", ["wrangler", "kv", "bulk", "put", bulkFile, "--binding", "RULES", "--local", "--preview", "false"], {
    cwd: REPO_ROOT,
    env: wranglerEnvironment,
    encoding: "utf8",
  });
  if (result.status !== 0) {
    console.error(result.stdout, result.stderr);
    throw new Error("wrangler kv bulk put --local failed");
  }
}

function startWorker(): ChildProcess {
  const proxyOrigins = JSON.stringify({ "/sample": `http://${HOST}:${samplesPort}` });
  const args = [
    "wrangler", "dev", "--local", "--ip", HOST, "--port", String(workerPort), "--show-interactive-dev-session=false",
    "--var", `API_KEYS:${DEV_API_KEY}`,
    "--var", "ALLOW_PRIVATE_TARGETS:true",
    "--var", `PROXY_ORIGINS:${proxyOrigins}`,
  ];
  return spawn("npx", args, { cwd: REPO_ROOT, env: wranglerEnvironment, stdio: "inherit" });
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

function printTryLines(): void {
  const api = `http://${HOST}:${workerPort}`;
  const page = `http://${HOST}:${samplesPort}/harbour-dredging-approved.html`;
  const lines = [
    "",
    `The cleaner runs on ${api} (local workerd, local KV); the sample site on http://${HOST}:${samplesPort}/`,
    `Dev API key: ${DEV_API_KEY} (local only). Try:`,
    "",
    `  curl -s '${api}/v1/clean?url=${page}&format=text' -H 'x-api-key: ${DEV_API_KEY}'`,
    `  curl -s '${api}/v1/clean?url=${page}&format=markdown&key=${DEV_API_KEY}'`,
    `  curl -si '${api}/v1/clean?url=${page}&format=html' -H 'authorization: Bearer ${DEV_API_KEY}' | head -20`,
    `  curl -s '${api}/v1/clean?url=${page}&format=json' -H 'x-api-key: ${DEV_API_KEY}'`,
    `  curl -s '${api}/v1/clean?site=${SAMPLE_SITE}&format=text' -H 'x-api-key: ${DEV_API_KEY}' \\`,
    `       -H 'content-type: text/html' --data-binary @samples/${SAMPLE_SITE}/library-reopens.html`,
    `  curl -s '${api}/v1/rules/${SAMPLE_SITE}' -H 'x-api-key: ${DEV_API_KEY}'`,
    `  open ${api}/sample/harbour-dredging-approved.html   (proxy mode: the sample site, cleaned)`,
    "",
  ];
  console.log(lines.join("\n"));
}

async function main(): Promise<void> {
  console.log("Filling the local KV namespace RULES from rules/ …");
  const entries = ruleSetEntries();
  if (entries.length > 0) fillLocalKv(entries);
  console.log(`  ${entries.length} entries: ${entries.map((entry) => entry.key).join(", ")}`);
  const samples = await startStaticServer(SAMPLE_FOLDER, HOST, samplesPort);
  const worker = startWorker();
  const stop = (): void => {
    worker.kill("SIGINT");
    void samples.close();
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  worker.on("exit", (code) => {
    void samples.close();
    process.exitCode = code ?? 0;
  });
  if (await waitUntilReady(`http://${HOST}:${workerPort}/healthz`, worker)) printTryLines();
  else console.error("wrangler dev did not become ready; see its output above");
}

await main();
