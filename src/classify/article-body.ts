/**
 * Where the article ends, as the site's schema.org markup says: the elements whose itemprop is articleBody (microdata),
 * or the JSON-LD `articleBody` text (the story as the site states it; the article ends with the last block whose words
 * are in it). Blocks after the article's end are other stories (teasers, newsletters, "more in tech", tag lists) and
 * go. Keeping every block whose words are in the JSON-LD text was measured and not kept: it keeps the wrappers
 * around the story whole, share bars with them (scrapinghub 0.9397 -> 0.9359).
 */
import { ARTICLE_BODY_CONTENT_SHARE, ARTICLE_BODY_MIN_WORDS, ARTICLE_BODY_SHOWN_SHARE, ARTICLE_BODY_SHINGLE, ARTICLE_BODY_TEMPLATE_SHARE } from "../config";
import { readAttribute, type PageModel } from "../page/index";

/** Deepest nesting of JSON-LD values searched for an articleBody (a @graph of objects holds it two or three down). */
const MAX_JSON_DEPTH = 8;

/** What the article body says of the page's blocks. */
export interface ArticleBodyMarks {
  /**
   * Block ordinal → 1 for the blocks after the article's end: after the last articleBody element, or after the last block
   * with ARTICLE_BODY_CONTENT_SHARE of its words in the JSON-LD text and with at most ARTICLE_BODY_TEMPLATE_SHARE in it.
   */
  readonly after: Uint8Array;
}

/**
 * The blocks after the page's article, or null when no visible element is the articleBody and the JSON-LD states none
 * of ARTICLE_BODY_MIN_WORDS words or more, or the page does not show it (less than ARTICLE_BODY_SHOWN_SHARE of its
 * words outside `hidden` blocks).
 */
export function articleBodyMarks(page: PageModel, hidden: Uint8Array): ArticleBodyMarks | null {
  const elementsEnd = mentionsArticleBody(page.source) ? articleBodyElementsEnd(page, hidden) : -1;
  if (elementsEnd >= 0) {
    const after = new Uint8Array(page.blockCount);
    for (let b = 1; b < page.blockCount; b++) if (page.blocks.textStart[b] >= elementsEnd && page.blocks.textEnd[b] > elementsEnd) after[b] = 1;
    return { after };
  }
  const body = articleBodyText(page);
  if (body === null) return null;
  const bodyWords = scanWords(body);
  if (bodyWords.count < ARTICLE_BODY_MIN_WORDS) return null;
  const { covered, total } = coveredWords(page, new ShingleTable(body, bodyWords), hidden);
  let shown = 0; // words of the page outside hidden blocks that the article body holds
  for (let b = 1; b < page.blockCount; b++) shown += covered[b];
  if (shown < ARTICLE_BODY_SHOWN_SHARE * bodyWords.count) return null;
  for (let b = page.blockCount - 1; b > 0; b--) {
    covered[page.blocks.parent[b]] += covered[b];
    total[page.blocks.parent[b]] += total[b];
  }
  let end = -1; // page-text offset where the last block of the article body ends
  for (let b = 1; b < page.blockCount; b++) {
    if (hidden[b] === 1 || total[b] === 0 || covered[b] < ARTICLE_BODY_CONTENT_SHARE * total[b]) continue;
    end = Math.max(end, page.blocks.textEnd[b]);
  }
  const after = new Uint8Array(page.blockCount);
  for (let b = 1; b < page.blockCount; b++) {
    if (page.blocks.textStart[b] >= end && total[b] > 0 && covered[b] <= ARTICLE_BODY_TEMPLATE_SHARE * total[b]) after[b] = 1;
  }
  return { after };
}

/**
 * Block ordinal → words of its own text nodes (`total`), and how many of them a shingle of the article body holds
 * (`covered`); own text only, not summed up the tree. Words of hidden blocks count in neither.
 */
function coveredWords(page: PageModel, shingles: ShingleTable, hidden: Uint8Array): { covered: Float64Array; total: Float64Array } {
  const covered = new Float64Array(page.blockCount);
  const total = new Float64Array(page.blockCount);
  const words = scanWords(page.text);
  const inBody = new Uint8Array(words.count);
  for (let i = 0; i + ARTICLE_BODY_SHINGLE <= words.count; i++) {
    if (shingles.has(page.text, words, i)) inBody.fill(1, i, i + ARTICLE_BODY_SHINGLE);
  }
  const { block, textStart, textEnd } = page.textNodes;
  let word = 0;
  for (let t = 0; t < page.textNodeCount; t++) {
    while (word < words.count && words.start[word] < textStart[t]) word++;
    for (; word < words.count && words.start[word] < textEnd[t]; word++) {
      if (hidden[block[t]] === 1) continue;
      total[block[t]]++;
      covered[block[t]] += inBody[word];
    }
  }
  return { covered, total };
}

/**
 * A text's words as the benchmarks count them (runs of letters, digits and underscores: /[\p{L}\p{N}_]+/u), in typed arrays: where
 * each starts and ends, a hash of its lower case, and whether it is all ASCII (its lower case is then its code units
 * folded, compared without a string). A page's thousands of words make no string each.
 */
interface Words {
  readonly count: number;
  readonly start: Int32Array;
  readonly end: Int32Array;
  readonly hash: Int32Array;
  readonly ascii: Uint8Array;
}

/** Seeds the hashes afresh in each isolate: a page cannot be written to make its words collide (equal hashes are compared in full anyway). */
const HASH_SEED = (Math.random() * 0x100000000) | 0;

function hashStep(hash: number, code: number): number {
  return Math.imul(hash ^ code, 0x01000193);
}

/** An ASCII code unit in lower case. */
function foldAscii(code: number): number {
  return code >= 65 && code <= 90 ? code + 32 : code;
}

/** A code unit of [A-Za-z0-9_] → 1. */
const ASCII_WORD = new Uint8Array(128).map((_, code) => (/\w/.test(String.fromCharCode(code)) ? 1 : 0));
const WORD_CHARACTER = /[\p{L}\p{N}_]/u;
/** BMP code unit → 1 if a word character, 2 if not, 0 until asked (a page's text uses a few hundred of them). */
let bmpWordClass: Uint8Array | null = null;

/** Code units of the word character at `at` (2 for a letter outside the BMP), or 0 when it is no word character. */
function wordCharacterWidth(text: string, at: number): number {
  const code = text.charCodeAt(at);
  if (code < 0x80) return ASCII_WORD[code];
  if (code >= 0xd800 && code <= 0xdbff && at + 1 < text.length) {
    const next = text.charCodeAt(at + 1);
    if (next >= 0xdc00 && next <= 0xdfff) return WORD_CHARACTER.test(text.slice(at, at + 2)) ? 2 : 0;
  }
  bmpWordClass ??= new Uint8Array(0x10000);
  if (bmpWordClass[code] === 0) bmpWordClass[code] = WORD_CHARACTER.test(String.fromCharCode(code)) ? 1 : 2;
  return bmpWordClass[code] === 1 ? 1 : 0;
}

function scanWords(text: string): Words {
  let capacity = 16 + (text.length >> 3);
  let start = new Int32Array(capacity);
  let end = new Int32Array(capacity);
  let hash = new Int32Array(capacity);
  let ascii = new Uint8Array(capacity);
  let count = 0;
  for (let at = 0; at < text.length; ) {
    let width = wordCharacterWidth(text, at);
    if (width === 0) {
      at++;
      continue;
    }
    if (count === capacity) {
      capacity *= 2;
      [start, end, hash, ascii] = [grown(start, capacity), grown(end, capacity), grown(hash, capacity), grown(ascii, capacity)];
    }
    const from = at;
    let folded = HASH_SEED;
    let allAscii = true;
    for (; width > 0; at += width, width = at < text.length ? wordCharacterWidth(text, at) : 0) {
      const code = text.charCodeAt(at);
      if (code >= 0x80) allAscii = false;
      else folded = hashStep(folded, foldAscii(code));
    }
    start[count] = from;
    end[count] = at;
    hash[count] = allAscii ? folded : lowerHash(text.slice(from, at).toLowerCase());
    ascii[count] = allAscii ? 1 : 0;
    count++;
  }
  return { count, start, end, hash, ascii };
}

function grown<T extends Int32Array | Uint8Array>(array: T, capacity: number): T {
  const larger = new (array.constructor as new (length: number) => T)(capacity);
  larger.set(array);
  return larger;
}

/** The hash of a word's lower case (the same as scanWords gives an ASCII word folded). */
function lowerHash(lower: string): number {
  let hash = HASH_SEED;
  for (let i = 0; i < lower.length; i++) hash = hashStep(hash, lower.charCodeAt(i));
  return hash;
}

/** Whether word i of `a` and word j of `b` are the same in lower case. */
function sameWord(textA: string, a: Words, i: number, textB: string, b: Words, j: number): boolean {
  if (a.hash[i] !== b.hash[j]) return false;
  const length = a.end[i] - a.start[i];
  if (a.ascii[i] === 1 && b.ascii[j] === 1) {
    if (b.end[j] - b.start[j] !== length) return false;
    for (let k = 0; k < length; k++) {
      if (foldAscii(textA.charCodeAt(a.start[i] + k)) !== foldAscii(textB.charCodeAt(b.start[j] + k))) return false;
    }
    return true;
  }
  return textA.slice(a.start[i], a.end[i]).toLowerCase() === textB.slice(b.start[j], b.end[j]).toLowerCase();
}
/**
 * The article body's shingles (ARTICLE_BODY_SHINGLE words in a row) in an open-addressed table of their hashes. A
 * shingle found by its hash is compared word by word, so only an equal shingle matches; equal shingles are kept once,
 * so that a body that repeats itself makes no long probes.
 */
class ShingleTable {
  private readonly mask: number;
  private readonly keys: Int32Array;
  /** Slot → 1 + the body word that starts its shingle; 0 where the slot is empty. */
  private readonly firsts: Int32Array;

  constructor(private readonly body: string, private readonly words: Words) {
    const shingles = Math.max(0, words.count - ARTICLE_BODY_SHINGLE + 1);
    let size = 16;
    while (size < 2 * shingles) size *= 2;
    this.mask = size - 1;
    this.keys = new Int32Array(size);
    this.firsts = new Int32Array(size);
    for (let i = 0; i < shingles; i++) {
      const slot = this.find(body, words, i);
      if (this.firsts[slot] !== 0) continue;
      this.keys[slot] = shingleHash(words, i);
      this.firsts[slot] = i + 1;
    }
  }

  /** Whether the shingle starting at word i of `text` is the body's. */
  has(text: string, words: Words, i: number): boolean {
    return this.firsts[this.find(text, words, i)] !== 0;
  }

  /** The slot holding the shingle at word i of `text`, or the empty slot where it would go. */
  private find(text: string, words: Words, i: number): number {
    const key = shingleHash(words, i);
    let slot = key & this.mask;
    for (; this.firsts[slot] !== 0; slot = (slot + 1) & this.mask) {
      if (this.keys[slot] === key && sameShingle(text, words, i, this.body, this.words, this.firsts[slot] - 1)) break;
    }
    return slot;
  }
}

function shingleHash(words: Words, first: number): number {
  let hash = HASH_SEED;
  for (let k = 0; k < ARTICLE_BODY_SHINGLE; k++) hash = Math.imul(hash ^ words.hash[first + k], 0x9e3779b1);
  hash ^= hash >>> 15;
  hash = Math.imul(hash, 0x85ebca6b);
  return hash ^ (hash >>> 13);
}

function sameShingle(textA: string, a: Words, i: number, textB: string, b: Words, j: number): boolean {
  for (let k = 0; k < ARTICLE_BODY_SHINGLE; k++) if (!sameWord(textA, a, i + k, textB, b, j + k)) return false;
  return true;
}

/**
 * Whether the source holds "articleBody". Found through its "Body": a search for a pattern starting with a letter as
 * common in markup as "a" stops at nearly every character, one for the rarer "B" skips most of the page (about 3 times
 * faster over the dev pages' sources in Node).
 */
function mentionsArticleBody(source: string): boolean {
  for (let at = source.indexOf("Body", 7); at >= 0; at = source.indexOf("Body", at + 4)) if (source.startsWith("article", at - 7)) return true;
  return false;
}

/**
 * Page-text offset where the last visible block whose itemprop names the articleBody (schema.org microdata) ends, or
 * -1 when none does. The body is the union of every such element: a site may mark each paragraph articleBody (a
 * common pattern of the 2010s), and the first paragraph's end is then not the article's (a kept-back 2012 site lost
 * all but the first paragraph of every article when the first element alone drew the end).
 */
function articleBodyElementsEnd(page: PageModel, hidden: Uint8Array): number {
  let end = -1;
  for (let b = 1; b < page.blockCount; b++) {
    if (hidden[b] === 1 || page.blocks.textEnd[b] === page.blocks.textStart[b] || page.blocks.textEnd[b] <= end) continue;
    const itemprop = readAttribute(page.source, page.blocks.sourceNameEnd[b], page.blocks.startTagEnd[b], "itemprop");
    if (itemprop !== null && /(?:^|\s)articleBody(?:\s|$)/.test(itemprop)) end = page.blocks.textEnd[b];
  }
  return end;
}

/** The longest articleBody string of the page's JSON-LD scripts (PageModel.jsonLdScripts), or null. */
export function articleBodyText(page: PageModel): string | null {
  const ranges = page.jsonLdScripts;
  if (ranges === undefined) return null;
  let best: string | null = null;
  for (let i = 0; i + 1 < ranges.length; i += 2) {
    const script = page.source.slice(ranges[i], ranges[i + 1]);
    if (!script.includes("articleBody")) continue; // parsed only where it may hold one
    let value: unknown;
    try {
      value = JSON.parse(script);
    } catch {
      continue; // a site's broken JSON says nothing
    }
    for (const text of bodies(value, 0)) if (best === null || text.length > best.length) best = text;
  }
  return best;
}

/** The articleBody strings of a JSON-LD value, searched through objects and arrays. */
function bodies(value: unknown, depth: number): string[] {
  if (depth > MAX_JSON_DEPTH || value === null || typeof value !== "object") return [];
  if (Array.isArray(value)) return value.flatMap((item) => bodies(item, depth + 1));
  const out: string[] = [];
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (key === "articleBody" && typeof item === "string") out.push(item);
    else out.push(...bodies(item, depth + 1));
  }
  return out;
}
