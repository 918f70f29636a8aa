/**
 * Reader metadata in the shapes of today's pages (issue 28): the <title> kept over an h1 that states something else,
 * title metas of every kind, bylines only where they are names, published dates over modified ones, every date as
 * ISO 8601 or null, and readerable agreeing with what the cleaning keeps.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { HTMLRewriter } from "html-rewriter-wasm";
import { describe, expect, it } from "vitest";
import { parseModel } from "../../src/classify/index";
import { clean } from "../../src/clean";
import { hasData, loadDataset, type DatasetPage } from "../../src/evaluation/index";
import { analysePage, extractMetadata, type PageModel } from "../../src/page/index";
import { normalisePlan } from "../../src/plan/index";
import { buildReaderDocument } from "../../src/rewrite/index";
import { createWasmBackend } from "../../src/runtime/index";

const page = (head: string, body = "<p>text</p>", lang = "") => `<!doctype html><html${lang === "" ? "" : ` lang="${lang}"`}><head>${head}</head><body>${body}</body></html>`;

describe("titles", () => {
  it("keeps a <title> that names the page over an h1 that says something else, not over one that states it better", () => {
    const body = `<h1>About This Site</h1><p>Daring Fireball is written and produced by John Gruber.</p>`;
    expect(extractMetadata(page("<title>Daring Fireball: Colophon</title>", body)).title).toBe("Daring Fireball: Colophon");
    // A heading that adds a comment count to the <title>'s headline does not state it better.
    const counted = `<h1>Why Today Matters for Start-Ups <a href="#comments">199 Comments</a></h1>`;
    expect(extractMetadata(page("<title>Why Today Matters for Start-Ups</title>", counted)).title).toBe("Why Today Matters for Start-Ups");
    // The h1 still wins where it states the <title>'s headline more fully, or the <title> is only names.
    const fuller = `<h1>Singer asks for early release from prison, says her health is at risk</h1>`;
    expect(extractMetadata(page("<title>Singer asks for early release from prison - News Story | Music News</title>", fuller)).title)
      .toBe("Singer asks for early release from prison, says her health is at risk");
    expect(extractMetadata(page("<title>The Anatolian Times</title>", `<h1>Tension on the rise after standoff in the strait</h1>`)).title)
      .toBe("Tension on the rise after standoff in the strait");
  });

  it("reads parsely-title, JSON-LD headline of any posting type, and dc:title in a space-separated property list", () => {
    expect(extractMetadata(page(`<title>Home | Harbour News</title><meta name="parsely-title" content="Tide tables change in May">`)).title)
      .toBe("Tide tables change in May");
    const posting = JSON.stringify({ "@context": "https://schema.org", "@type": "DiscussionForumPosting", headline: "Which ferry runs on Sundays?" });
    expect(extractMetadata(page(`<title>Forum</title><script type="application/ld+json">${posting}</script>`)).title).toBe("Which ferry runs on Sundays?");
    const listed = `<meta property="x:title dc:title" content="Preferred title"><meta property="og:title twitter:title" content="A title">` +
      `<meta property="x:description dc:description" content="Preferred description"><meta property="og:description" content="A description">`;
    expect(extractMetadata(page(`<title>Title</title>${listed}`))).toMatchObject({ title: "Preferred title", excerpt: "Preferred description" });
  });
});

describe("bylines", () => {
  const byline = (body: string) => extractMetadata(page("<title>Harbour works begin</title>", `<h1>Harbour works begin</h1>${body}<p>Text.</p>`)).byline;

  it("refuses controls and date labels in author markup, and takes the name after them", () => {
    expect(byline(`<div class="author-tools">Login 50% 50%</div>`)).toBeNull();
    expect(byline(`<p class="byline">Last Updated: May 5, 2016</p>`)).toBeNull();
    expect(byline(`<div class="post-author">Name Twitter Name Twitter</div>`)).toBeNull();
    expect(byline(`<div class="author-tools">Login 50% 50%</div><span class="byline">By <a rel="author" href="/a/ana">Ana Ruiz</a></span>`)).toBe("Ana Ruiz");
    expect(byline(`<span class="byline">Jo Bloggs Jo Bloggs</span>`)).toBe("Jo Bloggs");
    expect(byline(`<span class="byline">Edward Gomez (Email) / 8 hrs ago</span>`)).toBe("Edward Gomez");
  });

  it("reads dc:creator in a space-separated property list before a name=author meta", () => {
    const head = `<meta property="x:creator dc:creator" content="Creator Name"><meta name="author" content="FAIL">`;
    expect(extractMetadata(page(head)).byline).toBe("Creator Name");
    expect(extractMetadata(page(`<meta name="DC.creator" content="Dotted Name"><meta name="author" content="FAIL">`)).byline).toBe("Dotted Name");
  });
});

describe("dates", () => {
  it("takes the published date over a modified one beside the byline, and a modified date only when no other is given", () => {
    const body = `<article><h1>Harbour works begin</h1><p class="byline">By Ana Ruiz · Updated <time itemprop="dateModified" datetime="2020-02-02T10:00:00Z">2 Feb</time></p>` +
      `<p>Text.</p><footer><span itemprop="datePublished" content="2020-01-01T09:00:00+01:00">1 January</span></footer></article>`;
    expect(extractMetadata(page("", body)).published).toBe("2020-01-01T09:00:00+01:00");
    const onlyUpdated = `<article><h1>Harbour works begin</h1><p>By Ana Ruiz <time class="updated" datetime="2018-08-13T08:04:08+00:00">13 Aug</time></p></article>`;
    expect(extractMetadata(page("", onlyUpdated)).published).toBe("2018-08-13T08:04:08+00:00");
  });

  it("writes every date as ISO 8601 with its offset, or null", () => {
    const date = (value: string, lang = "") => extractMetadata(page(`<meta property="article:published_time" content="${value}">`, "<p>text</p>", lang)).published;
    expect(date("2016-05-24T05:55%Z")).toBe("2016-05-24T05:55:00Z");
    expect(date("05/29/2007 09:49:00")).toBe("2007-05-29T09:49:00");
    expect(date("29.05.2007")).toBe("2007-05-29");
    expect(date("05/06/2007", "en-US")).toBe("2007-05-06");
    expect(date("05/06/2007", "en-GB")).toBe("2007-06-05");
    expect(date("05/06/2007")).toBeNull(); // May or June: no language says which
    expect(date("Tue Nov 19 2019 03:05:46 GMT+0000 (Coordinated Universal Time)")).toBe("2019-11-19T03:05:46+00:00");
    expect(date("01:38:07 PM IST Nov 20, 2019")).toBe("2019-11-20"); // IST is three zones: the day only
    expect(date("July 24, 2012 10:00 a.m. EDT")).toBe("2012-07-24T10:00:00-04:00");
    expect(date("yesterday")).toBeNull();
    expect(date("Aug 09, 2:31 PM")).toBeNull();
    expect(date("February 30, 2020")).toBeNull();
  });

  it("passes a date that does not parse to the next source", () => {
    const head = `<meta property="article:published_time" content="3 hours ago"><meta name="date" content="2021-06-01">`;
    expect(extractMetadata(page(head)).published).toBe("2021-06-01");
  });
});

describe("readerable agrees with what the cleaning keeps", () => {
  const paragraph = "The council voted on Tuesday to widen the harbour wall, after three winters of flooding on the quay and in the old town. ".repeat(3);
  const teasers = Array.from({ length: 8 }, (_, n) => `<h3><a href="/story-${n}">Another story of the week, number ${n}</a></h3>`).join("");
  const keptOnly = (model: PageModel, removed: (text: string) => boolean) => {
    const removedBlocks = new Uint8Array(model.blockCount);
    for (let block = 1; block < model.blockCount; block++) {
      if (removed(model.text.slice(model.blocks.textStart[block], model.blocks.textEnd[block]))) removedBlocks[block] = 1;
    }
    return normalisePlan(model, { removedBlocks, removedText: new Int32Array(0) });
  };
  const context = { site: "", mode: "classifier", html: "", comments: "", timings: {} };

  it("is true when the kept article reads as one, though the page around it is a list of teasers", () => {
    const model = analysePage(page("<title>Harbour wall</title>", `<h1>Harbour wall</h1>${`<p>${paragraph}</p>`.repeat(4)}<div class="more">${teasers}</div>`));
    expect(extractMetadata(model).readerable).toBe(false); // the whole page: more teaser links than half its paragraphs
    expect(buildReaderDocument(model, keptOnly(model, (text) => text.startsWith("Another story")), context).readerable).toBe(true);
  });

  it("counts an article inside a <form> (ASP.NET pages) when the cleaning keeps it, and is false when it keeps only teasers", () => {
    const model = analysePage(page("<title>Harbour wall</title>", `<form action="/x"><h1>Harbour wall</h1>${`<p>${paragraph}</p>`.repeat(4)}</form>${teasers}`));
    expect(buildReaderDocument(model, keptOnly(model, () => false), context).readerable).toBe(false);
    expect(buildReaderDocument(model, keptOnly(model, (text) => text.startsWith("Another story")), context).readerable).toBe(true);
    expect(buildReaderDocument(model, keptOnly(model, (text) => text.startsWith("The council")), context).readerable).toBe(false);
  });
});

/**
 * Of the 61 scrapinghub pages the check reads (every third), how many clean() calls readerable at least: 59 measured
 * (the two left, ac3c0355… and e372e42c…, are stories of 420 and 428 characters); 42 before readerable followed the cleaning.
 */
const READERABLE_SCRAPINGHUB = 59;

const dataPresent = hasData();
if (!dataPresent) console.warn("metadata tests on real modern pages skipped: ../shared/data is absent");

describe.skipIf(!dataPresent)("metadata of real dev pages", () => {
  const sets = dataPresent ? new Map(["dragnet", "l3s-gn1", "scrapinghub"].map((set) => [set, loadDataset(set).pages])) : new Map<string, DatasetPage[]>();
  const find = (set: string, id: string): DatasetPage => {
    const found = sets.get(set)?.find((candidate) => candidate.id === id || (id.length >= 8 && candidate.id.startsWith(id)));
    if (found === undefined) throw new Error(`${set} page ${id} is missing`);
    return found;
  };
  const metadata = (set: string, id: string) => {
    const { html, url } = find(set, id);
    return extractMetadata(html, url === "" ? undefined : url);
  };

  it("keeps <title>s that an h1 of a share widget or a comment count would replace, and still takes an h1 under a paper's name", () => {
    expect(metadata("l3s-gn1", "9a2186bf").title).toBe("Britney Spears Seen Buying Pregnancy Test"); // h1 "Save & Share this Article"
    expect(metadata("dragnet", "39").title).toBe("The 5 Top-Performing American Apparel Ads, and How They Get PR for Free (NSFW)"); // h1 "… 149 Comments"
    expect(metadata("l3s-gn1", "5bfcd62f").title).toBe("Bulls centre out for six months"); // <title>Star</title>
  });

  it("writes dates a 2019 page gives in JavaScript's and in a time-first form as ISO 8601", () => {
    expect(metadata("scrapinghub", "a078b3656adc").published).toBe("2019-11-19T03:05:46+00:00");
    expect(metadata("scrapinghub", "65408257dbe4").published).toBe("2019-11-20");
  });

  it("calls readerable nearly every scrapinghub article clean() extracts (the shipped model, json)", async () => {
    const parsed = parseModel(JSON.parse(readFileSync(resolve(import.meta.dirname, "../../rules/model.json"), "utf8")));
    if (!parsed.ok) throw new Error("rules/model.json is invalid");
    const rewriter = createWasmBackend(HTMLRewriter);
    const pages = sets.get("scrapinghub")!.filter((_, index) => index % 3 === 0);
    let readerable = 0;
    for (const entry of pages) {
      const result = await clean({ html: entry.html, url: entry.url, site: "", format: "json", ruleSet: null, model: parsed.model, rewriter });
      if (result.ok && (JSON.parse(result.body) as { readerable: boolean }).readerable) readerable++;
    }
    expect(pages.length).toBe(61);
    expect(readerable).toBeGreaterThanOrEqual(READERABLE_SCRAPINGHUB);
  });
});
