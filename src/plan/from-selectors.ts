/**
 * Plans from matched CSS selectors (src/selectors): remove what matched, keep only what matched, or never
 * remove what matched. Each reads a SelectorMatch (blocks inside matched elements, the text inside them) and is
 * linear in blocks + text nodes + matched ranges.
 */
import type { PageModel } from "../page/index";
import type { SelectorMatch } from "../selectors/index";
import { keepWhole } from "./keep-whole";
import { subtractIntervals } from "./merge";
import { normalisePlan } from "./normalise";
import type { NormalisedPlan, RemovalPlan } from "./types";

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
 * The plan less the matched elements: a matched block, and the innermost block holding a matched element that is
 * not a block, are kept whole (keepWhole); matched text outside any block is kept too.
 */
export function planKeepingSelected(page: PageModel, plan: RemovalPlan, match: SelectorMatch): NormalisedPlan {
  const { parent } = page.blocks;
  const kept = new Uint8Array(page.blockCount);
  const under = new Uint8Array(page.blockCount); // block ordinal → 1 if it or an ancestor is kept
  for (let block = 1; block < page.blockCount; block++) {
    const chosen = match.matchedBlocks[block] === 1 || match.holderBlocks[block] === 1;
    if (chosen && under[parent[block]] === 0) kept[block] = 1;
    under[block] = chosen || under[parent[block]] === 1 ? 1 : 0;
  }
  const whole = keepWhole(page, plan, kept);
  return normalisePlan(page, { removedBlocks: whole.removedBlocks, removedText: subtractIntervals(whole.removedText, match.text) });
}
