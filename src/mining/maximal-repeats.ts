/**
 * Maximal repeated token strings with their occurrence count and document frequency (paper 002,
 * steps 5-7), in one bottom-up walk over the LCP intervals of the suffix array with a stack
 * (Abouelhoda, Kurtz and Ohlebusch 2004).
 *
 * - Every LCP interval is a right-maximal repeat: its occurrences are followed by different tokens.
 *   It is also left-maximal when its occurrences are not all preceded by one same token; that is
 *   checked in O(1) with a prefix count of "preceding token changes" along the suffix array.
 * - Document frequency uses the "last occurrence per document" trick (Hui 1992): when a suffix of
 *   document d is met and d was last seen at rank p, one duplicate is charged to the deepest open
 *   interval containing p (a binary search on the stack); an interval's documents are its size minus
 *   the duplicates charged in its subtree. Duplicates flow to the parent when an interval closes.
 * Time O(n log depth), memory a few Int32Arrays of n.
 */

export interface RepeatOptions {
  /** Strings of fewer tokens are dropped. */
  readonly minimumTokens: number;
  /** Strings found in fewer documents are dropped. */
  readonly minimumDocuments: number;
}

/** Maximal repeats in struct-of-arrays form; repeat ordinal → value in each array. */
export interface RepeatTable {
  readonly size: number;
  /** → corpus position of one occurrence (the first in suffix order). */
  readonly position: Int32Array;
  /** → length in tokens. */
  readonly length: Int32Array;
  /** → number of occurrences in the corpus (overlapping ones included). */
  readonly occurrences: Int32Array;
  /** → number of distinct documents it occurs in. */
  readonly documents: Int32Array;
  /** → [firstRank, lastRank]: the suffix array ranks of all its occurrences. */
  readonly firstRank: Int32Array;
  readonly lastRank: Int32Array;
}

export interface RepeatInput {
  /** Corpus position → token id (unique separator ids between documents). */
  readonly tokens: Int32Array;
  /** Corpus position → document ordinal. */
  readonly documentOf: Int32Array;
  readonly documentCount: number;
  readonly suffixArray: Int32Array;
  /** Rank → LCP with the previous rank (Kasai). */
  readonly lcp: Int32Array;
}

export function findMaximalRepeats(input: RepeatInput, options: RepeatOptions): RepeatTable {
  const { suffixArray, lcp, documentOf } = input;
  const length = suffixArray.length;
  const leftChanges = countLeftChanges(input.tokens, suffixArray);
  const table = new RepeatTableBuilder();
  const stack = new IntervalStack();
  // lastRankOf[document] = rank at which the document's latest suffix was met, -1 before.
  const lastRankOf = new Int32Array(input.documentCount).fill(-1);
  stack.push(0, 0, 0);
  for (let rank = 0; rank <= length; rank++) {
    const height = rank === 0 ? 0 : rank < length ? lcp[rank]! : -1;
    let leftBound = rank - 1;
    let pendingDuplicates = 0;
    while (stack.depth > 0 && height < stack.topLcp()) {
      const closedLcp = stack.topLcp();
      const closedLeft = stack.topLeft();
      const closedDuplicates = stack.topDuplicates();
      stack.pop();
      const lastRank = rank - 1;
      const documents = lastRank - closedLeft + 1 - closedDuplicates;
      const leftMaximal = leftChanges[lastRank] !== leftChanges[closedLeft];
      if (closedLcp >= options.minimumTokens && documents >= options.minimumDocuments && leftMaximal) {
        table.add(suffixArray[closedLeft]!, closedLcp, lastRank - closedLeft + 1, documents, closedLeft, lastRank);
      }
      leftBound = closedLeft;
      if (stack.depth > 0 && height <= stack.topLcp()) stack.addDuplicates(closedDuplicates);
      else pendingDuplicates = closedDuplicates;
    }
    if (rank === length) break;
    if (height > stack.topLcp()) stack.push(height, leftBound, pendingDuplicates);
    else if (pendingDuplicates > 0) stack.addDuplicates(pendingDuplicates);
    const document = documentOf[suffixArray[rank]!]!;
    const previousRank = lastRankOf[document]!;
    if (previousRank >= 0) stack.chargeDuplicate(previousRank);
    lastRankOf[document] = rank;
  }
  return table.finish();
}

/**
 * changes[rank] = how many ranks r in (0, rank] have a preceding token different from rank r - 1's.
 * The preceding token of the suffix at 0 is -1; separators are unique, so they never compare equal.
 */
function countLeftChanges(tokens: Int32Array, suffixArray: Int32Array): Int32Array {
  const changes = new Int32Array(suffixArray.length);
  let previousToken = suffixArray.length > 0 && suffixArray[0]! > 0 ? tokens[suffixArray[0]! - 1]! : -1;
  for (let rank = 1; rank < suffixArray.length; rank++) {
    const position = suffixArray[rank]!;
    const token = position > 0 ? tokens[position - 1]! : -1;
    changes[rank] = changes[rank - 1]! + (token !== previousToken || token === -1 ? 1 : 0);
    previousToken = token;
  }
  return changes;
}

/** Open LCP intervals: lcp value, left rank bound and duplicates charged so far, per stack slot. */
class IntervalStack {
  depth = 0;
  private lcpValues = new Int32Array(256);
  private leftBounds = new Int32Array(256);
  private duplicates = new Int32Array(256);

  push(lcpValue: number, leftBound: number, duplicates: number): void {
    if (this.depth === this.lcpValues.length) this.grow();
    this.lcpValues[this.depth] = lcpValue;
    this.leftBounds[this.depth] = leftBound;
    this.duplicates[this.depth] = duplicates;
    this.depth++;
  }
  pop(): void {
    this.depth--;
  }
  topLcp(): number {
    return this.lcpValues[this.depth - 1]!;
  }
  topLeft(): number {
    return this.leftBounds[this.depth - 1]!;
  }
  topDuplicates(): number {
    return this.duplicates[this.depth - 1]!;
  }
  addDuplicates(count: number): void {
    this.duplicates[this.depth - 1] += count;
  }
  /** Charges one duplicate to the deepest open interval whose left bound is at or before `rank`. */
  chargeDuplicate(rank: number): void {
    let low = 0;
    let high = this.depth - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if (this.leftBounds[middle]! <= rank) low = middle;
      else high = middle - 1;
    }
    this.duplicates[low]++;
  }
  private grow(): void {
    const capacity = this.lcpValues.length * 2;
    this.lcpValues = copyInto(new Int32Array(capacity), this.lcpValues);
    this.leftBounds = copyInto(new Int32Array(capacity), this.leftBounds);
    this.duplicates = copyInto(new Int32Array(capacity), this.duplicates);
  }
}

function copyInto(target: Int32Array<ArrayBuffer>, source: Int32Array): Int32Array<ArrayBuffer> {
  target.set(source);
  return target;
}

/** Growable columns of the repeat table (doubling), trimmed by `finish`. */
class RepeatTableBuilder {
  private size = 0;
  private position = new Int32Array(1024);
  private length = new Int32Array(1024);
  private occurrences = new Int32Array(1024);
  private documents = new Int32Array(1024);
  private firstRank = new Int32Array(1024);
  private lastRank = new Int32Array(1024);

  add(position: number, length: number, occurrences: number, documents: number, firstRank: number, lastRank: number): void {
    if (this.size === this.position.length) this.grow();
    const at = this.size++;
    this.position[at] = position;
    this.length[at] = length;
    this.occurrences[at] = occurrences;
    this.documents[at] = documents;
    this.firstRank[at] = firstRank;
    this.lastRank[at] = lastRank;
  }

  finish(): RepeatTable {
    const size = this.size;
    return {
      size,
      position: this.position.slice(0, size),
      length: this.length.slice(0, size),
      occurrences: this.occurrences.slice(0, size),
      documents: this.documents.slice(0, size),
      firstRank: this.firstRank.slice(0, size),
      lastRank: this.lastRank.slice(0, size),
    };
  }

  private grow(): void {
    const capacity = this.position.length * 2;
    this.position = copyInto(new Int32Array(capacity), this.position);
    this.length = copyInto(new Int32Array(capacity), this.length);
    this.occurrences = copyInto(new Int32Array(capacity), this.occurrences);
    this.documents = copyInto(new Int32Array(capacity), this.documents);
    this.firstRank = copyInto(new Int32Array(capacity), this.firstRank);
    this.lastRank = copyInto(new Int32Array(capacity), this.lastRank);
  }
}
