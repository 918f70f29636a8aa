// First: the scaling tests below count steps in the functions compiled after it loads.
import { MAX_STEP_RATIO, MIN_STEP_RATIO, stepRatio } from "../support/work-count";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { DATA_SETS, hasData, loadDataset, type DatasetPage } from "../../src/evaluation/index";
import { analysePage, decodeEntities, extractMetadata } from "../../src/page/index";
import { everyDevPage } from "../support/dev-data";

const dataPresent = hasData();
if (!dataPresent) console.warn("metadata tests on real pages skipped: ../shared/data is absent");

describe.skipIf(!dataPresent)("metadata of real dragnet pages", () => {
  const pages = dataPresent ? loadDataset("dragnet").pages : [];
  const page = (id: string): DatasetPage => {
    const found = pages.find((candidate) => candidate.id === id);
    if (found === undefined) throw new Error(`dragnet page ${id} is missing`);
    return found;
  };

  it("reads og: tags, name=author and name=Date, and the site's name from the <title> (abcnews.go.com)", () => {
    const { html, url } = page("110");
    expect(extractMetadata(html, url)).toEqual({
      title: "Fred Willard on 'Lewd Conduct' Charge",
      byline: "ABC News",
      published: "2012-07-24",
      excerpt: "Fred Willard is commenting online about his arrest for alleged lewd conduct.", // og:description before description, as Readability reads them
      lang: "en-us",
      leadImage: "http://a.abcnews.go.com/images/Entertainment/ap_fred_willard_jef_120719_main.jpg",
      siteName: "ABC News",
      readerable: true,
    });
  });

  it("decodes entities in og:title and takes <html lang> outside conditional comments (247wallst.com)", () => {
    const { html, url } = page("R19");
    const metadata = extractMetadata(html, url);
    expect(metadata.title).toBe("Sandy: Over 250,000 Homes At Risk");
    expect(metadata.siteName).toBe("247wallst.com");
    expect(metadata.lang).toBe("en");
  });

  it("reads og:site_name, <html lang> and DCTERMS.created written with slashes (bbc.co.uk)", () => {
    const { html, url } = page("117");
    const metadata = extractMetadata(html, url);
    expect(metadata.siteName).toBe("BBC Sport");
    expect(metadata.lang).toBe("en-GB");
    expect(metadata.published).toBe("2012-07-24T14:41:54+00:00");
    expect(metadata.leadImage).toBe("http://news.bbcimg.co.uk/media/images/61782000/jpg/_61782411_joey_barton_getty2.jpg");
  });

  it("takes the byline from a rel=author link when no meta names one (fourhourworkweek.com)", () => {
    const { html, url } = page("153");
    expect(extractMetadata(html, url).byline).toBe("Tim Ferriss");
  });

  it("reads a rel=author link's text and decodes named entities in <title> (typepad, wordpress)", () => {
    expect(extractMetadata(page("113").html, page("113").url).byline).toBe("Seth Godin");
    expect(extractMetadata(page("R285").html, page("R285").url).title).toBe("Free Range Librarian \u203a The Fall Funnel of Fun");
  });

  it("reads a microdata author's name, passing over a profile-URL article:author (bbc.co.uk, guardian.co.uk)", () => {
    expect(extractMetadata(page("117").html, page("117").url).byline).toBe("Mike Whalley");
    expect(extractMetadata(page("R123").html, page("R123").url).byline).toBe("Oliver Thring");
  });

  it("reads publication dates marked in the body, the page's offset kept: microdata on abbr (blogspot) and hAtom's abbr.published", () => {
    expect(extractMetadata(page("R103").html, page("R103").url).published).toBe("2012-10-22T09:22:00-07:00");
    expect(extractMetadata(page("119").html, page("119").url).published).toBe("2012-06-25");
  });

  it("falls back to <title> on a page with no meta tags, without the site's name when it is the host's (47hats.com)", () => {
    const { html, url } = page("R876");
    const metadata = extractMetadata(html, url);
    expect(metadata.title).toBe("Keeper emails from 21times.org");
    expect(metadata.siteName).toBe("47 Hats");
    expect(metadata.lang).toBe("en-US");
    expect(metadata.byline).toBe("Bob Walsh"); // "Posted by: Bob Walsh" under the post's heading
  });

  it("finds a title on nearly every page and never throws", () => {
    let titles = 0;
    for (const candidate of pages) if (extractMetadata(candidate.html, candidate.url).title !== null) titles++;
    // Every dragnet page but R237 (whose <title> is empty and which has no og:title) has a title.
    expect(titles).toBe(802);
  });
});

describe.runIf(everyDevPage(dataPresent, "metadata.test.ts"))("metadata gathered in pass 1's walk (analysePage's metadata option)", () => {
  it("equals the metadata of a scan of its own, on every 4th dev page of every set", () => {
    let pages = 0;
    for (const set of DATA_SETS) {
      for (const page of loadDataset(set).pages.filter((_page, index) => index % 4 === 0)) {
        const url = page.url === "" ? undefined : page.url;
        const model = analysePage(page.html, { metadata: true });
        expect(model.metadataFacts, page.id).toBeDefined();
        expect(extractMetadata(model, url), page.id).toEqual(extractMetadata(analysePage(page.html), url));
        pages++;
      }
    }
    expect(pages).toBeGreaterThan(350);
  });
});

describe.skipIf(!dataPresent)("titles of real l3s-gn1 pages whose <title> is the paper's name", () => {
  it("takes the story's h1 (Cape Argus, Mercury, Star; not under a name of four words, The Independent on Saturday)", () => {
    const pages = loadDataset("l3s-gn1").pages;
    const titled = (id: string) => extractMetadata(pages.find((candidate) => candidate.id === id)!.html).title;
    expect(titled("c2783abe-0e22-4090-89a0-02333be3c824")).toBe("Ronaldo could earn greater fortune at Real");
    expect(titled("ef09c4c3-24fd-4435-9aad-6c419e18f7e7")).toBe("No change in Selebi case: NPA");
    expect(titled("5bfcd62f-334b-4547-8ac2-7ce53cfa5f52")).toBe("Bulls centre out for six months");
    expect(titled("1c0265ec-35f4-460c-a0a6-b3dab9555a57")).toBe("The Independent on Saturday");
  });
});

describe("JSON-LD", () => {
  const page = (head: string, body = "<p>text</p>") => `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;

  it("reads a NewsArticle in an @graph with authors, an image object and a publisher by @id", () => {
    const script = JSON.stringify({
      "@context": "https://schema.org",
      "@graph": [
        { "@type": "Organization", "@id": "#org", name: "The Valley Gazette" },
        {
          "@type": ["NewsArticle"],
          headline: "Bridge reopens after flood repairs",
          author: [{ "@type": "Person", name: "Ana Ruiz" }, { "@type": "Person", name: "Tom Beck" }, "Ana Ruiz"],
          datePublished: "2024-03-05T09:30:00+01:00",
          image: { "@type": "ImageObject", url: "/images/bridge.jpg" },
          publisher: { "@id": "#org" },
          inLanguage: "en-GB",
        },
      ],
    });
    const metadata = extractMetadata(page(`<title>Bridge | Gazette</title><script type="application/ld+json">${script}</script>`), "https://gazette.example/news/bridge");
    expect(metadata).toEqual({
      title: "Bridge reopens after flood repairs",
      byline: "Ana Ruiz, Tom Beck",
      published: "2024-03-05T09:30:00+01:00",
      excerpt: null,
      lang: "en-GB",
      leadImage: "https://gazette.example/images/bridge.jpg",
      siteName: "The Valley Gazette",
      readerable: false,
    });
  });

  it("repairs common breakage: comment wrapper, raw newline in a string, trailing comma", () => {
    const broken = `<!--{"@type":"BlogPosting","headline":"Notes on\nsourdough","author":{"name":"Kit"},"datePublished":"2023-11-02",}-->`;
    const metadata = extractMetadata(page(`<script type="application/ld+json">${broken}</script>`));
    expect(metadata.title).toBe("Notes on sourdough");
    expect(metadata.byline).toBe("Kit");
    expect(metadata.published).toBe("2023-11-02");
  });

  it("passes over author links that name nobody and takes the next one", () => {
    const body = `<a rel="author" href="/me">View my complete profile</a><p>Text</p><span itemprop="author">By Jo Bloggs</span>`;
    expect(extractMetadata(page("", body)).byline).toBe("Jo Bloggs");
  });

  it("keeps every author of a byline that names co-authors in brackets, and still cuts an aside", () => {
    const body = `<p>Text</p><span itemprop="author"><a href="/auteurs/jean">Jean Dupont</a> (avec Marie Curie et Paul Martin)</span>`;
    expect(extractMetadata(page("", body)).byline).toBe("Jean Dupont (avec Marie Curie et Paul Martin)");
    expect(extractMetadata(page("", `<span itemprop="author">Jo Bloggs (with Kit Marlowe)</span>`)).byline).toBe("Jo Bloggs (with Kit Marlowe)");
    expect(extractMetadata(page("", `<span itemprop="author">Jo Bloggs (Email)</span>`)).byline).toBe("Jo Bloggs");
    expect(extractMetadata(page("", `<span itemprop="author">Jo Bloggs (with reporting by staff)</span>`)).byline).toBe("Jo Bloggs");
  });

  it("reads the publication date from every meta that names one: og:article:, article:published, CMS names, citation_, PRISM", () => {
    const cases: [string, string][] = [
      ['<meta property="og:article:published_time" content="2021-04-02T09:00:00Z">', "2021-04-02T09:00:00Z"],
      ['<meta property="article:published" content="2021-04-03">', "2021-04-03"],
      ['<meta name="publish_date" content="2021-04-04">', "2021-04-04"],
      ['<meta name="publication_date" content="2021-04-05">', "2021-04-05"],
      ['<meta name="citation_publication_date" content="2021/04/06">', "2021-04-06"],
      ['<meta name="prism.publicationDate" content="2021-04-07">', "2021-04-07"],
    ];
    for (const [head, published] of cases) expect(extractMetadata(page(head)).published, head).toBe(published);
    // A modified date is still never the publication date.
    expect(extractMetadata(page('<meta property="article:modified_time" content="2021-04-08">')).published).toBeNull();
  });

  it("names every author a page gives a meta of its own, each once", () => {
    const head = '<meta name="author" content="Jane Doe"><meta name="author" content="John Roe"><meta name="author" content="Jane Doe">';
    expect(extractMetadata(page(head)).byline).toBe("Jane Doe, John Roe");
    // A profile URL among them passes the key over, as one alone does.
    expect(extractMetadata(page('<meta property="article:author" content="https://site.example/jane"><meta property="article:author" content="https://site.example/john"><meta name="author" content="Jane Doe">')).byline).toBe("Jane Doe");
  });

  it("skips JSON-LD that cannot be read and uses the meta tags", () => {
    const head = `<script type="application/ld+json">{"@type": "Article", "headline": </script>
      <meta property="og:title" content="Fallback &amp; fine"><meta property="og:locale" content="fr_FR">
      <meta name="author" content="By Claire Dubois"><meta property="article:published_time" content="2022-01-15T10:00:00Z">
      <meta name="twitter:image" content="https://cdn.example/a.png"><meta property="og:site_name" content="Le Site">`;
    expect(extractMetadata(page(head))).toEqual({
      title: "Fallback & fine",
      byline: "Claire Dubois",
      published: "2022-01-15T10:00:00Z",
      excerpt: null,
      lang: "fr-FR",
      leadImage: "https://cdn.example/a.png",
      siteName: "Le Site",
      readerable: false,
    });
  });

  it("ignores JSON-LD of other types and tags inside scripts and comments", () => {
    const head = `<script type="application/ld+json">{"@type":"WebPage","name":"Not an article"}</script>
      <script>document.write('<meta property="og:title" content="from a script">')</script>
      <!-- <meta name="author" content="commented out"> --><title>Plain title</title>`;
    const metadata = extractMetadata(page(head));
    expect(metadata.title).toBe("Plain title");
    expect(metadata.byline).toBeNull();
    expect(metadata.siteName).toBeNull();
  });

  it("decodes every value exactly once: an escaped reference stays a reference in the text", () => {
    const escaped = "&amp;lt;div&amp;gt;";
    expect(extractMetadata(page(`<title>About ${escaped} tags</title>`)).title).toBe("About &lt;div&gt; tags");
    expect(extractMetadata(page(`<meta property="og:title" content="About ${escaped} tags">`)).title).toBe("About &lt;div&gt; tags");
    const body = `<span itemprop="author">Jo ${escaped}</span>`;
    expect(extractMetadata(page("", body)).byline).toBe("Jo &lt;div&gt;");
    const script = `{"@type":"Article","headline":"About ${escaped} &centerdot; tags","image":"/a.jpg?x=1&region=us"}`;
    const metadata = extractMetadata(page(`<script type="application/ld+json">${script}</script>`), "https://site.example/");
    expect(metadata.title).toBe("About &lt;div&gt; · tags");
    expect(metadata.leadImage).toBe("https://site.example/a.jpg?x=1&region=us");
  });

  it("reads attribute values by the HTML5 attribute rule: a legacy name before '=' or a letter stays as written", () => {
    const head = `<meta property="og:image" content="https://cdn.example/i.png?a=1&region=us&copy=2&amp;b=3&lang;">`;
    expect(extractMetadata(page(head)).leadImage).toBe("https://cdn.example/i.png?a=1&region=us&copy=2&b=3\u27e8");
  });

  it("repairs a JSON-LD wrapper end in linear work: { + white space + x at n and 4n (counted steps)", async () => {
    // Steps count the project's own loops; a regular expression's backtracking inside V8 is not counted, which is why
    // the wrapper end is checked with endsWith (metadata-json-ld.ts) and the result is checked here as well.
    const html = (spaces: number): string => page(`<script type="application/ld+json">{${" ".repeat(spaces)}x</script>`);
    const measured = await stepRatio(html, 20_000, (text) => extractMetadata(text));
    expect(measured.ratio).toBeLessThan(MAX_STEP_RATIO);
    expect(extractMetadata(html(80_000)).title).toBeNull();
  });

  it("gives all nulls for an empty or tag-less input", () => {
    const empty = { title: null, byline: null, published: null, excerpt: null, lang: null, leadImage: null, siteName: null, readerable: false };
    expect(extractMetadata("")).toEqual(empty);
    expect(extractMetadata("just text < and > signs")).toEqual(empty);
  });
});

describe("the sample site (samples/wrenmouth-gazette.example)", () => {
  const folder = resolve(import.meta.dirname, "../../samples/wrenmouth-gazette.example");
  const articles = readdirSync(folder).filter((name) => name.endsWith(".html") && name !== "index.html");
  const read = (name: string) => extractMetadata(readFileSync(join(folder, name), "utf8"), `http://127.0.0.1:8788/${name}`);

  it("gives each of its six articles the title without the site's name, the byline and the date of its byline line", () => {
    expect(articles).toHaveLength(6);
    for (const name of articles) {
      const html = readFileSync(join(folder, name), "utf8");
      const heading = /<h1>([^<]+)<\/h1>/.exec(html)?.[1];
      const [, author, role, day] = /class="byline">By <a [^>]+>([^<]+)<\/a>, ([^·]+) · <time datetime="([^"]+)"/.exec(html) ?? [];
      const metadata = read(name);
      expect(metadata.title, name).toBe(decodeEntities(heading ?? "", 0, (heading ?? "").length));
      expect(metadata.byline, name).toBe(`${author}, ${role.trim()}`);
      expect(metadata.published, name).toBe(day);
      expect(metadata.siteName, name).toBe("The Wrenmouth Gazette");
      expect(metadata.readerable, name).toBe(true);
    }
  });

  it("says its front page (a list of teasers) is not an article, and takes no teaser's date for it", () => {
    const metadata = read("index.html");
    expect(metadata.readerable).toBe(false);
    expect(metadata.published).toBeNull();
    expect(metadata.byline).toBeNull();
  });
});

describe("metadata from the page body", () => {
  const page = (head: string, body: string) => `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;
  const sidebar = `<aside class="sidebar"><h3>Our writers</h3><a rel="author" href="/a/kim">Kim Sidebar</a> <time datetime="2020-01-01">1 Jan</time></aside>`;

  it("takes the byline next to the title, not a sidebar's rel=author, and the <time> in the byline line with its offset", () => {
    const body = `${sidebar}<main><h1>Harbour works begin</h1><div class="meta"><span class="author">by Ana Ruiz</span> | <time datetime="2024-05-02T08:15:00+02:00">2 May</time></div><p>Text.</p></main>`;
    const metadata = extractMetadata(page("<title>Harbour works begin - Gazette</title>", body));
    expect(metadata.byline).toBe("Ana Ruiz");
    expect(metadata.published).toBe("2024-05-02T08:15:00+02:00");
  });

  it("takes no byline or date from a sidebar, a page footer or comments alone", () => {
    const body = `<h1>Notes</h1><p>Text.</p>${sidebar}<div id="comments"><span class="comment-author">Lee</span><time datetime="2021-02-02">2 Feb</time></div>` +
      `<footer><a rel="author" href="/about">Site Owner</a></footer>`;
    const metadata = extractMetadata(page("", body));
    expect(metadata.byline).toBeNull();
    expect(metadata.published).toBeNull();
  });

  it("takes the byline and date from an article's own footer and a post footer ('Posted by … on …')", () => {
    const body = `<article><h2>Spring notes</h2><p>Text.</p><footer class="entry-footer">Posted by <a rel="author" href="/jo">Jo Bloggs</a> on ` +
      `<time datetime="2019-04-03T10:00:00-05:00">April 3</time></footer></article>`;
    const metadata = extractMetadata(page("<title>Spring notes | Jo's blog</title>", body));
    expect(metadata.byline).toBe("Jo Bloggs");
    expect(metadata.published).toBe("2019-04-03T10:00:00-05:00");
  });

  it("titles a page without a <title> or title metas by its first h1, outside sidebars", () => {
    const body = `<aside class="sidebar"><h1>Most read</h1></aside><h2>Section</h2><h1>Ferry timetable changes</h1><p>Text.</p>`;
    expect(extractMetadata(page("<title> </title>", body)).title).toBe("Ferry timetable changes");
  });

  it("titles a page by its one h1 when the <title> names no heading of the page (a section's name on every page)", () => {
    const body = `<h2>Africa</h2><h1>Sarkozy defends himself against rights critics</h1><p>Text.</p>`;
    expect(extractMetadata(page("<title>News | Africa - Reuters.com</title>", body)).title).toBe("Sarkozy defends himself against rights critics");
    // A <title> that states a heading keeps it; an h1 of a name (two words), or one of several, does not replace it.
    expect(extractMetadata(page("<title>Ferry timetable changes | Gazette</title>", `<h1>Wrenmouth Gazette today</h1><h2>Ferry timetable changes</h2>`)).title).toBe("Ferry timetable changes");
    expect(extractMetadata(page("<title>Cape Argus</title>", `<h1>Cape Argus</h1><p>Text.</p>`)).title).toBe("Cape Argus");
    expect(extractMetadata(page("<title>Cape Argus</title>", `<h1>One story of the day</h1><h1>Another story of the day</h1>`)).title).toBe("Cape Argus");
    // Chinese and Japanese headlines have no spaces: six ideographs or kana say more than a name.
    expect(extractMetadata(page("<title>新闻 - 东方日报</title>", `<h1>东京今天全天下雨</h1><p>Text.</p>`)).title).toBe("东京今天全天下雨");
    expect(extractMetadata(page("<title>新闻中心</title>", `<h1>东方日报</h1><p>Text.</p>`)).title).toBe("新闻中心");
  });

  it("reads an article's own <aside> of post metadata, and a dateline only when it starts with 'By'", () => {
    const aside = `<article><h1>Poll results</h1><aside class="post-meta"><a rel="author" href="/a/jl">Joey Lehto</a></aside><p>Text.</p></article>`;
    expect(extractMetadata(page("", aside)).byline).toBe("Joey Lehto");
    const dateline = (text: string) => extractMetadata(page("", `<h1>Playoffs</h1><p><b class="Dateline">${text}</b> The game…</p>`)).byline;
    expect(dateline("By Scott Garbarini, Associate NFL Editor --")).toBe("Scott Garbarini, Associate NFL Editor");
    expect(dateline("OKLAHOMA CITY --")).toBeNull();
  });

  it("reads an author link that shows only a picture by its title", () => {
    const body = `<h1>Home revival</h1><a class="author_thumbnail" href="/author/lavinia/" title="View all posts by Lavinia"><img src="/l.jpg" alt=""></a>`;
    expect(extractMetadata(page("", body)).byline).toBe("Lavinia");
  });

  it("cuts a date, a site or a time ago written into the byline line, and takes none that is only a date", () => {
    const byline = (text: string) => extractMetadata(page("", `<h1>Budget vote</h1><p class="byline">${text}</p>`)).byline;
    expect(byline("By Alyson Klein on August 8, 2012 6:23 PM")).toBe("Alyson Klein");
    expect(byline("Monday, November 12, 2012, by Matthew Kang")).toBe("Matthew Kang");
    expect(byline("Richard Mitchell on Nov 1st 2012 8:30PM")).toBe("Richard Mitchell");
    expect(byline("Shane Farrington | Goal.com – 1 hour 19 minutes ago")).toBe("Shane Farrington");
    expect(byline("Posted: 5 days ago")).toBeNull();
    expect(byline("Published: January 09, 2008")).toBeNull();
  });

  it("takes the first paragraph as the excerpt when the page gives no description, and counts it readerable by its paragraphs", () => {
    const paragraph = "The council voted on Tuesday to widen the harbour wall, after three winters of flooding on the quay. ".repeat(3);
    const body = `<nav><p>${"Menu item ".repeat(20)}</p></nav><h1>Harbour wall</h1><p class="byline">By Jo</p><p>${paragraph}</p>` + `<p>${paragraph}</p>`.repeat(6);
    const metadata = extractMetadata(page("", body));
    expect(metadata.excerpt).toBe(paragraph.trim());
    expect(metadata.readerable).toBe(true);
    const described = extractMetadata(page(`<meta name="description" content="The wall gets wider.">`, body));
    expect(described.excerpt).toBe("The wall gets wider.");
  });
});

describe("metadata from the head", () => {
  const page = (head: string, body = "<p>text</p>") => `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;

  it("takes a plain Article's name over its headline when the <title> holds the name (Wikipedia writes a description in headline)", () => {
    const script = JSON.stringify({ "@type": "Article", name: "Penzance", headline: "town in Cornwall, England", author: { name: "Contributors to Wikimedia projects" } });
    const metadata = extractMetadata(page(`<title>Penzance - Wikipedia</title><script type="application/ld+json">${script}</script>`), "https://en.wikipedia.org/wiki/Penzance");
    expect(metadata.title).toBe("Penzance");
    expect(metadata.siteName).toBe("Wikipedia");
    const news = JSON.stringify({ "@type": "NewsArticle", name: "penzance-ferry", headline: "Ferry returns to Penzance" });
    expect(extractMetadata(page(`<script type="application/ld+json">${news}</script>`)).title).toBe("Ferry returns to Penzance");
  });

  it("reads parsely-page, sailthru.* and space-separated property lists", () => {
    const parsely = `<meta name="parsely-page" content='{"title": "Quay &amp; harbour", "author": "Sam Lee", "pub_date": "2013-02-01T09:00:00Z", "image_url": "/p.jpg"}'>`;
    const fromParsely = extractMetadata(page(parsely), "https://news.example/a");
    expect(fromParsely).toMatchObject({ title: "Quay & harbour", byline: "Sam Lee", published: "2013-02-01T09:00:00Z", leadImage: "https://news.example/p.jpg" });
    const sailthru = `<meta name="sailthru.title" content="Tide tables"><meta name="sailthru.author" content="Pat Kim"><meta name="sailthru.date" content="Tue, 24 Jul 2012 14:41:54 -0400"><meta name="sailthru.description" content="When the tide turns.">`;
    expect(extractMetadata(page(sailthru))).toMatchObject({ title: "Tide tables", byline: "Pat Kim", published: "2012-07-24T14:41:54-04:00", excerpt: "When the tide turns." });
    const listed = `<meta property="og:title twitter:title" content="Two names, one tag"><meta property="og:description twitter:description" content="Both.">`;
    expect(extractMetadata(page(listed))).toMatchObject({ title: "Two names, one tag", excerpt: "Both." });
  });

  it("keeps the offset a date was written with and a day as a day", () => {
    const date = (value: string) => extractMetadata(page(`<meta property="article:published_time" content="${value}">`)).published;
    expect(date("2024-03-05T09:30:00+01:00")).toBe("2024-03-05T09:30:00+01:00");
    expect(date("2024-03-05 09:30 +0530")).toBe("2024-03-05T09:30:00+05:30");
    expect(date("2024-03-05T09:30:00")).toBe("2024-03-05T09:30:00");
    expect(date("2024-03-05")).toBe("2024-03-05");
    expect(date("March 5, 2024")).toBe("2024-03-05");
    expect(date("5 March 2024 9:30 pm GMT")).toBe("2024-03-05T21:30:00Z");
    expect(date("yesterday")).toBeNull();
  });

  it("cuts the site's name from the title only when it names the site (og:site_name or the host)", () => {
    const title = (text: string, head = "", url = "https://www.harbour-news.example/x") => extractMetadata(page(`<title>${text}</title>${head}`), url).title;
    expect(title("Tides rise | Harbour News")).toBe("Tides rise");
    expect(title("Harbour News - Tides rise")).toBe("Tides rise");
    expect(title("Tides rise :: The Quay", `<meta property="og:site_name" content="The Quay">`)).toBe("Tides rise");
    expect(title("Cats - and dogs | Pets")).toBe("Cats - and dogs | Pets");
  });
});

describe("meta keys", () => {
  it("lets a name= or property= meta replace an itemprop one of the same key, and keeps the first of each otherwise", () => {
    const head = `<meta itemprop="description" content="The blog"><meta name="description" content="The post">` +
      `<meta name="description" content="A later one"><meta itemprop="description" content="Microdata again">`;
    expect(extractMetadata(`<html><head>${head}</head><body><p>x</p></body></html>`).excerpt).toBe("The post");
  });
});

describe("metadata stays linear on nested candidates (counted steps at n and 4n)", () => {
  const families: readonly [string, (n: number) => string, number][] = [
    ["unclosed sidebars", (n) => `<div class="sidebar">`.repeat(n), 20_000],
    ["unclosed articles", (n) => `<article>`.repeat(n), 20_000],
    ["unclosed bylines without text", (n) => `<span class="author">`.repeat(n), 20_000],
    ["nested bylines with text", (n) => `<p class="byline">By Jo `.repeat(n), 5_000],
  ];
  it.each(families)("%s", async (_name, family, n) => {
    const measured = await stepRatio(family, n, (html) => extractMetadata(`<html><body><h1>Title</h1>${html}</body></html>`));
    expect(measured.ratio).toBeGreaterThan(MIN_STEP_RATIO);
    expect(measured.ratio).toBeLessThan(MAX_STEP_RATIO);
  });
});
