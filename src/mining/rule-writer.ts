/**
 * Token strings → regex rules (paper 002, 3.4): literal tokens escaped, class tokens by their emitted
 * pattern, joined by the inverse of the tokenizer (`\s+` between two word-like tokens, `\s*` next to a
 * one-character token). Every pattern is checked with src/rules `checkPatternSafety` before it is kept;
 * a string is cut where a class with no safe pattern stands (URLs, e-mails), long strings are cut into
 * pieces, and a piece starts and ends at a literal token from which the pattern is safe: never at a class token
 * (a date, a time, a count is the page's own value, only its format repeats) nor at a sentence mark.
 */
import { checkPatternSafety } from "../rules/index";
import { entryAt, type SiteCorpus } from "./corpus";
import { TOKEN_CLASS, TOKEN_SYMBOL, TOKEN_WORD } from "./tokens";

export interface PatternOptions {
  /** Pieces of fewer tokens are not written. */
  readonly minimumTokens: number;
  /** Longer strings are cut into pieces of at most this many tokens. */
  readonly maximumTokens: number;
  /** Pieces with fewer literal word tokens (not classes, not punctuation) are not written. */
  readonly minimumLiteralWords: number;
}

export interface WrittenPattern {
  readonly pattern: string;
  /** Tokens the pattern stands for. */
  readonly tokens: number;
  /** Corpus position of the first of them (in the occurrence the pattern was written from). */
  readonly position: number;
}

export interface WrittenPatterns {
  readonly patterns: WrittenPattern[];
  /** Tokens left out because no safe pattern could start there or the rest was too short. */
  readonly skippedTokens: number;
}

/** Regex syntax characters that a literal token must escape (the grammar of src/rules). */
const SYNTAX_CHARACTERS = /[\\^$.|?*+()[\]{}]/g;

export function escapeLiteral(text: string): string {
  return text.replace(SYNTAX_CHARACTERS, "\\$&");
}

/** Patterns for the token string at corpus[position, position + length). */
export function writePatterns(corpus: SiteCorpus, position: number, length: number, options: PatternOptions): WrittenPatterns {
  const patterns: WrittenPattern[] = [];
  let skippedTokens = 0;
  const end = position + length;
  let segmentStart = position;
  for (let at = position; at <= end; at++) {
    if (at < end && !breaksRules(corpus, at)) continue;
    // [segmentStart, at) holds no breaking class token.
    skippedTokens += writeSegment(corpus, segmentStart, at, options, patterns) + (at < end ? 1 : 0);
    segmentStart = at + 1;
  }
  return { patterns, skippedTokens };
}

/** Writes the pieces of one segment; returns the number of tokens it could not cover. */
function writeSegment(corpus: SiteCorpus, start: number, end: number, options: PatternOptions, out: WrittenPattern[]): number {
  let skipped = 0;
  let at = start;
  while (end - at >= options.minimumTokens) {
    // Neither edge of a rule claims what belongs to the page beside the template: a sentence mark is the
    // neighbouring text's ("… the harbour. Share this"), and a class token (a date, a time, a number) is a
    // value of this page that only its format shares with the others ("Reporter · 14 March 2026").
    if (isPageOwnEdge(corpus, at)) {
      at++;
      skipped++;
      continue;
    }
    let pieceEnd = Math.min(end, at + options.maximumTokens);
    while (pieceEnd - at > options.minimumTokens && isPageOwnEdge(corpus, pieceEnd - 1)) pieceEnd--;
    if (isPageOwnEdge(corpus, pieceEnd - 1)) {
      skipped += pieceEnd - at;
      at = pieceEnd;
      continue;
    }
    const pattern = patternOf(corpus, at, pieceEnd);
    if (checkPatternSafety(pattern).safe) {
      // A piece of class tokens and punctuation only ("⟨month⟩ ⟨integer⟩, ⟨integer⟩") would match such
      // values anywhere, article text included: it needs a literal word.
      if (countLiteralWords(corpus, at, pieceEnd) >= options.minimumLiteralWords) out.push({ pattern, tokens: pieceEnd - at, position: at });
      else skipped += pieceEnd - at;
      at = pieceEnd;
    } else {
      at++;
      skipped++;
    }
  }
  return skipped + (end - at);
}

/** Punctuation that ends or joins sentences: a template string's edge should not claim it. */
const SENTENCE_MARKS = new Set([".", ",", ";", ":", "!", "?"]);

function isSentenceMark(corpus: SiteCorpus, position: number): boolean {
  const entry = entryAt(corpus, position);
  return corpus.dictionary.kinds[entry] === TOKEN_SYMBOL && SENTENCE_MARKS.has(corpus.dictionary.texts[entry]!);
}

function isPageOwnEdge(corpus: SiteCorpus, position: number): boolean {
  return isSentenceMark(corpus, position) || corpus.dictionary.kinds[entryAt(corpus, position)] === TOKEN_CLASS;
}

function countLiteralWords(corpus: SiteCorpus, start: number, end: number): number {
  let count = 0;
  for (let at = start; at < end; at++) if (corpus.dictionary.kinds[entryAt(corpus, at)] === TOKEN_WORD) count++;
  return count;
}

/** The pattern of corpus[start, end): no breaking classes inside. */
export function patternOf(corpus: SiteCorpus, start: number, end: number): string {
  const { dictionary } = corpus;
  let pattern = "";
  let previousWordLike = false;
  for (let at = start; at < end; at++) {
    const entry = entryAt(corpus, at);
    const kind = dictionary.kinds[entry]!;
    const wordLike = kind === TOKEN_WORD || kind === TOKEN_CLASS;
    if (at > start) pattern += previousWordLike && wordLike ? "\\s+" : "\\s*";
    pattern += kind === TOKEN_CLASS ? dictionary.patterns[entry]!.emit! : escapeLiteral(dictionary.texts[entry]!);
    previousWordLike = wordLike;
  }
  return pattern;
}

function breaksRules(corpus: SiteCorpus, position: number): boolean {
  const entry = entryAt(corpus, position);
  return entry < 0 || (corpus.dictionary.kinds[entry] === TOKEN_CLASS && corpus.dictionary.patterns[entry]!.emit === null);
}
