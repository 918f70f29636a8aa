/**
 * Reader comments as their own class. A comment block is a top-most block whose own class or id names
 * comments (the comment hint group: comment, reply, disqus, respond, discussion). Readers of an article
 * and the benchmarks leave comments out, so they are removed by default; a caller may ask to keep them, and
 * the JSON document carries them apart.
 */
import { FEATURE_NAMES, type FeatureMatrix, type PageModel } from "../page/index";
import { keepWhole, type NormalisedPlan, type RemovalPlan } from "../plan/index";

const COMMENT_HINT_COLUMN = FEATURE_NAMES.indexOf("hintComment");

/** Block ordinal → 1 for the top-most blocks whose own class or id names comments and that hold text. */
export function commentBlocks(page: PageModel, features: FeatureMatrix): Uint8Array {
  const comments = new Uint8Array(page.blockCount);
  const inside = new Uint8Array(page.blockCount); // block ordinal → 1 if it or an ancestor is a comment block
  for (let b = 1; b < page.blockCount; b++) {
    if (inside[page.blocks.parent[b]] === 1) {
      inside[b] = 1;
      continue;
    }
    const hinted = features.data[b * features.featureCount + COMMENT_HINT_COLUMN] === 1;
    if (hinted && page.blocks.textEnd[b] > page.blocks.textStart[b]) comments[b] = inside[b] = 1;
  }
  return comments;
}

/** Block ordinal → 1 for the comment blocks and every block inside one. */
export function insideComments(page: PageModel, comments: Uint8Array): Uint8Array {
  const inside = comments.slice();
  for (let b = 1; b < page.blockCount; b++) inside[b] |= inside[page.blocks.parent[b]];
  return inside;
}

/** The plan that removes the comment blocks. */
export function commentPlan(comments: Uint8Array): RemovalPlan {
  return { removedBlocks: comments.slice(), removedText: new Int32Array(0) };
}

/** A plan that keeps the comment blocks whole (see keepWhole). */
export function keepComments(page: PageModel, plan: RemovalPlan, comments: Uint8Array): NormalisedPlan {
  return keepWhole(page, plan, comments);
}

/** The comments' text, one comment block a paragraph. */
export function commentText(page: PageModel, comments: Uint8Array): string {
  const parts: string[] = [];
  for (let b = 1; b < page.blockCount; b++) if (comments[b] === 1) parts.push(page.text.slice(page.blocks.textStart[b], page.blocks.textEnd[b]).trim());
  return parts.filter((part) => part !== "").join("\n\n");
}
