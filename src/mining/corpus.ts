/**
 * A site's corpus (paper 002, 3.2 steps 1-2): the token ids of all its pages, concatenated with a unique
 * separator after each page, and a map from corpus position to page.
 */
import type { MutablePattern } from "./mutable-patterns";
import { createDictionary, TokenColumns, tokenizeText, type TokenDictionary } from "./tokens";

export interface SiteCorpus {
  readonly pageCount: number;
  /** Corpus position → token id: separator of page p = p; dictionary entry e = pageCount + e. */
  readonly tokens: Int32Array;
  /** Largest token id in use (the alphabet bound for the suffix array). */
  readonly maxToken: number;
  /** Corpus position → page ordinal (a separator belongs to the page it ends). */
  readonly documentOf: Int32Array;
  /** Corpus position → [textStart, textEnd) in its page text; a separator has the text length twice. */
  readonly textStart: Int32Array;
  readonly textEnd: Int32Array;
  /** Corpus position → FLAG_* bits of tokens.ts (space before, block start). */
  readonly flags: Uint8Array;
  /** Page ordinal → corpus position of its first token; pageStart[pageCount] = corpus length. */
  readonly pageStart: Int32Array;
  readonly dictionary: TokenDictionary;
}

export function buildCorpus(pageTexts: readonly string[], patterns?: readonly MutablePattern[]): SiteCorpus {
  const pageCount = pageTexts.length;
  const dictionary = createDictionary(patterns);
  const columns = new TokenColumns();
  const pageStart = new Int32Array(pageCount + 1);
  // Separators are pushed as entry -1 - page and shifted below, once the page count offsets the entries.
  for (let page = 0; page < pageCount; page++) {
    pageStart[page] = columns.size;
    const text = pageTexts[page]!;
    tokenizeText(text, dictionary, columns);
    columns.push(-1 - page, text.length, text.length, 0);
  }
  pageStart[pageCount] = columns.size;
  const length = columns.size;
  const tokens = columns.entries.subarray(0, length);
  const documentOf = new Int32Array(length);
  for (let page = 0; page < pageCount; page++) documentOf.fill(page, pageStart[page]!, pageStart[page + 1]!);
  for (let position = 0; position < length; position++) {
    const entry = tokens[position]!;
    tokens[position] = entry < 0 ? -1 - entry : entry + pageCount;
  }
  return {
    pageCount,
    tokens,
    maxToken: pageCount + dictionary.texts.length - 1,
    documentOf,
    textStart: columns.textStart.subarray(0, length),
    textEnd: columns.textEnd.subarray(0, length),
    flags: columns.flags.subarray(0, length),
    pageStart,
    dictionary,
  };
}

/** Dictionary entry of the token at a corpus position, or -1 for a separator. */
export function entryAt(corpus: SiteCorpus, position: number): number {
  const token = corpus.tokens[position]!;
  return token < corpus.pageCount ? -1 : token - corpus.pageCount;
}
