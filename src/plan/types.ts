/**
 * What to remove from a page, decided by rules and/or the classifier, in page coordinates.
 * A removed block goes whole, with its markup; removed text goes from the text nodes of kept blocks.
 */
export interface RemovalPlan {
  /** Block ordinal → 1 if the block is removed whole (with its descendants), else 0. */
  readonly removedBlocks: Uint8Array;
  /** Sorted, disjoint [start, end) pairs in page text, flattened: text to remove outside removed blocks. */
  readonly removedText: Int32Array;
}

/** How much a plan removes: top-most blocks removed whole, and characters of page text removed in all. */
export interface RemovalCounts {
  readonly blocks: number;
  readonly chars: number;
}

/**
 * A plan in the one form that rewrite, the writers, clean() and the evaluation read (normalisePlan makes it):
 * only top-most removed blocks marked, removed text clipped to the text nodes of kept blocks, and what every
 * reader would otherwise derive again.
 */
export interface NormalisedPlan extends RemovalPlan {
  /** Block ordinal → 1 if the block or an ancestor is removed whole, else 0 (the root is never removed). */
  readonly removedWithAncestor: Uint8Array;
  /** Ordinals of the top-most removed blocks, in document order. */
  readonly topBlocks: Int32Array;
  readonly counts: RemovalCounts;
  /** Elements that are not blocks removed whole with their markup (selectors' matches), none inside a removed block;
   * absent when none. Their text is in removedText too. */
  readonly removedElements?: RemovedElements;
}

/** Elements that are not blocks, removed whole: sorted, disjoint source ranges, as pass 1 ends each element. */
export interface RemovedElements {
  readonly count: number;
  /** Element ordinal → source offset of the "<" of its start tag. */
  readonly sourceStart: Int32Array;
  /** Element ordinal → source offset just after its tag name (where pass 2 writes its mark). */
  readonly sourceNameEnd: Int32Array;
  /** Element ordinal → source offset just after it ends. */
  readonly sourceEnd: Int32Array;
  /** Element ordinal → how many of its own end tags pass 2 writes at sourceEnd (closed by an ancestor's end tag), else 0. */
  readonly closeRepeat: Uint16Array;
  /** Element ordinal → 1 if page text separates its text nodes by white space (which the plan keeps), else 0. */
  readonly separated: Uint8Array;
}
