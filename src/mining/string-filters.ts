/**
 * Step 7 of paper 002 ("simple heuristics … filter out irrelevant strings"), before the histogram:
 * - a string needs enough word-like tokens: punctuation does not make ", I" a two-token string;
 * - a string must meet a block boundary (start where a block starts, end where one ends, or span one) in
 *   enough of its occurrences. Template strings are whole blocks, run across blocks, or run from a block
 *   edge to where the page's own content begins; idioms ("one of the", "as well as") sit inside running text. This is the page
 *   structure the paper's plain-text input did not have; it matters most when a site has few pages and
 *   idioms reach template-like document frequencies by chance.
 */
import type { SiteCorpus } from "./corpus";
import type { RepeatTable } from "./maximal-repeats";
import { FLAG_BLOCK_START, TOKEN_SYMBOL } from "./tokens";

export interface StringFilterOptions {
  /** Least number of word or class tokens in a string. */
  readonly minimumWordTokens: number;
  /** Least share of (sampled) occurrences that start at a block start, end at a block end or span a boundary. */
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
  const { wordsBefore, blockStartsBefore } = prefixCounts(corpus);
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
      // A block starts at the first token, inside, or right after the last one (a separator ends a page's last block).
      const end = position + length;
      if (blockStartsBefore[end + 1]! - blockStartsBefore[position]! > 0 || corpus.tokens[end]! < corpus.pageCount) touching++;
    }
    if (touching >= options.minimumBoundaryShare * (last - first + 1)) passes[r] = 1;
  }
  return passes;
}

/**
 * wordsBefore[position] = word and class tokens in corpus[0, position);
 * blockStartsBefore[position] = tokens flagged FLAG_BLOCK_START in corpus[0, position).
 */
function prefixCounts(corpus: SiteCorpus): { wordsBefore: Int32Array; blockStartsBefore: Int32Array } {
  const { tokens, pageCount, dictionary, flags } = corpus;
  const wordsBefore = new Int32Array(tokens.length + 1);
  const blockStartsBefore = new Int32Array(tokens.length + 1);
  for (let position = 0; position < tokens.length; position++) {
    const token = tokens[position]!;
    const wordLike = token >= pageCount && dictionary.kinds[token - pageCount] !== TOKEN_SYMBOL ? 1 : 0;
    wordsBefore[position + 1] = wordsBefore[position]! + wordLike;
    blockStartsBefore[position + 1] = blockStartsBefore[position]! + ((flags[position]! & FLAG_BLOCK_START) !== 0 ? 1 : 0);
  }
  return { wordsBefore, blockStartsBefore };
}
