/**
 * The structure of a site's mined pages as the structural miner (structure.ts) reads it: each block's path
 * signature (its tag, and the id and class tokens that recur on other pages of the site: a token found on one page
 * only, such as "post-4711", is volatile and left out), and per page how much of each block's text is page-unique
 * content (text-levels.ts: no repeat on another page, or a mutable value such as a date; link text counts only in a
 * heading that states the page's title, where titles are permalinks).
 */
import { SELECTOR_MAX_TESTS } from "../config";
import { readAttribute, tagName, type PageModel } from "../page/index";
import { isSentenceTerminal } from "../rules/index";
import { LEVEL_SPACE, LEVEL_UNIQUE, LEVEL_VALUE } from "./text-levels";

/** One page read for the structural miner. */
export interface PageStructure {
  readonly page: PageModel;
  /** Block ordinal → its element's compound selector (tag, stable id and classes), or "" where it has none worth a rule. */
  readonly keys: readonly string[];
  /** Prefix sums over the page text: counted[i] = token characters in text[0, i), content[i] = content characters. */
  readonly counted: Int32Array;
  readonly content: Int32Array;
  /** Block ordinal → its own text's (text nodes directly in it) token and content characters. */
  readonly ownCounted: Int32Array;
  readonly ownContent: Int32Array;
  /** Block ordinal → 1 if its own text states something (a sentence end, a value such as a date, or the page's title)
   * and it is not an item of a list of links. */
  readonly stated: Uint8Array;
}

/** Container tags that name a page region on their own, without an id or a class. */
const REGION_TAGS = new Set(["article", "main", "aside", "nav", "header", "footer"]);
const HEADING = /^h[1-6]$/;
/** A token that numbers or hashes something (post-103184, c9f2e1a7b3): volatile even when another page repeats it. */
const VOLATILE = /\d{3,}|(?<![0-9a-z])(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{6,}(?![0-9a-z])/i;
/** Tokens a selector can carry as they are: CSS identifiers (no escapes), not starting with a digit. */
const IDENTIFIER = /^-?[A-Za-z_][A-Za-z0-9_-]*$/;

/** The pages' structures; `stableFrom` are the pages whose id and class tokens count as recurring (the mining pages). */
export function readStructures(pages: readonly PageModel[], levels: readonly Uint8Array[], stableFrom: readonly number[]): PageStructure[] {
  const tokens = pages.map(attributeTokens);
  const pageCount = new Map<string, number>();
  for (const index of stableFrom) for (const token of new Set(tokens[index]!.flat())) pageCount.set(token, (pageCount.get(token) ?? 0) + 1);
  const stable = (token: string): boolean => (pageCount.get(token) ?? 0) >= 2 && !VOLATILE.test(token);
  return pages.map((page, index) => {
    const keys = tokens[index]!.map((blockTokens, block) => keyOf(page, block, blockTokens.filter(stable)));
    const { counted, content } = contentSums(page, levels[index]!);
    const ownCounted = new Int32Array(page.blockCount);
    const ownContent = new Int32Array(page.blockCount);
    const stated = titleHeadings(page);
    const pageLevels = levels[index]!;
    for (let node = 0; node < page.textNodeCount; node++) {
      const block = page.textNodes.block[node]!;
      const [start, end] = [page.textNodes.textStart[node]!, page.textNodes.textEnd[node]!];
      ownCounted[block] += counted[end]! - counted[start]!;
      ownContent[block] += content[end]! - content[start]!;
      for (let at = start; at < end && stated[block] === 0; at++) {
        if (pageLevels[at] === LEVEL_VALUE || isSentenceTerminal(page.text.charCodeAt(at))) stated[block] = 1;
      }
    }
    unstateLinkItems(page, pageLevels, counted, stated);
    return { page, keys, counted, content, ownCounted, ownContent, stated };
  });
}

/** Block ordinal → its "#id" and ".class" tokens (the root: none). */
function attributeTokens(page: PageModel): string[][] {
  const { blocks, source } = page;
  const all: string[][] = [[]];
  for (let block = 1; block < page.blockCount; block++) {
    const from = blocks.sourceNameEnd[block]!;
    const to = blocks.startTagEnd[block]!;
    const id = readAttribute(source, from, to, "id")?.trim() ?? "";
    const classes = readAttribute(source, from, to, "class")?.trim().split(/\s+/) ?? [];
    const tokens = classes.filter((name) => IDENTIFIER.test(name)).map((name) => `.${name}`);
    if (IDENTIFIER.test(id)) tokens.unshift(`#${id}`);
    all.push([...new Set(tokens)]);
  }
  return all;
}

function keyOf(page: PageModel, block: number, tokens: readonly string[]): string {
  if (block === 0) return "";
  const tag = tagName(page.blocks.tag[block]!);
  if (tokens.length === 0) return REGION_TAGS.has(tag) ? tag : "";
  const id = tokens.filter((token) => token.startsWith("#"));
  // At most as many classes as a selector step may test (the tag is one test).
  const classes = tokens.filter((token) => token.startsWith(".")).sort().slice(0, SELECTOR_MAX_TESTS - 1);
  return tag + (id.length > 0 ? id[0]! : classes.join(""));
}

/**
 * A block whose parent's text is mostly link text is an item of a list of links (related stories, latest posts):
 * its teaser sentence or date belongs to the link beside it, and states nothing of the page.
 */
function unstateLinkItems(page: PageModel, levels: Uint8Array, counted: Int32Array, stated: Uint8Array): void {
  const linked = new Int32Array(page.text.length + 1);
  const inLink = new Uint8Array(page.text.length);
  for (let node = 0; node < page.textNodeCount; node++) {
    if (page.textNodes.inLink[node] === 1) inLink.fill(1, page.textNodes.textStart[node], page.textNodes.textEnd[node]);
  }
  for (let at = 0; at < page.text.length; at++) linked[at + 1] = linked[at]! + (inLink[at] === 1 && levels[at] !== LEVEL_SPACE ? 1 : 0);
  for (let block = 1; block < page.blockCount; block++) {
    const parent = page.blocks.parent[block]!;
    const [start, end] = [page.blocks.textStart[parent]!, page.blocks.textEnd[parent]!];
    if (parent > 0 && 2 * (linked[end]! - linked[start]!) > counted[end]! - counted[start]!) stated[block] = 0;
  }
}

function normalised(text: string): string {
  return text.toLowerCase().replace(/\s+/g, " ").trim();
}

/**
 * Block ordinal → 1 for the headings that state the page's title (their text inside the document's <title>), of the
 * highest rank among such headings: a permalink there is the title, not a link away, while a list of the latest
 * stories that names this one too sits in lower-ranked headings.
 */
function titleHeadings(page: PageModel): Uint8Array {
  const title = normalised(page.title);
  const marked = new Uint8Array(page.blockCount);
  let best = 7;
  const level = (block: number): number => {
    const name = tagName(page.blocks.tag[block]!);
    if (!HEADING.test(name)) return 7;
    const text = normalised(page.text.slice(page.blocks.textStart[block], page.blocks.textEnd[block]));
    return text !== "" && title.includes(text) ? Number(name[1]) : 7;
  };
  const levels = Array.from({ length: page.blockCount }, (_unused, block) => level(block));
  for (const value of levels) best = Math.min(best, value);
  levels.forEach((value, block) => {
    if (value === best && best < 7) marked[block] = 1;
  });
  return marked;
}

/** Prefix sums of token characters and content characters over the page text. */
function contentSums(page: PageModel, levels: Uint8Array): { counted: Int32Array; content: Int32Array } {
  const { textNodes, blocks } = page;
  const length = page.text.length;
  const isContent = new Uint8Array(length);
  const titles = titleHeadings(page);
  for (let node = 0; node < page.textNodeCount; node++) {
    const block = textNodes.block[node]!;
    const linkAllowed = textNodes.inLink[node] === 0 || titles[block] === 1;
    if (!linkAllowed) continue;
    for (let at = textNodes.textStart[node]!; at < textNodes.textEnd[node]!; at++) if (levels[at] === LEVEL_UNIQUE || levels[at] === LEVEL_VALUE) isContent[at] = 1;
  }
  const counted = new Int32Array(length + 1);
  const content = new Int32Array(length + 1);
  for (let at = 0; at < length; at++) {
    counted[at + 1] = counted[at]! + (levels[at] === LEVEL_SPACE ? 0 : 1);
    content[at + 1] = content[at]! + isContent[at]!;
  }
  return { counted, content };
}

/** Counted and content characters of the page text inside the sorted, disjoint [start, end) pairs. */
export function rangeCounts(structure: PageStructure, pairs: ArrayLike<number>): { counted: number; content: number } {
  let counted = 0;
  let content = 0;
  for (let i = 0; i < pairs.length; i += 2) {
    counted += structure.counted[pairs[i + 1]!]! - structure.counted[pairs[i]!]!;
    content += structure.content[pairs[i + 1]!]! - structure.content[pairs[i]!]!;
  }
  return { counted, content };
}
