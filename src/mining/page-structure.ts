/**
 * The structure of a site's mined pages as the structural miner (structure.ts) reads it: each block's path
 * signature (its tag, and the id and class tokens that recur on other pages of the site: a token found on one page
 * only, such as "post-4711", is volatile and left out), and per page how much of each block's text is page-unique
 * content (text-levels.ts: no repeat on another page, or a mutable value such as a date; link text counts only in a
 * heading that states the page's title, where titles are permalinks). The page's title, byline and dateline are its
 * own even where other pages repeat them (pageFacts); reader comments and form options are not the page's (notPageText).
 */
import { SELECTOR_MAX_TESTS } from "../config";
import { commentBlocks } from "../classify/index";
import { computeFeatures, extractMetadata, isSentenceTerminal, readAttribute, TAG_SELECT, tagId, tagName, type PageModel } from "../page/index";
import type { SiteMining } from "./mine-site";
import { LEVEL_REPEATED, LEVEL_SPACE, LEVEL_TEMPLATE, LEVEL_UNIQUE, LEVEL_VALUE, LEVEL_WHEN } from "./text-levels";

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
  /** Block ordinal → 1 if its own text states something (a sentence end, a value that says when, or the page's title)
   * and it is not an item of a list of links. */
  readonly stated: Uint8Array;
  /** Block ordinal → 1 for the headings that state the page's title (titleHeadings). */
  readonly titles: Uint8Array;
  /** Block ordinal → 1 for the blocks of the page's byline and dateline (pageFacts): content blocks however short. */
  readonly facts: Uint8Array;
}

/**
 * Whether a block is a content block: its own text states something and is over `share` content, or it holds the
 * page's byline or dateline (a date beside a template "by … on" is the page's own, though most of its block is template).
 */
export function isContentBlock(structure: PageStructure, block: number, share: number): boolean {
  const own = structure.ownCounted[block]!;
  return structure.stated[block] === 1 && own > 0 && (structure.facts[block] === 1 || structure.ownContent[block]! > share * own);
}

/**
 * Credits a page with its own text that other pages list: a string repeated on a few pages (below the cutoff) that
 * one page states (in a stated block, outside links) and another page lists (in a link, or in an item of a list of
 * links or stories) is the stating page's own (its summary, shown as a teaser elsewhere): it counts in that block's
 * own content. A string stated on every page where it occurs (an author's bio) stays repeated.
 */
export function creditListedText(mining: SiteMining, structures: readonly PageStructure[]): void {
  const { corpus, repeats, suffixArray, relevant, cutoff } = mining;
  const credited = structures.map((structure) => new Uint8Array(structure.page.text.length));
  const nodeAt = structures.map(textNodesAt);
  const stating = (position: number): number => {
    const page = corpus.documentOf[position]!;
    const { stated, page: model } = structures[page]!;
    const node = nodeAt[page]![corpus.textStart[position]!]!;
    return node < 0 || model.textNodes.inLink[node] === 1 ? 0 : stated[model.textNodes.block[node]!]!;
  };
  for (const repeat of relevant) {
    if (repeats.documents[repeat]! >= cutoff.minimumDocuments) continue;
    const ranks = Array.from({ length: repeats.lastRank[repeat]! - repeats.firstRank[repeat]! + 1 }, (_unused, k) => suffixArray[repeats.firstRank[repeat]! + k]!);
    const states = ranks.map(stating);
    if (!states.includes(0) || !states.includes(1)) continue;
    ranks.forEach((start, k) => {
      if (states[k] === 0) return;
      const page = corpus.documentOf[start]!;
      const structure = structures[page]!;
      for (let position = start; position < start + repeats.length[repeat]!; position++) {
        for (let at = corpus.textStart[position]!; at < corpus.textEnd[position]!; at++) {
          if (credited[page]![at] === 1 || structure.content[at + 1]! > structure.content[at]! || structure.counted[at + 1] === structure.counted[at]) continue;
          credited[page]![at] = 1;
          const node = nodeAt[page]![at]!;
          if (node >= 0) structure.ownContent[structure.page.textNodes.block[node]!]++;
        }
      }
    });
  }
}

/** Page-text character → its text node's ordinal (-1 between text nodes). */
function textNodesAt(structure: PageStructure): Int32Array {
  const { page } = structure;
  const nodes = new Int32Array(page.text.length).fill(-1);
  for (let node = 0; node < page.textNodeCount; node++) nodes.fill(node, page.textNodes.textStart[node], page.textNodes.textEnd[node]);
  return nodes;
}

/** A letter or a digit right after a terminal: the mark is inside a token (guardian.co.uk, 13.42, ?id=3). */
const WORD_AFTER = /[\p{L}\p{N}]/u;
const SPACE = /\s/;
const NEWLINE = 10;

/**
 * Whether text[at] is a sentence terminal that ends a sentence: not one inside an address, a number or a time, and
 * not one after the first word of its block (an abbreviation or a label: "Assoc. Editor:", "No. 5").
 */
function endsSentence(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  if (!isSentenceTerminal(code) || (code <= 0x7f && WORD_AFTER.test(text.charAt(at + 1)))) return false;
  let back = at - 1;
  while (back >= 0 && !SPACE.test(text.charAt(back))) back--;
  while (back >= 0 && SPACE.test(text.charAt(back)) && text.charCodeAt(back) !== NEWLINE) back--;
  return back >= 0 && text.charCodeAt(back) !== NEWLINE;
}

/** Container tags that name a page region on their own, without an id or a class. */
const REGION_TAGS = new Set(["article", "main", "aside", "nav", "header", "footer"]);
const HEADING = /^h[1-6]$/;
const TAG_LI = tagId("li");
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
  const pageTitles = pages.map((page) => normalised(page.title));
  return pages.map((page, index) => {
    const keys = tokens[index]!.map((blockTokens, block) => keyOf(page, block, blockTokens.filter(stable)));
    const comments = notPageText(page);
    const titles = titleHeadings(page, pageTitles, index);
    const byline = bylineNode(page, comments, titles, levels[index]!);
    const { counted, content } = contentSums(page, levels[index]!, comments, byline, titles);
    const ownCounted = new Int32Array(page.blockCount);
    const ownContent = new Int32Array(page.blockCount);
    const stated = titles.slice();
    const pageLevels = levels[index]!;
    for (let node = 0; node < page.textNodeCount; node++) {
      const block = page.textNodes.block[node]!;
      const [start, end] = [page.textNodes.textStart[node]!, page.textNodes.textEnd[node]!];
      ownCounted[block] += counted[end]! - counted[start]!;
      ownContent[block] += content[end]! - content[start]!;
      for (let at = start; at < end && stated[block] === 0; at++) {
        if (pageLevels[at] === LEVEL_WHEN || endsSentence(page.text, at)) stated[block] = 1;
      }
    }
    unstateDatedLinks(page, pageLevels, stated);
    unstateLinkItems(page, pageLevels, counted, stated);
    unstateStoryItems(page, stated, titles, ownContent);
    for (let block = 1; block < page.blockCount; block++) if (comments[block] === 1) stated[block] = 0;
    if (byline >= 0) stated[page.textNodes.block[byline]!] = 1;
    const facts = pageFacts(page, pageLevels, stated, comments, titles, byline);
    return { page, keys, counted, content, ownCounted, ownContent, stated, titles, facts };
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

/**
 * A list item that holds a link and, outside it, states nothing but values (a date) is a dated link of a list of
 * stories: neither it nor what it holds states the page.
 */
function unstateDatedLinks(page: PageModel, levels: Uint8Array, stated: Uint8Array): void {
  // Block ordinal → what it and its descendants hold: bit 1 a sentence end outside links, bit 2 a value, bit 4 a link.
  const marks = new Uint8Array(page.blockCount);
  for (let node = 0; node < page.textNodeCount; node++) {
    const block = page.textNodes.block[node]!;
    if (page.textNodes.inLink[node] === 1) {
      marks[block] |= 4;
      continue;
    }
    for (let at = page.textNodes.textStart[node]!; at < page.textNodes.textEnd[node]!; at++) {
      marks[block] |= (endsSentence(page.text, at) ? 1 : 0) | (levels[at] === LEVEL_WHEN ? 2 : 0);
    }
  }
  for (let block = page.blockCount - 1; block > 0; block--) marks[page.blocks.parent[block]!] |= marks[block]!;
  const inItem = new Uint8Array(page.blockCount);
  for (let block = 1; block < page.blockCount; block++) {
    if (inItem[page.blocks.parent[block]!] === 1 || (page.blocks.tag[block] === TAG_LI && marks[block] === 6)) inItem[block] = 1;
    if (inItem[block] === 1) stated[block] = 0;
  }
}

/**
 * A story's teaser (related stories, latest news, a promo box): a block that holds a heading wholly a link away (not a
 * heading that states the page's title), alone or one of a list, unless it holds the page's longest statement (made
 * once): that is the page's own text, whatever heading links from inside it. A teaser or a date in it states something
 * of the story linked, not of the page.
 */
function unstateStoryItems(page: PageModel, stated: Uint8Array, titles: Uint8Array, ownContent: Int32Array): void {
  const text = new Int32Array(page.blockCount);
  const linked = new Int32Array(page.blockCount);
  for (let node = 0; node < page.textNodeCount; node++) {
    const length = page.text.slice(page.textNodes.textStart[node], page.textNodes.textEnd[node]).trim().length;
    text[page.textNodes.block[node]!] += length;
    if (page.textNodes.inLink[node] === 1) linked[page.textNodes.block[node]!] += length;
  }
  let longest = 0;
  for (let block = 1; block < page.blockCount; block++) if (stated[block] === 1 && ownContent[block]! > ownContent[longest]!) longest = block;
  // A statement the page makes twice (an excerpt beside the article it copies) says nothing of which copy is the page's.
  const statement = page.text.slice(page.blocks.textStart[longest], page.blocks.textEnd[longest]).trim();
  const once = statement !== "" && page.text.indexOf(statement) === page.text.lastIndexOf(statement);
  const holdsLongest = new Uint8Array(page.blockCount);
  for (let block = once ? longest : 0; block > 0; block = page.blocks.parent[block]!) holdsLongest[block] = 1;
  const items = new Uint8Array(page.blockCount);
  for (let block = 1; block < page.blockCount; block++) {
    const linkedHeading = HEADING.test(tagName(page.blocks.tag[block]!)) && titles[block] === 0 && text[block]! > 0 && linked[block] === text[block];
    if (linkedHeading && page.blocks.parent[block]! > 0) items[page.blocks.parent[block]!] = 1;
  }
  const inItem = new Uint8Array(page.blockCount);
  for (let block = 1; block < page.blockCount; block++) {
    const parent = page.blocks.parent[block]!;
    if (inItem[parent] === 1 || (items[block] === 1 && holdsLongest[block] === 0)) inItem[block] = 1;
    if (inItem[block] === 1) stated[block] = 0;
  }
}

/**
 * The text node of the page's byline (extractMetadata's author, the first text node at or after the title heading that
 * names it, outside comments), or -1: the author is the page's own fact even where some other pages name the same
 * author; not where most pages do (a blog of one author: the name is the site's, template).
 */
function bylineNode(page: PageModel, comments: Uint8Array, titles: Uint8Array, levels: Uint8Array): number {
  const byline = extractMetadata(page).byline;
  if (byline === null) return -1;
  const name = normalised(byline);
  let from = 0;
  for (let block = 1; block < page.blockCount && from === 0; block++) if (titles[block] === 1) from = page.blocks.textStart[block]!;
  for (let node = 0; node < page.textNodeCount; node++) {
    const [start, end] = [page.textNodes.textStart[node]!, page.textNodes.textEnd[node]!];
    if (start < from || comments[page.textNodes.block[node]!] === 1 || !normalised(page.text.slice(start, end)).includes(name)) continue;
    for (let at = start; at < end; at++) if (levels[at] !== LEVEL_SPACE && levels[at] !== LEVEL_TEMPLATE) return node;
    return -1;
  }
  return -1;
}

/**
 * Block ordinal → 1 for the page's own facts beside its title: the byline's block, and the dateline's (the first value
 * that says when, outside links and comments, from the title heading to the first sentence: the page's date, stated
 * once; a date in a template's slot is template, text-levels.ts). None without a title heading.
 */
function pageFacts(page: PageModel, levels: Uint8Array, stated: Uint8Array, comments: Uint8Array, titles: Uint8Array, byline: number): Uint8Array {
  const facts = new Uint8Array(page.blockCount);
  if (byline >= 0) facts[page.textNodes.block[byline]!] = 1;
  let from = -1;
  for (let block = 1; block < page.blockCount && from < 0; block++) if (titles[block] === 1) from = page.blocks.textEnd[block]!;
  if (from < 0) return facts;
  for (let node = 0; node < page.textNodeCount; node++) {
    const [start, end] = [page.textNodes.textStart[node]!, page.textNodes.textEnd[node]!];
    const block = page.textNodes.block[node]!;
    if (start < from || page.textNodes.inLink[node] === 1 || comments[block] === 1 || titles[block] === 1) continue;
    for (let at = start; at < end; at++) {
      if (levels[at] === LEVEL_WHEN && stated[block] === 1) {
        facts[block] = 1;
        return facts;
      }
      if (endsSentence(page.text, at)) return facts;
    }
  }
  return facts;
}

function normalised(text: string): string {
  return text.toLowerCase().replace(/\s+/g, " ").trim();
}

/** Separators between a <title>'s headline and the site's or section's name. */
const TITLE_SEPARATOR = /\s+[-|–—:»·]+\s+/;

/**
 * Block ordinal → 1 for the headings that state the page's title (their text inside the document's <title> and in no
 * other page's: a heading of the site's name is in every page's <title> too; or holding the <title>'s headline), of
 * the highest rank among such headings: a permalink there is the title, not a link away, while a list of the latest
 * stories that names this one too sits in lower-ranked headings.
 */
function titleHeadings(page: PageModel, titles: readonly string[], index: number): Uint8Array {
  const title = titles[index]!;
  const marked = new Uint8Array(page.blockCount);
  let best = 7;
  // A heading whose text is in another page's <title> too names the site or a section, not this page.
  const elsewhere = (text: string): boolean => titles.some((other, k) => k !== index && other.includes(text));
  // A heading may say more than the <title>'s headline (a section link, the date after it): it states the title when
  // it holds the title's longest part (the <title> is the headline and the site's name, apart by a separator).
  const headline = title.split(TITLE_SEPARATOR).reduce((longest, part) => (part.length > longest.length ? part : longest), "");
  const states = (text: string): boolean => (title.includes(text) && !elsewhere(text)) || (headline !== "" && text.includes(headline) && !elsewhere(headline));
  const level = (block: number): number => {
    const name = tagName(page.blocks.tag[block]!);
    if (!HEADING.test(name)) return 7;
    const text = normalised(page.text.slice(page.blocks.textStart[block], page.blocks.textEnd[block]));
    return text !== "" && states(text) ? Number(name[1]) : 7;
  };
  const ranks = Array.from({ length: page.blockCount }, (_unused, block) => level(block));
  for (const value of ranks) best = Math.min(best, value);
  ranks.forEach((value, block) => {
    if (value === best && best < 7) marked[block] = 1;
  });
  return marked;
}

/**
 * Block ordinal → 1 inside text that is not the page's own statement: reader comments (commentBlocks: a block whose
 * own class or id names comments, and what it holds), which clean() leaves out by default, and a select's options
 * (a form control, never prose). The miner counts it as no content, so a container of it may be stripped. Comment
 * sections found by their heading are not counted so: their blocks are the article's own elements (a site writes
 * both as p.story), and counting them as no content would make the article's signature look like template.
 */
function notPageText(page: PageModel): Uint8Array {
  const inside = commentBlocks(page, computeFeatures(page), false);
  for (let block = 1; block < page.blockCount; block++) {
    if (inside[page.blocks.parent[block]!] === 1 || page.blocks.tag[block] === TAG_SELECT) inside[block] = 1;
  }
  return inside;
}

/** Prefix sums of token characters and content characters over the page text. */
function contentSums(page: PageModel, levels: Uint8Array, comments: Uint8Array, byline: number, titles: Uint8Array): { counted: Int32Array; content: Int32Array } {
  const { textNodes } = page;
  const length = page.text.length;
  const isContent = new Uint8Array(length);
  for (let node = 0; node < page.textNodeCount; node++) {
    const block = textNodes.block[node]!;
    if (node === byline) {
      for (let at = textNodes.textStart[node]!; at < textNodes.textEnd[node]!; at++) if (levels[at] !== LEVEL_SPACE && levels[at] !== LEVEL_TEMPLATE) isContent[at] = 1;
      continue;
    }
    const linkAllowed = textNodes.inLink[node] === 0 || titles[block] === 1;
    if (!linkAllowed || comments[block] === 1) continue;
    // The title states the page even where some other pages repeat it (in their lists of related stories); a heading
    // of the site's name, in every page's <title> too, is template.
    const own = (level: number) => level === LEVEL_UNIQUE || level === LEVEL_VALUE || level === LEVEL_WHEN || (titles[block] === 1 && level === LEVEL_REPEATED);
    for (let at = textNodes.textStart[node]!; at < textNodes.textEnd[node]!; at++) if (own(levels[at]!)) isContent[at] = 1;
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
