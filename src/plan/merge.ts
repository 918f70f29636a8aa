import type { PageModel } from "../page/index";
import { normalisePlan } from "./normalise";
import type { NormalisedPlan, RemovalPlan } from "./types";

/**
 * Union of two plans of the same page: a block removed by either goes, and removed text is the union of
 * both, clipped to the text nodes of blocks that stay.
 */
export function mergePlans(page: PageModel, first: RemovalPlan, second: RemovalPlan): NormalisedPlan {
  const removedBlocks = new Uint8Array(page.blockCount);
  for (let block = 1; block < page.blockCount; block++) removedBlocks[block] = first.removedBlocks[block] | second.removedBlocks[block];
  return normalisePlan(page, { removedBlocks, removedText: unionIntervals(first.removedText, second.removedText) });
}

/** Sorted, merged union of two sorted lists of [start, end) pairs. */
export function unionIntervals(first: Int32Array, second: Int32Array): Int32Array {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < first.length || j < second.length) {
    const takeFirst = j >= second.length || (i < first.length && first[i] <= second[j]);
    const start = takeFirst ? first[i] : second[j];
    const end = takeFirst ? first[i + 1] : second[j + 1];
    if (takeFirst) i += 2;
    else j += 2;
    if (out.length > 0 && start <= out[out.length - 1]) out[out.length - 1] = Math.max(out[out.length - 1], end);
    else out.push(start, end);
  }
  return Int32Array.from(out);
}

/** Sorted, disjoint [start, end) pairs of `from` less those of `minus` (both sorted and disjoint; a two-pointer walk). */
export function subtractIntervals(from: Int32Array, minus: Int32Array): Int32Array {
  if (from.length === 0 || minus.length === 0) return from;
  const out: number[] = [];
  let other = 0;
  for (let pair = 0; pair + 1 < from.length; pair += 2) {
    let start = from[pair];
    const end = from[pair + 1];
    while (other + 1 < minus.length && minus[other + 1] <= start) other += 2;
    for (let index = other; index + 1 < minus.length && minus[index] < end && start < end; index += 2) {
      if (minus[index] > start) out.push(start, minus[index]);
      start = Math.max(start, minus[index + 1]);
    }
    if (start < end) out.push(start, end);
  }
  return Int32Array.from(out);
}

/** Sorted, disjoint [start, end) pairs in both `first` and `second` (both sorted and disjoint; a two-pointer walk). */
export function intersectIntervals(first: Int32Array, second: Int32Array): Int32Array {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i + 1 < first.length && j + 1 < second.length) {
    const start = Math.max(first[i], second[j]);
    const end = Math.min(first[i + 1], second[j + 1]);
    if (start < end) out.push(start, end);
    if (first[i + 1] < second[j + 1]) i += 2;
    else j += 2;
  }
  return Int32Array.from(out);
}
