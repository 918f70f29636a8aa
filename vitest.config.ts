import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { readdirSync, readFileSync } from "node:fs";
import { defineConfig } from "vitest/config";
import { unstable_getMiniflareWorkerOptions } from "wrangler";

/**
 * The slow gates, apart from `npm test` so that it stays a few minutes: `npm run test:gates` (vitest --mode gates)
 * runs them, and .ci/run runs both. Whole files that check every dev page (the eval floors, the two passes'
 * parity in Node and in workerd, selector and feature parity, mined rules end to end, the cross-site table and the
 * learning review margin on every dev site) or pack the package, and
 * the checks on every dev page inside other files, which call everyDevPage() (test/support/dev-data.ts) and are found by that call.
 */
const GATE_FILES = {
  node: [
    "test/node/eval-gate.test.ts", "test/node/pass-parity.test.ts", "test/node/selector-parity.test.ts",
    "test/node/features-parity.test.ts", "test/node/mined-rules-e2e.test.ts",
    // The package packed, installed into an empty folder and used (library, types, bin).
    "test/node/package.test.ts",
  ],
  worker: ["test/worker/rewrite-contract-pages.test.ts", "test/worker/selector-parity.test.ts"],
  control: ["test/control/cross-site-parity.test.ts", "test/control/learning-margin.test.ts"],
};
const filesCalling = (folder: string, call: string): string[] =>
  readdirSync(folder).filter((name) => name.endsWith(".test.ts") && readFileSync(`${folder}/${name}`, "utf8").includes(call)).map((name) => `${folder}/${name}`);

// The tests' origin server listens on loopback, which the Worker refuses unless allowed.
// /v1/* needs an API key: tests send "test-key" (x-api-key or authorization: Bearer).
// Names are resolved before fetching: at a closed loopback port, so no test ever asks a real resolver
// (tests of resolution point DNS_RESOLVER_URL at the origin server's stub).
// Failed mining jobs are retried at once (LEARN_RETRY_SECONDS 0), so a job reaches the dead-letter queue within a test.
// An isolate keeps a site's rule set 1 s (RULES_CACHE_TTL; 60 deployed), so a test sees a published set applied soon.
// A test's pages are sampled and learned from seconds apart (LEARN_SAMPLE_SPACING_MINUTES and LEARN_MIN_SPAN_HOURS 0,
// here for the jobs the real queue hands the control Worker); the tests of the spacing and the span set their own.
const TEST_BINDINGS = {
  ALLOW_PRIVATE_TARGETS: "true", API_KEYS: "test-key", DNS_RESOLVER_URL: "http://127.0.0.1:9/dns-query", LEARN_RETRY_SECONDS: "0",
  LEARN_SAMPLE_SPACING_MINUTES: "0", LEARN_MIN_SPAN_HOURS: "0", RULES_CACHE_TTL: "1",
};
// The secrets wrangler.toml requires ([secrets]: API_KEYS, ADMIN_KEY), where wrangler looks for them in a local run (the
// environment, as npm start gives them; a clone has no .dev.vars or .env), so that it does not warn "Missing required
// secrets" once per test file: the tests' API key and the admin key of test/support/learning.ts.
process.env.API_KEYS = TEST_BINDINGS.API_KEYS;
process.env.ADMIN_KEY = "test-admin-key";
// Request.cf takes miniflare's built-in values: left on, miniflare fetches them from Cloudflare at start, and tests
// reach loopback only.
process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";

/**
 * The queue consumers of a Worker's config as declared (batch size, retries, dead-letter queue), but each batch
 * delivered as soon as it has a message: a deployment waits up to max_batch_timeout (5 s) to fill a batch, which
 * a test would wait out at every delivery and retry.
 */
function consumersDeliveringAtOnce(configPath: string) {
  const { queueConsumers } = unstable_getMiniflareWorkerOptions(configPath).workerOptions;
  if (queueConsumers === undefined || queueConsumers === null || Array.isArray(queueConsumers)) return {};
  return Object.fromEntries(Object.entries(queueConsumers).map(([queue, consumer]) => [queue, { ...(consumer as object), maxBatchTimeout: 0 }]));
}

/** A project of tests inside workerd, with the real local KV, R2 and Queues of a Worker's config. */
function workerProject(name: string, configPath: string, include: readonly string[], exclude: readonly string[] = []) {
  return {
    plugins: [cloudflareTest({ wrangler: { configPath }, miniflare: { bindings: TEST_BINDINGS, queueConsumers: consumersDeliveringAtOnce(configPath) } })],
    test: {
      name,
      globalSetup: ["test/support/global-setup.ts"],
      include: [...include],
      exclude: [...exclude],
      testTimeout: 120_000,
      // The feed parser the feed tests read outputs back with is CommonJS; pre-bundled, it loads in workerd.
      deps: { optimizer: { ssr: { enabled: true, include: ["@rowanmanning/feed-parser"] } } },
    },
  };
}

// Three projects: Node unit tests (html-rewriter-wasm backend, miner, trainer, CLI); the edge Worker's tests
// inside workerd (wrangler.toml); and the control Worker's (wrangler.control.toml: the queue consumer and the
// cron), where the edge's code is called too, on the same local KV, R2 and Queues, as the two share them.
// Each project's gate files run in the gates mode instead.
export default defineConfig(({ mode }) => {
  const gates = mode === "gates";
  const nodeGates = [...GATE_FILES.node, ...filesCalling("test/node", "everyDevPage(")];
  return {
    test: {
      projects: [
        {
          test: {
            name: "node",
            include: gates ? nodeGates : ["test/node/**/*.test.ts", "src/**/*.test.ts"],
            exclude: gates ? [] : GATE_FILES.node,
            environment: "node",
            testTimeout: 120_000,
            env: { TEST_GATES: gates ? "1" : "" },
          },
        },
        workerProject("worker", "./wrangler.toml", gates ? GATE_FILES.worker : ["test/worker/**/*.test.ts"], gates ? [] : GATE_FILES.worker),
        workerProject("control", "./wrangler.control.toml", gates ? GATE_FILES.control : ["test/control/**/*.test.ts"], gates ? [] : GATE_FILES.control),
      ],
    },
  };
});
