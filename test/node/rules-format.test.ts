/** RuleSet validation, compiling, and the isolate cache. */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import {
  compileRuleSet,
  createRuleSetCache,
  parseRuleSet,
  parseRuleSetText,
  RULESET_VERSION,
  type RuleSet,
} from "../../src/rules/index";

const REPOSITORY_ROOT = resolve(import.meta.dirname, "../..");

function validRuleSet(overrides: Partial<RuleSet> = {}): RuleSet {
  return {
    version: RULESET_VERSION,
    site: "news.example",
    minedAt: "2026-11-21T12:00:00.000Z",
    pages: 10,
    cutoff: 0.4,
    mutablePatterns: [{ name: "integer", pattern: "\\d+" }],
    rules: [
      { pattern: "Home\\s+News\\s+Sport", docFreq: 10, count: 10, tokens: 3 },
      { pattern: "Share\\s+this\\s+story", docFreq: 8, count: 9, tokens: 3 },
    ],
    ...overrides,
  };
}

describe("parseRuleSet", () => {
  it("accepts a valid rule set and returns it", () => {
    const parsed = parseRuleSet(validRuleSet());
    expect(parsed).toEqual({ ok: true, ruleSet: validRuleSet() });
  });

  it("accepts every rule set the project ships in rules/, with safe patterns", () => {
    const files = readdirSync(join(REPOSITORY_ROOT, "rules")).filter((name) => name.endsWith(".json") && name !== "model.json");
    for (const file of files) {
      const parsed = parseRuleSetText(readFileSync(join(REPOSITORY_ROOT, "rules", file), "utf8"), { checkPatterns: true });
      expect(parsed.ok ? [] : parsed.problems, file).toEqual([]);
    }
  });

  it("keeps the default mode a set chose and how, refuses a mode it cannot choose, and compiles the mode", () => {
    const chosen = validRuleSet({ defaultMode: { mode: "classifier", by: "held-back", note: "the rules removed page-unique text on 1 of 3 held-back page(s)" } });
    expect(parseRuleSet(chosen)).toEqual({ ok: true, ruleSet: chosen });
    expect(compileRuleSet(chosen).defaultMode).toBe("classifier");
    expect(compileRuleSet(validRuleSet()).defaultMode).toBeUndefined();
    const wrong = parseRuleSet({ ...validRuleSet(), defaultMode: { mode: "none", by: "hand" } });
    expect(wrong.ok ? [] : wrong.problems.join(" ")).toMatch(/defaultMode\.mode/);
    expect(parseRuleSet({ ...validRuleSet(), defaultMode: { mode: "rules", by: "" } }).ok).toBe(false);
  });

  it("reports an unknown version as a problem", () => {
    const parsed = parseRuleSet({ ...validRuleSet(), version: 3 });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problems[0]).toMatch(/unsupported rule set version 3/);
  });

  it("reports every bad field with its path, without throwing", () => {
    const bad = {
      ...validRuleSet(),
      site: "www.News.example",
      minedAt: "yesterday",
      pages: -1,
      cutoff: 3,
      rules: [{ pattern: "", docFreq: 1.5, count: 1, tokens: 0 }],
    };
    const parsed = parseRuleSet(bad);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    const paths = parsed.problems.map((problem) => problem.split(":")[0]);
    expect(paths).toEqual(
      expect.arrayContaining(["site", "minedAt", "pages", "cutoff", "rules.0.pattern", "rules.0.docFreq", "rules.0.tokens"]),
    );
  });

  it.each(["March 7, 2026", "2026-11-21", "2026-13-45T99:00Z"])("reports minedAt %s that is not an ISO timestamp", (minedAt) => {
    const parsed = parseRuleSet({ ...validRuleSet(), minedAt });
    expect(parsed.ok ? [] : parsed.problems.map((problem) => problem.split(":")[0])).toEqual(["minedAt"]);
  });

  it.each([null, 42, "text", [], undefined])("reports a non-object value (%s)", (value) => {
    expect(parseRuleSet(value).ok).toBe(false);
  });

  it("reports inconsistent statistics and, when asked, unsafe patterns", () => {
    const ruleSet = validRuleSet({
      rules: [
        { pattern: "Home\\s+News", docFreq: 11, count: 11, tokens: 2 },
        { pattern: "Home\\s*\\s*News", docFreq: 5, count: 4, tokens: 2 },
      ],
    });
    const lenient = parseRuleSet(ruleSet);
    expect(lenient.ok ? [] : lenient.problems).toEqual([
      "rules.0.docFreq: 11 exceeds pages (10)",
      "rules.1.count: 4 is below docFreq (5)",
    ]);
    const strict = parseRuleSet(ruleSet, { checkPatterns: true });
    expect(strict.ok ? [] : strict.problems).toHaveLength(3);
  });

  it("refuses fields it does not know, each named with its path, at the top and inside rules and the default mode", () => {
    const misspelt = { ...validRuleSet(), strp: [".nav"], rules: [{ ...validRuleSet().rules[0], weight: 2 }], defaultMode: { mode: "rules", by: "hand", why: "x" } };
    const parsed = parseRuleSet(misspelt);
    expect(parsed.ok ? [] : parsed.problems.map((problem) => problem.split(":")[0])).toEqual(["rules.0.weight", "strp", "defaultMode.why"]);
    expect(parsed.ok ? "" : parsed.problems[1]).toMatch(/^strp: unknown field \(expected one of version, site, .*strip/);
    // Refused whether or not patterns are checked: the Worker reports such a stored set as invalid too.
    expect(parseRuleSet(misspelt, { checkPatterns: true }).ok).toBe(false);
  });

  it("checks mutable patterns like the rules' own when asked: a nested quantifier is refused, the miner's classes pass", () => {
    const nested = validRuleSet({ mutablePatterns: [{ name: "integer", pattern: "\\d+" }, { name: "evil", pattern: "(a+)+$" }, { name: "worse", pattern: "(?:a+)+b" }] });
    expect(parseRuleSet(nested).ok).toBe(true); // recorded for the reader, never compiled: refused when publishing
    const strict = parseRuleSet(nested, { checkPatterns: true });
    expect(strict.ok ? [] : strict.problems).toEqual([
      expect.stringMatching(/^mutablePatterns\.1\.pattern: unsafe \(/),
      "mutablePatterns.2.pattern: unsafe (a quantified class overlaps what can follow it (adjacent quantifiers must have disjoint classes))",
    ]);
    const shipped = ["\\d+", "\\d{1,2}:\\d{2}(?::\\d{2})?", "\\d+[.,]\\d+", "\\d{1,4}[./-]\\d{1,2}[./-]\\d{1,4}", "\\d+(?:st|nd|rd|th)", "(?:Mon|MON|Tue|TUE)"];
    expect(parseRuleSet(validRuleSet({ mutablePatterns: shipped.map((pattern, index) => ({ name: `class-${index}`, pattern })) }), { checkPatterns: true }).ok).toBe(true);
  });

  it("reports text that is not JSON", () => {
    const parsed = parseRuleSetText("{ not json");
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problems[0]).toMatch(/^not JSON/);
  });
});

describe("compileRuleSet", () => {
  it("compiles safe rules once and lists the skipped ones with reasons", () => {
    const compiled = compileRuleSet(
      validRuleSet({
        rules: [
          { pattern: "Home\\s+News", docFreq: 5, count: 5, tokens: 2 },
          { pattern: "(a+)+$", docFreq: 5, count: 5, tokens: 1 },
          { pattern: "Home\\s+News", docFreq: 5, count: 5, tokens: 2 },
          { pattern: "Share\\s+this", docFreq: 5, count: 5, tokens: 2 },
          { pattern: "Sign\\s+up", docFreq: 5, count: 5, tokens: 2 },
        ],
      }),
      { maxRules: 2 },
    );
    expect(compiled.rules.map((rule) => rule.index)).toEqual([0, 3]);
    expect(compiled.rules[0].regex.flags).toBe("g");
    expect(compiled.skipped.map((rule) => [rule.index, rule.reason.split(/[: ]/)[0]])).toEqual([
      [1, "unsafe"],
      [2, "duplicate"],
      [4, "over"],
    ]);
  });

  it("skips a pattern over the length limit", () => {
    const compiled = compileRuleSet(validRuleSet(), { maxPatternLength: 12 });
    expect(compiled.rules).toHaveLength(0);
    expect(compiled.skipped.every((rule) => rule.reason.includes("exceeds 12"))).toBe(true);
  });
});

describe("createRuleSetCache", () => {
  function clock() {
    const state = { now: 1_000 };
    return { state, now: () => state.now };
  }

  it("serves an entry until its TTL ends, then reads again", async () => {
    const { state, now } = clock();
    const cache = createRuleSetCache({ ttlMilliseconds: 500, maxEntries: 4, now });
    let reads = 0;
    const read = async () => {
      reads += 1;
      return JSON.stringify(validRuleSet());
    };
    const first = await cache.load("news.example", read);
    expect(first.status).toBe("compiled");
    state.now += 499;
    expect(await cache.load("news.example", read)).toBe(first);
    expect(reads).toBe(1);
    state.now += 1;
    expect(cache.lookup("news.example")).toBeUndefined();
    const again = await cache.load("news.example", read);
    expect(reads).toBe(2);
    // Same site, version and minedAt: the compiled rules are reused, not rebuilt.
    expect(again).toBe(first);
  });

  it("serves an entry for the TTL a lookup gives (the deployment's RULES_CACHE_TTL) over its own", async () => {
    const { state, now } = clock();
    const cache = createRuleSetCache({ ttlMilliseconds: 60_000, maxEntries: 4, now });
    let reads = 0;
    const read = async () => {
      reads += 1;
      return null;
    };
    await cache.load("news.example", read, 1_000);
    state.now += 999;
    await cache.load("news.example", read, 1_000);
    expect(reads).toBe(1);
    state.now += 1;
    expect(cache.lookup("news.example", 1_000)).toBeUndefined();
    expect(cache.lookup("news.example")).toEqual({ status: "missing" });
    await cache.load("news.example", read, 1_000);
    expect(reads).toBe(2);
    // 0: read on every load.
    await cache.load("news.example", read, 0);
    await cache.load("news.example", read, 0);
    expect(reads).toBe(4);
  });

  it("recompiles when minedAt changes, and remembers missing and invalid rule sets", () => {
    const { now } = clock();
    const cache = createRuleSetCache({ ttlMilliseconds: 500, maxEntries: 4, now });
    const first = cache.store("news.example", JSON.stringify(validRuleSet()));
    const second = cache.store("news.example", JSON.stringify(validRuleSet({ minedAt: "2026-11-22T00:00:00.000Z" })));
    expect(second).not.toBe(first);
    expect(second.status === "compiled" && second.compiled.minedAt).toBe("2026-11-22T00:00:00.000Z");
    expect(cache.store("none.example", null)).toEqual({ status: "missing" });
    expect(cache.lookup("none.example")).toEqual({ status: "missing" });
    const invalid = cache.store("bad.example", "{}");
    expect(invalid.status).toBe("invalid");
  });

  it("keeps at most maxEntries sites, dropping the oldest", () => {
    const { now } = clock();
    const cache = createRuleSetCache({ ttlMilliseconds: 500, maxEntries: 2, now });
    cache.store("a.example", null);
    cache.store("b.example", null);
    cache.store("c.example", null);
    expect(cache.size).toBe(2);
    expect(cache.lookup("a.example")).toBeUndefined();
    expect(cache.lookup("c.example")).toEqual({ status: "missing" });
  });
});
