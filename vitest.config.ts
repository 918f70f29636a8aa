import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

// Two projects: Node unit tests (html-rewriter-wasm backend, miner, trainer, CLI) and
// Worker tests that run inside workerd with a real local KV namespace.
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
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            // The tests' origin server listens on loopback, which the Worker refuses unless allowed.
            // /v1/* needs an API key: tests send "test-key" (x-api-key or authorization: Bearer).
            // Names are resolved before fetching: at a closed loopback port, so no test ever asks a real resolver
            // (tests of resolution point DNS_RESOLVER_URL at the origin server's stub).
            // Failed mining jobs are retried at once (LEARN_RETRY_SECONDS 0), so a job reaches the dead-letter queue within a test.
            miniflare: { bindings: { ALLOW_PRIVATE_TARGETS: "true", API_KEYS: "test-key", DNS_RESOLVER_URL: "http://127.0.0.1:9/dns-query", LEARN_RETRY_SECONDS: "0" } },
          }),
        ],
        test: {
          name: "worker",
          globalSetup: ["test/support/global-setup.ts"],
          include: ["test/worker/**/*.test.ts"],
          testTimeout: 120_000,
          // The feed parser the feed tests read outputs back with is CommonJS; pre-bundled, it loads in workerd.
          deps: { optimizer: { ssr: { enabled: true, include: ["@rowanmanning/feed-parser"] } } },
        },
      },
    ],
  },
});
