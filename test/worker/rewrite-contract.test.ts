import { describe, expect, it } from "vitest";
import { createWorkerdBackend } from "../../src/runtime/index";
import { CONTRACT_CASES, chooseSeed, runCase, seededRandom } from "../node/runtime-contract-cases";

// Inside workerd there is no process.env; vitest passes VITE_-prefixed variables through import.meta.env,
// so replay a failure here with VITE_REWRITE_SEED=<seed>.
const environment = (import.meta as { env?: Record<string, string | undefined> }).env;
const seed = chooseSeed(environment?.REWRITE_SEED ?? environment?.VITE_REWRITE_SEED);
console.log(`runtime contract (workerd): VITE_REWRITE_SEED=${seed}`);
const backend = createWorkerdBackend();
const ROUNDS = 8;

describe("HTMLRewriter contract on workerd's native HTMLRewriter", () => {
  const random = seededRandom(seed);
  for (const testCase of CONTRACT_CASES) {
    it(testCase.name, async () => {
      for (const run of await runCase(backend, testCase, random, ROUNDS)) {
        const label = `${testCase.name} (${run.chunking}, VITE_REWRITE_SEED=${seed})`;
        if (testCase.expected.ok !== undefined) expect(run.outcome.ok, label).toBe(testCase.expected.ok);
        if (!run.outcome.ok) continue;
        if (testCase.expected.html !== undefined) expect(run.outcome.html, label).toBe(testCase.expected.html);
        if (testCase.expected.calls !== undefined) expect(run.outcome.calls, label).toBe(testCase.expected.calls);
        if (testCase.expected.collected !== undefined) expect(run.collected, label).toEqual(testCase.expected.collected);
      }
    });
  }
});
