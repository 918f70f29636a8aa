/**
 * Parity of the two passes on malformed snippets: each block removed alone, then every second block, at
 * once; the output analysed again must hold exactly the text the page model says is kept.
 */
import { HTMLRewriter } from "html-rewriter-wasm";
import { describe, expect, it } from "vitest";
import { analysePage, type PageModel } from "../../src/page/index";
import { normalisePlan, type RemovalPlan } from "../../src/plan/index";
import { rewriteHtml } from "../../src/rewrite/index";
import { createWasmBackend, type HtmlRewriterBackend } from "../../src/runtime/index";
import { keptText, topRemovedCount, words } from "./pass-parity-plans";

const backend = createWasmBackend(HTMLRewriter);

export const MALFORMED_SNIPPETS: readonly string[] = [
  "<div><p>a<p>b</div>c",
  "<ul><li>a<li>b</ul>after",
  "<ul><li>a<ul><li>b<li>c</ul><li>d</ul>e",
  "<div>a<div>b</div>c",
  "<div>a</span>b</div>c",
  "<div><div>a</p>b</div>c</div>d",
  "<table><tr><td>a<td>b</tr></table>c",
  "<table><tr><td>a<tr><td>b</table>c",
  "<table><tr><td><table><tr><td>x</table>y</td></tr></table>z",
  "<table><thead><tr><th>h<tbody><tr><td>a<tfoot><tr><td>f</table>g",
  "<p>a<div>b</div>c</p>d",
  "<p>a<table><tr><td>b</table>c",
  "<b><div>x</b>y</div>z",
  "<div>x<b>y</div>z</b>w",
  "<h1>x<h2>y</h2>z</h1>w",
  "<dl><dt>a<dd>b<dt>c</dl>d",
  "<select><option>a<option>b</select>c",
  "<p><span>x<p>y</span>z</p>w",
  "<body><div>a</body>b</div>c</html>d",
  "<div>a<script>x</div>y</script>b</div>c",
  "<div>a<!-- </div> -->b</div>c",
  "<div>a<!--></div>b</div>c",
  "<div><svg><g/><style>a</div></style></svg>b</div>c",
  "<div>a<textarea></div></textarea>b</div>c",
  "<div>a<script><!--<script></div></script>b</div>--></script>c</div>d",
  "<head><title>t</title><body><div>a</div>b",
  "<li>a<li>b",
  "<p>x<div>y</p>z</div>w",
  "<form><div>a<form><div>b</form>c</div>d",
  "<section><article><p>one<p>two</article><aside>three</section>four",
  "<div>a &amp; <b>b</b>&nbsp;c<br>d</div><p>e &lt;f&gt;</p>",
];

function planOf(page: PageModel, chosen: (block: number) => boolean): RemovalPlan {
  const removedBlocks = new Uint8Array(page.blockCount);
  for (let block = 1; block < page.blockCount; block++) if (chosen(block)) removedBlocks[block] = 1;
  return { removedBlocks, removedText: new Int32Array(0) };
}

async function checkPlan(page: PageModel, plan: RemovalPlan, label: string): Promise<void> {
  const result = await rewriteHtml(page, normalisePlan(page, plan), backend);
  expect(result.ok, label).toBe(true);
  if (!result.ok) return;
  expect(words(analysePage(result.html).text), `${label}: ${result.html}`).toEqual(words(keptText(page, plan)));
  expect(result.removedElements, label).toBe(topRemovedCount(page, plan));
  // Blocks cut from the source before HTMLRewriter (what clean() does) give the bytes HTMLRewriter's removal gives.
  const cut = await rewriteHtml(page, normalisePlan(page, plan), backend, { cutClosedBlocks: true });
  expect(cut.ok && cut.html, `${label}, cut`).toBe(result.html);
}

describe("pass 2 removes exactly what pass 1 decided, on malformed snippets", () => {
  for (const snippet of MALFORMED_SNIPPETS) {
    it(snippet, async () => {
      const page = analysePage(snippet);
      for (let block = 1; block < page.blockCount; block++) {
        await checkPlan(page, planOf(page, (b) => b === block), `block ${block} of ${snippet}`);
      }
      await checkPlan(page, planOf(page, (b) => b % 2 === 1), `odd blocks of ${snippet}`);
      await checkPlan(page, planOf(page, (b) => b % 2 === 0), `even blocks of ${snippet}`);
    });
  }
});

describe("pass 2 cuts removed blocks closed by their own end tag from the source", () => {
  it("does not run HTMLRewriter for them, and hands it one handler for a block an ancestor's end tag closes", async () => {
    const handlerCounts: number[] = [];
    const counting: HtmlRewriterBackend = { name: backend.name, rewrite: (input, handlers) => (handlerCounts.push(handlers.length), backend.rewrite(input, handlers)) };
    const page = analysePage("<div><p>keep</p><ul><li>gone</li></ul><section><div>also gone</section><p>end</p></div>");
    const removed = (tag: string): RemovalPlan => planOf(page, (block) => page.source.startsWith(tag, page.blocks.sourceStart[block]));
    const closed = await rewriteHtml(page, normalisePlan(page, removed("<ul")), counting, { cutClosedBlocks: true });
    expect(closed.ok && closed.html).toBe("<div><p>keep</p> <section><div>also gone</section><p>end</p></div>");
    const byAncestor = await rewriteHtml(page, normalisePlan(page, removed("<div>also")), counting, { cutClosedBlocks: true });
    expect(byAncestor.ok && byAncestor.html).toBe("<div><p>keep</p><ul><li>gone</li></ul><section> </section><p>end</p></div>");
    expect(handlerCounts).toEqual([1]);
    // A lone surrogate still goes through HTMLRewriter, which writes it as U+FFFD (UTF-8 cannot carry it), as before.
    const lone = analysePage("<div><p>keep \uD800</p><ul><li>gone</li></ul></div>");
    const loneRemoved = planOf(lone, (block) => lone.source.startsWith("<ul", lone.blocks.sourceStart[block]));
    const through = await rewriteHtml(lone, normalisePlan(lone, loneRemoved), counting, { cutClosedBlocks: true });
    expect(through.ok && through.html).toBe("<div><p>keep \uFFFD</p> </div>");
    expect(handlerCounts).toEqual([1, 0]);
    // A tag that switches to text inside a <select> is ambiguous without a tree, and HTMLRewriter refuses the page: it
    // still runs, and its refusal stands. A <select> of options alone changes nothing.
    const options = analysePage("<div><ul><li>gone</li></ul><select><option>a</select><p>end</p></div>");
    const optionsRemoved = planOf(options, (block) => options.source.startsWith("<ul", options.blocks.sourceStart[block]));
    const skipped = await rewriteHtml(options, normalisePlan(options, optionsRemoved), counting, { cutClosedBlocks: true });
    expect(skipped.ok && skipped.html).toBe("<div> <select><option>a</select><p>end</p></div>");
    const select = analysePage("<div><ul><li>gone</li></ul><select><plaintext>x</select><p>end</p></div>");
    const selectRemoved = planOf(select, (block) => select.source.startsWith("<ul", select.blocks.sourceStart[block]));
    const refused = await rewriteHtml(select, normalisePlan(select, selectRemoved), counting, { cutClosedBlocks: true });
    expect(refused).toMatchObject({ ok: false, reason: "rewriter-error" });
    expect(handlerCounts).toEqual([1, 0, 0]);
  });
});
