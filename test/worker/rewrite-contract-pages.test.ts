/**
 * Parity of the two passes inside workerd, with the native HTMLRewriter: every page of ../shared/data
 * (fetched from the test origin server, as workerd cannot read the disk) gets a seeded random removal plan;
 * the output analysed again must hold exactly the text the page model says is kept, and HTMLRewriter must
 * have removed exactly the top-most removed blocks. Replay with VITE_PARITY_SEED=<seed>.
 */
import { inject } from "vitest";
import { describe, expect, it } from "vitest";
import { analysePage, decodeHtml } from "../../src/page/index";
import { normalisePlan } from "../../src/plan/index";
import { rewriteHtml } from "../../src/rewrite/index";
import { createWorkerdBackend } from "../../src/runtime/index";
import { devPagePaths } from "../support/dev-pages";
import { keptText, randomPlan, topRemovedCount, words } from "../node/pass-parity-plans";
import { chooseSeed, seededRandom } from "../node/runtime-contract-cases";

const environment = (import.meta as { env?: Record<string, string | undefined> }).env;
const seed = chooseSeed(environment?.VITE_PARITY_SEED);
const backend = createWorkerdBackend();
const SETS = ["dragnet", "cleanportaleval", "cleaneval-dev"];


describe("pass 2 in workerd removes exactly what pass 1 decided, on every page of ../shared/data", () => {
  console.log(`pass parity (workerd): VITE_PARITY_SEED=${seed}`);
  for (const set of SETS) {
    it(`set ${set}`, async () => {
      const origin = inject("originUrl");
      const paths = await devPagePaths(origin, set);
      if (paths === null) {
        console.log(`skipped: ../shared/data/${set} is absent`);
        return;
      }
      const random = seededRandom(seed);
      const failures: string[] = [];
      let checked = 0;
      for (const path of paths) {
        const bytes = new Uint8Array(await (await fetch(`${origin}/data/${set}/${path}`)).arrayBuffer());
        const decoded = decodeHtml(bytes);
        if (!decoded.ok) continue;
        checked++;
        const page = analysePage(decoded.html);
        const plan = randomPlan(page, random);
        const result = await rewriteHtml(page, normalisePlan(page, plan), backend);
        if (!result.ok) {
          failures.push(`${path}: ${result.detail}`);
          continue;
        }
        const expected = words(keptText(page, plan));
        const actual = words(analysePage(result.html).text);
        if (expected.join(" ") !== actual.join(" ")) failures.push(`${path}: kept text differs`);
        else if (result.removedElements !== topRemovedCount(page, plan)) failures.push(`${path}: ${result.removedElements} removed, ${topRemovedCount(page, plan)} planned`);
      }
      expect(failures.slice(0, 10), `VITE_PARITY_SEED=${seed}`).toEqual([]);
      expect(checked).toBeGreaterThan(paths.length * 0.9);
    });
  }
});
