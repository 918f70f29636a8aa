/**
 * Order-free cleaning with rules (paper 002, 3.4.1): every rule runs over the unchanged page text, every match
 * becomes a [start, end) interval, and the result is the union of all of them, whatever the rule order.
 * Intervals separated only by a short run of white space or punctuation then merge into one, and only their
 * pieces that cut no sentence are applied (content-edges.ts).
 */
import { RULES_MAX_MATCHES_PER_PAGE, RULES_MAX_SCAN_CHARACTERS, RULES_MERGE_GAP_MAX_CHARACTERS } from "../config";
import type { CompiledRuleSet } from "./compile";
import { contentEdgeIntervals } from "./content-edges";
import { isSeparatorCode, WordFinder } from "./prefilter";
import { matchPrefixedRules } from "./prefixed-rules";

/** Text positions must stay below this (2^26 code units, 64 Mi) for the packing below; longer texts get no rules. */
const MATCH_POSITION_LIMIT = 2 ** 26;

export interface IntervalOptions {
  /** Longest gap (UTF-16 code units) of white space and punctuation that joins two intervals. */
  readonly mergeGap: number;
  /** Most matches collected on a page; beyond it no text is removed (the page is kept rather than cut unevenly). */
  readonly maxMatches: number;
  /** Most text scanned by rules on a page, in UTF-16 code units summed over the rules that run; beyond it no text is removed. */
  readonly maxScanCharacters: number;
  /** Called every few rules and matches: true stops matching (the page's time budget is spent). */
  readonly expired?: () => boolean;
  /**
   * Keep only the pieces that cut no sentence (content-edges.ts); true wherever rules clean. False gives the raw
   * union of the matches, for tests of the union itself and for tools that show what a rule matches.
   */
  readonly contentEdges: boolean;
}

export const DEFAULT_INTERVAL_OPTIONS: IntervalOptions = Object.freeze({
  mergeGap: RULES_MERGE_GAP_MAX_CHARACTERS,
  maxMatches: RULES_MAX_MATCHES_PER_PAGE,
  maxScanCharacters: RULES_MAX_SCAN_CHARACTERS,
  contentEdges: true,
});

/** Why matching stopped before the end: too many matches, too much text to scan, or the time budget spent. */
export type RuleOverflow = "too-many-rule-matches" | "rule-work" | "time-budget";

/** Intervals of the rules' matches, or why there are none when matching stopped early. */
export interface RuleMatching {
  readonly intervals: Int32Array;
  readonly overflow: RuleOverflow | null;
}

/** Matches between two checks of the time budget. */
const EXPIRY_CHECK_MATCHES = 4096;

export const EMPTY_INTERVALS: Int32Array = new Int32Array(0);

/**
 * Matches packed one per double as start · 2^26 + end (exact: both are below 2^26), so a plain numeric
 * typed-array sort orders them by start, then end, with no comparator and no per-match objects.
 * Reused between calls; grown by doubling.
 */
let packedMatches = new Float64Array(1024);
/** Merged output pairs before the exact-size copy; reused between calls. */
let mergedPairs = new Int32Array(2048);

/** Sorted, disjoint, gap-merged [start, end) pairs, flattened, of all matches of all rules in `text` (none when matching overflows). */
export function findRuleIntervals(
  compiled: CompiledRuleSet,
  text: string,
  options: Partial<IntervalOptions> = {},
): Int32Array {
  return matchRules(compiled, text, options).intervals;
}

/** findRuleIntervals, saying why matching stopped when it did (the caller reports it instead of cleaning silently less). */
export function matchRules(compiled: CompiledRuleSet, text: string, options: Partial<IntervalOptions> = {}): RuleMatching {
  const resolved: IntervalOptions = { ...DEFAULT_INTERVAL_OPTIONS, ...options };
  if (text.length >= MATCH_POSITION_LIMIT) return { intervals: EMPTY_INTERVALS, overflow: "rule-work" };
  const matchCount = collectMatches(compiled, text, resolved);
  if (typeof matchCount === "string") return { intervals: EMPTY_INTERVALS, overflow: matchCount };
  if (matchCount === 0) return { intervals: EMPTY_INTERVALS, overflow: null };
  const sorted = packedMatches.subarray(0, matchCount).sort();
  const merged = mergeSorted(sorted, text, resolved.mergeGap);
  return { intervals: resolved.contentEdges ? contentEdgeIntervals(text, merged) : merged, overflow: null };
}

/**
 * Runs the rules whose required words are all in the text and packs their matches; returns the count, or why
 * it stopped. Each rule that runs counts one scan of the text (safe patterns are linear), so the work is bounded
 * by maxScanCharacters whatever the rule count and the page; it is checked before any rule runs.
 */
function collectMatches(compiled: CompiledRuleSet, text: string, options: IntervalOptions): number | RuleOverflow {
  const words = wordFinder(compiled).foundIn(text);
  const { maxMatches, maxScanCharacters, expired } = options;
  const rules = compiled.rules;
  const running = new Uint8Array(rules.length);
  let scanned = 0;
  for (let rule = 0; rule < rules.length; rule++) {
    if (!rules[rule].words.every((word) => words.has(word))) continue;
    scanned += text.length;
    if (scanned > maxScanCharacters) return "rule-work";
    running[rule] = 1;
  }
  let count = 0;
  /** Packs one match; says why matching stops, or null. */
  const add = (start: number, end: number): RuleOverflow | null => {
    if (count === maxMatches) return "too-many-rule-matches";
    if (count % EXPIRY_CHECK_MATCHES === EXPIRY_CHECK_MATCHES - 1 && expired?.() === true) return "time-budget";
    if (count === packedMatches.length) packedMatches = growFloat64(packedMatches);
    packedMatches[count] = start * MATCH_POSITION_LIMIT + end;
    count += 1;
    return null;
  };
  for (let rule = 0; rule < rules.length; rule++) {
    if (running[rule] === 0 || rules[rule].prefixed !== null) continue;
    if (expired?.() === true) return "time-budget";
    const regex = rules[rule].regex;
    regex.lastIndex = 0;
    for (let match = regex.exec(text); match !== null; match = regex.exec(text)) {
      const start = match.index;
      const end = regex.lastIndex;
      if (end === start) {
        // Safe patterns never match empty; step over it anyway rather than loop.
        regex.lastIndex = start + 1;
        continue;
      }
      const stop = add(start, end);
      if (stop !== null) return stop;
    }
  }
  if (expired?.() === true) return "time-budget";
  const stop = matchPrefixedRules(compiled, text, running, add, expired);
  return stop ?? count;
}

/** Each compiled set's finder of its rules' required words, made on its first page (a set is compiled once per isolate and kept). */
const wordFinders = new WeakMap<CompiledRuleSet, WordFinder>();

function wordFinder(compiled: CompiledRuleSet): WordFinder {
  let finder = wordFinders.get(compiled);
  if (finder === undefined) wordFinders.set(compiled, (finder = new WordFinder(compiled.rules.flatMap((rule) => rule.words))));
  return finder;
}

function mergeSorted(sorted: Float64Array, text: string, mergeGap: number): Int32Array {
  let pairCount = 0;
  let currentStart = -1;
  let currentEnd = -1;
  for (let index = 0; index < sorted.length; index += 1) {
    const start = Math.floor(sorted[index] / MATCH_POSITION_LIMIT);
    const end = sorted[index] - start * MATCH_POSITION_LIMIT;
    if (currentEnd >= 0 && (start <= currentEnd || isSeparatorGap(text, currentEnd, start, mergeGap))) {
      if (end > currentEnd) currentEnd = end;
      continue;
    }
    if (currentEnd >= 0) pairCount = pushPair(pairCount, currentStart, currentEnd);
    currentStart = start;
    currentEnd = end;
  }
  pairCount = pushPair(pairCount, currentStart, currentEnd);
  return mergedPairs.slice(0, pairCount * 2);
}

function pushPair(pairCount: number, start: number, end: number): number {
  if (pairCount * 2 + 2 > mergedPairs.length) {
    const grown = new Int32Array(mergedPairs.length * 2);
    grown.set(mergedPairs);
    mergedPairs = grown;
  }
  mergedPairs[pairCount * 2] = start;
  mergedPairs[pairCount * 2 + 1] = end;
  return pairCount + 1;
}

function growFloat64(array: Float64Array): Float64Array<ArrayBuffer> {
  const grown = new Float64Array(array.length * 2);
  grown.set(array);
  return grown;
}

/** True when text[from, to) is at most mergeGap code units, all of them white space or punctuation. */
function isSeparatorGap(text: string, from: number, to: number, mergeGap: number): boolean {
  if (to - from > mergeGap) return false;
  for (let position = from; position < to; position += 1) {
    if (!isSeparatorCode(text.charCodeAt(position))) return false;
  }
  return true;
}
