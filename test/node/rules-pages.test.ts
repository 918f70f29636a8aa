/**
 * Rules on real pages, through the real page analysis: the sample site with its mined rule set, and pages of
 * ../shared/data with rules cut from their own text (so that matches land across blocks, inline elements
 * and partial text nodes), checked against the naive reference.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { RULES_MERGE_GAP_MAX_CHARACTERS } from "../../src/config";
import { DATA_SETS, hasData, loadDataset } from "../../src/evaluation/index";
import { analysePage, type PageModel, tagId } from "../../src/page/index";
import {
  compileRuleSet,
  findRuleIntervals,
  parseRuleSetText,
  RULESET_VERSION,
  type Rule,
  type RuleSet,
} from "../../src/rules/index";
import { planFromIntervals } from "../../src/plan/index";
import { checkPlanShape, referenceMarks, removedCharacters, textNodeMarks } from "./rules-support";
import { seededRandom as random } from "../../scripts/lib/seeded-random";

const REPOSITORY_ROOT = resolve(import.meta.dirname, "../..");
const SAMPLE_SITE = "wrenmouth-gazette.example";

function textOfBlocksWithTag(page: PageModel, tag: string): Array<[number, number]> {
  const id = tagId(tag);
  const ranges: Array<[number, number]> = [];
  for (let block = 1; block < page.blockCount; block += 1) {
    if (page.blocks.tag[block] === id) ranges.push([page.blocks.textStart[block], page.blocks.textEnd[block]]);
  }
  return ranges;
}

describe("the sample site's mined rules on its pages", () => {
  const parsed = parseRuleSetText(readFileSync(join(REPOSITORY_ROOT, "rules", `${SAMPLE_SITE}.json`), "utf8"));
  if (!parsed.ok) throw new Error(parsed.problems.join("; "));
  const compiled = compileRuleSet(parsed.ruleSet);
  const folder = join(REPOSITORY_ROOT, "samples", SAMPLE_SITE);
  const files = readdirSync(folder).filter((name) => name.endsWith(".html") && name !== "index.html");

  it.each(files)("%s: the cookie notice and navigation go whole, the headline stays", (file) => {
    const page = analysePage(readFileSync(join(folder, file), "utf8"));
    const plan = planFromIntervals(page, findRuleIntervals(compiled, page.text, { contentEdges: false }));
    const removed = removedCharacters(page, plan);
    // Page text position → 1 if removed, 2 if outside every text node (the "\n" between blocks), else 0.
    const nodeMarks = new Uint8Array(page.text.length).fill(2);
    let cursor = 0;
    for (let node = 0; node < page.textNodeCount; node += 1) {
      for (let position = page.textNodes.textStart[node]; position < page.textNodes.textEnd[node]; position += 1) {
        nodeMarks[position] = removed[cursor];
        cursor += 1;
      }
    }
    const removedText = (start: number, end: number) => nodeMarks.subarray(start, end).some((mark) => mark === 1);
    const wholeRemoved = (start: number, end: number) => nodeMarks.subarray(start, end).every((mark) => mark !== 0);
    const cookies = page.text.indexOf("We use cookies");
    expect(cookies).toBeGreaterThanOrEqual(0);
    expect(nodeMarks[cookies]).toBe(1);
    for (const [start, end] of textOfBlocksWithTag(page, "nav")) expect(wholeRemoved(start, end)).toBe(true);
    for (const [start, end] of textOfBlocksWithTag(page, "h1")) expect(removedText(start, end)).toBe(false);
    // Whole blocks went whole: at least the cookie notice, header and footer blocks.
    expect(plan.removedBlocks.reduce((sum, value) => sum + value, 0)).toBeGreaterThanOrEqual(3);
    const marks = referenceMarks(parsed.ruleSet.rules, page.text, RULES_MERGE_GAP_MAX_CHARACTERS);
    expect(removed).toEqual(textNodeMarks(page, marks));
    checkPlanShape(page, plan, marks);
  });
});

/** Rules cut from the page's own text: a run of 1-12 words starting at a word, joined by \s+ as the miner does. */
function rulesFromText(text: string, next: () => number, count: number): Rule[] {
  const words = [...text.matchAll(/[A-Za-z]+/g)];
  const rules: Rule[] = [];
  for (let index = 0; index < count && words.length > 0; index += 1) {
    const first = Math.floor(next() * words.length);
    const length = 1 + Math.floor(next() * 12);
    const tokens = words.slice(first, first + length).map((word) => word[0]);
    rules.push({ pattern: tokens.join("\\s+"), docFreq: 1, count: 1, tokens: tokens.length });
  }
  return rules;
}

const PAGES_PER_SET = 25;

describe.skipIf(!hasData())("rules cut from real pages of ../shared/data", () => {
  for (const set of DATA_SETS) {
    it(`${set}: the plan removes exactly the union of the matches, whole blocks whole`, () => {
      const { pages } = loadDataset(set);
      const next = random(set.length);
      let removedBlockCount = 0;
      let removedPieces = 0;
      for (const datasetPage of pages.slice(0, PAGES_PER_SET)) {
        const page = analysePage(datasetPage.html);
        const rules = rulesFromText(page.text, next, 30);
        const ruleSet: RuleSet = { version: RULESET_VERSION, site: "data.example", minedAt: "2026-01-01T00:00:00Z", pages: 1, cutoff: 0, mutablePatterns: [], rules };
        const compiled = compileRuleSet(ruleSet);
        expect(compiled.skipped.filter((rule) => !rule.reason.startsWith("duplicate"))).toEqual([]);
        const plan = planFromIntervals(page, findRuleIntervals(compiled, page.text, { contentEdges: false }));
        const marks = referenceMarks(rules, page.text, RULES_MERGE_GAP_MAX_CHARACTERS);
        expect(removedCharacters(page, plan), datasetPage.id).toEqual(textNodeMarks(page, marks));
        checkPlanShape(page, plan, marks);
        removedBlockCount += plan.removedBlocks.reduce((sum, value) => sum + value, 0);
        removedPieces += plan.removedText.length / 2;
      }
      // Both kinds of removal happen on these pages, so both paths were exercised.
      expect(removedBlockCount).toBeGreaterThan(0);
      expect(removedPieces).toBeGreaterThan(0);
    });
  }
});

if (!hasData()) console.warn("rules-pages: ../shared/data is absent; the dataset tests are skipped");
