/**
 * What the markup of today's pages says, on real pages of the scrapinghub set (news and blogs of 2019): hidden
 * elements, a story whose class says "commented", a comment-like heading among a story's own sections, the end of the
 * article that schema.org's articleBody marks, a trailing list of teasers, and the text format's headline.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { HTMLRewriter } from "html-rewriter-wasm";
import { describe, expect, it } from "vitest";
import { clean, type CleanOptions } from "../../src/clean";
import { articleBodyMarks, commentBlocks, hiddenBlocks, parseModel, type ClassifierModel } from "../../src/classify/index";
import { hasData, loadDataset, type DatasetPage } from "../../src/evaluation/index";
import { analysePage, computeFeatures } from "../../src/page/index";
import { createWasmBackend } from "../../src/runtime/index";

function shippedModel(): ClassifierModel {
  const parsed = parseModel(JSON.parse(readFileSync(join(import.meta.dirname, "../../rules/model.json"), "utf8")));
  if (!parsed.ok) throw new Error(parsed.problems.join("; "));
  return parsed.model;
}

describe.skipIf(!hasData())("modern markup on scrapinghub pages (skipped without ../shared/data)", () => {
  const pages = hasData() ? loadDataset("scrapinghub").pages : [];
  const page = (prefix: string): DatasetPage => pages.find((candidate) => candidate.id.startsWith(prefix))!;

  /** A page cleaned by the shipped model, as the Worker's classifier mode does; `html` replaces the page's own. */
  async function cleaned(entry: DatasetPage, format: "text" | "json", options: Partial<CleanOptions> = {}, html = entry.html): Promise<string> {
    const result = await clean({ html, url: entry.url, site: entry.site, format, ruleSet: null, model: shippedModel(), rewriter: createWasmBackend(HTMLRewriter), options: { mode: "classifier", ...options } });
    if (!result.ok) throw new Error(result.detail);
    return result.body;
  }

  /** The page with `from` replaced by `to` (which must change it), and it cleaned to json: its text and its comments. */
  async function editedDocument(entry: DatasetPage, from: string, to: string): Promise<{ html: string; document: { text: string; comments: string } }> {
    const html = entry.html.replace(from, to);
    expect(html).not.toBe(entry.html);
    return { html, document: JSON.parse(await cleaned(entry, "json", {}, html)) as { text: string; comments: string } };
  }

  it("leaves out what a reader never sees: a display:none copy of the story's schema.org metadata (businessinsider.de)", async () => {
    const entry = page("fde930b0");
    const text = await cleaned(entry, "text");
    expect(text).toContain("Good morning! This is the tech news you need to know this Tuesday.");
    expect(text).toContain("Apple is holding a surprise event in NYC next month");
    // <div style="display:none;" itemscope itemtype="http://schema.org/NewsArticle"> holds dates, sizes and the publisher.
    expect(text).not.toContain("2019-11-19T07:23:12+01:00");
    expect(text).not.toContain("BusinessInsiderDe");
    expect(text.length).toBeLessThan(1.2 * entry.gold.length);
  });

  it("keeps a story whose own class says it has comments, and its comments apart (profootballtalk, as lifehacker's <article class=\"… commented\">)", async () => {
    const entry = page("8e3efab5");
    const { html, document } = await editedDocument(entry, 'class="content-item article-module pft-article', 'class="content-item article-module pft-article commented');
    const story = "Chargers coach Anthony Lynn recognizes that his team";
    expect(document.text).toContain(story);
    expect(document.comments).not.toContain(story);
    expect(document.comments).not.toBe(""); // the readers' <article class="comment-body"> stay comments
    expect(await cleaned(entry, "text", {}, html)).toContain(story);
  });

  it("never reads the block that holds the story and its headline as a comment, whatever its class says (profootballtalk, class \"comments-enabled\")", () => {
    const entry = page("8e3efab5");
    const model = analysePage(entry.html.replace('class="content-item article-module pft-article', 'class="content-item article-module pft-article comments-enabled'));
    const comments = commentBlocks(model, computeFeatures(model));
    const marked = [...comments.keys()].filter((b) => comments[b] === 1).map((b) => model.text.slice(model.blocks.textStart[b], model.blocks.textEnd[b]));
    expect(marked.length).toBeGreaterThan(0); // the readers' comments
    expect(marked.some((text) => text.includes("Chargers coach Anthony Lynn recognizes"))).toBe(false);
  });

  it("reads a comment-like heading among the story's own sections as a section of the story (bbc.com, a crosshead named Reaction)", async () => {
    const { document } = await editedDocument(page("c7e39ac4"), ">What has the reaction been?</h2>", ">Reaction</h2>");
    const last = "Last month, a judge rejected Assange's attempt to delay the full extradition hearing";
    expect(document.text).toContain(last);
    expect(document.comments).not.toContain(last);
  });

  it("ends the article where its itemprop=articleBody element ends: the author box after it goes (comoeducarseusfilhos.com.br)", async () => {
    const entry = page("23aaecd1");
    const text = await cleaned(entry, "text");
    expect(text).toContain("https://goo.gl/FDS4xU.");
    expect(text).not.toContain("Sobre Carlos Nadalim");
  });

  it("marks the blocks after the JSON-LD articleBody's last paragraph as after the article, and none of the story (cbsnews.com)", () => {
    const entry = page("2c46804d");
    const model = analysePage(entry.html);
    const marks = articleBodyMarks(model, hiddenBlocks(model));
    expect(marks).not.toBeNull();
    const after = [...marks!.after.keys()].filter((b) => marks!.after[b] === 1 && model.blocks.parent[b] >= 0);
    const texts = after.map((b) => model.text.slice(model.blocks.textStart[b], model.blocks.textEnd[b]));
    expect(texts.length).toBeGreaterThan(10);
    for (const paragraph of entry.gold.split(/\n+/).filter((line) => line.length > 80)) {
      expect(texts.some((text) => text.includes(paragraph.slice(0, 60)))).toBe(false);
    }
    // The story's last paragraph ends before every marked block.
    const lastParagraph = entry.gold.trim().split(/\n+/).pop()!.slice(0, 50);
    const storyEnd = model.text.indexOf(lastParagraph);
    expect(storyEnd).toBeGreaterThan(0);
    for (const b of after) expect(model.blocks.textStart[b]).toBeGreaterThan(storyEnd);
  });

  it("leaves out a trailing list of teasers under a \"Você pode gostar...\" heading (mensagensreflexao.com.br)", async () => {
    const entry = page("b3c19dd5");
    const text = await cleaned(entry, "text");
    expect(text).toContain("Viver uma verdadeira experiência amorosa");
    expect(text).not.toContain("Você pode gostar");
    expect(text).not.toContain("A vida requer da gente otimismo e coragem");
    // The heading opens a run of <article> cards: each goes, not only the first.
    expect(text).not.toContain("Bem-aventurados os que trilham caminhos retos");
  });

  it("leaves the headline out of the text by default, as the set's gold does, and keeps it with textScope: all (bbc.com)", async () => {
    const entry = page("c7e39ac4");
    const headline = "Julian Assange: Sweden drops rape investigation";
    const text = await cleaned(entry, "text");
    expect(text).not.toContain(headline);
    expect(text.startsWith(entry.gold.trim().split("\n")[0])).toBe(true);
    const kept = await cleaned(entry, "text", { textScope: "all" });
    expect(kept.startsWith(`${headline}\n\n`)).toBe(true);
    expect(kept).toContain(text.slice(0, 200));
  });

  it("starts the text at the article's first paragraph: the byline and date line under the headline are the header's (albawaba.com)", async () => {
    const entry = page("833caf3b");
    const text = await cleaned(entry, "text");
    expect(text.startsWith(entry.gold.trim().split("\n")[0])).toBe(true);
    expect(text).not.toMatch(/^Published /m);
    const kept = await cleaned(entry, "text", { textScope: "all" });
    expect(kept.startsWith("World Community Lashes Out at US")).toBe(true);
    expect(kept).toMatch(/^Published /m);
    expect(kept.endsWith(text)).toBe(true);
  });

  it("leaves figures' captions out of the text, where no image shows, and keeps them in Markdown (thesun.co.uk)", async () => {
    const entry = page("8b194530");
    const caption = "where plague-infected people from Inner Mongolia sought treatment";
    const text = await cleaned(entry, "text");
    expect(text).toContain("The 55-year-old is the third Beijing resident to contract the medieval disease");
    expect(text).not.toContain(caption);
    const markdown = await clean({ html: entry.html, url: entry.url, site: entry.site, format: "markdown", ruleSet: null, model: shippedModel(), rewriter: createWasmBackend(HTMLRewriter), options: { mode: "classifier" } });
    expect(markdown.ok && markdown.body).toContain(caption);
  });

  it("leaves out a consent banner that reads like a paragraph above the headline (theverge.com, class \"m-privacy-consent\")", async () => {
    const entry = page("785affa2");
    const text = await cleaned(entry, "text");
    expect(text).not.toContain("We use cookies and other tracking technologies");
    expect(text).toContain("Noah Hawley");
  });

  it("leaves out a line inside the story that links another story under a label (express.co.uk, \"SEE MORE: …\")", async () => {
    const entry = page("624fcd90");
    const text = await cleaned(entry, "text");
    expect(text).not.toContain("SEE MORE: Hong Kong protests");
    for (const paragraph of entry.gold.split(/\n+/).filter((line) => line.length > 80)) expect(text).toContain(paragraph.trim());
  });
});
