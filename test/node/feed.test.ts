import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseFeed as parseWithLibrary } from "@rowanmanning/feed-parser";
import { XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { decodeFeed, type FeedDocument, type ItemEdit, mapBounded, parseFeed, readItemHtml, rewriteFeed } from "../../src/feed/index";

const FIXTURES = resolve(import.meta.dirname, "../fixtures/feeds");

function loadFixture(name: string): FeedDocument {
  const decoded = decodeFeed(new Uint8Array(readFileSync(resolve(FIXTURES, name))));
  if (!decoded.ok) throw new Error(`cannot decode ${name}`);
  const parsed = parseFeed(decoded.xml);
  if (!parsed.ok) throw new Error(`cannot parse ${name}: ${parsed.detail}`);
  return parsed.feed;
}

function edit(item: number, parts: Partial<Omit<ItemEdit, "item">>): ItemEdit {
  return { item, description: null, content: null, note: null, ...parts };
}

function expectValidXml(xml: string): void {
  expect(XMLValidator.validate(xml)).toBe(true);
}

describe("parseFeed", () => {
  it("finds the items, links and HTML fields of RSS 2.0", () => {
    const feed = loadFixture("rss.xml");
    expect(feed.kind).toBe("rss");
    expect(feed.siteLink).toBe("https://courier.example/");
    expect(feed.contentPrefix).toBe("content");
    expect(feed.items.map((item) => item.link)).toEqual([
      "/data/dragnet/pages/R822.html",
      "/data/dragnet/pages/R823.html",
      "/data/dragnet/pages/no-such-page.html",
    ]);
    expect(readItemHtml(feed, feed.items[0].description)).toContain("<p>The harbour ferry will run");
    expect(readItemHtml(feed, feed.items[0].content)).toContain('<div class="share-bar">');
    expect(feed.items[1].content).toBeNull();
    expect(readItemHtml(feed, feed.items[1].description)).toMatch(/^<p>Volunteers/);
  });

  it("finds Atom entries, alternate links and typed content", () => {
    const feed = loadFixture("atom.xml");
    expect(feed.kind).toBe("atom");
    expect(feed.siteLink).toBe("https://allotment.example/");
    expect(feed.items).toHaveLength(3);
    expect(feed.items[0].link).toBe("/data/dragnet/pages/R824.html");
    // type="text" is not HTML: nothing to clean in it
    expect(readItemHtml(feed, feed.items[0].description)).toBeNull();
    expect(readItemHtml(feed, feed.items[0].content)).toContain("<p>The maincrop potatoes");
    expect(readItemHtml(feed, feed.items[1].content)).toMatch(/^<div xmlns="http:\/\/www.w3.org\/1999\/xhtml"><p>Garlic/);
    expect(readItemHtml(feed, feed.items[2].description)).toContain("seed catalogues");
  });

  it("reads RSS 1.0 (RDF) in its declared ISO-8859-1", () => {
    const feed = loadFixture("rdf.xml");
    expect(feed.kind).toBe("rdf");
    expect(feed.siteLink).toBe("https://quarry.example/");
    expect(feed.items).toHaveLength(2);
    expect(feed.items[0].link).toBe("/data/dragnet/pages/R876.html");
    expect(readItemHtml(feed, feed.items[1].description)).toContain("The café at the top");
  });

  it("refuses what is not a feed and what ends inside an element", () => {
    expect(parseFeed("<html><body>hello</body></html>")).toMatchObject({ ok: false, reason: "not-a-feed" });
    expect(parseFeed('<rss version="2.0"><channel><item><title>cut')).toMatchObject({ ok: false, reason: "malformed" });
    expect(parseFeed("")).toMatchObject({ ok: false, reason: "not-a-feed" });
  });

  it("is lenient with stray end tags and unclosed fields, like feed readers", () => {
    const parsed = parseFeed('<rss><channel></p><item><title>a<link>https://a.example/x</link></item></channel></rss>');
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(parsed.feed.items).toHaveLength(1);
  });
});

describe("rewriteFeed", () => {
  it("keeps every byte when nothing is edited", () => {
    for (const name of ["rss.xml", "atom.xml"]) {
      const feed = loadFixture(name);
      expect(rewriteFeed(feed, [])).toBe(feed.source);
    }
  });

  it("replaces RSS fields in their own style and keeps the other fields", () => {
    const feed = loadFixture("rss.xml");
    const output = rewriteFeed(feed, [
      edit(0, { description: "<p>short & sweet</p>", content: "<p>cleaned body</p>" }),
      edit(1, { content: "<p>full text ]]> with a CDATA end</p>" }),
    ]);
    expectValidXml(output);
    expect(output).toContain("<description>&lt;p&gt;short &amp; sweet&lt;/p&gt;</description>");
    expect(output).toContain("<content:encoded><![CDATA[<p>cleaned body</p>]]></content:encoded>");
    const parsed = parseWithLibrary(output);
    expect(parsed.meta.type).toBe("rss");
    expect(parsed.title).toBe("Harbour Town Courier");
    expect(parsed.items.map((item) => item.title)).toEqual(parseWithLibrary(feed.source).items.map((item) => item.title));
    expect(parsed.items[0].content).toBe("<p>cleaned body</p>");
    expect(parsed.items[0].authors[0]?.name).toBe("Morag Fletcher");
    expect(parsed.items[1].content).toBe("<p>full text ]]> with a CDATA end</p>");
    expect(parsed.items[1].categories.map((category) => category.term)).toEqual(["Harbour"]);
    expect(parsed.items[2].description).toContain("Victorian market hall");
  });

  it("adds the content namespace when an RSS feed had none", () => {
    const source = '<rss version="2.0"><channel><title>t</title><item><title>a</title><link>https://a.example/</link></item></channel></rss>';
    const parsed = parseFeed(source);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const output = rewriteFeed(parsed.feed, [edit(0, { content: "<p>article</p>", note: "full text -- fetched" })]);
    expectValidXml(output);
    expect(output).toContain('<rss xmlns:content="http://purl.org/rss/1.0/modules/content/" version="2.0">');
    expect(output).toContain("<!-- full text - - fetched -->");
    expect(parseWithLibrary(output).items[0].content).toBe("<p>article</p>");
  });

  it("writes Atom content as type html, xhtml included, and keeps entries' other fields", () => {
    const feed = loadFixture("atom.xml");
    const output = rewriteFeed(feed, [
      edit(1, { content: "<p>Garlic, cleaned &amp; kept</p>" }),
      edit(2, { content: "<p>catalogue article</p>", note: "kept" }),
    ]);
    expectValidXml(output);
    const parsed = parseWithLibrary(output);
    expect(parsed.meta.type).toBe("atom");
    // the library decodes entities in HTML content once more; the raw output holds the exact escape
    expect(parsed.items[1].content).toContain("<p>Garlic, cleaned");
    expect(output).toContain('<content type="html">&lt;p&gt;Garlic, cleaned &amp;amp; kept&lt;/p&gt;</content>');
    expect(parsed.items[2].content).toBe("<p>catalogue article</p>");
    expect(parsed.items[0].content).toContain("maincrop potatoes");
    expect(parsed.items[0].categories.map((category) => category.term)).toEqual(["vegetables"]);
    expect(parsed.authors[0]?.name).toBe("Priya Natarajan");
  });

  it("rewrites the RDF declaration to UTF-8 and drops characters XML forbids", () => {
    const feed = loadFixture("rdf.xml");
    const output = rewriteFeed(feed, [edit(0, { description: "<p>lights\u0001 on</p>", content: "<p>café</p>" })]);
    expectValidXml(output);
    expect(output.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(output).toContain("&lt;p&gt;lights on&lt;/p&gt;");
    const parsed = parseWithLibrary(output);
    expect(parsed.meta.type).toBe("rdf");
    expect(parsed.items[0].content).toBe("<p>café</p>");
    expect(parsed.items[1].title).toBe("Café opening hours");
  });
});

describe("mapBounded", () => {
  it("keeps input order, never runs more than the bound at once, and turns a failure into its fallback", async () => {
    let running = 0;
    let most = 0;
    const delays = [30, 5, 20, 1, 15, 8, 2, 25];
    const results = await mapBounded(delays, 3, async (delay, index) => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, delay));
      running--;
      if (index === 4) throw new Error("item 4 fails");
      return `item ${index}`;
    }, (error, _delay, index) => `fallback ${index}: ${(error as Error).message}`);
    expect(results).toEqual(["item 0", "item 1", "item 2", "item 3", "fallback 4: item 4 fails", "item 5", "item 6", "item 7"]);
    expect(most).toBe(3);
  });

  it("handles no inputs", async () => {
    expect(await mapBounded([], 4, async () => 1, () => 0)).toEqual([]);
  });
});
