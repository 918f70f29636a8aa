/**
 * Order-free cleaning with rules (paper 002, 3.4.1): every rule runs over the unchanged page text, every match
 * becomes a [start, end) interval, and the result is the union of all of them, whatever the rule order.
 * Intervals separated only by a short run of white space or punctuation then merge into one.
 */
import { RULES_MAX_MATCHES_PER_PAGE, RULES_MERGE_GAP_MAX_CHARACTERS } from "../config";
import type { CompiledRuleSet } from "./compile";

/** Text positions must stay below this (2^26 code units, 64 Mi) for the packing below; longer texts get no rules. */
const MATCH_POSITION_LIMIT = 2 ** 26;

export interface IntervalOptions {
  /** Longest gap (UTF-16 code units) of white space and punctuation that joins two intervals. */
  readonly mergeGap: number;
  /** Most matches collected on a page; beyond it no text is removed (the page is kept rather than cut unevenly). */
  readonly maxMatches: number;
}

export const DEFAULT_INTERVAL_OPTIONS: IntervalOptions = Object.freeze({
  mergeGap: RULES_MERGE_GAP_MAX_CHARACTERS,
  maxMatches: RULES_MAX_MATCHES_PER_PAGE,
});

export const EMPTY_INTERVALS: Int32Array = new Int32Array(0);

/**
 * Matches packed one per double as start · 2^26 + end (exact: both are below 2^26), so a plain numeric
 * typed-array sort orders them by start, then end, with no comparator and no per-match objects.
 * Reused between calls; grown by doubling.
 */
let packedMatches = new Float64Array(1024);
/** Merged output pairs before the exact-size copy; reused between calls. */
let mergedPairs = new Int32Array(2048);

/** Sorted, disjoint, gap-merged [start, end) pairs, flattened, of all matches of all rules in `text`. */
export function findRuleIntervals(
  compiled: CompiledRuleSet,
  text: string,
  options: Partial<IntervalOptions> = {},
): Int32Array {
  const { mergeGap, maxMatches } = { ...DEFAULT_INTERVAL_OPTIONS, ...options };
  if (text.length >= MATCH_POSITION_LIMIT) return EMPTY_INTERVALS;
  const matchCount = collectMatches(compiled, text, maxMatches);
  if (matchCount <= 0) return EMPTY_INTERVALS;
  const sorted = packedMatches.subarray(0, matchCount).sort();
  return mergeSorted(sorted, text, mergeGap);
}

/** Runs every rule over the text and packs its matches; returns the count, or -1 past maxMatches. */
function collectMatches(compiled: CompiledRuleSet, text: string, maxMatches: number): number {
  let count = 0;
  for (const { regex } of compiled.rules) {
    regex.lastIndex = 0;
    for (let match = regex.exec(text); match !== null; match = regex.exec(text)) {
      const start = match.index;
      const end = regex.lastIndex;
      if (end === start) {
        // Safe patterns never match empty; step over it anyway rather than loop.
        regex.lastIndex = start + 1;
        continue;
      }
      if (count === maxMatches) return -1;
      if (count === packedMatches.length) packedMatches = growFloat64(packedMatches);
      packedMatches[count] = start * MATCH_POSITION_LIMIT + end;
      count += 1;
    }
  }
  return count;
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

/** ASCII code → 1 when it is white space, a control, punctuation or a symbol; 0 for letters and digits. */
const ASCII_SEPARATOR = new Uint8Array(128).map((_, code) => (/[0-9A-Za-z]/.test(String.fromCharCode(code)) ? 0 : 1));
/** Letters, digits and combining marks: content, never a separator. */
const CONTENT_CHARACTER = /[\p{L}\p{N}\p{M}]/u;

/**
 * A separator is anything that is not a letter, digit or combining mark (Unicode categories L, N, M):
 * white space, punctuation, symbols. Surrogate halves count as content (astral letters are the common case).
 */
export function isSeparatorCode(code: number): boolean {
  if (code < 0x80) return ASCII_SEPARATOR[code] === 1;
  if (code >= 0xd800 && code <= 0xdfff) return false;
  return !CONTENT_CHARACTER.test(String.fromCharCode(code));
}
