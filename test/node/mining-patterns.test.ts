import { describe, expect, it } from "vitest";
import {
  buildCorpus,
  createDictionary,
  DEFAULT_MINING_OPTIONS,
  entryAt,
  mineSite,
  mineSites,
  MUTABLE_PATTERNS,
  TOKEN_CLASS,
  TokenColumns,
  tokenizeText,
  writePatterns,
} from "../../src/mining/index";
import { checkPatternSafety, RULE_FLAGS } from "../../src/rules/index";
import { seededRandom } from "../../scripts/lib/seeded-random";

/** The tokens of a text as literal texts, or "<class>" for class tokens. */
function tokensOf(text: string): string[] {
  const dictionary = createDictionary();
  const columns = new TokenColumns();
  tokenizeText(text, dictionary, columns);
  return Array.from(columns.entries.subarray(0, columns.size), (entry) =>
    dictionary.kinds[entry] === TOKEN_CLASS ? `<${dictionary.texts[entry]}>` : dictionary.texts[entry]!,
  );
}

function fullMatch(pattern: string, text: string): boolean {
  return new RegExp(`^(?:${pattern})$`, RULE_FLAGS.replace("g", "")).test(text);
}

const EXAMPLES: [string, string[]][] = [
  ["Posted on 12 March 2012", ["Posted", "on", "<integer>", "<month-en>", "<integer>"]],
  ["Updated: 2012-03-12, 10:30 am", ["Updated", ":", "<date>", ",", "<time>", "<meridiem>"]],
  ["3 days ago · 12 Comments", ["<duration-en>", "ago", "·", "<counter-en>"]],
  ["the 1st and 22nd, le 1er et le 2e, el 3º", ["the", "<ordinal-en>", "and", "<ordinal-en>", ",", "le", "<ordinal-fr>", "et", "le", "<ordinal-fr>", ",", "el", "<ordinal-es-it>"]],
  ["Price 3,5 or 12.99 $", ["Price", "<decimal>", "or", "<decimal>", "$"]],
  ["See http://example.com/a?b=1. Mail me@example.org", ["See", "<url>", ".", "Mail", "<email>"]],
  ["lundi 3 mars 2008 · 12 commentaires", ["<day-fr>", "<integer>", "<month-fr>", "<integer>", "·", "<counter-fr>"]],
  ["Montag, 3. März 2008, vor 2 Stunden", ["<day-de>", ",", "<integer>", ".", "<month-de>", "<integer>", ",", "vor", "<duration-de>"]],
  ["miércoles 5 de mayo, hace 3 días", ["<day-es>", "<integer>", "de", "<month-es>", ",", "hace", "<duration-es>"]],
  ["venerdì 12 maggio, 4 commenti", ["<day-it>", "<integer>", "<month-it>", ",", "<counter-it>"]],
  ["Sun, Jan 8 — il y a 3 jours", ["<day-en-short>", ",", "<month-en-short>", "<integer>", "—", "il", "y", "a", "<duration-fr>"]],
  ["mp3 files, v2 and 3D", ["mp3", "files", ",", "v2", "and", "3D"]],
  ["日本語 text", ["日", "本", "語", "text"]],
];

describe("tokenizer and mutable patterns", () => {
  for (const [text, expected] of EXAMPLES) {
    it(`tokenizes ${JSON.stringify(text)}`, () => {
      expect(tokensOf(text)).toEqual(expected);
    });
  }

  it("marks block starts and spaces before tokens", () => {
    const columns = new TokenColumns();
    tokenizeText("Home | News\nLatest stories", createDictionary(), columns);
    expect(Array.from(columns.flags.subarray(0, columns.size))).toEqual([2, 1, 1, 3, 1]);
    expect(Array.from(columns.textStart.subarray(0, columns.size))).toEqual([0, 5, 7, 12, 19]);
  });

  it("emits a safe pattern for every class, in the contexts the rule writer puts it", () => {
    for (const pattern of MUTABLE_PATTERNS) {
      if (pattern.emit === null) continue;
      for (const context of [`Posted\\s+${pattern.emit}\\s+ago`, `Posted\\s*:\\s*${pattern.emit}\\s*\\.`, `x\\s+${pattern.emit}`]) {
        expect(checkPatternSafety(context), `${pattern.name}: ${context}`).toEqual({ safe: true });
      }
    }
  });

  it("emits patterns that match everything their match regex recognises", () => {
    const samples = EXAMPLES.map(([text]) => text).join("\n");
    const dictionary = createDictionary();
    const columns = new TokenColumns();
    tokenizeText(samples, dictionary, columns);
    let classes = 0;
    for (let t = 0; t < columns.size; t++) {
      const pattern = dictionary.patterns[columns.entries[t]!];
      if (pattern === undefined || pattern.emit === null) continue;
      classes++;
      const value = samples.slice(columns.textStart[t], columns.textEnd[t]);
      expect(fullMatch(pattern.emit, value), `${pattern.name}: ${value}`).toBe(true);
    }
    expect(classes).toBeGreaterThan(30);
  });
});

const DAYS = ["Monday", "Tuesday", "Friday", "Sunday"];
const MONTHS = ["January", "March", "May", "October", "December"];

/** A template line full of mutable values; `random` picks the values. */
function templateLine(random: () => number): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const number = (limit: number) => 1 + Math.floor(random() * limit);
  return `Posted on ${pick(DAYS)}, ${pick(MONTHS)} ${number(28)}, ${2000 + number(20)} at ${number(12)}:${String(number(59)).padStart(2, "0")} pm · ${number(400)} comments · ${number(9)}.${number(9)} stars (updated ${number(28)}/${number(12)}/2012)`;
}

function syntheticSite(random: () => number, pages: number): string[] {
  const words = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau".split(" ");
  return Array.from({ length: pages }, () => {
    const content = Array.from({ length: 120 }, () => words[Math.floor(random() * words.length)]).join(" ");
    return `Home | World | Sport (live)\n${templateLine(random)}\n${content}\nShare: Facebook · Twitter · E-mail [+]`;
  });
}

describe("rule patterns from mined strings", () => {
  it("match the source text of every occurrence they were written from", () => {
    const random = seededRandom(11);
    const pages = syntheticSite(random, 12);
    const mining = mineSite(pages, DEFAULT_MINING_OPTIONS);
    const { corpus, repeats, suffixArray } = mining;
    let checked = 0;
    for (const repeat of mining.candidates) {
      const written = writePatterns(corpus, repeats.position[repeat]!, repeats.length[repeat]!, DEFAULT_MINING_OPTIONS);
      for (const piece of written.patterns) {
        const offset = piece.position - repeats.position[repeat]!;
        for (let rank = repeats.firstRank[repeat]!; rank <= repeats.lastRank[repeat]!; rank++) {
          const start = suffixArray[rank]! + offset;
          const end = start + piece.tokens - 1;
          const page = corpus.documentOf[start]!;
          const source = pages[page]!.slice(corpus.textStart[start], corpus.textEnd[end]);
          expect(fullMatch(piece.pattern, source), `${piece.pattern} on ${JSON.stringify(source)}`).toBe(true);
          expect(entryAt(corpus, start)).toBeGreaterThanOrEqual(0);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it("generalise the template over new mutable values, and every written pattern is safe", () => {
    const random = seededRandom(12);
    const [report] = mineSites([{ site: "synthetic.example", pageTexts: syntheticSite(random, 12) }]);
    expect(report!.problems).toEqual([]);
    const patterns = report!.ruleSet.rules.map((rule) => rule.pattern);
    for (const pattern of patterns) expect(checkPatternSafety(pattern), pattern).toEqual({ safe: true });
    const fresh = seededRandom(99);
    for (let variant = 0; variant < 50; variant++) {
      // The navigation and the line above are one template string: one rule spans both blocks.
      const text = `Home | World | Sport (live)\n${templateLine(fresh)}`;
      expect(patterns.some((pattern) => fullMatch(pattern, text)), `a rule matches all of ${text}`).toBe(true);
    }
    expect(patterns.some((pattern) => fullMatch(pattern, "Share: Facebook · Twitter · E-mail [+]"))).toBe(true);
  });

  it("cuts strings at URLs and e-mails, which have no safe pattern", () => {
    const pages = Array.from({ length: 6 }, (_, p) => `Read more at http://example.com/story/${p} or write to editor${p}@example.com today`);
    const corpus = buildCorpus(pages);
    const written = writePatterns(corpus, 0, corpus.pageStart[1]! - 1, DEFAULT_MINING_OPTIONS);
    expect(written.patterns.map((piece) => piece.pattern)).toEqual(["Read\\s+more\\s+at", "or\\s+write\\s+to"]);
  });

  it("leaves sentence marks at a string's edges to the text beside it", () => {
    const pages = Array.from({ length: 6 }, (_, p) => `Story ${"abcdef"[p]} ends. Share this story: Facebook, X. Next`);
    const corpus = buildCorpus(pages);
    const start = corpus.pageStart[0]! + 3; // the "." that ends the story's sentence
    const written = writePatterns(corpus, start, 8, DEFAULT_MINING_OPTIONS);
    expect(written.patterns.map((piece) => piece.pattern)).toEqual(["Share\\s+this\\s+story\\s*:\\s*Facebook\\s*,\\s*X"]);
  });

  it("leaves the page's own values (a date, a count) at a string's edges to the page", () => {
    // Only the format of "14 March 2026" or "12 comments" repeats; the value is this page's, as a byline's date.
    const pages = Array.from({ length: 6 }, (_, p) => `${p + 3} March 2026 · Share this story · ${p * 7 + 2} comments`);
    const corpus = buildCorpus(pages);
    const written = writePatterns(corpus, 0, corpus.pageStart[1]! - 1, DEFAULT_MINING_OPTIONS);
    const patterns = written.patterns.map((piece) => piece.pattern);
    expect(patterns).toHaveLength(1);
    expect(fullMatch(patterns[0]!, "· Share this story ·")).toBe(true);
    expect(written.skippedTokens).toBe(4);
  });
});
