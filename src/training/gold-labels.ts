/**
 * Block labels from hand-cleaned gold text, beside the automatic labels of labels.ts.
 *
 * A token of the page text is "in the gold" when one of the 4-token shingles that contain it occurs in the
 * gold text (the shingles the benchmarks score with). A block whose tokens are mostly in the gold is
 * content, one whose tokens mostly are not is template, anything between is left out. Reader comments are
 * not in the article's gold, so comment blocks come out template, which is what a reader of the article
 * wants (the automatic labels call them content, since they are unique to their page).
 */
import { SHINGLE_SIZE } from "../evaluation/index";
import type { PageModel } from "../page/index";
import { GOLD_LABEL_CONTENT_SHARE, GOLD_LABEL_TEMPLATE_SHARE } from "../config";
import { keepTopMost, LABEL_CONTENT, LABEL_NONE, LABEL_TEMPLATE, type PageLabels } from "./labels";
import { internTokens } from "./page-scorer";

/** Tokens of a text as interned ids, with each token's start offset. */
function tokenIds(text: string, intern: Map<string, number>): { ids: Int32Array; starts: Int32Array } {
  const { ids, starts } = internTokens(text, intern);
  return { ids: Int32Array.from(ids), starts: Int32Array.from(starts) };
}

function shingleKey(ids: Int32Array, at: number): string {
  let key = "";
  for (let k = 0; k < SHINGLE_SIZE; k++) key += `${ids[at + k]},`;
  return key;
}

/** Page token ordinal → 1 if a shingle holding it is in the gold. */
export function tokensInGold(pageText: string, gold: string): { starts: Int32Array; inGold: Uint8Array } {
  const intern = new Map<string, number>();
  const goldTokens = tokenIds(gold, intern);
  const goldShingles = new Set<string>();
  for (let i = 0; i + SHINGLE_SIZE <= goldTokens.ids.length; i++) goldShingles.add(shingleKey(goldTokens.ids, i));
  const page = tokenIds(pageText, intern);
  const inGold = new Uint8Array(page.ids.length);
  for (let i = 0; i + SHINGLE_SIZE <= page.ids.length; i++) {
    if (goldShingles.has(shingleKey(page.ids, i))) inGold.fill(1, i, i + SHINGLE_SIZE);
  }
  return { starts: page.starts, inGold };
}

/** Labels every block of a page from its gold text (LABEL_NONE everywhere when the gold is empty). */
export function labelFromGold(page: PageModel, gold: string): PageLabels {
  const count = page.blockCount;
  const labels = new Int8Array(count).fill(LABEL_NONE);
  if (gold.trim() === "") return labels;
  const { starts, inGold } = tokensInGold(page.text, gold);
  const tokens = new Float64Array(count); // block ordinal → tokens of its own text nodes, then of its subtree
  const covered = new Float64Array(count); // block ordinal → of those, tokens in the gold
  let token = 0;
  for (let t = 0; t < page.textNodeCount; t++) {
    const start = page.textNodes.textStart[t];
    const end = page.textNodes.textEnd[t];
    while (token < starts.length && starts[token] < start) token++;
    const block = page.textNodes.block[t];
    for (; token < starts.length && starts[token] < end; token++) {
      tokens[block]++;
      covered[block] += inGold[token];
    }
  }
  for (let b = count - 1; b > 0; b--) {
    const up = page.blocks.parent[b];
    tokens[up] += tokens[b];
    covered[up] += covered[b];
  }
  for (let b = 1; b < count; b++) {
    if (tokens[b] === 0) continue;
    const share = covered[b] / tokens[b];
    if (share >= GOLD_LABEL_CONTENT_SHARE) labels[b] = LABEL_CONTENT;
    else if (share <= GOLD_LABEL_TEMPLATE_SHARE) labels[b] = LABEL_TEMPLATE;
  }
  keepTopMost(page, labels);
  return labels;
}
