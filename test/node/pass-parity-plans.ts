/** Random removal plans and the text a plan keeps, for the pass parity tests. */
import type { PageModel } from "../../src/page/index";
import type { RemovalPlan } from "../../src/plan/index";

/** Share of blocks removed, and of kept text nodes that lose a random part, in the random plans. */
const BLOCK_REMOVAL_RATE = 0.08;
const TEXT_CUT_RATE = 0.15;

/** A random plan: blocks removed at random; random parts cut from text nodes of kept blocks. */
export function randomPlan(page: PageModel, random: () => number): RemovalPlan {
  const removedBlocks = new Uint8Array(page.blockCount);
  const removedWithAncestor = new Uint8Array(page.blockCount);
  for (let block = 1; block < page.blockCount; block++) {
    if (random() < BLOCK_REMOVAL_RATE) removedBlocks[block] = 1;
    removedWithAncestor[block] = removedBlocks[block] | removedWithAncestor[page.blocks.parent[block]];
  }
  const cuts: number[] = [];
  for (let node = 0; node < page.textNodeCount; node++) {
    if (removedWithAncestor[page.textNodes.block[node]] === 1 || random() >= TEXT_CUT_RATE) continue;
    const start = page.textNodes.textStart[node];
    const length = page.textNodes.textEnd[node] - start;
    const from = start + Math.floor(random() * length);
    const to = from + 1 + Math.floor(random() * (start + length - from));
    cuts.push(codePointBoundary(page.text, from), codePointBoundary(page.text, Math.min(to, start + length)));
  }
  return { removedBlocks, removedText: Int32Array.from(cuts) };
}

/** Moves an offset off the middle of a surrogate pair (rules cut whole characters too). */
function codePointBoundary(text: string, offset: number): number {
  const code = text.charCodeAt(offset);
  return code >= 0xdc00 && code <= 0xdfff ? offset + 1 : offset;
}

/** The page text the model says is kept: removed blocks' and removed text ranges deleted. */
export function keptText(page: PageModel, plan: RemovalPlan): string {
  const ranges: number[] = [];
  let coveredUntil = -1;
  for (let block = 1; block < page.blockCount; block++) {
    if (plan.removedBlocks[block] !== 1 || page.blocks.sourceStart[block] < coveredUntil) continue;
    coveredUntil = page.blocks.sourceEnd[block];
    ranges.push(page.blocks.textStart[block], page.blocks.textEnd[block]);
  }
  for (let index = 0; index < plan.removedText.length; index += 2) ranges.push(plan.removedText[index], plan.removedText[index + 1]);
  const keep = new Uint8Array(page.text.length).fill(1);
  for (let index = 0; index < ranges.length; index += 2) keep.fill(0, ranges[index], ranges[index + 1]);
  let kept = "";
  for (let offset = 0; offset < page.text.length; offset++) if (keep[offset] === 1) kept += page.text[offset];
  return kept;
}

export function words(text: string): string[] {
  return text.split(/\s+/).filter((word) => word !== "");
}

export function topRemovedCount(page: PageModel, plan: RemovalPlan): number {
  let count = 0;
  let coveredUntil = -1;
  for (let block = 1; block < page.blockCount; block++) {
    if (plan.removedBlocks[block] !== 1 || page.blocks.sourceStart[block] < coveredUntil) continue;
    coveredUntil = page.blocks.sourceEnd[block];
    count++;
  }
  return count;
}

