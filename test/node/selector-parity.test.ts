/**
 * Selector parity on html-rewriter-wasm, on every page of ../shared/data: pass 1 matches as many elements as lol-html
 * does for each selector, and the plans built from selectors (containers removed, inline elements' text cut, only the
 * content kept) come out of pass 2 with exactly the text the page model says is kept, HTMLRewriter removing exactly
 * the top-most removed blocks. test/worker/selector-parity.test.ts runs the same in workerd.
 */
import { HTMLRewriter } from "html-rewriter-wasm";
import { describe, expect, it } from "vitest";
import { DATA_SETS, hasData, loadDataset } from "../../src/evaluation/index";
import { analysePage } from "../../src/page/index";
import { rewriteHtml } from "../../src/rewrite/index";
import { createWasmBackend } from "../../src/runtime/index";
import { matchSelectors } from "../../src/selectors/index";
import { keptText, words } from "./pass-parity-plans";
import { COUNTED_SELECTORS, countedLists, plannedRemovals, selectorPlans } from "./selector-parity-cases";
import { lolHtmlMatchCounts } from "./selector-support";

const backend = createWasmBackend(HTMLRewriter);

describe.skipIf(!hasData())("selectors: pass 1 and pass 2 agree on every page of ../shared/data", () => {
  for (const set of DATA_SETS) {
    // Every plan is rewritten twice (HTMLRewriter removing each block, then clean()'s cut): dragnet's 900 pages took 128 s at load 15.
    it(`set ${set}`, { timeout: 300_000 }, async () => {
      const { pages } = loadDataset(set);
      const failures: string[] = [];
      const lists = countedLists();
      let matched = 0;
      for (const source of pages) {
        const page = analysePage(source.html);
        const scanned = matchSelectors(page, lists);
        const ours = scanned.map((match) => match.elements);
        // The same matches when the matcher replays pass 1's recorded walk instead of scanning (clean() does so).
        const replayed = matchSelectors(analysePage(source.html, { scanLog: true }), lists);
        const summary = (matches: typeof scanned): string => JSON.stringify(matches.map((match) => [match.elements, Array.from(match.text), Array.from(match.coveredBlocks)]));
        if (summary(replayed) !== summary(scanned)) failures.push(`${source.id}: matches differ on the recorded walk`);
        const theirs = await lolHtmlMatchCounts(backend, page, COUNTED_SELECTORS);
        ours.forEach((count, index) => {
          // Known difference: lol-html does not report some elements of inline SVG (a <desc> after an element with
          // text: `<svg><foo>b</foo><desc>c</desc>` gives svg, foo), which pass 1 counts under `*`; found on 8
          // scrapinghub pages, 1 to 8 elements a page. The plans below still agree on those pages.
          const svgShortfall = COUNTED_SELECTORS[index] === "*" && count > theirs[index] && /<svg[\s>]/i.test(source.html);
          if (count !== theirs[index] && !svgShortfall) failures.push(`${source.id}: ${COUNTED_SELECTORS[index]} matched ${count}, lol-html ${theirs[index]}`);
        });
        for (const [name, plan] of selectorPlans(page)) {
          const result = await rewriteHtml(page, plan, backend);
          if (!result.ok) {
            failures.push(`${source.id} ${name}: ${result.detail}`);
            continue;
          }
          matched += plan.counts.blocks + plan.counts.chars > 0 ? 1 : 0;
          if (words(keptText(page, plan)).join(" ") !== words(analysePage(result.html).text).join(" ")) failures.push(`${source.id} ${name}: kept text differs`);
          else if (result.removedElements !== plannedRemovals(plan)) failures.push(`${source.id} ${name}: ${result.removedElements} removed, ${plannedRemovals(plan)} planned`);
          const cut = await rewriteHtml(page, plan, backend, { cutClosedBlocks: true });
          if (!cut.ok || cut.html !== result.html) failures.push(`${source.id} ${name}: cutting closed blocks from the source changes the output`);
        }
      }
      expect(failures.slice(0, 10)).toEqual([]);
      expect(matched).toBeGreaterThan(pages.length); // the plans do remove something on most pages
    });
  }
});
