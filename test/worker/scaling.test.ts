/**
 * Linear time on hostile input, in workerd: the pathological families at n and 4n through the Worker's own
 * routes (clean) and functions (feed items, rules), asserting a near-linear time ratio. Local workerd advances
 * performance.now() within a request, which deployed workerd does not (its clock moves only across I/O).
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { articleFragment, hasVisibleText } from "../../src/http/feed/items";
import { matchRules } from "../../src/rules/index";
import app from "../../src/worker";
import { FAMILIES, manyRules, MAX_RATIO, ruleText, scalingRatio } from "../support/scaling";

async function cleanThroughWorker(html: string, format: string): Promise<void> {
  const response = await app.request(`https://cleaner.test/v1/clean?format=${format}`, {
    method: "POST",
    headers: { "x-api-key": "test-key", "content-type": "text/html; charset=utf-8" },
    body: html,
  }, env);
  await response.text();
  if (response.status !== 200 || response.headers.has("x-clean-bailout")) {
    throw new Error(`status ${response.status}, bailout ${response.headers.get("x-clean-bailout")}`);
  }
}

describe("scaling in workerd: n and 4n stay near linear", () => {
  it.each(["markdown", "json"])("unclosed <ul><li> before a page, %s", async (format) => {
    const measured = await scalingRatio(FAMILIES.unclosedLists, 1500, (html) => cleanThroughWorker(html, format));
    console.log(`unclosed lists ${format}`, measured);
    expect(measured.ratio).toBeLessThan(MAX_RATIO);
  });

  it("<body repeated, text", async () => {
    // 500 KB and 2 MB: long enough runs that workerd's millisecond clock steps do not decide the ratio.
    const measured = await scalingRatio(FAMILIES.repeatedBody, 100_000, (html) => cleanThroughWorker(html, "text"));
    console.log("repeated <body", measured);
    expect(measured.ratio).toBeLessThan(MAX_RATIO);
  });

  it.each([
    ["'<' x n", FAMILIES.feedItemLessThan, 50_000],
    ["'<!--' x n", FAMILIES.feedItemComments, 12_500],
  ] as const)("a feed item holding %s: fragment and text check", async (name, family, n) => {
    const measured = await scalingRatio(family, n, (html) => {
      articleFragment(`<html><body>${html}</body></html>`);
      return hasVisibleText(html);
    });
    console.log(`feed item ${name}`, measured);
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
