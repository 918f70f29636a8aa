/**
 * What the page model says about a page as an article: whether it reads as one (readerable) and its first
 * paragraph (the excerpt when the page gives no description). Read from pass 1's blocks and text nodes,
 * with no second scan of the HTML.
 */
import { readAttribute } from "./attributes";
import { FLAG_HEADING, TAG_FLAGS, TAG_P, tagId } from "./tags";
import type { PageModel } from "./types";

/**
 * What the cleaning keeps of a page, in the plan's terms (plan/types.ts NormalisedPlan): a block is kept unless it or
 * an ancestor goes whole, and of a kept block's text, what lies outside the removed text ranges.
 */
export interface KeptContent {
  /** Block ordinal → 1 if the block or an ancestor is removed whole, else 0. */
  readonly removedWithAncestor: Uint8Array;
  /** Sorted, disjoint [start, end) pairs in page text, flattened: text removed outside removed blocks. */
  readonly removedText: Int32Array;
}

export interface ArticleShape {
  readonly readerable: boolean;
  /** Text of the first paragraph after the title heading that is a sentence or more of unlinked text, or null. */
  readonly firstParagraph: string | null;
}

/**
 * Readability's isProbablyReaderable measure: a block's own unlinked text counts past this many
 * characters, by the square root of the excess, and a page with a total past READERABLE_SCORE reads as an
 * article. Readability's defaults (minContentLength 140, minScore 20).
 */
const READERABLE_MIN_CHARS = 140;
const READERABLE_SCORE = 20;
/** A list page: at least this many headings that are links (teasers), as many as half its long paragraphs. */
const LIST_PAGE_LINKED_HEADINGS = 5;
/** Share of a heading's text in links for it to count as a teaser's link, and most linked share of an excerpt. */
const LINKED_SHARE = 0.7;
const EXCERPT_MAX_LINKED_SHARE = 0.5;
/** Fewest unlinked characters of a paragraph taken as the excerpt (a byline line or a caption is shorter). */
const EXCERPT_MIN_CHARS = 80;

/** Containers whose paragraphs are not the article's. */
const OUTSIDE_TAGS = new Set(["nav", "aside", "footer", "form"].map(tagId));

/**
 * `titleOffset`: source offset of the title heading (paragraphs before it are not the excerpt), or -1. `kept`: what
 * the cleaning keeps, when it has run: readerable is then judged on that alone (the article we extract, wherever it
 * sits: an ASP.NET page holds all of it in a <form>), else on the page outside navigation, sidebars, footers and forms.
 */
export function readArticleShape(page: PageModel, titleOffset: number, kept?: KeptContent): ArticleShape {
  const { blocks } = page;
  const all = ownText(page, null);
  const counted = kept === undefined ? all : ownText(page, kept);
  // Block ordinal → 1 when it is not counted: removed by the cleaning, or (no cleaning) it or an ancestor is
  // navigation, a sidebar, a footer or a form (parents come first).
  const outside = new Uint8Array(page.blockCount);
  let score = 0;
  let unlinkedChars = 0;
  let longParagraphs = 0;
  let linkedHeadings = 0;
  let firstParagraph: string | null = null;
  for (let block = 1; block < page.blockCount; block++) {
    const tag = blocks.tag[block];
    outside[block] = outside[blocks.parent[block]] === 1 || OUTSIDE_TAGS.has(tag) ? 1 : 0;
    const unlinkedAll = all.own[block] - all.linked[block];
    if (firstParagraph === null && outside[block] === 0 && tag === TAG_P && blocks.sourceStart[block] > titleOffset && unlinkedAll >= EXCERPT_MIN_CHARS &&
      all.linked[block] <= all.own[block] * EXCERPT_MAX_LINKED_SHARE) {
      firstParagraph = page.text.slice(blocks.textStart[block], blocks.textEnd[block]).replace(/\s+/g, " ").trim();
    }
    if (kept === undefined ? outside[block] === 1 : kept.removedWithAncestor[block] === 1) continue;
    const unlinked = counted.own[block] - counted.linked[block];
    unlinkedChars += unlinked;
    if (unlinked > READERABLE_MIN_CHARS) {
      score += Math.sqrt(unlinked - READERABLE_MIN_CHARS);
      longParagraphs++;
    }
    if ((TAG_FLAGS[tag] & FLAG_HEADING) !== 0 && isMostlyLinked(page, block)) linkedHeadings++;
  }
  const listPage = linkedHeadings >= LIST_PAGE_LINKED_HEADINGS && linkedHeadings * 2 >= longParagraphs;
  // What the cleaning keeps is the article: scored as one container as well, as Readability scores an <article> that
  // holds it all (a short story of three 200-character paragraphs reads as an article).
  const asOne = kept !== undefined && Math.sqrt(Math.max(0, unlinkedChars - READERABLE_MIN_CHARS)) > READERABLE_SCORE;
  return { readerable: (score > READERABLE_SCORE || asOne) && !listPage, firstParagraph };
}

/**
 * Block ordinal → characters of its own text nodes (not its child blocks'), all and in links; of the kept text only
 * when `kept` is given (removed ranges cut out: text nodes and ranges are both in page order, so one walk).
 */
function ownText(page: PageModel, kept: KeptContent | null): { own: Int32Array; linked: Int32Array } {
  const { textNodes } = page;
  const own = new Int32Array(page.blockCount);
  const linked = new Int32Array(page.blockCount);
  const ranges = kept?.removedText ?? new Int32Array(0);
  let range = 0;
  for (let node = 0; node < page.textNodeCount; node++) {
    const start = textNodes.textStart[node];
    const end = textNodes.textEnd[node];
    while (range + 1 < ranges.length && ranges[range + 1] <= start) range += 2;
    let removed = 0;
    for (let at = range; at + 1 < ranges.length && ranges[at] < end; at += 2) removed += Math.min(end, ranges[at + 1]) - Math.max(start, ranges[at]);
    const length = end - start - removed;
    own[textNodes.block[node]] += length;
    if (textNodes.inLink[node] === 1) linked[textNodes.block[node]] += length;
  }
  return { own, linked };
}

/** The values of `dir` that say a direction (HTML's enumerated attribute). */
const DIRECTIONS: ReadonlySet<string> = new Set(["ltr", "rtl", "auto"]);
/** The start tags read for a page-wide `dir` above every block (pass 1 keeps no block for them). */
const PAGE_DIRECTION_TAGS = [/<html\b/i, /<body\b/i];

/**
 * The article's text direction as Readability reports it (`dir`): the `dir` of the article's container or of its
 * nearest ancestor that has one, `<body>` and `<html>` last; null when none says. The container is the parent of the
 * block with the most kept unlinked text (Readability's top candidate holds the paragraphs, and it reads the parent's
 * `dir` first); `kept`: what the cleaning keeps, else the whole page.
 */
export function articleDirection(page: PageModel, kept?: KeptContent): string | null {
  const { blocks, source } = page;
  const counted = ownText(page, kept ?? null);
  let longest = 0;
  let most = 0;
  for (let block = 1; block < page.blockCount; block++) {
    if (kept !== undefined && kept.removedWithAncestor[block] === 1) continue;
    const unlinked = counted.own[block] - counted.linked[block];
    if (unlinked > most) {
      most = unlinked;
      longest = block;
    }
  }
  for (let block = longest === 0 ? 0 : blocks.parent[longest]; block > 0; block = blocks.parent[block]) {
    const value = readAttribute(source, blocks.sourceNameEnd[block], blocks.startTagEnd[block], "dir")?.trim().toLowerCase();
    if (value !== undefined && DIRECTIONS.has(value)) return value;
  }
  for (const tag of PAGE_DIRECTION_TAGS) {
    const found = tag.exec(source);
    if (found === null) continue;
    const end = source.indexOf(">", found.index);
    const value = readAttribute(source, found.index + found[0].length, end < 0 ? source.length : end, "dir")?.trim().toLowerCase();
    if (value !== undefined && DIRECTIONS.has(value)) return value;
  }
  return null;
}

/** The heading's text (its child blocks' included) is mostly link text. */
function isMostlyLinked(page: PageModel, block: number): boolean {
  const { blocks, textNodes } = page;
  let all = 0;
  let linked = 0;
  for (let node = blocks.firstTextNode[block]; node < blocks.endTextNode[block]; node++) {
    const length = textNodes.textEnd[node] - textNodes.textStart[node];
    all += length;
    if (textNodes.inLink[node] === 1) linked += length;
  }
  return all > 0 && linked >= all * LINKED_SHARE;
}

/** Words of a text: runs of letters and digits, with inner apostrophes, hyphens and points ("don't", "e-mail", "3.5"). */
export function countWords(text: string): number {
  let count = 0;
  for (const _ of text.matchAll(/[\p{L}\p{N}]+(?:['’.\-][\p{L}\p{N}]+)*/gu)) count++;
  return count;
}
