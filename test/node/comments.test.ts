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

describe("comment sections found by their heading", () => {
  const SECTION = `<html><body><div id="page"><nav><h3>Discussion</h3><a href="/forum">Forum</a></nav>
<div class="story"><h1>Harbour to be dredged</h1>
<p class="story">The harbour will be dredged in October, the council said on Tuesday evening after a long meeting.</p>
<p class="story">Work is expected to last six weeks and the quay stays open to fishing boats throughout.</p>
<p class="meta"><a href="#comments">2 comments</a></p>
<a name="comments"></a><div class="hd">Comments</div>
<p class="story">About time too, the silt is a disgrace to the whole town and has been for years.</p>
<p class="story">Agreed, my boat has been stuck since June of last year. Posted by Ann</p>
</div><div class="sidebar"><p>Most read this week</p></div></div></body></html>`;
  const page = analysePage(SECTION);
  const comments = commentBlocks(page, computeFeatures(page));
  const found = [...comments.keys()].filter((b) => comments[b] === 1).map((b) => textOf(page, b).trim());

  it("takes the heading and the blocks after it in its container, not the article before it nor the sidebar after", () => {
    expect(found).toEqual(["Comments", expect.stringMatching(/^About time too/), expect.stringMatching(/^Agreed/)]);
  });

  it.each(["Kommentare", "Commentaires", "Comentarios", "Comentários", "Commenti", "Reacties", "Komentarze", "Kommentarer", "Kommentit", "Komentáře",
    "Yorumlar", "Comentarii", "Komentar (3)", "Комментарии", "コメント", "评论 (2)"])(
    "knows the heading in other languages: %s",
    (heading) => {
      // Without the comment anchor before it, only the heading's words can start the section.
      const translated = analysePage(SECTION.replace('<a name="comments"></a><div class="hd">Comments</div>', `<div class="hd">${heading}</div>`));
      const marked = commentBlocks(translated, computeFeatures(translated));
      const texts = [...marked.keys()].filter((b) => marked[b] === 1).map((b) => textOf(translated, b).trim());
      expect(texts).toEqual([heading, expect.stringMatching(/^About time too/), expect.stringMatching(/^Agreed/)]);
    },
  );

  it("ignores a heading before the main content and a link to the comments", () => {
    expect(found).not.toContain("Discussion");
    expect(found).not.toContain("2 comments");
  });

  it("is left out when the caller asks for hinted comment blocks only", () => {
    const hintedOnly = commentBlocks(page, computeFeatures(page), false);
    expect(hintedOnly.every((value) => value === 0)).toBe(true);
  });
});

describe("comment sections after a link named for them", () => {
  const ANCHORED = `<html><head><script>document.write('<a name="comments"></a>');</script></head><body>
<div id="top"><a id="respond" href="/write">Write to us</a> <a data-id="comments" href="/">Home</a></div>
<div class="story"><h1>Harbour to be dredged</h1>
<p>The harbour will be dredged in October, the council said on Tuesday evening after a long meeting.</p>
<p>Work is expected to last six weeks and the quay stays open to fishing boats throughout, it added.</p>
<div><a href="#comments">2 comments</a></div>
<a name="comments"></a><div class="b_box">Posted by: Ann, Leith on 9:35am Wed 9 Jan</div>
<div class="entry">About time too, the silt is a disgrace to the whole town and has been for years.</div>
<div class="b_box">Posted by: Rob on 11:16am Wed 9 Jan</div>
<div class="entry">Agreed, my boat has been stuck since June of last year, and the fees went up.</div>
</div></body></html>`;
  const page = analysePage(ANCHORED);
  const comments = commentBlocks(page, computeFeatures(page));
  const found = [...comments.keys()].filter((b) => comments[b] === 1).map((b) => textOf(page, b).trim());

  it("records the links whose name or id names comments, not a link to them, another attribute, or script text", () => {
    expect(page.commentAnchors).toEqual([ANCHORED.indexOf('<a id="respond"'), ANCHORED.indexOf('<a name="comments"></a><div')]);
  });

  it("takes the blocks after the link in its container, not the story before it nor a named link before the story", () => {
    expect(found).toEqual([expect.stringMatching(/^Posted by: Ann/), expect.stringMatching(/^About time/), expect.stringMatching(/^Posted by: Rob/), expect.stringMatching(/^Agreed/)]);
  });

  it("is left out when the caller asks for hinted comment blocks only", () => {
    expect(commentBlocks(page, computeFeatures(page), false).every((value) => value === 0)).toBe(true);
  });

  it("marks only the top-most block when the link sits inside a block that names comments", () => {
    const nested = analysePage(ANCHORED.replace('<a name="comments"></a><div', '<div id="comments"><a name="comments"></a><div').replace("</div></body>", "</div></div></body>"));
    const marked = commentBlocks(nested, computeFeatures(nested));
    expect([...marked.keys()].filter((b) => marked[b] === 1).map((b) => textOf(nested, b).trim())).toEqual([expect.stringMatching(/^Posted by: Ann[^]*fees went up\.$/)]);
  });
});

describe.skipIf(!hasData())("comments on a real blog page (skipped without ../shared/data)", () => {
  /** A dev page cleaned by the shipped model, as the Worker's classifier mode does. */
  async function cleaned(set: string, id: string, format: "text" | "json", comments: "exclude" | "include" = "exclude"): Promise<string> {
    const entry = loadDataset(set).pages.find((candidate) => candidate.id === id)!;
    const parsed = parseModel(JSON.parse(readFileSync(join(import.meta.dirname, "../../rules/model.json"), "utf8")));
    if (!parsed.ok) throw new Error(parsed.problems.join("; "));
    const result = await clean({ html: entry.html, url: entry.url, site: entry.site, format, ruleSet: null, model: parsed.model, rewriter: createWasmBackend(HTMLRewriter), options: { mode: "classifier", comments } });
    if (!result.ok) throw new Error(result.detail);
    return result.body;
  }

  it("leaves them out of the text by default, gives them in json, and keeps them with comments=include", async () => {
    // azizonomics.com, 5,679 characters of gold comments
    const goldComments = readFileSync(join(DATA_ROOT, "dragnet", "gold-comments", "T26.txt"), "utf8");
    const phrase = goldComments.match(/It’s pretty clear that the financial sec\w+/)![0];
    expect(await cleaned("dragnet", "T26", "text")).not.toContain(phrase);
    expect(await cleaned("dragnet", "T26", "text", "include")).toContain(phrase);
    const document = JSON.parse(await cleaned("dragnet", "T26", "json")) as { text: string; comments: string };
    expect(document.comments).toContain(phrase);
    expect(document.text).not.toContain(phrase);
  });

  /** An l3s-gn1 page whose text keeps `article`, leaves out `comment`, and keeps it with comments=include. */
  async function expectCommentLeftOut(page: string, article: string, comment: string): Promise<void> {
    const text = await cleaned("l3s-gn1", page, "text");
    expect(text).toContain(article);
    expect(text).not.toContain(comment);
    expect(await cleaned("l3s-gn1", page, "text", "include")).toContain(comment);
  }

  it("leave out a comment section written as bare paragraphs under a Comments heading (telegraph.co.uk, 2008)", async () => {
    // The comments are <p class="story">, as the article's paragraphs, after <a name="comments"> and a "Comments" heading.
    await expectCommentLeftOut("f5a46a81-efdc-4daf-9990-94ae378f2611", "I am happy down on the south coast.", "What a marvellous opportunity for Allardyce");
  });

  it("leave out comments that follow <a name=\"comments\"> as bare blocks, with no class or heading to name them (theherald.co.uk, 2008)", async () => {
    await expectCommentLeftOut("59f730fe-4457-4076-adf6-fc2ef805729b", "It will have to be a performance worthy of the best of", "logic would suggest that if Sportscotland is run effectively");
  });

  it("do not raise the threshold that keeps the main block: a short post with a reply form keeps its post, not the blogroll beside it", async () => {
    // healthcare-economist.com: a 350-character post whose main block also holds the reply form; counting the form
    // raised the page's threshold until every block, blogroll and archive list included, was kept.
    const text = await cleaned("dragnet", "R490", "text");
    expect(text).toContain("Are you voting for Obama?");
    expect(text).not.toContain("Becker-Posner");
    expect(text).not.toContain("Your email address will not be published");
  });
});
