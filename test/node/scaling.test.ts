/**
 * Linear work on hostile input: each pathological family at n and 4n through the same code the Worker runs,
 * asserting that the steps counted (work-count.ts), never the time, grow near linearly. Before the fixes these
 * families were quadratic: unclosed lists in the Markdown writer, "<body" x N in the block features, and the
 * feed item fragment and text check. The caps and the time budget are checked as bailouts with their reasons.
 */
// First: steps are counted in the functions compiled after it loads.
import { MAX_STEP_RATIO, MIN_STEP_RATIO, stepRatio } from "../support/work-count";
import { HTMLRewriter } from "html-rewriter-wasm";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseModel } from "../../src/classify/index";
import { clean, type CleanFormat, type CleanInput } from "../../src/clean";
import { hasVisibleText } from "../../src/http/feed/items";
import { matchRules } from "../../src/rules/index";
import { createWasmBackend } from "../../src/runtime/index";
import { articlePage, FAMILIES, manyRules, rulesOf, ruleText } from "../support/scaling";

const parsedModel = parseModel(JSON.parse(readFileSync(join(import.meta.dirname, "../../rules/model.json"), "utf8")));
if (!parsedModel.ok) throw new Error(parsedModel.problems.join("; "));
const model = parsedModel.model;
const rewriter = createWasmBackend(HTMLRewriter);

function cleanInput(html: string, format: CleanFormat, extra: Partial<CleanInput> = {}): CleanInput {
  return { html, site: "", format, ruleSet: null, model, rewriter, ...extra };
}

async function cleanOk(html: string, format: CleanFormat): Promise<void> {
  const result = await clean(cleanInput(html, format));
  if (!result.ok) throw new Error(`bailout ${result.bailout}: ${result.detail}`);
}

describe("scaling: n and 4n, counted steps stay near linear (Node, html-rewriter-wasm)", () => {
  it.each(["markdown", "json"] as const)("unclosed <ul><li> before a page, %s", async (format) => {
    const measured = await stepRatio(FAMILIES.unclosedLists, 2500, (html) => cleanOk(html, format));
    console.log(`unclosed lists ${format}`, measured);
    expect(measured.ratio).toBeGreaterThan(MIN_STEP_RATIO);
    expect(measured.ratio).toBeLessThan(MAX_STEP_RATIO);
  });

  it("<body repeated, text", async () => {
    const measured = await stepRatio(FAMILIES.repeatedBody, 20_000, (html) => cleanOk(html, "text"));
    console.log("repeated <body", measured);
    expect(measured.ratio).toBeGreaterThan(MIN_STEP_RATIO);
    expect(measured.ratio).toBeLessThan(MAX_STEP_RATIO);
  });

  it.each([
    ["'<' x n", FAMILIES.feedItemLessThan, 50_000],
    ["'<!--' x n", FAMILIES.feedItemComments, 12_500],
  ] as const)("a feed item holding %s: its article fragment and text check", async (_name, family, n) => {
    const measured = await stepRatio(family, n, async (html) => {
      await clean(cleanInput(html, "article", { options: { mode: "none" } }));
      return hasVisibleText(html);
    });
    console.log(`feed item ${_name}`, measured);
    expect(measured.ratio).toBeGreaterThan(MIN_STEP_RATIO);
    expect(measured.ratio).toBeLessThan(MAX_STEP_RATIO);
  });

  it("300 accepted rules over page text of n and 4n characters", async () => {
    const rules = manyRules(300);
    const measured = await stepRatio(ruleText, 25_000, (text) => {
      const matching = matchRules(rules, text);
      if (matching.overflow !== null) throw new Error(matching.overflow);
    });
    console.log("300 rules", measured);
    expect(measured.ratio).toBeGreaterThan(MIN_STEP_RATIO);
    expect(measured.ratio).toBeLessThan(MAX_STEP_RATIO);
  });
});

/** Counted work (units of work-meter.ts) of one clean() of `html` as `format`; it must not bail out. */
async function workOf(html: string, format: CleanFormat, url?: string): Promise<number> {
  const result = await clean(cleanInput(html, format, url === undefined ? {} : { url }));
  if (!result.ok) throw new Error(`bailout ${result.bailout}: ${result.detail}`);
  return result.work;
}

describe("counted work: every format near linear on the hostile families (units, not time)", () => {
  it.each(["text", "markdown", "article", "json", "html"] as const)("a page of n links and 4n, %s", async (format) => {
    const small = await workOf(FAMILIES.links(5_000), format);
    const large = await workOf(FAMILIES.links(20_000), format);
    console.log(`links ${format}: ${small} -> ${large} units`);
    expect(large / small).toBeLessThan(MAX_STEP_RATIO);
    expect(large / small).toBeGreaterThan(MIN_STEP_RATIO); // the writers' walks are counted, not only the stages before them
  });

  it.each(["markdown", "json"] as const)("unclosed lists, %s", async (format) => {
    const small = await workOf(FAMILIES.unclosedLists(2_500), format);
    const large = await workOf(FAMILIES.unclosedLists(10_000), format);
    expect(large / small).toBeGreaterThan(MIN_STEP_RATIO);
    expect(large / small).toBeLessThan(MAX_STEP_RATIO);
  });
});

describe("the writers resolve plain links without the URL parser (counted parser calls)", () => {
  const global = globalThis as unknown as { URL: typeof URL };
  const RealUrl = global.URL;
  afterEach(() => {
    global.URL = RealUrl;
  });

  /** Runs `run` with the URL constructor counting its calls; returns the count. */
  async function urlParses(run: () => Promise<unknown>): Promise<number> {
    let calls = 0;
    global.URL = class extends RealUrl {
      constructor(url: string | URL, base?: string | URL) {
        calls++;
        super(url, base);
      }
    } as typeof URL;
    await run();
    global.URL = RealUrl;
    return calls;
  }

  it.each(["article", "markdown", "json"] as const)("%s: 2,000 relative links cost a constant number of parses, with and without the page's URL", async (format) => {
    const page = FAMILIES.links(2_000);
    const withoutBase = await urlParses(() => workOf(page, format));
    const withBase = await urlParses(() => workOf(page, format, "https://news.example/section/story.html"));
    // Before: one parse per link and writer (each relative link without a base threw inside the parser).
    expect(withoutBase).toBeLessThan(20);
    expect(withBase).toBeLessThan(20);
  });

  it("links the parser would change still go through it, with the same result", async () => {
    const html = `<html><body><p><a href="a/../b c">one</a> <a href="/x">two</a> <a href="y?q=1#f">three</a> <a href="//other.example/z">four</a></p></body></html>`;
    const result = await clean(cleanInput(html, "article", { url: "https://news.example/section/story.html", options: { mode: "none" } }));
    expect(result.ok && result.body).toBe(
      '<p><a href="https://news.example/section/b%20c">one</a> <a href="https://news.example/x">two</a> ' +
        '<a href="https://news.example/section/y?q=1#f">three</a> <a href="https://other.example/z">four</a></p>',
    );
  });
});

describe("per-page caps and the time budget are bailouts with their reason", () => {
  it.each(["text", "markdown", "article", "json"] as const)("a page past its work budget in the %s writer stops there with time-budget", async (format) => {
    const page = FAMILIES.links(2_000);
    const total = await workOf(page, format);
    const result = await clean(cleanInput(page, format, { options: { workBudget: total - 50 } }));
    expect(result).toMatchObject({ ok: false, bailout: "time-budget" });
    expect(!result.ok && result.detail).toBe(`over ${total - 50} units of work at format`);
  });

  it("rule work past the cap stops matching with rule-work, and clean() passes the page through", async () => {
    const rules = manyRules(300);
    const text = ruleText(20_000);
    expect(matchRules(rules, text, { maxScanCharacters: text.length * 10 }).overflow).toBe("rule-work");
    expect(matchRules(rules, text).overflow).toBeNull();
    const page = `<html><body><p>${text}</p></body></html>`;
    const result = await clean(cleanInput(page, "text", { site: "scaling.test", ruleSet: rules, options: { mode: "rules" } }));
    expect(result.ok).toBe(true);
  });

  it("too many rule matches is a bailout with its reason, not a silently uncleaned page", async () => {
    const everyWord = rulesOf(["q\\s+w"]); // matches between every two words of ruleText
    const text = ruleText(5_000);
    const capped = matchRules(everyWord, text, { maxMatches: 100 });
    expect(capped).toMatchObject({ overflow: "too-many-rule-matches", intervals: new Int32Array(0) });
    expect(matchRules(everyWord, text).overflow).toBeNull();
    const page = `<html><body><p>${ruleText(2_000_000)}</p></body></html>`; // more than RULES_MAX_MATCHES_PER_PAGE word pairs
    const result = await clean(cleanInput(page, "text", { site: "scaling.test", ruleSet: everyWord, options: { mode: "rules" } }));
    expect(result).toMatchObject({ ok: false, bailout: "too-many-rule-matches" });
  });

  it("a spent time budget passes the page through with time-budget", async () => {
    const result = await clean(cleanInput(articlePage(200), "markdown", { options: { timeBudgetMs: 0 } }));
    expect(result).toMatchObject({ ok: false, bailout: "time-budget" });
    expect((await clean(cleanInput(articlePage(200), "markdown"))).ok).toBe(true);
  });
});
