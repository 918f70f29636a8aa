/**
 * Reader comments as their own class. A comment block is a top-most block whose own class or id names
 * comments (the comment hint group: comment, reply, disqus, respond, discussion). Readers of an article
 * and the benchmarks leave comments out, so they are removed by default; a caller may ask to keep them, and
 * the JSON document carries them apart.
 */
import { FEATURE_NAMES, type FeatureMatrix, type PageModel, type RemovalPlan } from "../page/index";

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

/** The plan that removes the comment blocks. */
export function commentPlan(comments: Uint8Array): RemovalPlan {
  return { removedBlocks: comments.slice(), removedText: new Int32Array(0) };
}

/**
 * A plan that keeps the comment blocks whole: their removal and their descendants' is undone, and where a
 * removed ancestor held them, that ancestor stays and its removal moves down to its children off the path
 * to the comments. Linear in blocks and removed ranges.
 */
export function keepComments(page: PageModel, plan: RemovalPlan, comments: Uint8Array): RemovalPlan {
  const { parent } = page.blocks;
  const count = page.blockCount;
  const onPath = new Uint8Array(count); // block ordinal → 1 if a comment block or an ancestor of one
  for (let b = 1; b < count; b++) if (comments[b] === 1) for (let up = b; up > 0 && onPath[up] === 0; up = parent[up]) onPath[up] = 1;
  const inComment = new Uint8Array(count); // block ordinal → 1 if inside a comment block (itself included)
  const pending = new Uint8Array(count); // block ordinal → 1 if on a path and removed by the plan, itself or through a path ancestor
  const removedBlocks = new Uint8Array(count);
  for (let b = 1; b < count; b++) {
    const up = parent[b];
    inComment[b] = comments[b] === 1 || inComment[up] === 1 ? 1 : 0;
    if (onPath[b] === 1 || inComment[b] === 1) {
      pending[b] = onPath[b] === 1 && (plan.removedBlocks[b] === 1 || pending[up] === 1) ? 1 : 0;
      continue;
    }
    removedBlocks[b] = pending[up] === 1 ? 1 : plan.removedBlocks[b];
  }
  return { removedBlocks, removedText: subtractCommentRanges(page, plan.removedText, comments) };
}

/** Removed text ranges less the text of comment blocks (both lists sorted; a two-pointer walk). */
function subtractCommentRanges(page: PageModel, ranges: Int32Array, comments: Uint8Array): Int32Array {
  if (ranges.length === 0) return ranges;
  const spans: number[] = []; // [start, end) of each comment block's text, in order
  for (let b = 1; b < page.blockCount; b++) if (comments[b] === 1) spans.push(page.blocks.textStart[b], page.blocks.textEnd[b]);
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

/** The comments' text, one comment block a paragraph. */
export function commentText(page: PageModel, comments: Uint8Array): string {
  const parts: string[] = [];
  for (let b = 1; b < page.blockCount; b++) if (comments[b] === 1) parts.push(page.text.slice(page.blocks.textStart[b], page.blocks.textEnd[b]).trim());
  return parts.filter((part) => part !== "").join("\n\n");
}
