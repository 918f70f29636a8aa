/**
 * Longest-common-prefix array by Kasai et al. (2001), linear time.
 *
 * `lcp[rank]` = number of leading symbols shared by the suffixes at `rank - 1` and `rank` of the suffix
 * array; `lcp[0] = 0`. The optional `scratch` array (length n) is used for the inverse suffix array, so
 * a caller can reuse it afterwards.
 */
export function buildLcpArray(symbols: Int32Array, suffixArray: Int32Array, scratch?: Int32Array): Int32Array {
  const length = symbols.length;
  // rankOf[position] = rank of the suffix starting at position.
  const rankOf = scratch ?? new Int32Array(length);
  for (let rank = 0; rank < length; rank++) rankOf[suffixArray[rank]!] = rank;
  const lcp = new Int32Array(length);
  let shared = 0;
  for (let position = 0; position < length; position++) {
    const rank = rankOf[position]!;
    if (rank === 0) {
      shared = 0;
      continue;
    }
    const previous = suffixArray[rank - 1]!;
    while (position + shared < length && previous + shared < length && symbols[position + shared] === symbols[previous + shared]) {
      shared++;
    }
    lcp[rank] = shared;
    if (shared > 0) shared--;
  }
  return lcp;
}

/** LCP by direct comparison of neighbouring suffixes: the reference for tests. */
export function buildLcpArrayByComparison(symbols: Int32Array, suffixArray: Int32Array): Int32Array {
  const length = symbols.length;
  const lcp = new Int32Array(length);
  for (let rank = 1; rank < length; rank++) {
    const a = suffixArray[rank - 1]!;
    const b = suffixArray[rank]!;
    let shared = 0;
    while (a + shared < length && b + shared < length && symbols[a + shared] === symbols[b + shared]) shared++;
    lcp[rank] = shared;
  }
  return lcp;
}
