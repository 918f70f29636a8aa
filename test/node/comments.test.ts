import { readFileSync } from "node:fs";
import { join } from "node:path";
import { HTMLRewriter } from "html-rewriter-wasm";
import { describe, expect, it } from "vitest";
import { clean } from "../../src/clean";
import { commentBlocks, keepComments, parseModel } from "../../src/classify/index";
import { DATA_ROOT, hasData, loadDataset } from "../../src/evaluation/index";
import { analysePage, computeFeatures } from "../../src/page/index";
import { createWasmBackend } from "../../src/runtime/index";

const PAGE = `<html><body><div id="wrap"><nav>Home News Sport</nav>
<article><p>The harbour will be dredged in October, the council said on Tuesday evening.</p></article>
<div id="comments"><div class="comment"><p>About time too, the silt is a disgrace to the whole town.</p></div>
<div class="comment-reply"><p>Agreed, my boat has been stuck since June of last year.</p></div></div>
<aside>Most read this week</aside></div></body></html>`;

function textOf(page: ReturnType<typeof analysePage>, b: number): string {
  return page.text.slice(page.blocks.textStart[b], page.blocks.textEnd[b]);
}

describe("reader comments as their own class", () => {
  const page = analysePage(PAGE);
  const comments = commentBlocks(page, computeFeatures(page));

  it("finds the top-most blocks whose class or id names comments", () => {
    const found = [...comments.keys()].filter((b) => comments[b] === 1).map((b) => textOf(page, b));
    expect(found).toEqual([expect.stringMatching(/^About time too[^]*June of last year\.$/)]);
  });

  it("keeps the comments whole when a removed ancestor held them, and removes that ancestor's other children instead", () => {
    const wrap = [...comments.keys()].find((b) => b > 0 && textOf(page, b).startsWith("Home"))!;
    const removedBlocks = new Uint8Array(page.blockCount);
    removedBlocks[wrap] = 1; // the plan removes everything under #wrap
    const kept = keepComments(page, { removedBlocks, removedText: new Int32Array([page.text.indexOf("silt"), page.text.indexOf("silt") + 4]) }, comments);
    const removedTexts = [...kept.removedBlocks.keys()].filter((b) => kept.removedBlocks[b] === 1).map((b) => textOf(page, b));
    expect(removedTexts).toEqual(["Home News Sport", expect.stringMatching(/^The harbour/), "Most read this week"]);
    expect([...kept.removedText]).toEqual([]); // the cut inside a comment is undone
  });
});

describe.skipIf(!hasData())("comments on a real blog page (skipped without ../shared/data)", () => {
  it("leaves them out of the text by default, gives them in json, and keeps them with comments=include", async () => {
    const entry = loadDataset("dragnet").pages.find((candidate) => candidate.id === "T26")!; // azizonomics.com, 5,679 characters of gold comments
    const goldComments = readFileSync(join(DATA_ROOT, "dragnet", "gold-comments", "T26.txt"), "utf8");
    const phrase = goldComments.match(/It’s pretty clear that the financial sec\w+/)![0];
    const parsed = parseModel(JSON.parse(readFileSync(join(import.meta.dirname, "../../rules/model.json"), "utf8")));
    if (!parsed.ok) throw new Error(parsed.problems.join("; "));
    const run = async (format: "text" | "json", comments: "exclude" | "include") => {
      const result = await clean({ html: entry.html, url: entry.url, site: entry.site, format, ruleSet: null, model: parsed.model, rewriter: createWasmBackend(HTMLRewriter), options: { mode: "classifier", comments } });
      if (!result.ok) throw new Error(result.detail);
      return result.body;
    };
    expect(await run("text", "exclude")).not.toContain(phrase);
    expect(await run("text", "include")).toContain(phrase);
    const document = JSON.parse(await run("json", "exclude")) as { text: string; comments: string };
    expect(document.comments).toContain(phrase);
    expect(document.text).not.toContain(phrase);
  });

  it("do not raise the threshold that keeps the main block: a short post with a reply form keeps its post, not the blogroll beside it", async () => {
    // healthcare-economist.com: a 350-character post whose main block also holds the reply form; counting the form
    // raised the page's threshold until every block, blogroll and archive list included, was kept.
    const entry = loadDataset("dragnet").pages.find((candidate) => candidate.id === "R490")!;
    const parsed = parseModel(JSON.parse(readFileSync(join(import.meta.dirname, "../../rules/model.json"), "utf8")));
    if (!parsed.ok) throw new Error(parsed.problems.join("; "));
    const result = await clean({ html: entry.html, url: entry.url, site: entry.site, format: "text", ruleSet: null, model: parsed.model, rewriter: createWasmBackend(HTMLRewriter), options: { mode: "classifier" } });
    if (!result.ok) throw new Error(result.detail);
    expect(result.body).toContain("Are you voting for Obama?");
    expect(result.body).not.toContain("Becker-Posner");
    expect(result.body).not.toContain("Your email address will not be published");
  });
});
