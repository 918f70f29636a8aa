/**
 * A fast stand-in for scoreText(keptText(page, plan), gold) while calibrating decision settings, where the
 * same page is scored under many plans: the page's tokens and shingles are interned once, and a plan is
 * scored in one pass over typed arrays.
 *
 * It differs from the exact score in two ways: shingles of the output that span a cut (their four tokens are
 * kept but not adjacent in the page) are not counted. There are at most three per cut and they are almost
 * never in the gold. And removed text counts only where it covers whole text nodes (the classifier removes
 * no less); a cut inside a node, as a text rule makes, is scored as kept. `npm run eval` scores the exact
 * output of clean().
 */
import { SHINGLE_SIZE, TOKEN_PATTERN, type PageCounts } from "../evaluation/index";
import type { PageModel } from "../page/index";
import type { NormalisedPlan } from "../plan/index";


export interface PageScorer {
  /** Page token ordinal → text node ordinal holding it. */
  readonly tokenNode: Int32Array;
  /** Page token ordinal → id of the shingle starting there (-1 when fewer than SHINGLE_SIZE tokens follow). */
  readonly shingleAt: Int32Array;
  /** Shingle id → occurrences in the gold. */
  readonly goldCount: Int32Array;
  readonly goldShingles: number;
}

/** The tokens of a text (the benchmarks' tokens) as ids interned in `words`, with each token's start offset. */
export function internTokens(text: string, words: Map<string, number>): { ids: number[]; starts: number[] } {
  const ids: number[] = [];
  const starts: number[] = [];
  for (const match of text.matchAll(TOKEN_PATTERN)) {
    let id = words.get(match[0]);
    if (id === undefined) words.set(match[0], (id = words.size));
    ids.push(id);
    starts.push(match.index);
  }
  return { ids, starts };
}

export function pageScorer(page: PageModel, gold: string): PageScorer {
  const words = new Map<string, number>();
  const idsOf = (text: string): { ids: number[]; starts: number[] } => internTokens(text, words);
  const shingles = new Map<string, number>();
  const shingleId = (ids: number[], at: number): number => {
    const key = ids.slice(at, at + SHINGLE_SIZE).join(",");
    let id = shingles.get(key);
    if (id === undefined) shingles.set(key, (id = shingles.size));
    return id;
  };
  const goldTokens = idsOf(gold);
  const goldIds: number[] = [];
  for (let i = 0; i + SHINGLE_SIZE <= goldTokens.ids.length; i++) goldIds.push(shingleId(goldTokens.ids, i));
  const pageTokens = idsOf(page.text);
  const shingleAt = new Int32Array(pageTokens.ids.length).fill(-1);
  for (let i = 0; i + SHINGLE_SIZE <= pageTokens.ids.length; i++) shingleAt[i] = shingleId(pageTokens.ids, i);
  const goldCount = new Int32Array(shingles.size);
  for (const id of goldIds) goldCount[id]++;
  const tokenNode = new Int32Array(pageTokens.ids.length);
  let node = 0;
  for (let i = 0; i < pageTokens.starts.length; i++) {
    while (node + 1 < page.textNodeCount && page.textNodes.textEnd[node] <= pageTokens.starts[i]) node++;
    tokenNode[i] = node;
  }
  return { tokenNode, shingleAt, goldCount, goldShingles: goldIds.length };
}

/** Text node ordinal → 1 if a plan keeps it (its block and every ancestor kept, and no removed text covering it whole). */
export function keptTextNodes(page: PageModel, plan: NormalisedPlan): Uint8Array {
  const removed = plan.removedWithAncestor;
  const kept = new Uint8Array(page.textNodeCount);
  for (let t = 0; t < page.textNodeCount; t++) kept[t] = removed[page.textNodes.block[t]] === 1 ? 0 : 1;
  // Removed text that covers whole text nodes drops them too.
  const { textStart, textEnd } = page.textNodes;
  const text = plan.removedText;
  for (let t = 0, pair = 0; t < page.textNodeCount && pair + 1 < text.length; t++) {
    while (pair + 1 < text.length && text[pair + 1] <= textStart[t]) pair += 2;
    if (pair + 1 < text.length && text[pair] <= textStart[t] && textEnd[t] <= text[pair + 1]) kept[t] = 0;
  }
  return kept;
}

/** Normalised shingle counts of the tokens a plan keeps (see the module note for the one approximation). */
export function scoreKept(scorer: PageScorer, keptNodes: Uint8Array): PageCounts {
  const remaining = scorer.goldCount.slice();
  const { tokenNode, shingleAt } = scorer;
  let output = 0;
  let tp = 0;
  for (let i = 0; i + SHINGLE_SIZE <= tokenNode.length; i++) {
    // The shingle starting at token i is in the output when its four tokens are kept.
    let whole = true;
    for (let k = 0; k < SHINGLE_SIZE && whole; k++) whole = keptNodes[tokenNode[i + k]] === 1;
    if (!whole) continue;
    output++;
    const id = shingleAt[i];
    if (remaining[id] > 0) {
      remaining[id]--;
      tp++;
    }
  }
  const fp = output - tp;
  const fn = scorer.goldShingles - tp;
  const total = tp + fp + fn;
  return total === 0 ? { tp: 1, fp: 0, fn: 0 } : { tp: tp / total, fp: fp / total, fn: fn / total };
}
