/**
 * The JSON-LD articleBody's end of the article (classify/article-body.ts) on built pages: its words are compared in
 * lower case as the benchmarks count words (letters and digits of any script, underscores), whatever the page's case.
 */
import { describe, expect, it } from "vitest";
import { articleBodyMarks, hiddenBlocks } from "../../src/classify/index";
import { analysePage, type PageModel } from "../../src/page/index";

const FIRST = Array.from({ length: 70 }, (_, i) => ["İstanbul", "naïve", "Ǆemal", "𝐀𝐥𝐩𝐡𝐚", "café", "snake_case", `${i}th`][i % 7] + ` word${i}`).join(" ");
const SECOND = Array.from({ length: 60 }, (_, i) => `Sentence${i} of the story, written out.`).join(" ");
const TEASER = "Read next: a different story about gardens, with nothing of the article in it.";

function page(body: string): PageModel {
  const json = JSON.stringify({ "@type": "NewsArticle", articleBody: body });
  return analysePage(`<html><head><script type="application/ld+json">${json}</script></head><body>` +
    `<div id=story><p>${FIRST}</p><p>${SECOND}</p></div><div id=teasers><p>${TEASER}</p></div></body></html>`);
}

/** The own text of each block marked as after the article. */
function markedTexts(model: PageModel): string[] | null {
  const marks = articleBodyMarks(model, hiddenBlocks(model));
  if (marks === null) return null;
  return [...marks.after.keys()].filter((b) => marks.after[b] === 1).map((b) => model.text.slice(model.blocks.textStart[b], model.blocks.textEnd[b]));
}

describe("articleBodyMarks with a JSON-LD articleBody", () => {
  it("marks the teaser after the story, and none of the story, when the body states it in another case", () => {
    for (const body of [`${FIRST} ${SECOND}`, `${FIRST} ${SECOND}`.toUpperCase(), `${FIRST} ${SECOND}`.toLowerCase()]) {
      const marked = markedTexts(page(body));
      expect(marked).not.toBeNull();
      expect(marked!.some((text) => text.includes("Read next"))).toBe(true);
      expect(marked!.some((text) => text.includes("Sentence") || text.includes("İstanbul"))).toBe(false);
    }
  });

  it("reads nothing from a body the page does not show, and a body that repeats one sentence costs no more than its length", () => {
    expect(markedTexts(page(Array.from({ length: 200 }, (_, i) => `other${i}`).join(" ")))).toBeNull();
    expect(markedTexts(page("one two three ".repeat(20_000)))).toBeNull();
  });
});

describe("articleBodyMarks with itemprop=articleBody", () => {
  const paragraphs = Array.from({ length: 4 }, (_, i) => `Paragraph ${i} of the story, with a sentence long enough to read as prose.`);
  const teaser = "More from the site: another story about gardens.";

  function marked(html: string): string[] | null {
    const model = analysePage(html);
    const marks = articleBodyMarks(model, hiddenBlocks(model));
    if (marks === null) return null;
    return [...marks.after.keys()].filter((b) => marks.after[b] === 1).map((b) => model.text.slice(model.blocks.textStart[b], model.blocks.textEnd[b]));
  }

  it("marks what follows one articleBody element", () => {
    const texts = marked(`<body><div itemprop="articleBody">${paragraphs.map((p) => `<p>${p}</p>`).join("")}</div><div><p>${teaser}</p></div></body>`);
    expect(texts!.some((text) => text.includes("More from the site"))).toBe(true);
    expect(texts!.some((text) => text.includes("Paragraph"))).toBe(false);
  });

  it("takes every paragraph marked articleBody as the body (a 2010s pattern), and ends it after the last", () => {
    const texts = marked(`<body><div class=story>${paragraphs.map((p) => `<p itemprop="articleBody">${p}</p>`).join("")}</div><div><p>${teaser}</p></div></body>`);
    expect(texts!.some((text) => text.includes("Paragraph"))).toBe(false);
    expect(texts!.some((text) => text.includes("More from the site"))).toBe(true);
  });
});
