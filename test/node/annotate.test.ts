// The annotated pass on real pages: it only adds marks, marks exactly the top-most removed blocks and the
// kept blocks that lose text, and leaves the page's structure and text as they were.
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { DATA_ROOT } from "../../src/evaluation/index";
import { analysePage, decodeHtml, type PageModel } from "../../src/page/index";
import { emptyPlan, normalisePlan, planFromIntervals, type NormalisedPlan } from "../../src/plan/index";
import { compileRuleSet, findRuleIntervals, parseRuleSet } from "../../src/rules/index";
import { ANNOTATE_PARTIAL_ATTRIBUTE, ANNOTATE_REMOVED_ATTRIBUTE, annotateHtml } from "../../src/rewrite/index";

const PAGES = ["dragnet/pages/113.html", "dragnet/pages/R822.html", "cleanportaleval/pages/bbc.co.uk_news_01.html"];
const present = existsSync(resolve(DATA_ROOT, "dragnet/index.jsonl"));
if (!present) console.warn(`annotate tests on ${DATA_ROOT} skipped: the data folder is absent`);

function load(path: string): PageModel {
  const decoded = decodeHtml(readFileSync(resolve(DATA_ROOT, path)));
  if (!decoded.ok) throw new Error(`${path}: ${decoded.reason}`);
  return analysePage(decoded.html);
}

/** A plan from rules that are lines of the page's own text: every 5th text line whole, and part of every 7th. */
function planOf(page: PageModel): NormalisedPlan {
  const lines = page.text.split("\n").filter((line) => line.trim().length > 12);
  const patterns = [
    ...lines.filter((_, index) => index % 5 === 0),
    ...lines.filter((_, index) => index % 7 === 3).map((line) => line.slice(0, Math.floor(line.length / 2))),
  ].map((text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const parsed = parseRuleSet({
    version: 1,
    site: "example.com",
    minedAt: "2026-01-01T00:00:00Z",
    pages: 1,
    cutoff: 0.5,
    mutablePatterns: [],
    rules: patterns.map((pattern) => ({ pattern, docFreq: 1, count: 1, tokens: 2 })),
  });
  if (!parsed.ok) throw new Error(parsed.problems.join("; "));
  const compiled = compileRuleSet(parsed.ruleSet);
  return planFromIntervals(page, findRuleIntervals(compiled, page.text));
}

const MARK = new RegExp(` (?:${ANNOTATE_REMOVED_ATTRIBUTE}|${ANNOTATE_PARTIAL_ATTRIBUTE})=""`, "g");
const STYLE = /<style data-clean-annotate>.*?<\/style>/;

describe.skipIf(!present)("annotateHtml", () => {
  it.each(PAGES)("marks the plan of %s without changing the page", (path) => {
    const page = load(path);
    const plan = planOf(page);
    const annotated = annotateHtml(page, plan);

    // Only additions: take the marks and the style sheet out and the source is back, byte for byte.
    expect(annotated.html.replace(MARK, "").replace(STYLE, "")).toBe(page.source);

    // Exactly the top-most removed blocks carry the removed mark, at their start tags.
    const { parent } = page.blocks;
    let topMost = 0;
    for (let block = 1; block < page.blockCount; block++) {
      let ancestor = parent[block];
      let covered = false;
      while (ancestor > 0 && !covered) {
        covered = plan.removedBlocks[ancestor] === 1;
        ancestor = parent[ancestor];
      }
      if (plan.removedBlocks[block] === 1 && !covered) topMost++;
    }
    expect(topMost).toBeGreaterThan(0);
    expect(annotated.removedBlocks).toBe(topMost);
    expect(annotated.html.split(`${ANNOTATE_REMOVED_ATTRIBUTE}=""`).length - 1).toBe(topMost);
    expect(annotated.html.split(`${ANNOTATE_PARTIAL_ATTRIBUTE}=""`).length - 1).toBe(annotated.partialBlocks);
    if (plan.removedText.length > 0) expect(annotated.partialBlocks).toBeGreaterThan(0);

    // The annotated page has the same blocks and the same text.
    const again = analysePage(annotated.html);
    expect(again.blockCount).toBe(page.blockCount);
    expect(again.text).toBe(page.text);
  });

  it("puts the style sheet inside <head>, and at the start of a page without one", () => {
    const page = analysePage("<div><p>kept</p><nav>menu</nav></div>");
    const plan = { removedBlocks: new Uint8Array(page.blockCount), removedText: new Int32Array(0) };
    plan.removedBlocks[page.blockCount - 1] = 1;
    const annotated = annotateHtml(page, normalisePlan(page, plan));
    expect(annotated.html).toMatch(/^<style data-clean-annotate>.*<\/style><div><p>kept<\/p><nav data-clean-removed="">menu<\/nav><\/div>$/);
    const withHead = analysePage('<html><head><title>t</title></head><body><p>x</p></body></html>');
    expect(annotateHtml(withHead, emptyPlan(withHead)).html).toMatch(
      /^<html><head><style data-clean-annotate>.*<\/style><title>t<\/title>/,
    );
  });
});
