import type { PageModel } from "../page/index";
import type { NormalisedPlan, RemovalPlan } from "./types";

/**
 * The plan in normal form: removed blocks reduced to the top-most ones (a block under a removed ancestor goes
 * with it), removed text clipped to the text nodes of blocks that stay (one pair per covered piece of a text
 * node), with the blocks removed with an ancestor and the counts. Linear in blocks + text nodes + intervals;
 * normalising a normalised plan gives the same plan.
 */
export function normalisePlan(page: PageModel, plan: RemovalPlan): NormalisedPlan {
  const count = page.blockCount;
  const { parent, textStart, textEnd } = page.blocks;
  const removedBlocks = new Uint8Array(count);
  const removedWithAncestor = new Uint8Array(count);
  const top: number[] = [];
  let chars = 0;
  // Ordinal 0 is the document itself: never removed. Parents precede children, so one pass.
  for (let block = 1; block < count; block++) {
    const inherited = removedWithAncestor[parent[block]] === 1;
    const removed = plan.removedBlocks[block] === 1;
    removedWithAncestor[block] = inherited || removed ? 1 : 0;
    if (!removed || inherited) continue;
    removedBlocks[block] = 1;
    top.push(block);
    chars += textEnd[block] - textStart[block];
  }
  const removedText = clipToKeptTextNodes(page, plan.removedText, removedWithAncestor);
  for (let index = 0; index + 1 < removedText.length; index += 2) chars += removedText[index + 1] - removedText[index];
  return { removedBlocks, removedText, removedWithAncestor, topBlocks: Int32Array.from(top), counts: { blocks: top.length, chars } };
}

/** The plan that removes nothing. */
export function emptyPlan(page: PageModel): NormalisedPlan {
  return normalisePlan(page, { removedBlocks: new Uint8Array(page.blockCount), removedText: new Int32Array(0) });
}

/** Sorted, disjoint intervals cut to the text nodes of kept blocks: one pair per covered piece of a text node. */
function clipToKeptTextNodes(page: PageModel, intervals: Int32Array, removedWithAncestor: Uint8Array): Int32Array {
  const { block, textStart, textEnd } = page.textNodes;
  const pairCount = intervals.length >> 1;
  let output = new Int32Array(Math.max(2, intervals.length));
  let length = 0;
  let pair = 0;
  for (let node = 0; node < page.textNodeCount && pair < pairCount; node += 1) {
    if (removedWithAncestor[block[node]] === 1) continue;
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
