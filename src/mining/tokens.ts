/**
 * Tokens of a site's pages (paper 002, 3.2 step 1 and 3.3), in typed arrays.
 *
 * Tokenizer: a token is a run of word characters (letters, digits, marks, "_"), or one other
 * non-white-space character (punctuation, a symbol, one CJK or Thai character, a surrogate pair), or one
 * occurrence of a mutable pattern (a class token). White space separates tokens and is not kept. Its
 * inverse, used to write rules, is `\s+` between two word-like tokens (white space must have been there)
 * and `\s*` next to a one-character token.
 *
 * Corpus: the pages' token ids concatenated, each page followed by a separator id unique to it
 * (separator of page p = p; dictionary entry e = pageCount + e), so no repeat crosses a page.
 */
import { MUTABLE_PATTERNS, type MutablePattern } from "./mutable-patterns";

/** Character classes of the tokenizer, per UTF-16 code unit. */
const CHARACTER_SPACE = 0;
const CHARACTER_WORD = 1;
const CHARACTER_SYMBOL = 2;
const CHARACTER_HIGH_SURROGATE = 3;

/** Dictionary entry kinds: how the token joins its neighbours and how it becomes a pattern. */
export const TOKEN_WORD = 0;
export const TOKEN_SYMBOL = 1;
export const TOKEN_CLASS = 2;

/** Token flag bits (corpus position → flags). */
export const FLAG_SPACE_BEFORE = 1;
export const FLAG_BLOCK_START = 2;

/** Code unit → CHARACTER_* class; word = \p{L}\p{N}\p{M} and "_", as the mutable-pattern guards use. */
const CHARACTER_CLASS = buildCharacterClasses();

function buildCharacterClasses(): Uint8Array {
  const classes = new Uint8Array(65536).fill(CHARACTER_SYMBOL);
  const word = /[\p{L}\p{N}\p{M}_]/u;
  const space = /\s/;
  // Scripts written without spaces between words: one character per token keeps strings comparable.
  const ideographic = /[\u0E00-\u0E7F\u3040-\u30FF\u3400-\u4DBF\u4E00-\u9FFF\uF900-\uFAFF]/;
  for (let code = 0; code < 0xd800; code++) {
    const character = String.fromCharCode(code);
    if (space.test(character)) classes[code] = CHARACTER_SPACE;
    else if (word.test(character) && !ideographic.test(character)) classes[code] = CHARACTER_WORD;
  }
  for (let code = 0xd800; code < 0xdc00; code++) classes[code] = CHARACTER_HIGH_SURROGATE;
  for (let code = 0xe000; code < 0x10000; code++) {
    const character = String.fromCharCode(code);
    if (space.test(character)) classes[code] = CHARACTER_SPACE;
    else if (word.test(character) && !ideographic.test(character)) classes[code] = CHARACTER_WORD;
  }
  return classes;
}

/** The token texts of a site: literal words and symbols, and the class tokens of the mutable patterns. */
export interface TokenDictionary {
  readonly patterns: readonly MutablePattern[];
  /** Entry → literal text, or the class name for class tokens (entries 0..patterns.length-1). */
  readonly texts: string[];
  /** Entry → TOKEN_WORD, TOKEN_SYMBOL or TOKEN_CLASS. */
  kinds: Uint8Array;
  /** Literal entries by text, hashed from the page text in place (no string per token met). */
  readonly lookup: TextLookup;
  /** The patterns' `match` sources in one global regex; group k + 1 = pattern k. */
  readonly matcher: RegExp;
}

export function createDictionary(patterns: readonly MutablePattern[] = MUTABLE_PATTERNS): TokenDictionary {
  const guardBefore = String.raw`(?<![\p{L}\p{N}\p{M}_])`;
  const guardAfter = String.raw`(?![\p{L}\p{N}\p{M}_])`;
  const alternatives = patterns.map((pattern) => `(${pattern.match})`).join("|");
  const matcher = new RegExp(`${guardBefore}(?:${alternatives})${guardAfter}`, "gu");
  const kinds = new Uint8Array(Math.max(64, patterns.length * 2)).fill(TOKEN_CLASS, 0, patterns.length);
  return { patterns, texts: patterns.map((pattern) => pattern.name), kinds, lookup: new TextLookup(), matcher };
}

/** Dictionary entry of text[start, end), added (with its kind) when new. */
function entryOf(dictionary: TokenDictionary, text: string, start: number, end: number, kind: number): number {
  const hash = hashOf(text, start, end);
  const known = dictionary.lookup.find(dictionary.texts, text, start, end, hash);
  if (known >= 0) return known;
  const entry = dictionary.texts.length;
  dictionary.texts.push(text.slice(start, end));
  dictionary.lookup.insert(entry, hash);
  if (entry >= dictionary.kinds.length) {
    const kinds = new Uint8Array(dictionary.kinds.length * 2);
    kinds.set(dictionary.kinds);
    dictionary.kinds = kinds;
  }
  dictionary.kinds[entry] = kind;
  return entry;
}

/** FNV-1a over UTF-16 code units. */
function hashOf(text: string, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let at = start; at < end; at++) hash = Math.imul(hash ^ text.charCodeAt(at), 0x01000193);
  return hash | 0;
}

/** Open-addressing hash table from text to dictionary entry, compared against the dictionary's texts. */
export class TextLookup {
  /** slot → entry + 1, 0 when empty; the size is a power of two, kept at most half full. */
  private slots = new Int32Array(1 << 12);
  /** entry → hash of its text (for probing and growing). */
  private hashes = new Int32Array(1 << 11);
  private count = 0;

  find(texts: readonly string[], text: string, start: number, end: number, hash: number): number {
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; this.slots[slot] !== 0; slot = (slot + 1) & mask) {
      const entry = this.slots[slot]! - 1;
      if (this.hashes[entry] === hash && sameText(texts[entry]!, text, start, end)) return entry;
    }
    return -1;
  }

  insert(entry: number, hash: number): void {
    if (entry >= this.hashes.length) {
      const hashes = new Int32Array(Math.max(this.hashes.length * 2, entry + 1));
      hashes.set(this.hashes);
      this.hashes = hashes;
    }
    this.hashes[entry] = hash;
    if ((this.count + 1) * 2 > this.slots.length) this.grow();
    this.place(entry, hash);
    this.count++;
  }

  private place(entry: number, hash: number): void {
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
    this.slots[slot] = entry + 1;
  }

  /** Doubles the slots and places the entries again. */
  private grow(): void {
    const previous = this.slots;
    this.slots = new Int32Array(previous.length * 2);
    for (let slot = 0; slot < previous.length; slot++) {
      const value = previous[slot]!;
      if (value !== 0) this.place(value - 1, this.hashes[value - 1]!);
    }
  }
}

function sameText(known: string, text: string, start: number, end: number): boolean {
  if (known.length !== end - start) return false;
  for (let at = 0; at < known.length; at++) if (known.charCodeAt(at) !== text.charCodeAt(start + at)) return false;
  return true;
}

/** Growable per-token columns; corpus position → value. */
export class TokenColumns {
  size = 0;
  /** → dictionary entry (not yet shifted past the separators). */
  entries = new Int32Array(4096);
  /** → [textStart, textEnd) of the token in its page text. */
  textStart = new Int32Array(4096);
  textEnd = new Int32Array(4096);
  /** → FLAG_* bits. */
  flags = new Uint8Array(4096);

  push(entry: number, start: number, end: number, flags: number): void {
    if (this.size === this.entries.length) this.grow();
    const at = this.size++;
    this.entries[at] = entry;
    this.textStart[at] = start;
    this.textEnd[at] = end;
    this.flags[at] = flags;
  }

  private grow(): void {
    const capacity = this.entries.length * 2;
    const entries = new Int32Array(capacity);
    entries.set(this.entries);
    this.entries = entries;
    const textStart = new Int32Array(capacity);
    textStart.set(this.textStart);
    this.textStart = textStart;
    const textEnd = new Int32Array(capacity);
    textEnd.set(this.textEnd);
    this.textEnd = textEnd;
    const flags = new Uint8Array(capacity);
    flags.set(this.flags);
    this.flags = flags;
  }
}

/**
 * Appends the tokens of one page text to `columns`; returns how many were added.
 * Block boundaries ("\n" in the page text) are kept as FLAG_BLOCK_START on the next token.
 */
export function tokenizeText(text: string, dictionary: TokenDictionary, columns: TokenColumns): number {
  const before = columns.size;
  const matcher = dictionary.matcher;
  matcher.lastIndex = 0;
  let match = matcher.exec(text);
  let flags = FLAG_BLOCK_START;
  let position = 0;
  while (position < text.length) {
    const code = text.charCodeAt(position);
    const characterClass = CHARACTER_CLASS[code]!;
    if (characterClass === CHARACTER_SPACE) {
      flags |= code === 10 ? FLAG_BLOCK_START | FLAG_SPACE_BEFORE : FLAG_SPACE_BEFORE;
      position++;
      continue;
    }
    if (match !== null && match.index < position) {
      matcher.lastIndex = position;
      match = matcher.exec(text);
    }
    if (match !== null && match.index === position) {
      const end = position + match[0].length;
      columns.push(matchedPattern(match), position, end, flags);
      position = end;
      matcher.lastIndex = end;
      match = matcher.exec(text);
    } else {
      const end = tokenEnd(text, position, characterClass);
      const kind = characterClass === CHARACTER_WORD ? TOKEN_WORD : TOKEN_SYMBOL;
      columns.push(entryOf(dictionary, text, position, end, kind), position, end, flags);
      position = end;
    }
    flags = 0;
  }
  return columns.size - before;
}

function tokenEnd(text: string, start: number, characterClass: number): number {
  if (characterClass === CHARACTER_HIGH_SURROGATE) {
    const next = text.charCodeAt(start + 1);
    return next >= 0xdc00 && next < 0xe000 ? start + 2 : start + 1;
  }
  if (characterClass !== CHARACTER_WORD) return start + 1;
  let end = start + 1;
  while (end < text.length && CHARACTER_CLASS[text.charCodeAt(end)] === CHARACTER_WORD) end++;
  return end;
}

/** Index of the pattern whose group matched (group k + 1 ↔ pattern k). */
function matchedPattern(match: RegExpExecArray): number {
  for (let group = 1; group < match.length; group++) if (match[group] !== undefined) return group - 1;
  return 0;
}
