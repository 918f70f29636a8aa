/**
 * The pathological input families of the scaling tests (each built at size n and 4n), and the ratio measure:
 * the median of three timed runs at 4n over the median at n. Linear work gives about 4; quadratic about 16.
 * No Node API, so the Worker tests use it too.
 */
import { compileRuleSet, parseRuleSet, type CompiledRuleSet } from "../../src/rules/index";

/** Ratio bound for 4x the input: near linear (n log n and noise stay under it, quadratic is far above). */
export const MAX_RATIO = 6;

/** An ordinary article page of about `paragraphs` × 400 characters, which the pathological prefixes sit before. */
export function articlePage(paragraphs: number): string {
  const sentence = "The harbour board approved the dredging plan after a long meeting on Tuesday evening. ";
  const body = Array.from({ length: paragraphs }, (_, index) => `<p>${index}: ${sentence.repeat(4)}</p>`).join("\n");
  return `<!doctype html><html><head><title>Harbour</title></head><body><nav><a href="/">Home</a></nav><article>${body}</article></body></html>`;
}

/** The families: name → input of size n (the unit repeated n times, before or around the rest). */
export const FAMILIES = {
  unclosedLists: (n: number): string => "<ul><li>".repeat(n) + articlePage(60),
  repeatedBody: (n: number): string => "<body".repeat(n),
  feedItemLessThan: (n: number): string => "<".repeat(n),
  feedItemComments: (n: number): string => "<!--".repeat(n),
  /** A page of n links and nothing else (n = 200,000 is the 3.8 MB page of the hostile load scenario). */
  links: (n: number): string => linkPage(n),
} as const;

/** n links with relative URLs, one after the other, about 19 bytes each. */
export function linkPage(n: number): string {
  const links: string[] = [];
  for (let index = 0; index < n; index++) links.push(`<a href=/${index}>${index % 10}</a>`);
  return `<html><body>${links.join("")}</body></html>`;
}

const RULE_WORDS = Array.from({ length: 400 }, (_, index) => `w${index.toString(36)}q`);

/** Page text of about `characters` code units made of the rule words (every rule's words are on the page). */
export function ruleText(characters: number): string {
  const parts: string[] = [];
  let length = 0;
  for (let index = 0; length < characters; index++) {
    const word = RULE_WORDS[(index * 7919) % RULE_WORDS.length] + (index % 13 === 0 ? ".\n" : " ");
    parts.push(word);
    length += word.length;
  }
  return parts.join("");
}

/** `count` accepted, linear rules whose required words are all on ruleText's pages (so the prefilter runs them all). */
export function manyRules(count: number): CompiledRuleSet {
  return rulesOf(Array.from({ length: count }, (_, index) =>
    `${RULE_WORDS[index % RULE_WORDS.length]}\\s+${RULE_WORDS[(index * 31 + 1) % RULE_WORDS.length]}\\s+\\d+`));
}

/** A compiled rule set of these patterns (each must pass validation). */
export function rulesOf(patterns: readonly string[]): CompiledRuleSet {
  const rules = patterns.map((pattern) => ({ pattern, docFreq: 1, count: 1, tokens: 3 }));
  const parsed = parseRuleSet({ version: 1, site: "scaling.test", minedAt: "2026-01-01T00:00:00Z", pages: 1, cutoff: 0.5, mutablePatterns: [], rules });
  if (!parsed.ok) throw new Error(parsed.problems.join("; "));
  return compileRuleSet(parsed.ruleSet);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Milliseconds that `runs` runs of `run(value)` take, one after the other. */
async function timed<T>(value: T, runs: number, run: (value: T) => unknown): Promise<number> {
  const start = performance.now();
  for (let index = 0; index < runs; index++) await run(value);
  return performance.now() - start;
}

/** Least duration of one timed batch of runs on the small input: workerd's clock counts whole milliseconds. */
const MIN_BATCH_MS = 20;

/**
 * Times `run(input(n))` and `run(input(4n))`, three times each after one warm-up; returns both medians (per
 * run) and their ratio. Each timing is a batch of runs, as many as make the small input's batch last
 * MIN_BATCH_MS, so that a clock that steps by a millisecond cannot turn a 1 ms run into a ratio of noise.
 */
export async function scalingRatio<T>(
  input: (n: number) => T,
  n: number,
  run: (value: T) => unknown,
): Promise<{ small: number; large: number; ratio: number }> {
  const smallInput = input(n);
  const largeInput = input(4 * n);
  await run(smallInput);
  let runs = 1;
  while (runs < 1024 && (await timed(smallInput, runs, run)) < MIN_BATCH_MS) runs *= 2;
  const small: number[] = [];
  const large: number[] = [];
  for (let round = 0; round < 3; round++) {
    small.push((await timed(smallInput, runs, run)) / runs);
    large.push((await timed(largeInput, runs, run)) / runs);
  }
  const smallMedian = median(small);
  const largeMedian = median(large);
  return { small: smallMedian, large: largeMedian, ratio: largeMedian / smallMedian };
}
