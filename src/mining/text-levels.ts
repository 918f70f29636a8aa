/**
 * How template each character of a mined page is, from the text miner's own statistics (the maximal repeats
 * that passed the string filters, with their document frequency): per page a level for each page-text character.
 * The structural miner (structure.ts) reads containers' text through these levels.
 */
import { isSentenceTerminal } from "../page/index";
import { entryAt } from "./corpus";
import type { SiteMining } from "./mine-site";
import { TOKEN_CLASS, TOKEN_SYMBOL, TOKEN_WORD } from "./tokens";

/** Character levels: not a token (white space), page-unique, repeated on other pages below the cutoff, template. */
export const LEVEL_SPACE = 3;
export const LEVEL_UNIQUE = 0;
export const LEVEL_REPEATED = 1;
export const LEVEL_TEMPLATE = 2;
/** A mutable value (a class token: a count, a number): its format repeats, the value is the page's own. */
export const LEVEL_VALUE = 4;
/** A value that says when (a date, a time, a month's or a day's name): the one kind of value that states something. */
export const LEVEL_WHEN = 5;

/** Mutable patterns whose values say when (src/mining/mutable-patterns.ts names). */
const WHEN_PATTERN = /^(?:date|time|meridiem|month-|day-)/;

/**
 * Page ordinal → character levels of its text. A class token is a value (but a URL or an e-mail address that is the
 * same on most pages is template: constantAddresses; and so is a value that fills a slot of a template string, with the
 * string's words on both sides: "published at <time> on <date>.", a calendar's "<month> <year>"); any other token covered by a relevant repeat (2+ pages, the
 * string filters passed) is repeated, template when the repeat reaches the cutoff's document frequency; any other
 * token is unique.
 * Each corpus position is written once: repeats are visited from the most documents down and a skip pointer
 * jumps over positions already written, so the work is linear in the occurrences plus the corpus.
 */
export function textLevels(mining: SiteMining, pageTexts: readonly string[]): Uint8Array[] {
  const { corpus, repeats, suffixArray, relevant, cutoff } = mining;
  const length = corpus.tokens.length;
  const documents = new Int32Array(length);
  const next = new Int32Array(length + 1);
  for (let position = 0; position <= length; position++) next[position] = position;
  const find = (position: number): number => {
    let root = position;
    while (next[root] !== root) root = next[root]!;
    while (next[position] !== root) {
      const up = next[position]!;
      next[position] = root;
      position = up;
    }
    return root;
  };
  const order = Array.from(relevant).sort((a, b) => repeats.documents[b]! - repeats.documents[a]!);
  const { before, after } = literalNeighbours(mining);
  const slot = new Uint8Array(length);
  for (const repeat of order) {
    const span = repeats.length[repeat]!;
    const template = repeats.documents[repeat]! >= cutoff.minimumDocuments;
    for (let rank = repeats.firstRank[repeat]!; rank <= repeats.lastRank[repeat]!; rank++) {
      const start = suffixArray[rank]!;
      for (let at = find(start); at < start + span; at = find(at + 1)) {
        documents[at] = repeats.documents[repeat]!;
        // A value with the template's own words on both sides, inside this occurrence, fills a slot of it.
        if (template && before[at]! >= start && after[at]! < start + span) slot[at] = 1;
        next[at] = at + 1;
      }
    }
  }
  const levels = pageTexts.map((text) => new Uint8Array(text.length).fill(LEVEL_SPACE));
  const constant = constantAddresses(mining, pageTexts);
  for (let position = 0; position < length; position++) {
    if (corpus.tokens[position]! < corpus.pageCount) continue; // a separator
    const entry = entryAt(corpus, position);
    const value = corpus.dictionary.kinds[entry] === TOKEN_CLASS && constant[position] === 0 && slot[position] === 0;
    const when = value && WHEN_PATTERN.test(corpus.dictionary.patterns[entry]?.name ?? "");
    const level = when ? LEVEL_WHEN : value ? LEVEL_VALUE : documents[position] === 0 ? LEVEL_UNIQUE : documents[position]! >= cutoff.minimumDocuments ? LEVEL_TEMPLATE : LEVEL_REPEATED;
    levels[corpus.documentOf[position]!]!.fill(level, corpus.textStart[position]!, corpus.textEnd[position]!);
  }
  return levels;
}

/**
 * Corpus position → the nearest literal position before it and after it on its page (-1 and the corpus length when
 * none). A literal is a word or a sentence mark: what a template string says around a value it fills in ("published at
 * <time> on <date>."), as opposed to the value's own format (the comma of "June 25, 2012", the "·" of a byline).
 */
function literalNeighbours(mining: SiteMining): { before: Int32Array; after: Int32Array } {
  const { corpus } = mining;
  const length = corpus.tokens.length;
  const literal = (position: number): boolean => {
    if (corpus.tokens[position]! < corpus.pageCount) return false;
    const kind = corpus.dictionary.kinds[entryAt(corpus, position)];
    return kind === TOKEN_WORD || (kind === TOKEN_SYMBOL && corpus.textEnd[position]! - corpus.textStart[position]! === 1 && isSentenceMark(corpus, position));
  };
  const before = new Int32Array(length);
  const after = new Int32Array(length);
  let last = -1;
  for (let position = 0; position < length; position++) {
    before[position] = last;
    if (corpus.tokens[position]! < corpus.pageCount) last = -1;
    else if (literal(position)) last = position;
  }
  last = length;
  for (let position = length - 1; position >= 0; position--) {
    after[position] = last;
    if (corpus.tokens[position]! < corpus.pageCount) last = length;
    else if (literal(position)) last = position;
  }
  return { before, after };
}

function isSentenceMark(corpus: SiteMining["corpus"], position: number): boolean {
  return isSentenceTerminal(corpus.dictionary.texts[entryAt(corpus, position)]!.charCodeAt(0));
}

/** Mutable patterns whose value is an address: the same one on most pages is the site's, not the page's. */
const ADDRESS_PATTERNS = new Set(["url", "email"]);

/**
 * Corpus position → 1 for a URL or an e-mail address whose text is on at least the cutoff's number of pages (a
 * constant address, such as a server's or the newsroom's): template, though its format is a mutable pattern.
 */
function constantAddresses(mining: SiteMining, pageTexts: readonly string[]): Uint8Array {
  const { corpus, cutoff } = mining;
  const length = corpus.tokens.length;
  const constant = new Uint8Array(length);
  const pagesOf = new Map<string, Set<number>>();
  const literal = (position: number): string | null => {
    if (corpus.tokens[position]! < corpus.pageCount) return null;
    const entry = entryAt(corpus, position);
    if (corpus.dictionary.kinds[entry] !== TOKEN_CLASS || !ADDRESS_PATTERNS.has(corpus.dictionary.patterns[entry]?.name ?? "")) return null;
    return pageTexts[corpus.documentOf[position]!]!.slice(corpus.textStart[position], corpus.textEnd[position]);
  };
  for (let position = 0; position < length; position++) {
    const text = literal(position);
    if (text === null) continue;
    let pages = pagesOf.get(text);
    if (pages === undefined) pagesOf.set(text, (pages = new Set()));
    pages.add(corpus.documentOf[position]!);
  }
  for (let position = 0; position < length; position++) {
    const text = literal(position);
    if (text !== null && pagesOf.get(text)!.size >= cutoff.minimumDocuments) constant[position] = 1;
  }
  return constant;
}
