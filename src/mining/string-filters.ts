/**
 * Step 7 of paper 002 ("simple heuristics … filter out irrelevant strings"), before the histogram:
 * - a string needs enough word-like tokens: punctuation does not make ", I" a two-token string;
 * - a string must touch a block boundary (start where a block starts or end where one ends) in enough of
 *   its occurrences. Template strings are whole blocks or run from a block edge to where the page's own
 *   content begins; idioms ("one of the", "as well as") sit inside running text. This is the page
 *   structure the paper's plain-text input did not have; it matters most when a site has few pages and
 *   idioms reach template-like document frequencies by chance.
 */
import type { SiteCorpus } from "./corpus";
import type { RepeatTable } from "./maximal-repeats";
import { FLAG_BLOCK_START, TOKEN_SYMBOL } from "./tokens";

export interface StringFilterOptions {
  /** Least number of word or class tokens in a string. */
  readonly minimumWordTokens: number;
  /** Least share of (sampled) occurrences that start at a block start or end at a block end. */
  readonly minimumBoundaryShare: number;
  /** Occurrences sampled per string for the boundary share (bounds the work on very frequent strings). */
  readonly boundarySample: number;
}

/** Repeat ordinal → 1 if the string passes the filters, else 0. */
export function filterRepeats(
  corpus: SiteCorpus,
  suffixArray: Int32Array,
  repeats: RepeatTable,
  options: StringFilterOptions,
): Uint8Array {
  const wordsBefore = countWordTokens(corpus);
  const passes = new Uint8Array(repeats.size);
  for (let r = 0; r < repeats.size; r++) {
    const start = repeats.position[r]!;
    const length = repeats.length[r]!;
    if (wordsBefore[start + length]! - wordsBefore[start]! < options.minimumWordTokens) continue;
    const first = repeats.firstRank[r]!;
    const last = Math.min(repeats.lastRank[r]!, first + options.boundarySample - 1);
    let touching = 0;
    for (let rank = first; rank <= last; rank++) {
      const position = suffixArray[rank]!;
      if (touchesBoundary(corpus, position, position + length)) touching++;
    }
    if (touching >= options.minimumBoundaryShare * (last - first + 1)) passes[r] = 1;
  }
  return passes;
}

/** wordsBefore[position] = word and class tokens in corpus[0, position). */
function countWordTokens(corpus: SiteCorpus): Int32Array {
  const { tokens, pageCount, dictionary } = corpus;
  const wordsBefore = new Int32Array(tokens.length + 1);
  for (let position = 0; position < tokens.length; position++) {
    const token = tokens[position]!;
    const wordLike = token >= pageCount && dictionary.kinds[token - pageCount] !== TOKEN_SYMBOL ? 1 : 0;
    wordsBefore[position + 1] = wordsBefore[position]! + wordLike;
  }
  return wordsBefore;
}

/** Whether the occurrence corpus[start, end) starts a block or ends one (the next token starts a block or is a separator). */
function touchesBoundary(corpus: SiteCorpus, start: number, end: number): boolean {
  if ((corpus.flags[start]! & FLAG_BLOCK_START) !== 0) return true;
  return corpus.tokens[end]! < corpus.pageCount || (corpus.flags[end]! & FLAG_BLOCK_START) !== 0;
}
