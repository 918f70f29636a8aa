import { describe, expect, it } from "vitest";
import { analysePage } from "../../src/page/index";
import { labelFromGold, LABEL_CONTENT, LABEL_NONE, LABEL_TEMPLATE, tokensInGold } from "../../src/training/index";

const PAGE = `<html><body>
<nav><ul><li><a href="/">Home</a></li><li><a href="/news">News and more news today</a></li></ul></nav>
<div id="main"><article><h1>Harbour dredging approved by the council</h1>
<p>Work to clear thirty years of silt from the inner harbour will start in October.</p>
<p>The council voted nine to two in favour of the plan on Tuesday evening.</p></article>
<section class="comments"><div class="comment"><p>Great news for the sailing club, about time too honestly.</p></div>
<div class="comment"><p>Thirty years of silt is a lot of silt to move in one winter, good luck.</p></div></section></div>
<footer><p>Copyright the Wrenmouth Gazette, all rights reserved here.</p></footer>
</body></html>`;

const GOLD = `Harbour dredging approved by the council

Work to clear thirty years of silt from the inner harbour will start in October.

The council voted nine to two in favour of the plan on Tuesday evening.`;

/** The outermost (or innermost) block whose text starts with `text`. */
function blockWithText(page: ReturnType<typeof analysePage>, text: string, innermost = false): number {
  let found = -1;
  for (let b = 1; b < page.blockCount; b++) {
    if (!page.text.slice(page.blocks.textStart[b], page.blocks.textEnd[b]).startsWith(text)) continue;
    found = b;
    if (!innermost) break;
  }
  if (found < 0) throw new Error(`no block starts with ${text}`);
  return found;
}

describe("labels from gold text", () => {
  const page = analysePage(PAGE);
  const labels = labelFromGold(page, GOLD);

  it("marks the article's blocks content, and navigation, comments and footer template", () => {
    const article = page.blocks.parent[blockWithText(page, "Harbour dredging", true)]; // the h1's parent
    expect(labels[article]).toBe(LABEL_CONTENT);
    expect(labels[blockWithText(page, "Home")]).not.toBe(LABEL_CONTENT);
    expect(labels[blockWithText(page, "Great news")]).toBe(LABEL_TEMPLATE); // a comment is not the article
    expect(labels[blockWithText(page, "Copyright")]).toBe(LABEL_TEMPLATE);
  });

  it("leaves out a block mixing both, and every block when there is no gold", () => {
    expect(labels[0]).toBe(LABEL_NONE);
    const main = blockWithText(page, "Harbour dredging"); // div#main: the article and two comments
    expect(page.text.slice(page.blocks.textStart[main], page.blocks.textEnd[main])).toMatch(/^Harbour[^]*good luck\.$/);
    expect(labels[main]).toBe(LABEL_NONE);
    expect([...labelFromGold(page, "  ")].every((label) => label === LABEL_NONE)).toBe(true);
  });

  it("marks a token in the gold only through a whole shingle", () => {
    const { inGold } = tokensInGold("one two three four five six", "zero two three four five nine");
    expect([...inGold]).toEqual([0, 1, 1, 1, 1, 0]);
    expect([...tokensInGold("two three four", "two three four five").inGold]).toEqual([0, 0, 0]);
  });
});
