/**
 * Suffix array by induced sorting (SA-IS: Nong, Zhang and Chan 2009), linear time over an integer
 * alphabet. The layout follows the compact formulation of the AtCoder Library, on typed arrays:
 * no per-suffix objects, one recursion per level on the reduced string of LMS substrings.
 *
 * Input: `symbols[i]` in [0, maxSymbol]. No sentinel is required; the suffix at the end sorts as the
 * shortest. Output: `suffixArray[rank] = start position` of the suffix with that lexicographic rank.
 */

/** Below this length the suffixes are sorted by plain comparison (cheaper than the SA-IS set-up). */
const NAIVE_SORT_BELOW_LENGTH = 10;

export function buildSuffixArray(symbols: Int32Array, maxSymbol: number): Int32Array {
  const length = symbols.length;
  if (length < NAIVE_SORT_BELOW_LENGTH) return sortSuffixesByComparison(symbols);
  // isSmaller[i] = 1 if suffix i is S-type (smaller than suffix i + 1), 0 if L-type.
  const isSmaller = new Uint8Array(length);
  for (let i = length - 2; i >= 0; i--) {
    isSmaller[i] = symbols[i] === symbols[i + 1] ? isSmaller[i + 1] : symbols[i] < symbols[i + 1] ? 1 : 0;
  }
  const buckets = bucketBounds(symbols, isSmaller, maxSymbol);
  // lmsOrdinal[i] = ordinal of position i among the LMS positions (left-most S-type), or -1.
  const lmsOrdinal = new Int32Array(length + 1).fill(-1);
  let lmsCount = 0;
  for (let i = 1; i < length; i++) if (!isSmaller[i - 1] && isSmaller[i]) lmsOrdinal[i] = lmsCount++;
  const lmsPositions = new Int32Array(lmsCount);
  for (let i = 1, k = 0; i < length; i++) if (!isSmaller[i - 1] && isSmaller[i]) lmsPositions[k++] = i;

  const suffixArray = new Int32Array(length);
  induceSort(symbols, isSmaller, buckets, lmsPositions, suffixArray);
  if (lmsCount === 0) return suffixArray;

  const sortedLms = new Int32Array(lmsCount);
  for (let rank = 0, k = 0; rank < length; rank++) {
    const position = suffixArray[rank]!;
    if (lmsOrdinal[position] !== -1) sortedLms[k++] = position;
  }
  const { reduced, maxName } = nameLmsSubstrings(symbols, lmsOrdinal, lmsPositions, sortedLms);
  const reducedSuffixArray = buildSuffixArray(reduced, maxName);
  for (let i = 0; i < lmsCount; i++) sortedLms[i] = lmsPositions[reducedSuffixArray[i]!]!;
  induceSort(symbols, isSmaller, buckets, sortedLms, suffixArray);
  return suffixArray;
}

interface BucketBounds {
  /** symbol → first slot of its S-type part (after its L-type part). */
  readonly smallStart: Int32Array;
  /** symbol → first slot of its bucket (where its L-type suffixes begin). */
  readonly largeStart: Int32Array;
}

function bucketBounds(symbols: Int32Array, isSmaller: Uint8Array, maxSymbol: number): BucketBounds {
  const largeStart = new Int32Array(maxSymbol + 2);
  const smallStart = new Int32Array(maxSymbol + 2);
  for (let i = 0; i < symbols.length; i++) {
    if (!isSmaller[i]) smallStart[symbols[i]!]++;
    else largeStart[symbols[i]! + 1]++;
  }
  for (let symbol = 0; symbol <= maxSymbol; symbol++) {
    smallStart[symbol] += largeStart[symbol]!;
    if (symbol < maxSymbol) largeStart[symbol + 1] += smallStart[symbol]!;
  }
  return { smallStart, largeStart };
}

/** Places the given LMS suffixes at their bucket ends, then induces the L-type and S-type suffixes. */
function induceSort(
  symbols: Int32Array,
  isSmaller: Uint8Array,
  buckets: BucketBounds,
  lmsInOrder: Int32Array,
  suffixArray: Int32Array,
): void {
  const length = symbols.length;
  suffixArray.fill(-1);
  const cursor = Int32Array.from(buckets.smallStart);
  for (let k = 0; k < lmsInOrder.length; k++) {
    const position = lmsInOrder[k]!;
    if (position === length) continue;
    suffixArray[cursor[symbols[position]!]!++] = position;
  }
  cursor.set(buckets.largeStart);
  suffixArray[cursor[symbols[length - 1]!]!++] = length - 1;
  for (let rank = 0; rank < length; rank++) {
    const position = suffixArray[rank]!;
    if (position >= 1 && !isSmaller[position - 1]) suffixArray[cursor[symbols[position - 1]!]!++] = position - 1;
  }
  cursor.set(buckets.largeStart);
  for (let rank = length - 1; rank >= 0; rank--) {
    const position = suffixArray[rank]!;
    if (position >= 1 && isSmaller[position - 1]) suffixArray[--cursor[symbols[position - 1]! + 1]!] = position - 1;
  }
}

/** Names each LMS substring by its rank among distinct ones: the reduced string for the recursion. */
function nameLmsSubstrings(
  symbols: Int32Array,
  lmsOrdinal: Int32Array,
  lmsPositions: Int32Array,
  sortedLms: Int32Array,
): { reduced: Int32Array; maxName: number } {
  const length = symbols.length;
  const lmsCount = lmsPositions.length;
  const reduced = new Int32Array(lmsCount);
  let name = 0;
  reduced[lmsOrdinal[sortedLms[0]!]!] = 0;
  for (let i = 1; i < lmsCount; i++) {
    let left = sortedLms[i - 1]!;
    let right = sortedLms[i]!;
    const leftOrdinal = lmsOrdinal[left]!;
    const rightOrdinal = lmsOrdinal[right]!;
    const leftEnd = leftOrdinal + 1 < lmsCount ? lmsPositions[leftOrdinal + 1]! : length;
    const rightEnd = rightOrdinal + 1 < lmsCount ? lmsPositions[rightOrdinal + 1]! : length;
    let same = leftEnd - left === rightEnd - right;
    if (same) {
      while (left < leftEnd && symbols[left] === symbols[right]) {
        left++;
        right++;
      }
      if (left === length || symbols[left] !== symbols[right]) same = false;
    }
    if (!same) name++;
    reduced[rightOrdinal] = name;
  }
  return { reduced, maxName: name };
}

/**
 * Suffix array by a plain comparison sort of the suffixes: O(n log n) comparisons of up to n symbols
 * each. Kept as the reference for tests and as the baseline the mining benchmark compares against.
 */
export function sortSuffixesByComparison(symbols: Int32Array): Int32Array {
  const length = symbols.length;
  const order = new Int32Array(length);
  for (let i = 0; i < length; i++) order[i] = i;
  return order.sort((a, b) => compareSuffixes(symbols, a, b));
}

function compareSuffixes(symbols: Int32Array, a: number, b: number): number {
  const length = symbols.length;
  while (a < length && b < length) {
    const difference = symbols[a]! - symbols[b]!;
    if (difference !== 0) return difference;
    a++;
    b++;
  }
  // The shorter suffix (the one that ran out) sorts first.
  return b - a;
}
