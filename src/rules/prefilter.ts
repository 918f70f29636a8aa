/**
 * A prefilter that keeps rule matching cheap on large pages: each rule's required words (literal words that
 * every match holds as whole words of the text) are read from its pattern once, the page text's words are
 * collected once, and a rule with a required word missing from the page is not run. Linear in the text
 * plus the patterns, where running every rule costs rules × text.
 */
import type { CharSet } from "./char-set";
import { parsePattern, type PatternElement } from "./pattern-syntax";

/** Largest class (code units) examined for being separators only; larger classes may hold letters. */
const MAX_EXAMINED_SET_SIZE = 4096;

/**
 * Words that every match of the pattern holds as whole words: runs of literal letters or digits in the
 * top-level sequence with a required separator (white space or punctuation, at least once) on both sides.
 */
export function requiredWords(pattern: string): readonly string[] {
  const parsed = parsePattern(pattern);
  if (!parsed.ok) return [];
  const elements = parsed.elements;
  const words: string[] = [];
  let word = "";
  let boundedBefore = false; // whether a required separator precedes the current word
  for (const element of elements) {
    const code = literalWordCode(element);
    if (code >= 0) {
      word += String.fromCharCode(code);
      continue;
    }
    const separator = isRequiredSeparator(element);
    if (word !== "" && boundedBefore && separator) words.push(word);
    word = "";
    boundedBefore = separator;
  }
  return [...new Set(words)];
}

/** The code unit of an element that is one literal letter or digit, exactly once; else -1. */
function literalWordCode(element: PatternElement): number {
  if (element.kind !== "atom" || element.min !== 1 || element.max !== 1) return -1;
  const [low, high] = element.set;
  return element.set.length === 2 && low === high && !isSeparatorCode(low) ? low : -1;
}

/** An atom present at least once whose every code unit is a separator: it ends a word of the text. */
function isRequiredSeparator(element: PatternElement): boolean {
  return element.kind === "atom" && element.min >= 1 && onlySeparators(element.set);
}

function onlySeparators(set: CharSet): boolean {
  let size = 0;
  for (let index = 0; index < set.length; index += 2) size += set[index + 1] - set[index] + 1;
  if (size > MAX_EXAMINED_SET_SIZE) return false;
  for (let index = 0; index < set.length; index += 2) {
    for (let code = set[index]; code <= set[index + 1]; code++) if (!isSeparatorCode(code)) return false;
  }
  return true;
}

/** The distinct words of a text: maximal runs of letters, digits and marks, as isSeparatorCode splits them. */
export function textWords(text: string): ReadonlySet<string> {
  const words = new Set<string>();
  let start = -1;
  for (let position = 0; position <= text.length; position++) {
    const separator = position === text.length || isSeparatorCode(text.charCodeAt(position));
    if (!separator && start < 0) start = position;
    else if (separator && start >= 0) {
      words.add(text.slice(start, position));
      start = -1;
    }
  }
  return words;
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
