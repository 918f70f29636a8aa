/**
 * Plans from matched CSS selectors (src/selectors): remove what matched, keep only what matched, or never
 * remove what matched. Each reads a SelectorMatch (blocks inside matched elements, the text inside them) and is
 * linear in blocks + text nodes + matched ranges.
 */
import type { PageModel } from "../page/index";
import type { InlineElements, SelectorMatch } from "../selectors/index";
import { firstPairEndingAfter } from "./from-intervals";
import { keepWhole } from "./keep-whole";
import { intersectIntervals, subtractIntervals, unionIntervals } from "./merge";
import { normalisePlan } from "./normalise";
import type { NormalisedPlan, RemovedElements } from "./types";

/** Removes the matched elements: blocks inside them whole (with their markup), and their text elsewhere. */
export function planRemovingSelected(page: PageModel, match: SelectorMatch): NormalisedPlan {
  return normalisePlan(page, { removedBlocks: match.coveredBlocks, removedText: match.text });
}

/**
 * Keeps only the matched elements: every block neither inside one nor on the path to one goes whole, and the
 * text of the blocks on those paths goes too, outside the matched elements.
 */
export function planKeepingOnlySelected(page: PageModel, match: SelectorMatch): NormalisedPlan {
  const { parent } = page.blocks;
  const count = page.blockCount;
  const onPath = new Uint8Array(count); // block ordinal → 1 if it holds a matched element (or is inside one)
  for (let block = count - 1; block > 0; block--) {
    if (match.coveredBlocks[block] === 1 || match.holderBlocks[block] === 1) onPath[block] = 1;
    if (onPath[block] === 1) onPath[parent[block]] = 1;
  }
  const removedBlocks = new Uint8Array(count);
  for (let block = 1; block < count; block++) removedBlocks[block] = onPath[block] === 1 ? 0 : 1;
  const everything = Int32Array.of(0, page.text.length);
  return normalisePlan(page, { removedBlocks, removedText: subtractIntervals(everything, match.text) });
}

/**
 * The plan less the matched elements. A matched block is kept whole (keepWhole). A matched element that is not a
 * block keeps its text: the block holding it stays (so does the path to it), and of that block's text, what the
 * plan removed stays removed but for the element's own. Matched text outside any block is kept too.
 */
export function planKeepingSelected(page: PageModel, plan: NormalisedPlan, match: SelectorMatch): NormalisedPlan {
  const { parent, textStart, textEnd } = page.blocks;
  const kept = new Uint8Array(page.blockCount);
  const under = new Uint8Array(page.blockCount); // block ordinal → 1 if it or an ancestor is kept
  const holderSpans: number[] = []; // text ranges of the kept holder blocks (top-most, not matched themselves), in order
  for (let block = 1; block < page.blockCount; block++) {
    const chosen = match.matchedBlocks[block] === 1 || match.holderBlocks[block] === 1;
    if (chosen && under[parent[block]] === 0) {
      kept[block] = 1;
      if (match.matchedBlocks[block] === 0) holderSpans.push(textStart[block], textEnd[block]);
    }
    under[block] = chosen || under[parent[block]] === 1 ? 1 : 0;
  }
  const whole = keepWhole(page, plan, kept);
  const removedInHolders = intersectIntervals(removedTextOf(page, plan), Int32Array.from(holderSpans));
  const removedText = subtractIntervals(unionIntervals(whole.removedText, removedInHolders), match.text);
  return normalisePlan(page, { removedBlocks: whole.removedBlocks, removedText });
}

/** All the page text a normalised plan removes: its top-most blocks' text and its removed text, sorted. */
function removedTextOf(page: PageModel, plan: NormalisedPlan): Int32Array {
  const blocks = new Int32Array(plan.topBlocks.length * 2);
  plan.topBlocks.forEach((block, index) => {
    blocks[index * 2] = page.blocks.textStart[block];
    blocks[index * 2 + 1] = page.blocks.textEnd[block];
  });
  return unionIntervals(blocks, plan.removedText);
}

/**
 * The plan with the matched elements that are not blocks removed whole, markup and all (an image, an icon, an
 * empty link), where the plan already removes all their text: those matched by a list in `removing` (bit per list)
 * and by no enclosing element of it, in no `protecting` list nor inside one, not inside a removed block, and
 * holding no removed block. Nested ones go with the outer. Linear in the elements and their text nodes.
 */
export function withRemovedElements(page: PageModel, plan: NormalisedPlan, inline: InlineElements, removing: number, protecting: number): NormalisedPlan {
  const starts: number[] = [];
  const chosen: number[] = [];
  let coveredUntil = -1;
  let topBlock = 0; // index into plan.topBlocks of the first removed block not before the element
  for (let element = 0; element < inline.count; element++) {
    const start = inline.sourceStart[element];
    const end = inline.sourceEnd[element];
    if ((inline.lists[element] & removing & ~inline.insideLists[element]) === 0) continue;
    if (((inline.lists[element] | inline.insideLists[element]) & protecting) !== 0) continue;
    if (start < coveredUntil || plan.removedWithAncestor[inline.block[element]] === 1) continue;
    while (topBlock < plan.topBlocks.length && page.blocks.sourceStart[plan.topBlocks[topBlock]] < start) topBlock++;
    if (topBlock < plan.topBlocks.length && page.blocks.sourceStart[plan.topBlocks[topBlock]] < end) continue;
    if (!textRemoved(page, plan, inline.firstTextNode[element], inline.endTextNode[element])) continue;
    chosen.push(element);
    starts.push(start);
    coveredUntil = end;
  }
  if (chosen.length === 0) return plan;
  const pick = (column: Int32Array) => Int32Array.from(chosen, (element) => column[element]);
  const removedElements: RemovedElements = {
    count: chosen.length, sourceStart: Int32Array.from(starts), sourceNameEnd: pick(inline.sourceNameEnd), sourceEnd: pick(inline.sourceEnd),
    closeRepeat: Uint16Array.from(chosen, (element) => inline.closeRepeat[element]),
    separated: Uint8Array.from(chosen, (element) => separatedNodes(page, inline.firstTextNode[element], inline.endTextNode[element])),
  };
  return { ...plan, removedElements };
}

/** 1 if white space separates two of the text nodes [first, end) in page text (removed text keeps it), else 0. */
function separatedNodes(page: PageModel, first: number, end: number): number {
  const { textStart, textEnd } = page.textNodes;
  for (let node = first; node + 1 < end; node++) if (textStart[node + 1] > textEnd[node]) return 1;
  return 0;
}

/** Whether the plan removes every character of the text nodes [first, end) (in removed blocks, or in removedText). */
function textRemoved(page: PageModel, plan: NormalisedPlan, first: number, end: number): boolean {
  const { block, textStart, textEnd } = page.textNodes;
  const ranges = plan.removedText;
  for (let node = first; node < end; node++) {
    if (plan.removedWithAncestor[block[node]] === 1) continue;
    const pair = firstPairEndingAfter(ranges, textStart[node]) * 2; // ranges.length if none
    if (pair >= ranges.length || ranges[pair] > textStart[node] || ranges[pair + 1] < textEnd[node]) return false;
  }
  return true;
}
