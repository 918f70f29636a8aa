/**
 * Reader comments as their own class. A comment block is a top-most block whose own class or id names
 * comments (the comment hint group: comment, reply, disqus, respond, discussion), or a block of a comment
 * section: a heading that only says "Comments" (or "12 Responses to …", "Leave a reply", in the languages
 * below) and the blocks after it in the same container, for the many templates that write comments as bare
 * paragraphs under such a heading, or the same after a link named for them (`<a name="comments">`). Readers of an
 * article and the benchmarks leave comments out, so they are removed by default; a caller may ask to keep them,
 * and the JSON document carries them apart.
 */
import { FEATURE_NAMES, headlineKey, mainContentBlock, statesHeadline, tagId, titleWithoutSiteName, type FeatureMatrix, type PageModel } from "../page/index";
import { keepWhole, type NormalisedPlan, type RemovalPlan } from "../plan/index";
import { headingWrapper, isHeading } from "./headings";

const COMMENT_HINT_COLUMN = FEATURE_NAMES.indexOf("hintComment");

/** Words that name reader comments, as a section heading says them. */
const COMMENT_WORDS = "comments?|responses?|replies|reactions?|discussion|kommentare?|commentaires?|réactions|comentarios?|comentários?|commenti|reacties|komentarze|kommentarer|kommentit|komentáře|komentar|yorumlar|comentarii|комментари[йи]|コメント|评论|評論|留言";

/**
 * The whole text of a comment section's heading: "Comments", "3 comments", "Reader comments (12)",
 * "12 Responses to “Title”", "7 thoughts on “Title”", "Leave a reply", "Post a comment:". Whole text only,
 * so a sentence that mentions comments is never one.
 */
const COMMENT_HEADING = new RegExp(
  `^(?:\\d+\\s*)?(?:(?:readers?'?|user|visitor|your)\\s+)?(?:${COMMENT_WORDS})(?:\\s*\\(\\d+\\))?\\s*:?$` +
    `|^\\d+\\s+(?:comments?|responses?|replies|thoughts)\\s+(?:on|to)\\s.+$` +
    `|^(?:leave|post|add|write)\\s+(?:a|an|your)?\\s*(?:comment|reply|response)\\s*:?$`,
  "iu",
);

/** Longest heading text looked at (room for a title quoted after "12 Responses to"). */
const MAX_HEADING_CHARS = 160;

/**
 * Block ordinal → 1 for the top-most blocks of reader comments that hold text: blocks whose own class or id
 * names comments, and unless `sections` is false, comment sections (a comment heading, or a link named for
 * comments, at or after the start of the main content, with the blocks after it in its container).
 */
export function commentBlocks(page: PageModel, features: FeatureMatrix, sections = true): Uint8Array {
  const comments = new Uint8Array(page.blockCount);
  const inside = new Uint8Array(page.blockCount); // block ordinal → 1 if it or an ancestor is a comment block
  const main = sections ? mainContentBlock(features) : -1;
  // Comments follow what they comment on: a heading before the main content is the site's, not a section.
  const sectionsFrom = main < 0 ? page.text.length : page.blocks.textStart[main];
  if (main >= 0) markAnchoredSection(page, page.blocks.sourceStart[main], comments);
  // The article is not a comment: a block that holds the main content and the headline (a story whose class says
  // "commented") is not one, and a comment heading among the article's own paragraphs ("<h2>Response</h2>" in a story)
  // starts no section.
  const story = storyBlocks(page, main);
  for (let b = 1; b < page.blockCount; b++) {
    if (inside[page.blocks.parent[b]] === 1) {
      inside[b] = 1;
      comments[b] = 0; // top-most only: a section's link may sit inside a block that names comments
      continue;
    }
    if (comments[b] === 1) {
      inside[b] = 1;
      continue;
    }
    // A heading first: <h2 id="comments">Comments</h2> names its section, not only itself.
    if (page.blocks.textStart[b] >= sectionsFrom && isHeading(page, features, b, COMMENT_HEADING, MAX_HEADING_CHARS)) {
      if (!isArticleSection(page, features, b)) b = markCommentSection(page, b, comments);
    } else if (features.data[b * features.featureCount + COMMENT_HINT_COLUMN] === 1 && story[b] === 0 && page.blocks.textEnd[b] > page.blocks.textStart[b]) comments[b] = inside[b] = 1;
  }
  return comments;
}

const TAG_H1 = tagId("h1");
const TAG_H2 = tagId("h2");
const TAG_H3 = tagId("h3");

/**
 * Block ordinal → 1 for the blocks that hold the story: the main content (`main`) and the page's headline (an <h1>, or an
 * <h2> or <h3> that states the <title> without the site's name) both. Comments hold neither the headline nor the article.
 */
function storyBlocks(page: PageModel, main: number): Uint8Array {
  const story = new Uint8Array(page.blockCount);
  if (main <= 0) return story;
  const { parent, tag } = page.blocks;
  const holdsMain = new Uint8Array(page.blockCount);
  for (let b = main; b > 0; b = parent[b]) holdsMain[b] = 1;
  const headline = headlineKey(page, titleWithoutSiteName(page) ?? "");
  for (let b = 1; b < page.blockCount; b++) {
    if (tag[b] !== TAG_H1 && !((tag[b] === TAG_H2 || tag[b] === TAG_H3) && headline !== null && statesHeadline(page, b, headline))) continue;
    for (let a = parent[b]; a > 0 && story[a] === 0; a = parent[a]) if (holdsMain[a] === 1) story[a] = 1;
  }
  return story;
}

/**
 * Whether a comment heading names a section of the article's own text ("<h2>Response</h2>" between a story's
 * paragraphs): another heading of the same element follows it in its container, and that one is no comment heading.
 * A comment section runs to the end of what holds it; the article goes on after a section of its own.
 */
function isArticleSection(page: PageModel, features: FeatureMatrix, heading: number): boolean {
  const top = headingWrapper(page, heading);
  const container = page.blocks.parent[top];
  const { parent, tag, sourceStart, sourceEnd, textEnd, textStart } = page.blocks;
  for (let b = heading + 1; b < page.blockCount && (container === 0 || sourceStart[b] < sourceEnd[container]); b++) {
    if (tag[b] !== tag[heading] || textEnd[b] === textStart[b]) continue;
    // The next heading of its kind in the same container: the article's next section, or more of the comments.
    if (parent[headingWrapper(page, b)] !== container) continue;
    return !isHeading(page, features, b, COMMENT_HEADING, MAX_HEADING_CHARS);
  }
  return false;
}

/**
 * Marks a comment heading and the blocks after it in its container as comment blocks. A heading wrapped
 * in blocks that hold nothing else is taken with them, so that "after it" means after the outermost wrapper.
 * Returns the last block inside the section (the caller goes on after it).
 */
function markCommentSection(page: PageModel, heading: number, comments: Uint8Array): number {
  const top = headingWrapper(page, heading);
  comments[top] = 1;
  return markFollowing(page, page.blocks.parent[top], heading + 1, comments);
}

/**
 * Marks the children of `container` that hold text, from block `first` to the container's end (a section runs to
 * the end of what holds it). Returns the last block inside the container (`first - 1` when none is).
 */
function markFollowing(page: PageModel, container: number, first: number, comments: Uint8Array): number {
  const { parent, textStart, textEnd, sourceStart, sourceEnd } = page.blocks;
  let last = first - 1;
  for (let b = first; b < page.blockCount && (container === 0 || sourceStart[b] < sourceEnd[container]); b++) {
    if (parent[b] === container && textEnd[b] > textStart[b]) comments[b] = 1;
    last = b;
  }
  return last;
}

/**
 * Marks the blocks after the page's first comment link (PageModel.commentAnchors) at or after `from` (a source
 * offset) in the block that holds it: where "12 comments" links land, the comments follow, often as bare blocks
 * that no class or heading names (`<a name="comments"></a><div class="entry">…`).
 */
function markAnchoredSection(page: PageModel, from: number, comments: Uint8Array): void {
  const anchor = page.commentAnchors?.find((offset) => offset >= from);
  if (anchor === undefined) return;
  const { sourceStart, sourceEnd } = page.blocks;
  // Blocks are in source order: the walk stops at the first block after the link, holding the innermost one around it.
  let container = 0;
  let first = 1;
  for (; first < page.blockCount && sourceStart[first] <= anchor; first++) if (sourceEnd[first] > anchor) container = first;
  markFollowing(page, container, first, comments);
}

/** Block ordinal → 1 for the marked blocks (comment blocks, related sections) and every block inside one. */
export function insideMarked(page: PageModel, marked: Uint8Array): Uint8Array {
  const inside = marked.slice();
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
