import { readFileSync } from "node:fs";
import { join } from "node:path";
import { HTMLRewriter } from "html-rewriter-wasm";
import { describe, expect, it } from "vitest";
import { clean, type CleanOptions } from "../../src/clean";
import { classifyPage, parseModel, postRunShares, recognisePageKind, schemaTypes } from "../../src/classify/index";
import { DATA_ROOT, hasData, loadDataset, scoreText } from "../../src/evaluation/index";
import { createCleaner } from "../../src/library";
import { analysePage } from "../../src/page/index";
import { createWasmBackend } from "../../src/runtime/index";

const parsed = parseModel(JSON.parse(readFileSync(join(import.meta.dirname, "../../rules/model.json"), "utf8")));
if (!parsed.ok) throw new Error(parsed.problems.join("; "));
const MODEL = parsed.model;
const REWRITER = createWasmBackend(HTMLRewriter);

function kindOf(html: string): string {
  return recognisePageKind(analysePage(html)).kind;
}

function jsonLd(value: unknown): string {
  return `<script type="application/ld+json">${JSON.stringify(value)}</script>`;
}

async function cleaned(html: string, options: Partial<CleanOptions> = {}, url?: string): Promise<{ body: string; kind: string }> {
  const result = await clean({ html, url, site: "", format: "text", ruleSet: null, model: MODEL, rewriter: REWRITER, options: { mode: "classifier", ...options } });
  if (!result.ok) throw new Error(result.detail);
  return { body: result.body, kind: result.kind };
}

describe("a page's kind from its schema.org types", () => {
  it("reads JSON-LD types through @graph and arrays, and microdata's itemtype", () => {
    const page = analysePage(`<html><head>${jsonLd({ "@context": "https://schema.org", "@graph": [{ "@type": ["WebPage", "QAPage"] }, { "@type": "Person" }] })}</head>
<body><div itemscope itemtype="https://schema.org/Comment"><p>First</p></div><div itemtype='http://schema.org/Comment'></div></body></html>`);
    expect(Object.fromEntries(schemaTypes(page))).toEqual({ WebPage: 1, QAPage: 1, Person: 1, Comment: 2 });
  });

  it("names a thread, a product, a collection, documentation, an article and a listing", () => {
    expect(kindOf(`<head>${jsonLd({ "@type": "DiscussionForumPosting", headline: "Best tent?" })}</head><p>Question</p>`)).toBe("forum");
    expect(kindOf(`<div itemscope itemtype="https://schema.org/Product"><h1>Tent</h1><div itemprop="offers" itemscope itemtype="https://schema.org/Offer">£90</div></div>`)).toBe("product");
    expect(kindOf(`<head>${jsonLd([1, 2, 3].map((n) => ({ "@type": "Product", name: `Tent ${n}` })))}</head>`)).toBe("collection");
    expect(kindOf(`<head>${jsonLd({ "@type": "CollectionPage" })}</head>`)).toBe("collection");
    expect(kindOf(`<head>${jsonLd({ "@type": "TechArticle" })}</head>`)).toBe("documentation");
    expect(kindOf(`<head>${jsonLd({ "@type": "NewsArticle" })}</head>`)).toBe("article");
    expect(kindOf(`<head>${jsonLd({ "@type": "ItemList" })}</head>`)).toBe("listing");
    expect(kindOf(`<p>Nothing says what this is.</p>`)).toBe("unknown");
  });

  it("reads products beside an article type as the article's subject: a review is an article", () => {
    const review = `<head>${jsonLd({ "@type": "BlogPosting" })}</head><div itemscope itemtype="http://schema.org/Product"><p>Phone</p></div>`;
    expect(kindOf(review)).toBe("article");
    expect(kindOf(`<head>${jsonLd([{ "@type": "Article" }, ...[1, 2, 3].map(() => ({ "@type": "Product" }))])}</head>`)).toBe("article");
  });

  it("puts a forum's types first: a thread page carries an article type as well", () => {
    expect(kindOf(`<head>${jsonLd([{ "@type": "Article" }, { "@type": "DiscussionForumPosting" }])}</head>`)).toBe("forum");
  });
});

describe("a page's kind from its structure", () => {
  const CODE = "<pre><code>const client = new Client({ key: process.env.KEY });\nawait client.connect();</code></pre>";

  it("reads two code blocks as documentation, not <pre> of links or of sentences", () => {
    expect(kindOf(`<h1>Connecting</h1><p>Create a client.</p>${CODE}<p>Then query.</p>${CODE}`)).toBe("documentation");
    expect(kindOf(`<p>One snippet in a story.</p>${CODE}`)).toBe("unknown");
    // A site of 2008 set its menu in <pre>; a wire service its press release.
    expect(kindOf(`<pre><a href="/">Home</a></pre><pre><a href="/news">News</a></pre>`)).toBe("unknown");
    const release = "<pre>Toronto, Jan. 6 - The company announced a player. It ships in spring. Prices were not given. Analysts expect more.</pre>";
    expect(kindOf(release + release)).toBe("unknown");
  });

  it("reads code whose highlighter sets each line in a <div> inside the <pre> (docs.stripe.com)", () => {
    const lines = `<pre><code><div><span>const client = new Client();</span></div><div><span>await client.connect();</span></div></code></pre>`;
    expect(kindOf(`<h1>Connecting</h1><p>Create a client.</p>${lines}<p>Then query.</p>${lines}`)).toBe("documentation");
  });

  const post = (n: number): string => `<div class="post"><a href="/u/${n}">user${n}</a> <time datetime="2025-01-0${n}">Jan ${n}</time><p>Reply number ${n}: the valve was the culprit for me, replaced it and the noise stopped.</p></div>`;

  it("reads a run of signed posts that holds the page as a forum thread", () => {
    const html = `<main><div class="thread">${[1, 2, 3, 4].map(post).join("")}</div></main>`;
    expect(postRunShares(analysePage(html)).posts).toBeGreaterThan(0.9);
    expect(kindOf(html)).toBe("forum");
  });

  it("reads the same posts after an article's own paragraphs as its comments, not a thread", () => {
    const story = `<p>${"The valve on the old boiler was replaced on Monday, and the engineers say the noise is gone for good. ".repeat(2)}</p>`;
    const html = `<article>${story}</article><section class="comments">${[1, 2, 3, 4].map(post).join("")}</section>`;
    expect(postRunShares(analysePage(html)).proseOutsidePosts).toBeGreaterThan(0);
    expect(kindOf(html)).toBe("unknown");
  });

  const card = (n: number, className = "card"): string => `<div class="${className}"><h3><a href="/episodes/${n}">Episode ${n}: the harbour at night</a></h3><p>Fishermen tell of the tides, the ice and the long wait for spring.</p></div>`;
  const cards = (n: number, className?: string): string => Array.from({ length: n }, (_, i) => card(i + 1, className)).join("");
  const nav = `<nav><a href="/">Home</a> <a href="/episodes">Episodes</a> <a href="/about">About</a></nav>`;

  it("reads a grid of cards that holds the page, with no article's body beside it, as a listing", () => {
    expect(kindOf(`${nav}<main><h1>All episodes</h1><div class="grid">${cards(12)}</div></main>`)).toBe("listing");
    // Four cards are a row of teasers, not a listing; cards without a class are a 2000s page's layout; and where each
    // card's summary is a tenth of the page's prose, the cards are an article's sections.
    expect(kindOf(`${nav}<main><h1>All episodes</h1><div class="grid">${cards(4)}</div></main>`)).toBe("unknown");
    expect(kindOf(`${nav}<main><h1>All episodes</h1><div class="grid">${cards(8)}</div></main>`)).toBe("unknown");
    expect(kindOf(`${nav}<main><h1>All episodes</h1><div class="grid">${cards(12).replaceAll(' class="card"', "")}</div></main>`)).toBe("unknown");
  });

  it("reads a list's items as cards without a class (arxiv.org's <dd>), and a card's frame text as frame", () => {
    const item = (n: number): string => `<dt><a href="/abs/${n}">[${n}]</a></dt><dd><div class="meta"><div>Title: On the tides and the ice, part ${n}</div><div><a href="/a/${n}">A. Author</a></div></div></dd>`;
    expect(kindOf(`${nav}<main><h1>Recent papers</h1><dl>${Array.from({ length: 12 }, (_, n) => item(n)).join("")}</dl></main>`)).toBe("listing");
    // Twelve cards, each with a long call to action in an <aside>, beside as much linked text of the page's own: the cards
    // hold less than half the text outside the frame, whatever their asides hold.
    const aside = `<aside>${"Start your free trial today and save time on every job. ".repeat(8)}</aside>`;
    const framed = Array.from({ length: 12 }, (_, i) => card(i + 1).replace("</div>", `${aside}</div>`)).join("");
    const links = Array.from({ length: 24 }, (_, n) => `<a href="/topics/${n}">Topic number ${n} of the harbour and its long winter tides</a>`).join(" ");
    expect(kindOf(`${nav}<main><h1>All episodes</h1><div class="grid">${cards(12)}</div></main>`)).toBe("listing");
    expect(kindOf(`${nav}<main><h1>All episodes</h1><div class="grid">${framed}</div><div class="topics">${links}</div></main>`)).toBe("unknown");
  });

  it("reads an article with a run of teaser cards below it, and a story's comment thread, as no listing", () => {
    const story = `<article><h1>The harbour at night</h1>${`<p>${"The fishermen waited for the tide on Tuesday, and the ice held the boats in the harbour until noon. ".repeat(3)}</p>`.repeat(4)}</article>`;
    expect(kindOf(`${nav}${story}<section class="more">${cards(8)}</section>`)).toBe("unknown");
    expect(kindOf(`${nav}<h1>The harbour at night</h1><p>A short story.</p><ol class="comments">${cards(20, "comment")}</ol>`)).toBe("unknown");
  });

  it("reads sections that each hold a run of cards as sections, not cards (amazon.com's product page and its carousels)", () => {
    const shelf = (n: number): string => `<div class="widget"><h2><a href="/s/${n}">Shelf ${n}</a></h2><div class="shelf">${cards(5)}</div></div>`;
    // Six shelves alike, each with a link and many blocks, are no run of six cards; each shelf's five cards are a sixth of the page.
    expect(kindOf(`<main>${Array.from({ length: 6 }, (_, n) => shelf(n)).join("")}</main>`)).toBe("unknown");
  });

  it("counts a <time> in the innermost block around it, and no <timeline> element", () => {
    const html = `<div class="thread">${[1, 2, 3].map(post).join("").replaceAll("<time ", "<timeline ").replaceAll("</time>", "</timeline>")}</div>`;
    expect(postRunShares(analysePage(html)).posts).toBe(0);
  });
});

describe("each kind cleaned for what it is", () => {
  const replies = [
    "I had the same rattle in my 2014 model and it turned out to be the heat shield under the exhaust.",
    "Check the mounting bolts first, mine were loose after the last service and it sounded just like that.",
    "Thanks both, it was the heat shield after all. A new clamp fixed it for under ten pounds.",
  ];
  const thread = (types: string): string => `<html><head><title>Rattle under the car at idle</title>${types}</head><body>
<nav><a href="/">Forums</a> <a href="/cars">Cars</a></nav>
<main><h1>Rattle under the car at idle</h1>
<div class="message"><p>There is a metallic rattle from under the car at idle that goes away above 2,000 rpm. Any ideas what it could be?</p></div>
<div id="comments">${replies.map((reply, n) => `<div class="post"><a href="/u/${n}">member${n}</a><p>${reply}</p></div>`).join("\n")}</div>
</main><footer>© Car Forum</footer></body></html>`;

  it("does not take a thread's posts for reader comments: comments=exclude keeps them, where a page that tells no kind loses them", async () => {
    const typed = analysePage(thread(jsonLd({ "@type": "DiscussionForumPosting", headline: "Rattle under the car at idle" })));
    expect(classifyPage(typed, MODEL).comments.includes(1)).toBe(false);
    expect(classifyPage(analysePage(thread("")), MODEL).comments.includes(1)).toBe(true);
    const forum = await cleaned(thread(jsonLd({ "@type": "DiscussionForumPosting" })), { comments: "exclude" });
    expect(forum.kind).toBe("forum");
    expect(forum.body).toContain("metallic rattle");
    expect(forum.body).toContain(replies[0]);
    expect(forum.body).toContain(replies[1]);
    // The same markup without the type: its replies are reader comments, left out by default.
    const unknown = await cleaned(thread(""), { comments: "exclude" });
    expect(unknown.kind).toBe("unknown");
    expect(unknown.body).toContain("metallic rattle");
    expect(unknown.body).not.toContain(replies[0]);
  });

  it("lets a caller name the kind: kind=forum keeps the posts of a page that tells none, kind=article removes them", async () => {
    const named = await cleaned(thread(""), { kind: "forum" });
    expect(named.kind).toBe("forum");
    expect(named.body).toContain(replies[0]);
    const forced = await cleaned(thread(jsonLd({ "@type": "DiscussionForumPosting" })), { kind: "article" });
    expect(forced.kind).toBe("article");
    expect(forced.body).not.toContain(replies[0]);
  });

  it("reports the kind in json, and refuses a kind that is not one in the library", async () => {
    const result = await clean({ html: thread(jsonLd({ "@type": "QAPage" })), site: "", format: "json", ruleSet: null, model: MODEL, rewriter: REWRITER });
    if (!result.ok) throw new Error(result.detail);
    expect((JSON.parse(result.body) as { kind: string }).kind).toBe("forum");
    const cleaner = createCleaner(REWRITER);
    await expect(cleaner("<p>x</p>", { kind: "blog" as never })).rejects.toThrow(/kind must be one of auto, article, forum, product, documentation, service, listing, collection, unknown/);
  });
});

describe.skipIf(!hasData())("page kinds on real dev pages (skipped without ../shared/data)", () => {
  const labels = new Map<string, string>();
  if (hasData()) {
    for (const line of readFileSync(join(DATA_ROOT, "wceb2026", "index.jsonl"), "utf8").split("\n")) {
      if (line.trim() !== "") labels.set((JSON.parse(line) as { id: string }).id, (JSON.parse(line) as { type: string }).type);
    }
  }

  it("recognises wceb2026's forum threads, products and documentation, and calls no labelled article a thread or a product", () => {
    const found = new Map<string, Map<string, number>>(); // label → kind found → pages
    for (const page of loadDataset("wceb2026").pages) {
      const label = labels.get(page.id)!;
      const kind = recognisePageKind(analysePage(page.html)).kind;
      const row = found.get(label) ?? new Map<string, number>();
      row.set(kind, (row.get(kind) ?? 0) + 1);
      found.set(label, row);
    }
    const count = (label: string, kind: string): number => found.get(label)?.get(kind) ?? 0;
    const labelled = (label: string): number => [...(found.get(label)?.values() ?? [])].reduce((sum, n) => sum + n, 0);
    // Most threads, products and documentation pages say what they are; unknown is the answer where a page does not.
    expect(count("forum", "forum")).toBeGreaterThan(labelled("forum") / 2);
    expect(count("product", "product")).toBeGreaterThan(labelled("product") / 2);
    expect(count("documentation", "documentation")).toBeGreaterThan(labelled("documentation") / 2);
    expect(count("article", "forum") + count("article", "product") + count("article", "collection")).toBe(0);
  });

  /** A dev page's kind as recognised, and the gold it misses (shingles, fn of tp + fp + fn = 1) cleaned so and read as `other`. */
  async function missedAs(id: string, other: CleanOptions["kind"], options: Partial<CleanOptions> = {}): Promise<{ kind: string; missed: number; missedAsOther: number }> {
    const page = loadDataset("wceb2026").pages.find((candidate) => candidate.id === id)!;
    const recognised = await cleaned(page.html, options, page.url);
    const read = await cleaned(page.html, { ...options, kind: other }, page.url);
    return { kind: recognised.kind, missed: scoreText(recognised.body, page.gold).shingles.fn, missedAsOther: scoreText(read.body, page.gold).shingles.fn };
  }

  it("keeps a thread's posts on a real forum page (defence.pk), which the comments classifier removed whole", async () => {
    const { kind, missed, missedAsOther } = await missedAs("0403", "article");
    expect(kind).toBe("forum");
    expect(missed).toBeLessThan(0.1);
    expect(missedAsOther).toBeGreaterThan(0.5);
  });

  it("reads a podcast's list of episodes as a listing from its cards, and keeps the episodes (redcircle.com)", async () => {
    const { kind, missed, missedAsOther } = await missedAs("0265", "unknown", { textScope: "all" });
    expect(kind).toBe("listing");
    expect(missed).toBeLessThan(0.15);
    expect(missedAsOther).toBeGreaterThan(0.5);
  });

  it("reads arxiv.org's recent papers, a <dl> whose items have no class, as a listing, and keeps more of the papers", async () => {
    const { kind, missed, missedAsOther } = await missedAs("2916", "unknown", { textScope: "all" });
    expect(kind).toBe("listing");
    expect(missed).toBeLessThan(0.5);
    expect(missedAsOther).toBeGreaterThan(0.8);
  });
});
