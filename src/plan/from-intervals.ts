/**
 * From rule intervals in page text to a removal plan: a block whose whole text is covered goes whole, with
 * its markup; elsewhere only the covered text of text nodes goes. Linear in blocks + text nodes + intervals.
 */
import type { PageModel } from "../page/index";
import { normalisePlan } from "./normalise";
import type { NormalisedPlan } from "./types";

/** `intervals`: sorted, disjoint [start, end) pairs in page text, flattened (the rules' merged matches). */
export function planFromIntervals(page: PageModel, intervals: Int32Array): NormalisedPlan {
  return normalisePlan(page, { removedBlocks: coveredBlocks(page, intervals), removedText: intervals });
}

/**
 * Block ordinal → 1 for the top-most blocks whose whole text one interval covers. Blocks walked in ordinal
 * order have non-decreasing textStart, so one interval pointer moves forward only.
 */
function coveredBlocks(page: PageModel, intervals: Int32Array): Uint8Array {
  const { parent, textStart, textEnd } = page.blocks;
  const removedBlocks = new Uint8Array(page.blockCount);
  const hidden = new Uint8Array(page.blockCount); // block ordinal → 1 if the block or one of its ancestors goes whole
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
  return removedBlocks;
}

/** Index of the first pair of sorted, disjoint [start, end) pairs whose end is after `position`; the pair count if none (binary search). */
export function firstPairEndingAfter(intervals: Int32Array, position: number): number {
  let low = 0;
  let high = intervals.length >> 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (intervals[middle * 2 + 1] <= position) low = middle + 1;
    else high = middle;
  }
  return low;
}
