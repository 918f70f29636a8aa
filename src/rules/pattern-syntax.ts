/**
 * Parser of the restricted regular-expression subset that site rules may use (grammar in pattern-safety.ts).
 * It only reads syntax; whether a parsed pattern is safe to run is decided by checkPatternSafety.
 * Anything outside the subset is refused with a reason, never thrown.
 */
import {
  type CharSet,
  complement,
  DIGIT_SET,
  DOT_SET,
  fromRanges,
  singleton,
  SPACE_SET,
  union,
  WORD_SET,
} from "./char-set";

/** One code-unit class repeated between min and max times (max is Infinity when unbounded). A literal is a one-unit set. */
export interface AtomElement {
  readonly kind: "atom";
  readonly set: CharSet;
  readonly min: number;
  readonly max: number;
}

/** A non-capturing group `(?:a|b|…)`, repeated between min and max times. */
export interface GroupElement {
  readonly kind: "group";
  readonly alternatives: readonly (readonly PatternElement[])[];
  readonly min: number;
  readonly max: number;
}

export type PatternElement = AtomElement | GroupElement;

export type PatternParse = { ok: true; elements: readonly PatternElement[] } | { ok: false; reason: string };

/** Upper bound of `{n,m}` counts: large counts make engines unroll big automata; rules never need them. */
export const MAX_QUANTIFIER_BOUND = 1000;
/** Deepest group nesting accepted: two levels cover every mutable pattern the miner writes. */
export const MAX_GROUP_DEPTH = 2;

interface Cursor {
  readonly pattern: string;
  position: number;
  failure: string | null;
}

export function parsePattern(pattern: string): PatternParse {
  const cursor: Cursor = { pattern, position: 0, failure: null };
  const elements = parseSequence(cursor, 0);
  if (cursor.failure === null && cursor.position < pattern.length) {
    const character = pattern[cursor.position];
    fail(cursor, character === "|" ? "alternation outside a group" : `unbalanced "${character}"`);
  }
  if (cursor.failure !== null || elements === null) return { ok: false, reason: cursor.failure ?? "unparsable" };
  if (elements.length === 0) return { ok: false, reason: "empty pattern" };
  return { ok: true, elements };
}

/**
 * Where each top-level element of a pattern ends in its source (the offset after it), or null when the pattern does
 * not parse. Two patterns whose sources agree up to one of these offsets share those elements.
 */
export function topLevelElementEnds(pattern: string): number[] | null {
  const cursor: Cursor = { pattern, position: 0, failure: null };
  const ends: number[] = [];
  while (cursor.position < pattern.length) {
    const character = pattern[cursor.position];
    if (character === "|" || character === ")" || parseElement(cursor, 0) === null) return null;
    ends.push(cursor.position);
  }
  return ends;
}

function fail(cursor: Cursor, reason: string): null {
  if (cursor.failure === null) cursor.failure = `${reason} at offset ${cursor.position}`;
  return null;
}

/** Elements up to the end, a "|" or a ")" (left for the caller). */
function parseSequence(cursor: Cursor, depth: number): PatternElement[] | null {
  const elements: PatternElement[] = [];
  while (cursor.position < cursor.pattern.length) {
    const character = cursor.pattern[cursor.position];
    if (character === "|" || character === ")") break;
    const element = parseElement(cursor, depth);
    if (element === null) return null;
    elements.push(element);
  }
  return elements;
}

function parseElement(cursor: Cursor, depth: number): PatternElement | null {
  const character = cursor.pattern[cursor.position];
  if (character === "(") return parseGroup(cursor, depth);
  const set = parseAtomSet(cursor);
  if (set === null) return null;
  const bounds = parseQuantifier(cursor);
  if (bounds === null) return null;
  return { kind: "atom", set, min: bounds[0], max: bounds[1] };
}

function parseAtomSet(cursor: Cursor): CharSet | null {
  const character = cursor.pattern[cursor.position];
  switch (character) {
    case "[":
      return parseClass(cursor);
    case "\\":
      return parseEscape(cursor, false);
    case ".":
      cursor.position += 1;
      return DOT_SET;
    case "^":
    case "$":
      return fail(cursor, "anchors are not supported");
    case "*":
    case "+":
    case "?":
    case "{":
      return fail(cursor, "quantifier without an atom");
    case "]":
    case "}":
      return fail(cursor, `unescaped "${character}"`);
    default:
      cursor.position += 1;
      return singleton(character.charCodeAt(0));
  }
}

function parseGroup(cursor: Cursor, depth: number): GroupElement | null {
  if (!cursor.pattern.startsWith("(?:", cursor.position)) {
    const next = cursor.pattern.slice(cursor.position, cursor.position + 3);
    const kind = next.startsWith("(?=") || next.startsWith("(?!") || next.startsWith("(?<") ? "lookaround or named" : "capturing";
    return fail(cursor, `${kind} groups are not supported (use "(?:")`);
  }
  if (depth >= MAX_GROUP_DEPTH) return fail(cursor, `groups nested deeper than ${MAX_GROUP_DEPTH}`);
  cursor.position += 3;
  const alternatives: PatternElement[][] = [];
  for (;;) {
    const alternative = parseSequence(cursor, depth + 1);
    if (alternative === null) return null;
    if (alternative.length === 0) return fail(cursor, "empty alternative");
    alternatives.push(alternative);
    const character = cursor.pattern[cursor.position];
    cursor.position += 1;
    if (character === ")") break;
    if (character !== "|") return fail(cursor, "unclosed group");
  }
  const bounds = parseQuantifier(cursor);
  if (bounds === null) return null;
  return { kind: "group", alternatives, min: bounds[0], max: bounds[1] };
}

/** Reads an optional greedy quantifier; returns [min, max]. Lazy and stacked quantifiers are refused. */
function parseQuantifier(cursor: Cursor): [number, number] | null {
  const character = cursor.pattern[cursor.position];
  let bounds: [number, number];
  if (character === "?") bounds = [0, 1];
  else if (character === "*") bounds = [0, Infinity];
  else if (character === "+") bounds = [1, Infinity];
  else if (character === "{") {
    const match = /^\{(\d{1,4})(,(\d{0,4}))?\}/.exec(cursor.pattern.slice(cursor.position, cursor.position + 12));
    if (match === null) return fail(cursor, 'malformed "{…}" quantifier');
    const min = Number(match[1]);
    const max = match[2] === undefined ? min : match[3] === "" ? Infinity : Number(match[3]);
    if (min > max) return fail(cursor, "quantifier minimum above its maximum");
    if (min > MAX_QUANTIFIER_BOUND || (max !== Infinity && max > MAX_QUANTIFIER_BOUND)) {
      return fail(cursor, `quantifier bound above ${MAX_QUANTIFIER_BOUND}`);
    }
    cursor.position += match[0].length - 1;
    bounds = [min, max];
  } else {
    return [1, 1];
  }
  cursor.position += 1;
  const next = cursor.pattern[cursor.position];
  if (next === "?") return fail(cursor, "lazy quantifiers are not supported");
  if (next === "*" || next === "+" || next === "{") return fail(cursor, "stacked quantifiers");
  return bounds;
}

function parseClass(cursor: Cursor): CharSet | null {
  cursor.position += 1;
  const negated = cursor.pattern[cursor.position] === "^";
  if (negated) cursor.position += 1;
  if (cursor.pattern[cursor.position] === "]") return fail(cursor, "empty character class");
  const pairs: number[] = [];
  while (cursor.position < cursor.pattern.length && cursor.pattern[cursor.position] !== "]") {
    const low = parseClassMember(cursor);
    if (low === null) return null;
    const isRange =
      cursor.pattern[cursor.position] === "-" &&
      cursor.position + 1 < cursor.pattern.length &&
      cursor.pattern[cursor.position + 1] !== "]";
    if (!isRange) {
      pairs.push(...low);
      continue;
    }
    cursor.position += 1;
    const high = parseClassMember(cursor);
    if (high === null) return null;
    if (low.length !== 2 || high.length !== 2 || low[0] !== low[1] || high[0] !== high[1]) {
      return fail(cursor, "range bound is a class");
    }
    if (low[0] > high[0]) return fail(cursor, "range out of order");
    pairs.push(low[0], high[0]);
  }
  if (cursor.pattern[cursor.position] !== "]") return fail(cursor, "unclosed character class");
  cursor.position += 1;
  const set = fromRanges(pairs);
  return negated ? complement(set) : set;
}

function parseClassMember(cursor: Cursor): CharSet | null {
  const character = cursor.pattern[cursor.position];
  if (character === "\\") return parseEscape(cursor, true);
  cursor.position += 1;
  return singleton(character.charCodeAt(0));
}

const HEX_DIGITS = /^[0-9a-fA-F]+$/;
const CONTROL_ESCAPES: Readonly<Record<string, number>> = { n: 0x0a, r: 0x0d, t: 0x09, f: 0x0c, v: 0x0b };

/** A backslash escape: a class escape, a control escape, \xHH, \uHHHH, or an escaped ASCII punctuation mark. */
function parseEscape(cursor: Cursor, inClass: boolean): CharSet | null {
  const letter = cursor.pattern[cursor.position + 1];
  if (letter === undefined) return fail(cursor, "pattern ends with a backslash");
  cursor.position += 2;
  switch (letter) {
    case "d":
      return DIGIT_SET;
    case "D":
      return complement(DIGIT_SET);
    case "s":
      return SPACE_SET;
    case "S":
      return complement(SPACE_SET);
    case "w":
      return WORD_SET;
    case "W":
      return complement(WORD_SET);
  }
  if (letter in CONTROL_ESCAPES) return singleton(CONTROL_ESCAPES[letter]);
  if (letter === "x" || letter === "u") {
    const width = letter === "x" ? 2 : 4;
    const digits = cursor.pattern.slice(cursor.position, cursor.position + width);
    if (digits.length !== width || !HEX_DIGITS.test(digits)) return fail(cursor, `malformed \\${letter} escape`);
    cursor.position += width;
    return singleton(Number.parseInt(digits, 16));
  }
  if (/[1-9]/.test(letter) || letter === "k") return fail(cursor, "backreferences are not supported");
  if (letter === "b" || letter === "B") {
    return fail(cursor, inClass ? "\\b in a class is not supported" : "word-boundary assertions are not supported");
  }
  if (/[\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e ]/.test(letter)) return singleton(letter.charCodeAt(0));
  return fail(cursor, `unsupported escape \\${letter}`);
}

/** Set of code units that can start a match of the element (never empty: atoms and alternatives are non-empty). */
export function firstSet(element: PatternElement): CharSet {
  if (element.kind === "atom") return element.set;
  const known = groupFirstSets.get(element);
  if (known !== undefined) return known;
  let set: CharSet = [];
  for (const alternative of element.alternatives) set = union(set, sequenceFirstSet(alternative));
  groupFirstSets.set(element, set);
  return set;
}

/** Group → its first set, computed once: the safety check asks for it several times per group. */
const groupFirstSets = new WeakMap<GroupElement, CharSet>();

/** First set of a sequence: its elements' first sets up to and including the first one that cannot be empty. */
export function sequenceFirstSet(elements: readonly PatternElement[]): CharSet {
  let set: CharSet = [];
  for (const element of elements) {
    set = union(set, firstSet(element));
    if (!isNullable(element)) break;
  }
  return set;
}

/** True when the element can match the empty string. */
export function isNullable(element: PatternElement): boolean {
  if (element.min === 0) return true;
  if (element.kind === "atom") return false;
  return element.alternatives.some((alternative) => alternative.every(isNullable));
}
