// Readability's article shape (?shape=readability) from what clean() writes: `dir` from the article's container and
// its ancestors, and `textContent` that is the text of `content` (Readability's textContent is its content's text).
import { describe, expect, it } from "vitest";
import { readabilityJson, textContentOf, type ReaderJson } from "../../src/http/shared/reader-shapes";
import { clean } from "../../src/library-node";

const PARAGRAPHS = [
  "The harbour authority approved the dredging of the inner basin on Tuesday, after three years of surveys and two public hearings.",
  "Work starts in the spring and will close the slipway for six weeks; fishing boats will moor at the outer pier meanwhile.",
  "The council will pay for the work from the port reserve, and no rise in mooring fees is planned this year or next, the authority said.",
].map((text) => `<p>${text}</p>`).join("");

function page(bodyAttributes: string, article: string): string {
  return `<html><head><title>Dredging approved | The Gazette</title></head><body${bodyAttributes}><nav><a href="/">Home</a> <a href="/news">News</a></nav>${article}<footer>© The Gazette</footer></body></html>`;
}

async function readability(html: string): Promise<Record<string, unknown>> {
  // The shipped model, as the service cleans a page with no site rules.
  const result = await clean(html, { url: "https://gazette.example/dredging", format: "json" });
  if (!result.ok) throw new Error(result.detail);
  return readabilityJson(JSON.parse(result.body) as ReaderJson);
}

describe("Readability's shape", () => {
  it("reads dir from the article's container or its nearest ancestor that has one", async () => {
    expect((await readability(page("", `<div dir="rtl"><article><h1>Dredging approved</h1>${PARAGRAPHS}</article></div>`))).dir).toBe("rtl");
    expect((await readability(page("", `<main dir="rtl"><div class="story">${PARAGRAPHS}</div></main>`))).dir).toBe("rtl");
    // <body>'s dir when nothing nearer says one; an ancestor nearer the article wins over <body>'s.
    expect((await readability(page(' dir="rtl"', `<article>${PARAGRAPHS}</article>`))).dir).toBe("rtl");
    expect((await readability(page(' dir="rtl"', `<article dir="ltr">${PARAGRAPHS}</article>`))).dir).toBe("ltr");
    expect((await readability(page("", `<article>${PARAGRAPHS}</article>`))).dir).toBeNull();
  });

  it("gives as textContent the text of content: the title heading is in neither", async () => {
    const shaped = await readability(page("", `<article><h1>Dredging approved</h1>${PARAGRAPHS}</article>`));
    expect(shaped.content).not.toContain("Dredging approved");
    expect(shaped.textContent).not.toContain("Dredging approved");
    expect(shaped.textContent).toBe(textContentOf(shaped.content as string));
    expect(shaped.textContent).toContain("The harbour authority approved the dredging");
    expect(shaped.length).toBe((shaped.textContent as string).length);
  });

  it("decodes references in the content's text once", () => {
    expect(textContentOf("<p>Fish &amp; chips &lt;b&gt;</p><!-- a comment --><p>x</p>")).toBe("Fish & chips <b>x");
  });
});
