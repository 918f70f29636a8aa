import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

// The tests' origin server listens on loopback, which the Worker refuses unless allowed.
// /v1/* needs an API key: tests send "test-key" (x-api-key or authorization: Bearer).
// Names are resolved before fetching: at a closed loopback port, so no test ever asks a real resolver
// (tests of resolution point DNS_RESOLVER_URL at the origin server's stub).
// Failed mining jobs are retried at once (LEARN_RETRY_SECONDS 0), so a job reaches the dead-letter queue within a test.
const TEST_BINDINGS = { ALLOW_PRIVATE_TARGETS: "true", API_KEYS: "test-key", DNS_RESOLVER_URL: "http://127.0.0.1:9/dns-query", LEARN_RETRY_SECONDS: "0" };

/** A project of tests inside workerd, with the real local KV, R2 and Queues of a Worker's config. */
function workerProject(name: string, configPath: string, include: string) {
  return {
    plugins: [cloudflareTest({ wrangler: { configPath }, miniflare: { bindings: TEST_BINDINGS } })],
    test: {
      name,
      globalSetup: ["test/support/global-setup.ts"],
      include: [include],
      testTimeout: 120_000,
      // The feed parser the feed tests read outputs back with is CommonJS; pre-bundled, it loads in workerd.
      deps: { optimizer: { ssr: { enabled: true, include: ["@rowanmanning/feed-parser"] } } },
    },
  };
}

// Three projects: Node unit tests (html-rewriter-wasm backend, miner, trainer, CLI); the edge Worker's tests
// inside workerd (wrangler.toml); and the control Worker's (wrangler.control.toml: the queue consumer and the
// cron), where the edge's code is called too, on the same local KV, R2 and Queues, as the two share them.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "node",
          include: ["test/node/**/*.test.ts", "src/**/*.test.ts"],
          environment: "node",
          testTimeout: 120_000,
        },
      },
      workerProject("worker", "./wrangler.toml", "test/worker/**/*.test.ts"),
      workerProject("control", "./wrangler.control.toml", "test/control/**/*.test.ts"),
    ],
  },
});
