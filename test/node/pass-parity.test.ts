/**
 * Parity of the two passes: for every page of ../shared/data, random seeded removal plans (whole blocks
 * and parts of text nodes) are run through pass 2 on html-rewriter-wasm; the output, analysed again, must
 * hold exactly the text the page model says is kept, and HTMLRewriter must have removed exactly the
 * top-most removed blocks; cutting the blocks closed by their own end tag from the source first (clean()'s way)
 * must give the same bytes. Set PARITY_SEED to replay a failure.
 */
import { HTMLRewriter } from "html-rewriter-wasm";
import { describe, expect, it } from "vitest";
import { DATA_SETS, hasData, loadDataset } from "../../src/evaluation/index";
import { analysePage } from "../../src/page/index";
import { normalisePlan } from "../../src/plan/index";
import { rewriteHtml } from "../../src/rewrite/index";
import { createWasmBackend } from "../../src/runtime/index";
import { keptText, randomPlan, topRemovedCount, words } from "./pass-parity-plans";
import { chooseSeed, seededRandom } from "./runtime-contract-cases";

const backend = createWasmBackend(HTMLRewriter);
const seed = chooseSeed(process.env.PARITY_SEED);
/** First differing word with some context, for a readable failure. */
function firstDifference(expected: string[], actual: string[]): string {
  let index = 0;
  while (index < expected.length && expected[index] === actual[index]) index++;
  if (index === expected.length && index === actual.length) return "";
  return `at word ${index}: expected …${expected.slice(Math.max(0, index - 8), index + 8).join(" ")}… got …${actual.slice(Math.max(0, index - 8), index + 8).join(" ")}…`;
}

const PLANS_PER_PAGE = 2;

describe.skipIf(!hasData())("pass 2 removes exactly what pass 1 decided, on every page of ../shared/data", () => {
  if (!hasData()) console.log("skipped: ../shared/data is absent");
  console.log(`pass parity: PARITY_SEED=${seed}`);
  for (const set of DATA_SETS) {
    it(`set ${set}`, async () => {
      const { pages } = loadDataset(set);
      const random = seededRandom(seed);
      const failures: string[] = [];
      for (const page of pages) {
        const model = analysePage(page.html);
        for (let round = 0; round < PLANS_PER_PAGE; round++) {
          const plan = randomPlan(model, random);
          const result = await rewriteHtml(model, normalisePlan(model, plan), backend);
          if (!result.ok) {
            failures.push(`${page.id}: ${result.detail}`);
            continue;
          }
          const difference = firstDifference(words(keptText(model, plan)), words(analysePage(result.html).text));
          if (difference !== "") failures.push(`${page.id} round ${round}: ${difference}`);
          else if (result.removedElements !== topRemovedCount(model, plan)) failures.push(`${page.id}: ${result.removedElements} elements removed, ${topRemovedCount(model, plan)} planned`);
          // clean() cuts the blocks closed by their own end tag from the source instead: the same bytes.
          const cut = await rewriteHtml(model, normalisePlan(model, plan), backend, { cutClosedBlocks: true });
          if (!cut.ok || cut.html !== result.html) failures.push(`${page.id} round ${round}: cutting closed blocks from the source changes the output`);
        }
      }
      expect(failures, `PARITY_SEED=${seed}\n${failures.slice(0, 10).join("\n")}`).toEqual([]);
    });
  }
});
