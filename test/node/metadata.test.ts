import { describe, expect, it } from "vitest";
import { hasData, loadDataset, type DatasetPage } from "../../src/evaluation/index";
import { extractMetadata } from "../../src/page/index";

const dataPresent = hasData();
if (!dataPresent) console.warn("metadata tests on real pages skipped: ../shared/data is absent");

describe.skipIf(!dataPresent)("metadata of real dragnet pages", () => {
  const pages = dataPresent ? loadDataset("dragnet").pages : [];
  const page = (id: string): DatasetPage => {
    const found = pages.find((candidate) => candidate.id === id);
    if (found === undefined) throw new Error(`dragnet page ${id} is missing`);
    return found;
  };

  it("reads og: tags, name=author and name=Date (abcnews.go.com)", () => {
    const { html, url } = page("110");
    expect(extractMetadata(html, url)).toEqual({
      title: "Fred Willard on 'Lewd Conduct' Charge",
      byline: "ABC News",
      published: "2012-07-24",
      lang: "en-us",
      leadImage: "http://a.abcnews.go.com/images/Entertainment/ap_fred_willard_jef_120719_main.jpg",
      siteName: null,
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
    expect(metadata.published).toBe("2012-07-24T14:41:54.000Z");
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

  it("reads publication dates marked in the body: microdata on abbr (blogspot) and hAtom's abbr.published", () => {
    expect(extractMetadata(page("R103").html, page("R103").url).published).toBe("2012-10-22T16:22:00.000Z");
    expect(extractMetadata(page("119").html, page("119").url).published).toBe("2012-06-25");
  });

  it("falls back to <title> on a page with no meta tags (47hats.com)", () => {
    const { html, url } = page("R876");
    const metadata = extractMetadata(html, url);
    expect(metadata.title).toBe("Keeper emails from 21times.org | 47 Hats");
    expect(metadata.lang).toBe("en-US");
    expect(metadata.byline).toBeNull();
  });

  it("finds a title on nearly every page and never throws", () => {
    let titles = 0;
    for (const candidate of pages) if (extractMetadata(candidate.html, candidate.url).title !== null) titles++;
    // Every dragnet page but R237 (whose <title> is empty and which has no og:title) has a title.
    expect(titles).toBe(802);
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
      published: "2024-03-05T08:30:00.000Z",
      lang: "en-GB",
      leadImage: "https://gazette.example/images/bridge.jpg",
      siteName: "The Valley Gazette",
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

  it("skips JSON-LD that cannot be read and uses the meta tags", () => {
    const head = `<script type="application/ld+json">{"@type": "Article", "headline": </script>
      <meta property="og:title" content="Fallback &amp; fine"><meta property="og:locale" content="fr_FR">
      <meta name="author" content="By Claire Dubois"><meta property="article:published_time" content="2022-01-15T10:00:00Z">
      <meta name="twitter:image" content="https://cdn.example/a.png"><meta property="og:site_name" content="Le Site">`;
    expect(extractMetadata(page(head))).toEqual({
      title: "Fallback & fine",
      byline: "Claire Dubois",
      published: "2022-01-15T10:00:00.000Z",
      lang: "fr-FR",
      leadImage: "https://cdn.example/a.png",
      siteName: "Le Site",
    });
  });

  it("ignores JSON-LD of other types and tags inside scripts and comments", () => {
    const head = `<script type="application/ld+json">{"@type":"WebSite","name":"Not an article"}</script>
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

  it("repairs a JSON-LD wrapper end in linear time: { + white space + x at n and 4n", () => {
    // The fastest of several runs, so that a pause in one run does not decide; 1 ms at least, below which timers are noise.
    const timeOf = (spaces: number): number => {
      const html = page(`<script type="application/ld+json">{${" ".repeat(spaces)}x</script>`);
      let best = Infinity;
      for (let round = 0; round < 7; round++) {
        const start = performance.now();
        extractMetadata(html);
        best = Math.min(best, performance.now() - start);
      }
      return Math.max(best, 1);
    };
    timeOf(20_000); // warm-up
    expect(timeOf(80_000) / timeOf(20_000)).toBeLessThan(8);
  });

  it("gives all nulls for an empty or tag-less input", () => {
    const empty = { title: null, byline: null, published: null, lang: null, leadImage: null, siteName: null };
    expect(extractMetadata("")).toEqual(empty);
    expect(extractMetadata("just text < and > signs")).toEqual(empty);
  });
});
