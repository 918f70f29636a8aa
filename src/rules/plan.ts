/**
 * From rule intervals in page text to a removal plan: a block whose whole text is covered goes whole, with
 * its markup; elsewhere only the covered text of text nodes goes. Linear in blocks + text nodes + intervals.
 */
import type { PageModel, RemovalPlan } from "../page/index";

/** Blocks walked in ordinal order have non-decreasing textStart, so one interval pointer moves forward only. */
export function planFromIntervals(page: PageModel, intervals: Int32Array): RemovalPlan {
  const { removedBlocks, hidden } = findRemovedBlocks(page, intervals);
  const removedText = clipToTextNodes(page, intervals, hidden);
  return { removedBlocks, removedText };
}

interface BlockDecision {
  /** Block ordinal → 1 if the block goes whole (its descendants are then not marked). */
  readonly removedBlocks: Uint8Array;
  /** Block ordinal → 1 if the block or one of its ancestors goes whole. */
  readonly hidden: Uint8Array;
}

function findRemovedBlocks(page: PageModel, intervals: Int32Array): BlockDecision {
  const { parent, textStart, textEnd } = page.blocks;
  const removedBlocks = new Uint8Array(page.blockCount);
  const hidden = new Uint8Array(page.blockCount);
  const pairCount = intervals.length >> 1;
  let pair = 0;
  let previousStart = 0;
  // Ordinal 0 is the document itself: never removed.
  for (let block = 1; block < page.blockCount; block += 1) {
    if (hidden[parent[block]] === 1) {
      hidden[block] = 1;
      continue;
    }
    const start = textStart[block];
    const end = textEnd[block];
    if (end <= start) continue; // a block without text is never removed on its own
    if (start < previousStart) pair = firstPairEndingAfter(intervals, start);
    previousStart = start;
    while (pair < pairCount && intervals[pair * 2 + 1] <= start) pair += 1;
    if (pair < pairCount && intervals[pair * 2] <= start && intervals[pair * 2 + 1] >= end) {
      removedBlocks[block] = 1;
      hidden[block] = 1;
    }
  }
  return { removedBlocks, hidden };
}

/** Index of the first pair whose end is after `position` (binary search; only for out-of-order input). */
function firstPairEndingAfter(intervals: Int32Array, position: number): number {
  let low = 0;
  let high = intervals.length >> 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (intervals[middle * 2 + 1] <= position) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Removed text outside removed blocks, clipped to text-node ranges: one pair per covered piece of a text node. */
function clipToTextNodes(page: PageModel, intervals: Int32Array, hidden: Uint8Array): Int32Array {
  const { block, textStart, textEnd } = page.textNodes;
  const pairCount = intervals.length >> 1;
  let output = new Int32Array(Math.max(2, intervals.length));
  let length = 0;
  let pair = 0;
  for (let node = 0; node < page.textNodeCount; node += 1) {
    if (hidden[block[node]] === 1) continue;
    const start = textStart[node];
    const end = textEnd[node];
    if (end <= start) continue;
    while (pair < pairCount && intervals[pair * 2 + 1] <= start) pair += 1;
    for (let covering = pair; covering < pairCount && intervals[covering * 2] < end; covering += 1) {
      if (length + 2 > output.length) output = growInt32(output);
      output[length] = Math.max(start, intervals[covering * 2]);
      output[length + 1] = Math.min(end, intervals[covering * 2 + 1]);
      length += 2;
    }
  }
  return output.slice(0, length);
}

function growInt32(array: Int32Array): Int32Array<ArrayBuffer> {
  const grown = new Int32Array(array.length * 2);
  grown.set(array);
  return grown;
}
