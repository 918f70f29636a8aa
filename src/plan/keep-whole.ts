/** Undoing the removal of chosen blocks in a plan, for comments kept on request and the article guard. */
import type { PageModel } from "../page/index";
import { normalisePlan } from "./normalise";
import type { NormalisedPlan, RemovalPlan } from "./types";

/**
 * A plan that keeps some blocks whole (`blocks`: block ordinal → 1, top-most blocks only): their removal and
 * their descendants' is undone, and where a removed ancestor held them, that ancestor stays and its removal
 * moves down to its children off the path to them. Linear in blocks and removed ranges.
 */
export function keepWhole(page: PageModel, plan: RemovalPlan, blocks: Uint8Array): NormalisedPlan {
  const { parent } = page.blocks;
  const count = page.blockCount;
  const onPath = new Uint8Array(count); // block ordinal → 1 if a kept block or an ancestor of one
  for (let b = 1; b < count; b++) if (blocks[b] === 1) for (let up = b; up > 0 && onPath[up] === 0; up = parent[up]) onPath[up] = 1;
  const inside = new Uint8Array(count); // block ordinal → 1 if inside a kept block (itself included)
  const pending = new Uint8Array(count); // block ordinal → 1 if on a path and removed by the plan, itself or through a path ancestor
  const removedBlocks = new Uint8Array(count);
  for (let b = 1; b < count; b++) {
    const up = parent[b];
    inside[b] = blocks[b] === 1 || inside[up] === 1 ? 1 : 0;
    if (onPath[b] === 1 || inside[b] === 1) {
      pending[b] = onPath[b] === 1 && (plan.removedBlocks[b] === 1 || pending[up] === 1) ? 1 : 0;
      continue;
    }
    removedBlocks[b] = pending[up] === 1 ? 1 : plan.removedBlocks[b];
  }
  return normalisePlan(page, { removedBlocks, removedText: subtractRanges(page, plan.removedText, blocks) });
}

/** Removed text ranges less the text of the kept blocks (both lists sorted; a two-pointer walk). */
function subtractRanges(page: PageModel, ranges: Int32Array, blocks: Uint8Array): Int32Array {
  if (ranges.length === 0) return ranges;
  const spans: number[] = []; // [start, end) of each kept block's text, in order
  for (let b = 1; b < page.blockCount; b++) if (blocks[b] === 1) spans.push(page.blocks.textStart[b], page.blocks.textEnd[b]);
  const kept: number[] = [];
  let span = 0;
  for (let i = 0; i + 1 < ranges.length; i += 2) {
    let start = ranges[i];
    const end = ranges[i + 1];
    while (span < spans.length && spans[span + 1] <= start) span += 2;
    for (let s = span; s < spans.length && spans[s] < end && start < end; s += 2) {
      if (spans[s] > start) kept.push(start, spans[s]);
      start = Math.max(start, spans[s + 1]);
    }
    if (start < end) kept.push(start, end);
  }
  return Int32Array.from(kept);
}
