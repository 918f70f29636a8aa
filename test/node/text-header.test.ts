/**
 * The text format's article header (rewrite/text-writer.ts articleHeader): what stands before the article's first
 * paragraph goes, but never the content itself: a page that is all header (or all captions) keeps it, and an article
 * whose paragraphs are <div>s keeps them all.
 */
import { HTMLRewriter } from "html-rewriter-wasm";
import { describe, expect, it } from "vitest";
import { clean } from "../../src/clean";
import { createWasmBackend } from "../../src/runtime/index";

const rewriter = createWasmBackend(HTMLRewriter as never);
const PARAGRAPHS = [
  "The harbour board voted on Tuesday to dredge the channel before the winter storms, at a cost the council will share.",
  "Fishermen had asked for the work for three years, since the sandbar first closed the channel at low tide.",
  "The dredger arrives from Rotterdam next month and the work should take six weeks, weather allowing.",
];

async function text(body: string): Promise<string> {
  const result = await clean({ html: `<!doctype html><html><head><title>Harbour dredging approved</title></head><body>${body}</body></html>`, site: "", format: "text", ruleSet: null, model: null, rewriter, options: { mode: "none" } });
  if (!result.ok) throw new Error(result.detail);
  return result.body;
}

describe("the text format's article header", () => {
  it("never empties a page that is only a headline", async () => {
    expect(await text("<div><h1>X</h1></div>")).toBe("X");
    expect(await text("<h1>Harbour dredging approved</h1>")).toBe("Harbour dredging approved");
  });

  it("never empties a page whose text is a figure's caption", async () => {
    expect(await text("<figure><img src=harbour.jpg><figcaption>The harbour at dusk, seen from the pier.</figcaption></figure>")).toBe("The harbour at dusk, seen from the pier.");
  });

  it("keeps an article whose paragraphs are <div>s, whatever follows them", async () => {
    const body = `<h1>Harbour dredging approved</h1><div>${PARAGRAPHS[0]}</div><div>${PARAGRAPHS[1]}</div><p>${PARAGRAPHS[2]}</p>`;
    const kept = await text(body);
    for (const paragraph of PARAGRAPHS) expect(kept).toContain(paragraph);
    expect(kept).not.toContain("Harbour dredging approved");
  });

  it("still leaves out the headline, byline and date line before the first paragraph", async () => {
    const body = `<h1>Harbour dredging approved</h1><div class=byline>By Ann Example</div><div>3 March 2024, 10:12</div>${PARAGRAPHS.map((p) => `<p>${p}</p>`).join("")}`;
    expect(await text(body)).toBe(PARAGRAPHS.join("\n\n"));
  });
});
