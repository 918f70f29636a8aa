/**
 * Linear time on hostile input: each pathological family at n and 4n through the same code the Worker runs,
 * asserting the time ratio stays near linear (a ratio bound, never an absolute time). Before the fixes these
 * families were quadratic: unclosed lists in the Markdown writer, "<body" x N in the block features, and the
 * feed item fragment and text check. The caps and the time budget are checked as bailouts with their reasons.
 */
import { HTMLRewriter } from "html-rewriter-wasm";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseModel } from "../../src/classify/index";
import { clean, type CleanFormat, type CleanInput } from "../../src/clean";
import { articleFragment, hasVisibleText } from "../../src/http/feed/items";
import { matchRules } from "../../src/rules/index";
import { createWasmBackend } from "../../src/runtime/index";
import { articlePage, FAMILIES, manyRules, MAX_RATIO, rulesOf, ruleText, scalingRatio } from "../support/scaling";

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

describe("scaling: n and 4n stay near linear (Node, html-rewriter-wasm)", () => {
  it.each(["markdown", "json"] as const)("unclosed <ul><li> before a page, %s", async (format) => {
    const measured = await scalingRatio(FAMILIES.unclosedLists, 2500, (html) => cleanOk(html, format));
    console.log(`unclosed lists ${format}`, measured);
    expect(measured.ratio).toBeLessThan(MAX_RATIO);
  });

  it("<body repeated, text", async () => {
    const measured = await scalingRatio(FAMILIES.repeatedBody, 20_000, (html) => cleanOk(html, "text"));
    console.log("repeated <body", measured);
    expect(measured.ratio).toBeLessThan(MAX_RATIO);
  });

  it.each([
    ["'<' x n", FAMILIES.feedItemLessThan, 50_000],
    ["'<!--' x n", FAMILIES.feedItemComments, 12_500],
  ] as const)("a feed item holding %s: fragment and text check", async (_name, family, n) => {
    const measured = await scalingRatio(family, n, (html) => {
      articleFragment(`<html><body>${html}</body></html>`);
      return hasVisibleText(html);
    });
    console.log(`feed item ${_name}`, measured);
    expect(measured.ratio).toBeLessThan(MAX_RATIO);
  });

  it("300 accepted rules over page text of n and 4n characters", async () => {
    const rules = manyRules(300);
    const measured = await scalingRatio(ruleText, 25_000, (text) => {
      const matching = matchRules(rules, text);
      if (matching.overflow !== null) throw new Error(matching.overflow);
    });
    console.log("300 rules", measured);
    expect(measured.ratio).toBeLessThan(MAX_RATIO);
  });
});

describe("per-page caps and the time budget are bailouts with their reason", () => {
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
