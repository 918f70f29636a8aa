/**
 * Selector parity inside workerd, with the native HTMLRewriter, on the dev pages (fetched from the test origin
 * server, as workerd cannot read the disk): pass 1 matches as many elements as HTMLRewriter does for each selector,
 * and the plans built from selectors come out of pass 2 with exactly the text the page model says is kept.
 * test/node/selector-parity.test.ts runs the same on html-rewriter-wasm.
 */
import { describe, expect, inject, it } from "vitest";
import { analysePage, decodeHtml } from "../../src/page/index";
import { rewriteHtml } from "../../src/rewrite/index";
import { createWorkerdBackend } from "../../src/runtime/index";
import { devPagePaths } from "../support/dev-pages";
import { matchSelectors } from "../../src/selectors/index";
import { keptText, words } from "../node/pass-parity-plans";
import { COUNTED_SELECTORS, countedLists, plannedRemovals, selectorPlans } from "../node/selector-parity-cases";
import { lolHtmlMatchCounts } from "../node/selector-support";

const backend = createWorkerdBackend();
const SETS = ["dragnet", "cleanportaleval", "cleaneval-dev"];


describe("selectors in workerd: pass 1 and pass 2 agree on the dev pages", () => {
  for (const set of SETS) {
    it(`set ${set}`, async () => {
      const origin = inject("originUrl");
      const paths = await devPagePaths(origin, set);
      if (paths === null) {
        console.log(`skipped: ../shared/data/${set} is absent`);
        return;
      }
      const failures: string[] = [];
      const lists = countedLists();
      let checked = 0;
      for (const path of paths) {
        const decoded = decodeHtml(new Uint8Array(await (await fetch(`${origin}/data/${set}/${path}`)).arrayBuffer()));
        if (!decoded.ok) continue;
        checked++;
        const page = analysePage(decoded.html);
        const ours = matchSelectors(page, lists).map((match) => match.elements);
        const theirs = await lolHtmlMatchCounts(backend, page, COUNTED_SELECTORS);
        ours.forEach((count, index) => {
          if (count !== theirs[index]) failures.push(`${path}: ${COUNTED_SELECTORS[index]} matched ${count}, HTMLRewriter ${theirs[index]}`);
        });
        for (const [name, plan] of selectorPlans(page)) {
          const result = await rewriteHtml(page, plan, backend);
          if (!result.ok) failures.push(`${path} ${name}: ${result.detail}`);
          else if (words(keptText(page, plan)).join(" ") !== words(analysePage(result.html).text).join(" ")) failures.push(`${path} ${name}: kept text differs`);
          else if (result.removedElements !== plannedRemovals(plan)) failures.push(`${path} ${name}: ${result.removedElements} removed, ${plannedRemovals(plan)} planned`);
        }
      }
      expect(failures.slice(0, 10)).toEqual([]);
      expect(checked).toBeGreaterThan(paths.length * 0.9);
    });
  }
});
