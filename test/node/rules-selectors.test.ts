/**
 * RuleSet version 2: strip, main (ordered fallbacks), keep and metadata selectors beside the text rules; validated
 * with the selector parser, v1 sets unchanged; and what clean() does with them in every format.
 */
import { HTMLRewriter } from "html-rewriter-wasm";
import { describe, expect, it } from "vitest";
import { clean, type CleanFormat } from "../../src/clean";
import { compileRuleSet, parseRuleSet, RULESET_VERSION_SELECTORS, type RuleSet } from "../../src/rules/index";
import { createWasmBackend } from "../../src/runtime/index";
import { parseSelector, type SelectorList } from "../../src/selectors/index";

const backend = createWasmBackend(HTMLRewriter);

function ruleSet(overrides: Partial<RuleSet> = {}): RuleSet {
  return {
    version: RULESET_VERSION_SELECTORS, site: "news.example", minedAt: "2026-11-21T12:00:00.000Z", pages: 4, cutoff: 0.5,
    mutablePatterns: [], rules: [], source: "hand", ...overrides,
  };
}

function list(text: string): SelectorList {
  const parsed = parseSelector(text);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.list;
}

const PAGE = `<!doctype html><html><head><title>A story | News</title></head><body>
<nav class="site-nav"><a href="/">Home</a> <a href="/world">World</a></nav>
<div id="story"><h1>A story about rivers</h1>
<p class="byline">By <span class="author">Ann Lee</span> · <time datetime="2026-03-14">14 March 2026</time></p>
<p>The river rose overnight and the town woke to water in the streets.</p>
<div class="share">Share this story</div>
<p>Volunteers filled sandbags until the morning.</p></div>
<aside class="most-read"><h2>Most read</h2><ul><li>Other story one</li><li>Other story two</li></ul></aside>
<footer>Copyright News</footer></body></html>`;

async function cleaned(set: RuleSet | null, format: CleanFormat = "text", request?: { target?: string; remove?: string }): Promise<string> {
  const result = await clean({
    html: PAGE, url: "https://news.example/a", site: "news.example", format, ruleSet: set === null ? null : compileRuleSet(set), model: null,
    rewriter: backend, options: { mode: "auto", textScope: "all" },
    selectors: request === undefined ? undefined : { target: request.target === undefined ? null : list(request.target), remove: request.remove === undefined ? null : list(request.remove) },
  });
  if (!result.ok) throw new Error(result.detail);
  return result.body;
}

describe("RuleSet version 2", () => {
  it("loads strip, main, keep and metadata selectors beside text rules", () => {
    const value = ruleSet({ strip: ["aside.most-read", ".share, footer"], main: ["#story", "article"], keep: [".byline"], metadata: { byline: [".author"], date: ["time[datetime]"] } });
    expect(parseRuleSet(value)).toEqual({ ok: true, ruleSet: value });
    const compiled = compileRuleSet(value);
    expect(compiled.selectors?.strip?.source).toBe("aside.most-read, .share, footer");
    expect(compiled.selectors?.main.map((entry) => entry.source)).toEqual(["#story", "article"]);
  });

  it("still loads version 1 sets, and refuses selectors in them", () => {
    expect(parseRuleSet(ruleSet({ version: 1 })).ok).toBe(true);
    expect(compileRuleSet(ruleSet({ version: 1 })).selectors).toBeNull();
    expect(parseRuleSet(ruleSet({ version: 1, strip: ["nav"] }))).toEqual({ ok: false, problems: ["version: selectors (strip, main, keep, metadata) need version 2"] });
  });

  it("reports each selector that is not in the subset, with its path and why", () => {
    const parsed = parseRuleSet(ruleSet({ strip: ["nav", "li:nth-child(2)"], metadata: { date: ["time + span"] } }));
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.problems).toHaveLength(2);
      expect(parsed.problems[0]).toMatch(/^strip\.1: pseudo-classes/);
      expect(parsed.problems[1]).toMatch(/^metadata\.date\.0: sibling combinators/);
    }
  });

  it("bounds the main fallbacks and the metadata entries (each is matched as a list of its own)", () => {
    expect(parseRuleSet(ruleSet({ main: Array(9).fill("article") }))).toEqual({ ok: false, problems: ["main: 9 entries, over the limit of 8"] });
    expect(parseRuleSet(ruleSet({ metadata: { date: Array(5).fill("time") } }))).toEqual({ ok: false, problems: ["metadata.date: 5 entries, over the limit of 4"] });
    expect(parseRuleSet(ruleSet({ main: Array(8).fill("article"), metadata: { title: Array(4).fill("h1"), byline: Array(4).fill("p"), date: Array(4).fill("time") } })).ok).toBe(true);
  });

  it("refuses an empty selector and a value of the wrong shape", () => {
    expect(parseRuleSet(ruleSet({ main: [""] })).ok).toBe(false);
    expect(parseRuleSet({ ...ruleSet(), keep: "nav" }).ok).toBe(false);
  });
});

describe("clean() with site selectors", () => {
  it("strip removes the matched containers, in every format", async () => {
    const set = ruleSet({ strip: ["nav", "aside.most-read", ".share", "footer"] });
    for (const format of ["text", "markdown", "html", "article", "json"] as const) {
      const body = await cleaned(set, format);
      expect(body, format).toContain("Volunteers filled sandbags");
      for (const gone of ["Most read", "Share this story", "Copyright News", "World"]) expect(body, `${format}: ${gone}`).not.toContain(gone);
    }
  });

  it("main keeps only the first entry that matches; none matching leaves the page to the other rules", async () => {
    const text = await cleaned(ruleSet({ main: ["article.none", "#story", "body"] }));
    expect(text).toContain("A story about rivers");
    expect(text).toContain("Share this story");
    expect(text).not.toContain("Most read");
    expect(text).not.toContain("Home");
    const unmatched = await cleaned(ruleSet({ main: ["article.none"], strip: ["footer"] }));
    expect(unmatched).toContain("Most read");
    expect(unmatched).not.toContain("Copyright");
    // A metadata selector that matches is no main entry.
    const withMetadata = await cleaned(ruleSet({ main: ["article.none"], metadata: { byline: [".author"] } }));
    expect(withMetadata).toContain("Most read");
  });

  it("main passes over an entry whose match holds no text (an empty wrapper of another kind of page)", async () => {
    const html = `<html><body><div class="wrap"><span class="icon"></span></div><nav><a href="/">Home</a></nav>
<article><p>The river rose overnight.</p></article></body></html>`;
    const result = await clean({
      html, site: "news.example", format: "text", ruleSet: compileRuleSet(ruleSet({ main: ["div.wrap", "article"] })), model: null, rewriter: backend,
      options: { mode: "rules" },
    });
    if (!result.ok) throw new Error(result.detail);
    expect(result.body.trim()).toBe("The river rose overnight.");
    expect(result.selectors?.main).toBe(1);
  });

  it("keep is never removed: not by strip, not by main", async () => {
    const stripped = await cleaned(ruleSet({ strip: ["#story"], keep: [".author", "h1"] }));
    expect(stripped).toContain("Ann Lee");
    expect(stripped).toContain("A story about rivers");
    expect(stripped).not.toContain("The river rose");
    const mained = await cleaned(ruleSet({ main: ["aside"], keep: ["h1"] }));
    expect(mained).toBe("A story about rivers\n\nMost read\n\nOther story one\n\nOther story two");
  });

  it("metadata selectors give the reader's title, byline and date (the date from datetime first), in json and the article header", async () => {
    const set = ruleSet({ metadata: { title: [".none", "#story h1"], byline: [".author"], date: ["time"] } });
    const json = JSON.parse(await cleaned(set, "json")) as { title: string; byline: string; published: string };
    expect([json.title, json.byline, json.published]).toEqual(["A story about rivers", "Ann Lee", "2026-03-14"]);
    const result = await clean({
      html: PAGE, url: "https://news.example/a", site: "news.example", format: "article", ruleSet: compileRuleSet(set), model: null, rewriter: backend,
      options: { articleTitle: "header" },
    });
    expect(result.ok && result.body).toMatch(/^<header><h1>A story about rivers<\/h1>.*Ann Lee/);
    // Without metadata selectors the page's own metadata stands: here its one h1, which the <title> ("A story | News")
    // does not name; with a second h1 on the page, the <title> less its site suffix.
    const without = JSON.parse(await cleaned(ruleSet({ strip: ["footer"] }), "json")) as { title: string };
    expect(without.title).toBe("A story about rivers");
    const twoHeadings = await clean({
      html: PAGE.replace('<nav class="site-nav">', '<h1>News of the day</h1><nav class="site-nav">'), url: "https://news.example/a", site: "news.example", format: "json",
      ruleSet: compileRuleSet(ruleSet({ strip: ["footer"] })), model: null, rewriter: backend,
    });
    expect(twoHeadings.ok && (JSON.parse(twoHeadings.body) as { title: string }).title).toBe("A story");
  });

  it("the request's target keeps only what it matches and remove takes out more, after the site's selectors", async () => {
    const text = await cleaned(ruleSet({ strip: ["footer"] }), "text", { target: "#story", remove: ".share, .byline" });
    expect(text).toBe("A story about rivers\n\nThe river rose overnight and the town woke to water in the streets.\n\nVolunteers filled sandbags until the morning.");
  });

  it("a target that matches nothing leaves the page as the mode cleans it", async () => {
    expect(await cleaned(null, "text", { target: ".absent" })).toBe(await cleaned(null, "text"));
  });

  it("an element that is not a block goes whole, markup and all, in every format; html joins its neighbours' text as pass 1 read it", async () => {
    const html = '<body><p>By <span class="author">Ann</span> <span class="ad"><img src="/ad.png">Advert</span> north<a class="x" href="/x">X</a>. <img class="icon" src="/i.png"> and [<em class="note">a note </em>]</p><p>Kept <img src="/kept.png"></p></body>';
    const request = { target: null, remove: list(".ad, img.icon, a.x, em.note") };
    for (const format of ["html", "markdown", "article", "text", "json"] as const) {
      const result = await clean({ html, url: "https://news.example/a", site: "", format, ruleSet: null, model: null, rewriter: backend, selectors: request });
      if (!result.ok) throw new Error(result.detail);
      for (const gone of ["ad.png", "i.png", "Advert", "/x", "a note"]) expect(result.body, `${format}: ${gone}`).not.toContain(gone);
      if (format !== "text") expect(result.body, format).toContain("kept.png");
      if (format === "text") expect(result.body.split(/\s+/)).toEqual(["By", "Ann", "north", ".", "and", "[", "]", "Kept"]);
      if (format === "html") expect(result.body).toContain("north. ");
    }
  });

  it("a remove selector that matches an inline element takes its text out of the sentence's block only", async () => {
    const text = await cleaned(null, "text", { remove: "time, .author" });
    expect(text).toContain("By ·");
    expect(text).not.toContain("14 March");
  });
});
