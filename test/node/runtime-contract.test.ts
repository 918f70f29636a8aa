import { HTMLRewriter } from "html-rewriter-wasm";
import { describe, expect, it } from "vitest";
import { createWasmBackend, createWorkerdBackend } from "../../src/runtime/index";
import { CONTRACT_CASES, chooseSeed, runCase, seededRandom } from "./runtime-contract-cases";

const seed = chooseSeed(process.env.REWRITE_SEED);
console.log(`runtime contract (wasm): REWRITE_SEED=${seed}`);
const backend = createWasmBackend(HTMLRewriter);
const ROUNDS = 8;

describe("HTMLRewriter contract on html-rewriter-wasm", () => {
  const random = seededRandom(seed);
  for (const testCase of CONTRACT_CASES) {
    it(testCase.name, async () => {
      for (const run of await runCase(backend, testCase, random, ROUNDS)) {
        const label = `${testCase.name} (${run.chunking}, REWRITE_SEED=${seed})`;
        if (testCase.expected.ok !== undefined) expect(run.outcome.ok, label).toBe(testCase.expected.ok);
        if (!run.outcome.ok) continue;
        if (testCase.expected.html !== undefined) expect(run.outcome.html, label).toBe(testCase.expected.html);
        if (testCase.expected.calls !== undefined) expect(run.outcome.calls, label).toBe(testCase.expected.calls);
        if (testCase.expected.collected !== undefined) expect(run.collected, label).toEqual(testCase.expected.collected);
      }
    });
  }

  it("the workerd backend reports a rewriter-error in Node instead of throwing", async () => {
    const outcome = await createWorkerdBackend().rewrite("<p>x</p>", []);
    expect(outcome.ok).toBe(false);
  });
});
