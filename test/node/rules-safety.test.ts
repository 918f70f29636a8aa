/**
 * Pattern safety: the accepted subset runs in linear time, the known catastrophic shapes are refused.
 *
 * Speed is shown by counting steps, not by timers: a reference backtracking matcher with the semantics of
 * JS engines (greedy, longest first, alternatives in order, unanchored search restarting after each match)
 * counts every character test and every backtrack. It agrees with RegExp on the matches, stays within a
 * linear bound on hostile inputs for accepted patterns, and shows super-linear growth on refused ones.
 */
import { describe, expect, it } from "vitest";
import { checkPatternSafety, RULE_FLAGS } from "../../src/rules/index";
import { areDisjoint, complement, contains, fromRanges, union } from "../../src/rules/char-set";
import { parsePattern, type PatternElement } from "../../src/rules/pattern-syntax";
import { seededRandom as random } from "../../scripts/lib/seeded-random";

// ── reference backtracking matcher with a step counter ───────────────────────────────────────────

interface Counter {
  steps: number;
}

type Continuation = (position: number) => boolean;

function matchSequence(
  elements: readonly PatternElement[],
  index: number,
  text: string,
  position: number,
  counter: Counter,
  next: Continuation,
): boolean {
  if (index === elements.length) return next(position);
  const element = elements[index];
  const rest: Continuation = (after) => matchSequence(elements, index + 1, text, after, counter, next);
  if (element.kind === "atom") return matchAtom(element, text, position, counter, rest);
  return matchGroup(element, 0, text, position, counter, rest);
}

function matchAtom(
  atom: PatternElement & { kind: "atom" },
  text: string,
  position: number,
  counter: Counter,
  next: Continuation,
): boolean {
  let taken = 0;
  while (taken < atom.max && position + taken < text.length) {
    counter.steps += 1;
    if (!contains(atom.set, text.charCodeAt(position + taken))) break;
    taken += 1;
  }
  for (; taken >= atom.min; taken -= 1) {
    counter.steps += 1;
    if (next(position + taken)) return true;
  }
  return false;
}

function matchGroup(
  group: PatternElement & { kind: "group" },
  iteration: number,
  text: string,
  position: number,
  counter: Counter,
  next: Continuation,
): boolean {
  if (iteration < group.max) {
    for (const alternative of group.alternatives) {
      counter.steps += 1;
      const again: Continuation = (after) =>
        after !== position && matchGroup(group, iteration + 1, text, after, counter, next);
      if (matchSequence(alternative, 0, text, position, counter, again)) return true;
    }
  }
  counter.steps += 1;
  return iteration >= group.min && next(position);
}

/** All matches of a global search, as flat [start, end) pairs, and the steps it took. */
function referenceSearch(pattern: string, text: string): { matches: number[]; steps: number } {
  const parsed = parsePattern(pattern);
  if (!parsed.ok) throw new Error(parsed.reason);
  const counter: Counter = { steps: 0 };
  const matches: number[] = [];
  let start = 0;
  while (start <= text.length) {
    let end = -1;
    const found = matchSequence(parsed.elements, 0, text, start, counter, (position) => {
      end = position;
      return true;
    });
    if (found) {
      matches.push(start, end);
      start = end > start ? end : start + 1;
    } else {
      start += 1;
    }
  }
  return { matches, steps: counter.steps };
}

function engineSearch(pattern: string, text: string): number[] {
  const matches: number[] = [];
  for (const match of text.matchAll(new RegExp(pattern, RULE_FLAGS))) matches.push(match.index, match.index + match[0].length);
  return matches;
}

// ── patterns ─────────────────────────────────────────────────────────────────────────────────────

/** Shapes the miner writes (literal tokens, separators, mutable classes), each with a text it matches. */
const ACCEPTED: ReadonlyArray<readonly [string, string]> = [
  ["Home\\s+About\\s+us\\s+Contact", "Home About  us\nContact"],
  [
    "Posted\\s+on\\s+\\d+(?:st|nd|rd|th)\\s+(?:January|February|March|April|May|June|July|August|September|October|November|December)\\s+\\d{4}",
    "Posted on 21st November 2026",
  ],
  ["Share[^\\S\\n]+this[^\\S\\n]+article", "Share this \u00a0article"],
  ["Price:\\s*\\d+(?:[.,]\\d+)*\\s+EUR", "Price: 1.234,50 EUR"],
  ["\\|\\s+Privacy\\s+policy", "| Privacy policy"],
  ["Copyright\\s+\u00a9\\s+\\d[\\d.,]*\\s+Example\\s+Ltd\\.", "Copyright \u00a9 2026 Example Ltd."],
  ["Read\\s+more\\s*\u00bb", "Read more\u00bb"],
  ["Comments\\s+\\(\\d+\\)", "Comments (12)"],
  ["(?:Next|Previous)\\s+article\\s*:", "Previous article :"],
  ["Tags:(?:\\s+[a-z]+)+\\.", "Tags: news sport."],
  ["Updated\\s+\\d{1,2}:\\d{2}\\s*(?:am|pm)?", "Updated 9:45 pm"],
];

/** Refused, with a word the reason must contain. */
const REFUSED: ReadonlyArray<readonly [string, string]> = [
  ["(a+)+$", "capturing"],
  ["(a|a)*", "capturing"],
  ["(?:a|a)*b", "start"],
  ["x(?:a|a)b", "prefix-free"],
  ["x(?:ab|a\\w)c", "distinct characters"],
  ["Tags:(?:\\s+[a-z]+)+\\s*\\.", "group overlaps"],
  ["\\s*\\s*x", "start"],
  ["x\\s*\\s*y", "overlaps"],
  ["x\\w+\\d", "first character"],
  ["x[a-w]+\\w", "overlaps"],
  ["a.*b", "first character"],
  ["X[a-z]*b", "overlaps"],
  ["(\\w)\\1", "capturing"],
  ["x(?:a)\\1", "backreference"],
  ["(?<=a)b", "lookaround"],
  ["(?=a)b", "lookaround"],
  ["\\d+\\s+comments", "start"],
  ["x(?:a+)+y", "overlaps"],
  ["x(?:a|b)*a*y", "group overlaps"],
  ["x(?:ab|a)c", "prefix-free"],
  ["x(?:a?)*", "empty"],
  ["^Home", "anchor"],
  ["Home$", "anchor"],
  ["Home\\b", "boundary"],
  ["x\\s+?y", "lazy"],
  ["xa{1001}", "bound"],
  ["a|b", "alternation"],
  ["x[]", "empty"],
  ["x\\p{L}", "escape"],
  ["x(?:(?:(?:a)))", "nested"],
  ["", "empty"],
];

describe("checkPatternSafety", () => {
  it.each(ACCEPTED)("accepts %s, and it matches its sample", (pattern, sample) => {
    expect(checkPatternSafety(pattern)).toEqual({ safe: true });
    expect(engineSearch(pattern, `xx ${sample} yy`)).toEqual([3, 3 + sample.length]);
  });

  it.each(REFUSED)("refuses %s (%s)", (pattern, word) => {
    const safety = checkPatternSafety(pattern);
    expect(safety.safe).toBe(false);
    if (!safety.safe) expect(safety.reason.toLowerCase()).toContain(word);
  });

  it("refuses patterns over the length cap", () => {
    const long = `Home${"\\s+word".repeat(20)}`;
    expect(checkPatternSafety(long, long.length).safe).toBe(true);
    expect(checkPatternSafety(long, long.length - 1).safe).toBe(false);
  });

  it("only accepts what the JS engine compiles", () => {
    for (const [pattern] of ACCEPTED) expect(() => new RegExp(pattern, RULE_FLAGS)).not.toThrow();
  });
});

// ── the reference matcher is faithful ─────────────────────────────────────────────────────────────

/** Random text made of pieces of the sample (so matches and near misses are frequent). */
function mutatedText(sample: string, next: () => number, pieces: number): string {
  const extra = [" ", "  ", "\n", "1", "22", ".", ",", "x", sample.slice(0, 3)];
  let text = "";
  for (let piece = 0; piece < pieces; piece += 1) {
    const roll = next();
    if (roll < 0.3) text += sample;
    else if (roll < 0.6) text += sample.slice(0, Math.floor(next() * sample.length));
    else if (roll < 0.8) text += sample.slice(Math.floor(next() * sample.length));
    else text += extra[Math.floor(next() * extra.length)];
  }
  return text;
}

describe("reference backtracking matcher", () => {
  it.each(ACCEPTED)("finds the same matches as RegExp for %s", (pattern, sample) => {
    const next = random(pattern.length * 7919);
    for (let round = 0; round < 40; round += 1) {
      const text = mutatedText(sample, next, 12);
      expect(referenceSearch(pattern, text).matches, JSON.stringify(text)).toEqual(engineSearch(pattern, text));
    }
  });
});

// ── hostile inputs: linear for accepted patterns, super-linear for refused ones ─────────────────────

/** Hostile texts of about `size` characters built around a pattern's sample. */
function hostileTexts(sample: string, size: number): string[] {
  const repeat = (unit: string) => unit.repeat(Math.max(1, Math.ceil(size / unit.length))).slice(0, size);
  const prefix = sample.slice(0, Math.ceil(sample.length / 2));
  return [
    repeat(" "),
    repeat("1"),
    repeat(sample),
    repeat(sample.slice(0, -1)),
    repeat(`${prefix} `),
    repeat(`${prefix}1`),
    sample.slice(0, 6) + repeat(" ").slice(6),
    sample.slice(0, 6) + repeat("1").slice(6),
    repeat(sample.slice(0, 1)),
  ];
}

const HOSTILE_SIZE = 4000;

describe("step counts on hostile inputs", () => {
  it.each(ACCEPTED)("stay linear for %s", (pattern, sample) => {
    // Bound of the proof in pattern-safety.ts: O(P) per examined character, P + 1 attempts per position.
    const elementBound = pattern.length + 2;
    for (const text of hostileTexts(sample, HOSTILE_SIZE)) {
      const small = referenceSearch(pattern, text.slice(0, text.length / 4)).steps;
      const large = referenceSearch(pattern, text).steps;
      expect(large).toBeLessThanOrEqual(4 * elementBound * text.length);
      // Quadrupling the input at most quadruples the work (plus a constant).
      expect(large).toBeLessThanOrEqual(4 * small + 4 * elementBound * sample.length);
    }
  });

  it.each([
    ["\\s*\\s*x", "      "],
    ["x\\s*\\s*y", "x      "],
    ["\\d+x", "1111"],
    ["x\\w+\\d", "xxxxx"],
    ["x\\s+a?\\s+y", "x      "],
    ["x(?:a|b)*a*y", "xaaaa"],
  ])("grow super-linearly for the refused %s", (pattern, seed) => {
    expect(checkPatternSafety(pattern).safe).toBe(false);
    const text = (size: number) => seed.slice(0, 1) + seed.slice(1).repeat(size).slice(0, size);
    const small = referenceSearch(pattern, text(100)).steps;
    const large = referenceSearch(pattern, text(400)).steps;
    expect(large).toBeGreaterThan(10 * small);
  });

  it.each(ACCEPTED)("the engine scans 400,000 hostile characters with %s", (pattern, sample) => {
    // A quadratic pattern would need about 10^11 steps here; the run completing is the evidence.
    const regex = new RegExp(pattern, RULE_FLAGS);
    for (const text of hostileTexts(sample, 400_000)) {
      let found = 0;
      for (regex.lastIndex = 0; regex.exec(text) !== null; ) found += 1;
      expect(found).toBeLessThanOrEqual(text.length / 2);
    }
  });
});

// ── the character sets of the check are the engine's ─────────────────────────────────────────────────

describe("character classes", () => {
  it.each([
    ["\\s", "x\\s"],
    ["\\w", "x\\w"],
    ["\\d", "x\\d"],
    [".", "x."],
    ["[^\\S\\n]", "x[^\\S\\n]"],
    ["\\W", "x\\W"],
  ])("%s holds exactly the code units the engine matches", (source, pattern) => {
    const parsed = parsePattern(pattern);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const set = parsed.elements[1].kind === "atom" ? parsed.elements[1].set : [];
    const regex = new RegExp(`^${source}$`);
    for (let code = 0; code <= 0xffff; code += 1) {
      if (contains(set, code) !== regex.test(String.fromCharCode(code))) {
        expect.fail(`${source}: code unit ${code.toString(16)} differs`);
      }
    }
  });
});

describe("character set operations", () => {
  it("union, complement and disjointness agree with membership on random sets", () => {
    const next = random(99);
    const randomSet = () => {
      const pairs: number[] = [];
      for (let index = 0; index < 1 + Math.floor(next() * 5); index += 1) {
        const low = Math.floor(next() * 200);
        pairs.push(low, low + Math.floor(next() * 20));
      }
      return fromRanges(pairs);
    };
    for (let round = 0; round < 300; round += 1) {
      const left = randomSet();
      const right = randomSet();
      const both = union(left, right);
      expect(both).toEqual(fromRanges([...left, ...right]));
      let shared = false;
      for (let code = 0; code < 260; code += 1) {
        expect(contains(both, code)).toBe(contains(left, code) || contains(right, code));
        expect(contains(complement(left), code)).toBe(!contains(left, code));
        shared ||= contains(left, code) && contains(right, code);
      }
      expect(areDisjoint(left, right)).toBe(!shared);
    }
  });
});

// ── fuzz: random patterns of the grammar; whatever the check accepts must run in linear steps ─────────

const FUZZ_ATOMS = ["a", "b", "x", " ", "1", "\\s", "\\d", "[ab]", "[^a]", "[a1 ]", "\\w", ".", "\\.", "[^\\S\\n]"];
const FUZZ_QUANTIFIERS = ["", "", "", "?", "*", "+", "{2}", "{1,3}", "{2,}"];

function randomElement(next: () => number, depth: number): string {
  if (depth < 2 && next() < 0.3) {
    const alternatives = Array.from({ length: 1 + Math.floor(next() * 3) }, () => randomSequence(next, depth + 1, 1 + Math.floor(next() * 2)));
    return `(?:${alternatives.join("|")})${FUZZ_QUANTIFIERS[Math.floor(next() * FUZZ_QUANTIFIERS.length)]}`;
  }
  return FUZZ_ATOMS[Math.floor(next() * FUZZ_ATOMS.length)] + FUZZ_QUANTIFIERS[Math.floor(next() * FUZZ_QUANTIFIERS.length)];
}

function randomSequence(next: () => number, depth: number, length: number): string {
  return Array.from({ length }, () => randomElement(next, depth)).join("");
}

/** Hostile texts for the fuzz alphabet: long runs, and repetitions of short pieces of the alphabet. */
function fuzzTexts(next: () => number, size: number): string[] {
  const pieces = ["a", "b", "x", " ", "1", "ab", "x ", "xa", "x1", "a a", "x a1", ".", "\n"];
  const texts = pieces.map((piece) => piece.repeat(Math.ceil(size / piece.length)).slice(0, size));
  // One character, then a long run of another: a match attempt that starts there scans the whole run.
  const characters = ["a", "b", "x", " ", "1", "."];
  for (const first of characters) for (const run of characters) if (first !== run) texts.push(first + run.repeat(size - 1));
  let mixed = "";
  while (mixed.length < size) mixed += pieces[Math.floor(next() * pieces.length)];
  texts.push(mixed.slice(0, size));
  return texts;
}

/** Accepted random patterns tried (about 1 in 10 random patterns is accepted). */
const FUZZ_PATTERNS = 300;

describe("fuzz over random patterns", () => {
  const next = random(20261121);
  const accepted: string[] = [];
  let tried = 0;
  while (accepted.length < FUZZ_PATTERNS && tried < 400_000) {
    tried += 1;
    const pattern = randomSequence(next, 0, 2 + Math.floor(next() * 4));
    if (checkPatternSafety(pattern).safe) accepted.push(pattern);
  }

  it("finds enough accepted patterns to be meaningful", () => {
    expect(accepted.length).toBe(FUZZ_PATTERNS);
    expect(accepted.filter((pattern) => /[*+}]/.test(pattern)).length).toBeGreaterThan(FUZZ_PATTERNS / 2);
    expect(accepted.filter((pattern) => /\)[*+?{]/.test(pattern)).length).toBeGreaterThanOrEqual(10);
  });

  it("the reference matcher agrees with RegExp on every accepted pattern", () => {
    const texts = fuzzTexts(random(7), 60);
    for (const pattern of accepted) {
      for (const text of texts) {
        expect(referenceSearch(pattern, text).matches, `${pattern} on ${JSON.stringify(text)}`).toEqual(engineSearch(pattern, text));
      }
    }
  });

  it("every accepted pattern stays within the linear bound on hostile texts", () => {
    for (const pattern of accepted) {
      const bound = 4 * (pattern.length + 2);
      // 4× longer texts must cost at most about 4× the steps. Lengths stay well inside the call stack: the
      // reference matcher recurses once or more per character (2,000 characters overflowed it now and then).
      const small = fuzzTexts(random(11), 250);
      const large = fuzzTexts(random(11), 1000);
      large.forEach((text, index) => {
        const smallSteps = referenceSearch(pattern, small[index]).steps;
        const largeSteps = referenceSearch(pattern, text).steps;
        expect(largeSteps, `${pattern} on ${JSON.stringify(text.slice(0, 12))}…`).toBeLessThanOrEqual(bound * text.length);
        expect(largeSteps, pattern).toBeLessThanOrEqual(4 * smallSteps + bound * 20);
      });
    }
  });
});
