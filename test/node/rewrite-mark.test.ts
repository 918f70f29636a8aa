/** Pass 2's mark attribute never collides with attributes the page already has. */
import { HTMLRewriter } from "html-rewriter-wasm";
import { expect, it } from "vitest";
import { analysePage } from "../../src/page/index";
import { normalisePlan } from "../../src/plan/index";
import { rewriteHtml } from "../../src/rewrite/index";
import { createWasmBackend } from "../../src/runtime/index";

it("picks a mark the page does not use, so the page's own look-alike attributes remove nothing", async () => {
  const html = '<div DATA-CLEAN-REMOVE>keep 1</div><div data-clean-remove-7="x">keep 2</div><div>drop</div><p>keep 3</p>';
  const page = analysePage(html);
  const removedBlocks = new Uint8Array(page.blockCount);
  removedBlocks[3] = 1;
  const result = await rewriteHtml(page, normalisePlan(page, { removedBlocks, removedText: new Int32Array(0) }), createWasmBackend(HTMLRewriter));
  expect(result.ok).toBe(true);
  if (!result.ok) return;
  expect(analysePage(result.html).text).toBe("keep 1\nkeep 2\nkeep 3");
  expect(result.html).not.toContain("data-clean-remove-8");
  expect(result.removedElements).toBe(1);
});
