/**
 * A prefilter that keeps rule matching cheap on large pages: each rule's required words (literal words that
 * every match holds as whole words of the text) are read from its pattern once, the page text is read once for
 * the set's required words (WordFinder), and a rule with a required word missing from the page is not run.
 * Linear in the text plus the patterns, where running every rule costs rules × text.
 */
import type { CharSet } from "./char-set";
import { isNullable, parsePattern, sequenceFirstSet, type PatternElement } from "./pattern-syntax";

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

/**
 * How every match of the pattern starts: the literal it starts with (its leading elements that are one code unit,
 * exactly once), and the code units that can come right after that literal, or null when the rest of the pattern may
 * match nothing (then anything, or the end of the text, may follow).
 */
export function literalStart(pattern: string): { prefix: string; follows: CharSet | null } {
  const parsed = parsePattern(pattern);
  if (!parsed.ok) return { prefix: "", follows: null };
  let prefix = "";
  for (const element of parsed.elements) {
    if (element.kind !== "atom" || element.min !== 1 || element.max !== 1 || element.set.length !== 2 || element.set[0] !== element.set[1]) break;
    prefix += String.fromCharCode(element.set[0]);
  }
  const rest = parsed.elements.slice(prefix.length); // one element per code unit of the literal
  return { prefix, follows: rest.every(isNullable) ? null : sequenceFirstSet(rest) };
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

/**
 * Words looked for in texts: which of them a text holds as whole words (maximal runs of letters, digits and marks, as isSeparatorCode splits them), read in one
 * pass that hashes each word of the text as it goes and makes a string of none. A rule set's required words are
 * a few hundred; a page's words are thousands, and a set of them all cost more than the rule runs it saved.
 */
export class WordFinder {
  private readonly mask: number;
  /** Slot → hash of the word in it; slot → the word's index + 1, 0 for an empty slot. */
  private readonly hashes: Int32Array;
  private readonly slots: Int32Array;
  private readonly words: readonly string[];

  constructor(words: Iterable<string>) {
    this.words = [...new Set(words)];
    let size = 16;
    while (size < 2 * this.words.length) size *= 2;
    this.mask = size - 1;
    this.hashes = new Int32Array(size);
    this.slots = new Int32Array(size);
    this.words.forEach((word, index) => {
      const hash = wordHash(word, 0, word.length);
      let slot = hash & this.mask;
      while (this.slots[slot] !== 0) slot = (slot + 1) & this.mask;
      this.hashes[slot] = hash;
      this.slots[slot] = index + 1;
    });
  }

  /** The words that `text` holds as whole words. */
  foundIn(text: string): ReadonlySet<string> {
    const found = new Set<string>();
    if (this.words.length === 0) return found;
    let start = -1;
    let hash = 0;
    for (let position = 0; position <= text.length; position++) {
      const code = position === text.length ? 32 : text.charCodeAt(position);
      if (!isSeparatorCode(code)) {
        if (start < 0) {
          start = position;
          hash = HASH_SEED;
        }
        hash = Math.imul(hash ^ code, HASH_PRIME);
        continue;
      }
      if (start < 0) continue;
      for (let slot = hash & this.mask; this.slots[slot] !== 0; slot = (slot + 1) & this.mask) {
        if (this.hashes[slot] !== hash) continue;
        const word = this.words[this.slots[slot] - 1];
        if (word.length === position - start && text.startsWith(word, start)) found.add(word);
      }
      start = -1;
    }
    return found;
  }
}

const HASH_SEED = 0x811c9dc5 | 0;
const HASH_PRIME = 16777619;

/** 32-bit FNV-1a of text[start, end), as foundIn hashes a word of the text. */
function wordHash(text: string, start: number, end: number): number {
  let hash = HASH_SEED;
  for (let position = start; position < end; position++) hash = Math.imul(hash ^ text.charCodeAt(position), HASH_PRIME);
  return hash;
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
  let known = KNOWN_SEPARATOR[code];
  if (known === UNKNOWN) {
    known = (code >= 0xd800 && code <= 0xdfff) || CONTENT_CHARACTER.test(String.fromCharCode(code)) ? CONTENT : SEPARATOR;
    KNOWN_SEPARATOR[code] = known;
  }
  return known === SEPARATOR;
}

/** Code unit → what isSeparatorCode found it to be: the Unicode test runs once per code unit an isolate meets, not per character read. */
const KNOWN_SEPARATOR = new Uint8Array(0x10000);
const UNKNOWN = 0;
const SEPARATOR = 1;
const CONTENT = 2;
