/**
 * Order-free cleaning with rules (paper 002, 3.4.1): on random texts and random rule sets, what is removed is
 * exactly the union of all rule matches, gap-merged, whatever the rule order; checked against a naive
 * reference that marks characters in an array (the raw union, before the content-edge filter). Then through
 * planFromIntervals on synthetic page models.
 */
import { describe, expect, it } from "vitest";
import type { PageModel } from "../../src/page/index";
import {
  checkPatternSafety,
  compileRuleSet,
  findRuleIntervals,
  isSeparatorCode,
  matchRules,
  RULESET_VERSION,
  type Rule,
  type RuleSet,
} from "../../src/rules/index";
import { planFromIntervals } from "../../src/plan/index";
import { RULES_MERGE_GAP_MAX_CHARACTERS } from "../../src/config";
import { checkPlanShape, referenceMarks, removedCharacters, textNodeMarks } from "./rules-support";
import { seededRandom as random } from "../../scripts/lib/seeded-random";

const pick = <T>(next: () => number, items: readonly T[]): T => items[Math.floor(next() * items.length)];

const WORDS = ["home", "news", "a", "ab", "b", "share", "this", "café", "12", "3", "Ω"];
const SEPARATORS = [" ", " ", "  ", "\n", " | ", ", ", ". ", " · ", "—", " \u00a0"];
const SEPARATOR_PATTERNS = ["\\s+", "\\s*", "[^\\S\\n]+", "\\s*\\|\\s*", "[\\s,.]+"];

function randomText(next: () => number, words: number): string {
  let text = pick(next, WORDS);
  for (let index = 1; index < words; index += 1) text += pick(next, SEPARATORS) + pick(next, WORDS);
  return text;
}

function escapeLiteral(word: string): string {
  return word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A rule shaped like the miner's: a literal word first, then words or mutable classes joined by separators. */
function randomRule(next: () => number): Rule {
  const tokens = 1 + Math.floor(next() * 3);
  let pattern = escapeLiteral(pick(next, WORDS.filter((word) => !/\d/.test(word))));
  for (let index = 1; index < tokens; index += 1) {
    const token = next() < 0.2 ? "\\d+" : escapeLiteral(pick(next, WORDS));
    pattern += pick(next, SEPARATOR_PATTERNS) + token;
  }
  return { pattern, docFreq: 1, count: 1, tokens };
}

function ruleSetOf(rules: readonly Rule[]): RuleSet {
  return { version: RULESET_VERSION, site: "random.example", minedAt: "2026-11-21T00:00:00Z", pages: 1, cutoff: 0, mutablePatterns: [], rules };
}

function marksToPairs(marks: Uint8Array): number[] {
  const pairs: number[] = [];
  for (let position = 0; position < marks.length; position += 1) {
    if (marks[position] === 1 && (position === 0 || marks[position - 1] === 0)) pairs.push(position);
    if (marks[position] === 1 && (position === marks.length - 1 || marks[position + 1] === 0)) pairs.push(position + 1);
  }
  return pairs;
}

function shuffled<T>(items: readonly T[], next: () => number): T[] {
  const copy = items.slice();
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = Math.floor(next() * (index + 1));
    [copy[index], copy[other]] = [copy[other], copy[index]];
  }
  return copy;
}

/** The raw union of the matches, before the content-edge filter (tested in rules-content-edges.test.ts). */
const RAW = { contentEdges: false } as const;

const ROUNDS = 400;
const replaySeed = process.env.REPLAY_SEED === undefined ? null : Number(process.env.REPLAY_SEED);
const seeds = replaySeed === null ? Array.from({ length: ROUNDS }, (_, index) => index + 1) : [replaySeed];

describe("isSeparatorCode", () => {
  it("is true for every code unit that is not a letter, digit or combining mark, surrogate halves aside, however often asked", () => {
    const content = /[\p{L}\p{N}\p{M}]/u;
    for (let round = 0; round < 2; round++) {
      const wrong: number[] = [];
      for (let code = 0; code <= 0xffff; code++) {
        const expected = !(code >= 0xd800 && code <= 0xdfff) && !content.test(String.fromCharCode(code));
        if (isSeparatorCode(code) !== expected) wrong.push(code);
      }
      expect(wrong).toEqual([]);
    }
  });
});

describe("findRuleIntervals", () => {
  it("removes t = 'aabb' whole with rules 'aabb' and 'ab' in either order (paper 002, 3.4.1)", () => {
    const rules = [
      { pattern: "aabb", docFreq: 1, count: 1, tokens: 1 },
      { pattern: "ab", docFreq: 1, count: 1, tokens: 1 },
    ];
    expect([...findRuleIntervals(compileRuleSet(ruleSetOf(rules)), "xx aabb yy", RAW)]).toEqual([3, 7]);
    expect([...findRuleIntervals(compileRuleSet(ruleSetOf(rules.reverse())), "xx aabb yy", RAW)]).toEqual([3, 7]);
  });

  it("merges across short separator-only gaps, never across a letter or digit or a long gap", () => {
    const rules = [
      { pattern: "Home", docFreq: 1, count: 1, tokens: 1 },
      { pattern: "News", docFreq: 1, count: 1, tokens: 1 },
    ];
    const compiled = compileRuleSet(ruleSetOf(rules));
    expect([...findRuleIntervals(compiled, "Home | News", RAW)]).toEqual([0, 11]);
    expect([...findRuleIntervals(compiled, "Home\n\u00a0· News", RAW)]).toEqual([0, 12]);
    expect([...findRuleIntervals(compiled, "Home a News", RAW)]).toEqual([0, 4, 7, 11]);
    expect([...findRuleIntervals(compiled, "Home 1 News", RAW)]).toEqual([0, 4, 7, 11]);
    const far = `Home${" ".repeat(RULES_MERGE_GAP_MAX_CHARACTERS + 1)}News`;
    expect([...findRuleIntervals(compiled, far, RAW)]).toEqual([0, 4, far.length - 4, far.length]);
    expect([...findRuleIntervals(compiled, far, { ...RAW, mergeGap: 64 })]).toEqual([0, far.length]);
  });

  it("returns an empty result when nothing matches, and when the match limit is passed", () => {
    const compiled = compileRuleSet(ruleSetOf([{ pattern: "Home", docFreq: 1, count: 1, tokens: 1 }]));
    expect(findRuleIntervals(compiled, "nothing here")).toHaveLength(0);
    expect(findRuleIntervals(compiled, "Home Home Home", RAW)).toHaveLength(2);
    expect(findRuleIntervals(compiled, "Home x Home x Home", { maxMatches: 2 })).toHaveLength(0);
  });

  it("runs only the rules whose required words the text holds as whole words, in any script and case as written", () => {
    // Each rule's middle word is required (separators on both sides); a rule that runs scans the whole text, so with
    // room for two scans, a third rule run overflows.
    const rule = (word: string): Rule => ({ pattern: `Menu\\s+${word}\\s+Home`, docFreq: 1, count: 1, tokens: 3 });
    const compiled = compileRuleSet(ruleSetOf(["Bücher", "Straße", "news", "Ω", "12"].map(rule)));
    const text = "Menu Bücher Home · Straßen · News · ΩΩ · a12 · Menu 12 Home";
    const twoScans = { ...RAW, maxScanCharacters: 2 * text.length };
    expect(matchRules(compiled, text, twoScans)).toMatchObject({ overflow: null });
    expect([...matchRules(compiled, text, twoScans).intervals]).toEqual([0, 16, text.length - 12, text.length]);
    expect(matchRules(compiled, `${text} news`, twoScans)).toMatchObject({ overflow: "rule-work" });
    expect(matchRules(compiled, `${text} x-Ω-x`, twoScans)).toMatchObject({ overflow: "rule-work" });
  });

  it("draws random cases that match, overlap and merge", () => {
    let matching = 0;
    let joined = 0;
    for (const seed of seeds) {
      const next = random(seed);
      const rules = Array.from({ length: 1 + Math.floor(next() * 8) }, () => randomRule(next));
      const text = randomText(next, 5 + Math.floor(next() * 120));
      const matches = rules.flatMap((rule) => [...text.matchAll(new RegExp(rule.pattern, "g"))]).length;
      const pairs = marksToPairs(referenceMarks(rules, text, RULES_MERGE_GAP_MAX_CHARACTERS)).length / 2;
      if (matches > 0) matching += 1;
      if (pairs < matches) joined += 1;
    }
    expect(matching).toBeGreaterThan(seeds.length / 2);
    expect(joined).toBeGreaterThan(seeds.length / 4);
  });

  it("tries rules that start with a literal where it stands, in one pass for all, and finds what each rule's own scan finds", () => {
    // Literals of two or more code units and of one punctuation mark ("—", "|"), shared by several rules; matches of one
    // rule that overlap another's; a rule whose match holds its own literal again ("ab ab ab": one match, not two);
    // rules that start with a letter or digit alone, scanned from every position; "IP", whose two code units share the
    // pair filter's slot with "Ho"'s, and "〔" and "၈", whose low 12 bits are those of "—" and "H": they start no literal.
    const patterns = ["—\\s*\\d+", "—\\s*Jan", "\\|\\s*Home", "Home\\s*\\|", "Home", "Ho[a-z]+", "s\\s+\\d+", "7\\s+Ho", "—", "ab\\s*ab"];
    const rules: Rule[] = patterns.map((pattern) => ({ pattern, docFreq: 1, count: 1, tokens: 1 }));
    const compiled = compileRuleSet(ruleSetOf(rules));
    expect(compiled.skipped).toEqual([]);
    expect(compiled.rules.map((rule) => rule.prefixed?.prefix ?? null)).toEqual(["—", "—", "|", "Home", "Home", "Ho", null, null, "—", "ab"]);
    const text = "Home | Home|Home — 12 —Jan — 3 | Home homes 5 s 7 HoHome HomeHome —— Homer| ab ab ab IPHome IP 〔 12 ၈ome —";
    expect([...findRuleIntervals(compiled, text, { ...RAW, mergeGap: 0 })]).toEqual(marksToPairs(referenceMarks(rules, text, 0)));
  });

  it("tries a rule only where what follows its literal may follow it, a space outside ASCII included, and finds what its own scan finds", () => {
    const patterns = ["Home\\s+café", "Home\\s*—", "ab\\s+\\d+", "to\\s+Ω", "to\\s*"];
    const rules: Rule[] = patterns.map((pattern) => ({ pattern, docFreq: 1, count: 1, tokens: 1 }));
    const compiled = compileRuleSet(ruleSetOf(rules));
    expect(compiled.rules.map((rule) => rule.prefixed?.follows === null)).toEqual([false, false, false, false, true]);
    const text = "Home\u00a0café Homecafé Home — Home—x ab\u2003 12 abc to\u3000Ω tooΩ ab";
    expect([...findRuleIntervals(compiled, text, { ...RAW, mergeGap: 0 })]).toEqual(marksToPairs(referenceMarks(rules, text, 0)));
    expect(findRuleIntervals(compiled, text, { ...RAW, mergeGap: 0 }).length).toBeGreaterThan(8);
  });

  it("tries many rules that start alike behind shared gates, and finds what each rule's own scan finds", () => {
    // A site's comment rules: one date line, then a reader's first words; several match at one position with different
    // ends, one is the others' common start, and some part ways inside the date (\s* against \s+).
    const date = "—\\s*(?:Jan|Feb)\\s+\\d+\\s+";
    const patterns = [
      ...Array.from({ length: 40 }, (_, i) => `${date}Reader${i}\\s+says`),
      `${date}Hi`, `${date}Hi\\s+Tim`, `${date}It`, "—\\s*(?:Jan|Feb)\\s+\\d+", "—\\s*(?:Jan|Feb)\\s*\\d+\\s+Hi", "—\\s*Mar", "—",
    ];
    const rules: Rule[] = patterns.map((pattern) => ({ pattern, docFreq: 1, count: 1, tokens: 1 }));
    const compiled = compileRuleSet(ruleSetOf(rules));
    expect(compiled.skipped).toEqual([]);
    const text = "— Jan 3 Hi Tim — Feb 12 It — Jan 3Hi —Mar 4 — Jan 3 Reader7 says — Feb 1 Reader39 says — Jan 2 Reader4 said —— Jan 9 Reader12 says Hi";
    for (const gap of [0, 2]) {
      expect([...findRuleIntervals(compiled, text, { ...RAW, mergeGap: gap })]).toEqual(marksToPairs(referenceMarks(rules, text, gap)));
    }
  });

  it.each(seeds)("equals the naive union, whatever the rule order (seed %i)", (seed) => {
    const next = random(seed);
    const rules = Array.from({ length: 1 + Math.floor(next() * 8) }, () => randomRule(next)).filter(
      (rule) => checkPatternSafety(rule.pattern).safe,
    );
    const text = randomText(next, 5 + Math.floor(next() * 120));
    const gap = pick(next, [0, 1, 3, RULES_MERGE_GAP_MAX_CHARACTERS]);
    const expected = marksToPairs(referenceMarks(rules, text, gap));
    for (let order = 0; order < 3; order += 1) {
      const compiled = compileRuleSet(ruleSetOf(order === 0 ? rules : shuffled(rules, next)));
      expect([...findRuleIntervals(compiled, text, { ...RAW, mergeGap: gap })], `seed ${seed}`).toEqual(expected);
    }
  });
});

// ── planFromIntervals ──────────────────────────────────────────────────────────────────────────────

/**
 * A page model of the given sections, each a list of lines: root → one block per section → one block per
 * line, one text node per line; page text is the lines joined by "\n" (as pass 1 writes it).
 */
function pageOf(sections: readonly (readonly string[])[]): PageModel {
  const lines = sections.flat();
  const text = lines.join("\n");
  const blockCount = 1 + sections.length + lines.length;
  const parent = new Int32Array(blockCount).fill(0);
  const textStart = new Int32Array(blockCount);
  const textEnd = new Int32Array(blockCount);
  const nodeBlock = new Int32Array(lines.length);
  const nodeStart = new Int32Array(lines.length);
  const nodeEnd = new Int32Array(lines.length);
  const firstTextNode = new Int32Array(blockCount);
  const endTextNode = new Int32Array(blockCount);
  endTextNode[0] = lines.length;
  parent[0] = -1;
  textEnd[0] = text.length;
  let block = 1;
  let offset = 0;
  let line = 0;
  for (const section of sections) {
    const sectionBlock = block;
    block += 1;
    textStart[sectionBlock] = offset;
    firstTextNode[sectionBlock] = line;
    for (const content of section) {
      firstTextNode[block] = line;
      endTextNode[block] = line + 1;
      parent[block] = sectionBlock;
      textStart[block] = offset;
      textEnd[block] = offset + content.length;
      nodeBlock[line] = block;
      nodeStart[line] = offset;
      nodeEnd[line] = offset + content.length;
      offset += content.length + 1;
      block += 1;
      line += 1;
    }
    textEnd[sectionBlock] = offset - 1;
    endTextNode[sectionBlock] = line;
  }
  const zeros = new Int32Array(blockCount);
  return {
    source: "",
    text,
    title: "",
    lang: "",
    blockCount,
    blocks: {
      parent,
      tag: new Uint8Array(blockCount),
      depth: new Uint16Array(blockCount),
      sourceStart: zeros,
      sourceNameEnd: zeros,
      startTagEnd: zeros,
      sourceEnd: zeros,
      textStart,
      textEnd,
      closeKind: new Uint8Array(blockCount),
      closeRepeat: new Uint16Array(blockCount),
      firstTextNode,
      endTextNode,
    },
    textNodeCount: lines.length,
    textNodes: {
      block: nodeBlock,
      textStart: nodeStart,
      textEnd: nodeEnd,
      sourceStart: new Int32Array(lines.length),
      sourceEnd: new Int32Array(lines.length),
      inLink: new Uint8Array(lines.length),
    },
    impliedEndCount: 0,
    impliedEnds: { offset: new Int32Array(0), tag: new Uint8Array(0) },
  };
}

describe("planFromIntervals", () => {
  const page = pageOf([
    ["Home News Sport", "Search"],
    ["Storm hits the harbour", "Share this story on the quay"],
  ]);
  // Blocks: 0 root, 1 section, 2 "Home News Sport", 3 "Search", 4 section, 5 "Storm…", 6 "Share…".

  it("removes a wholly covered block whole and leaves its descendants unmarked", () => {
    const plan = planFromIntervals(page, new Int32Array([0, page.blocks.textEnd[1]]));
    expect([...plan.removedBlocks]).toEqual([0, 1, 0, 0, 0, 0, 0]);
    expect([...plan.removedText]).toEqual([]);
  });

  it("keeps a partly covered block and removes only the covered text, clipped to text nodes", () => {
    const share = page.text.indexOf("Share this story");
    const search = page.text.indexOf("Search");
    // One interval from the middle of block 2 to inside block 6: block 3 and 5 are whole inside it.
    const plan = planFromIntervals(page, new Int32Array([5, share + 16]));
    expect([...plan.removedBlocks]).toEqual([0, 0, 0, 1, 0, 1, 0]);
    expect([...plan.removedText]).toEqual([5, page.blocks.textEnd[2], share, share + 16]);
    expect(page.text.slice(5, page.blocks.textEnd[2])).toBe("News Sport");
    expect(search).toBe(page.blocks.textStart[3]);
  });

  it.each([
    [0, -1],
    [1, 0],
  ])("keeps a block whose text is covered all but one character (start %i, end %i)", (startShift, endShift) => {
    const start = page.blocks.textStart[2] + startShift;
    const end = page.blocks.textEnd[2] + endShift;
    const plan = planFromIntervals(page, new Int32Array([start, end]));
    expect([...plan.removedBlocks]).toEqual([0, 0, 0, 0, 0, 0, 0]);
    expect([...plan.removedText]).toEqual([start, end]);
  });

  it("never removes the root, even when the whole page text is covered", () => {
    const plan = planFromIntervals(page, new Int32Array([0, page.text.length]));
    expect([...plan.removedBlocks]).toEqual([0, 1, 0, 0, 1, 0, 0]);
  });

  it("returns an empty plan for no intervals", () => {
    const plan = planFromIntervals(page, new Int32Array(0));
    expect(plan.removedBlocks.every((value) => value === 0)).toBe(true);
    expect(plan.removedText).toHaveLength(0);
  });

  it.each(seeds)("removes exactly the union's text on random pages (seed %i)", (seed) => {
    const next = random(seed * 31);
    const sections = Array.from({ length: 1 + Math.floor(next() * 4) }, () =>
      Array.from({ length: 1 + Math.floor(next() * 4) }, () => randomText(next, 1 + Math.floor(next() * next() * 6)).replace(/\n/g, " ")),
    );
    const randomPage = pageOf(sections);
    const rules = Array.from({ length: 1 + Math.floor(next() * 6) }, () => randomRule(next)).filter(
      (rule) => checkPatternSafety(rule.pattern).safe,
    );
    const intervals = findRuleIntervals(compileRuleSet(ruleSetOf(rules)), randomPage.text, RAW);
    const plan = planFromIntervals(randomPage, intervals);
    const marks = referenceMarks(rules, randomPage.text, RULES_MERGE_GAP_MAX_CHARACTERS);
    expect(removedCharacters(randomPage, plan), `seed ${seed}`).toEqual(textNodeMarks(randomPage, marks));
    checkPlanShape(randomPage, plan, marks);
  });
});
