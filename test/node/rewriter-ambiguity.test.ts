/**
 * Pass 1 tells the pages HTMLRewriter refuses (src/page/rewriter-ambiguity.ts), so that pass 2 may leave a page out of
 * HTMLRewriter only where its refusal could not stand: on random pages made of the tags lol-html's ambiguity turns on,
 * analysePage's rewriterMayRefuse is true exactly where html-rewriter-wasm, with no handler, refuses the page.
 */
import { HTMLRewriter } from "html-rewriter-wasm";
import { describe, expect, it } from "vitest";
import { analysePage } from "../../src/page/index";
import { createWasmBackend } from "../../src/runtime/index";
import { seededRandom } from "../../scripts/lib/seeded-random";

const backend = createWasmBackend(HTMLRewriter);

/** Pieces of markup: the select, template and frameset states, the tags that switch to text, and tags that do neither. */
const PIECES = [
  "<select>", "</select>", "<SELECT name=a>", "<template>", "</template>", "<frameset>", "<input>", "<keygen>", "<option>x",
  "<textarea>x</textarea>", "<script>x</script>", "<style>x</style>", "<noscript>x</noscript>", "<iframe>x</iframe>",
  "<xmp>x</xmp>", "<title>x</title>", "<noframes>x</noframes>", "<noembed>x</noembed>", "<div>", "</div>", "<p>text",
  "<svg><select><style>x</style></select></svg>", "<!-- <select><style> -->", "<plaintext>",
];

describe("pages HTMLRewriter refuses", () => {
  it("are those pass 1 says it refuses, on 1,500 random pages", async () => {
    const next = seededRandom(30);
    const disagreements: string[] = [];
    let refused = 0;
    for (let page = 0; page < 1500; page++) {
      const pieces = Array.from({ length: 1 + Math.floor(next() * 10) }, () => PIECES[Math.floor(next() * PIECES.length)]);
      const html = `<!doctype html><html><body>${pieces.join("")}</body></html>`;
      const outcome = await backend.rewrite(html, []);
      if (!outcome.ok) refused++;
      if ((analysePage(html).rewriterMayRefuse === true) !== !outcome.ok) disagreements.push(html);
    }
    expect(disagreements).toEqual([]);
    // Both kinds of page were drawn, many times.
    expect(refused).toBeGreaterThan(150);
    expect(refused).toBeLessThan(1350);
  });
});
