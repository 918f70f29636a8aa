/**
 * Structural rules, mined per site (issue 10, build item 1): elements grouped by their path signature
 * (page-structure.ts), each group read through the text miner's statistics (text-levels.ts), then decided with
 * the same kind of parameter-free cut as the text rules (cutoff.ts):
 * - `strip`: containers on most pages whose text is template or shared with other pages even where it changes
 *   from page to page (related lists, "most read", sidebars): the low mode of the groups' content shares, holding
 *   no content block (a block whose own text is over that share and states something: a sentence, a value that
 *   says when such as a date, the page's title; or the block of the page's byline or dateline, page-structure.ts);
 * - `main`: the container on most pages that holds all of a page's content blocks and keeps the least text over the
 *   pages (a page it does not match keeps all of its text), or none when no container does;
 * - `keep`: the containers of the page's title heading alone (other pages list the title as a link, so a text rule
 *   may match it);
 * Then a check with the real selector matcher on every mined page, a third of them held back from this choice
 * (holdBackCheck): a strip selector that takes a content block, a main entry that leaves one out, or a keep entry that
 * takes more than a heading, is dropped.
 */
import { SELECTOR_MAX_PER_RULE_SET } from "../config";
import { matchSelectors, parseSelector, SELECTOR_MATCH_MAX_LISTS, type SelectorList } from "../selectors/index";
import { tagName } from "../page/index";
import { mainMatches } from "../rules/index";
import { findCutoff } from "./cutoff";
import { isContentBlock, rangeCounts, type PageStructure } from "./page-structure";

/** What one group of elements (one signature) holds over the pages. */
export interface GroupStatistics {
  readonly key: string;
  /** Pages where it occurs. */
  pages: number;
  /** Token and content characters inside it, summed over pages. */
  counted: number;
  content: number;
  /** Per page where it occurs: the page's ordinal and the text pairs of its top-most elements. */
  readonly where: { readonly page: number; readonly pairs: number[] }[];
}

/** Per signature, the statistics over the given pages (top-most elements of a signature only: nested ones are inside). */
export function groupStatistics(structures: readonly PageStructure[]): Map<string, GroupStatistics> {
  const groups = new Map<string, GroupStatistics>();
  structures.forEach((structure, pageIndex) => {
    const ranges = new Map<string, number[]>();
    const { blocks } = structure.page;
    structure.keys.forEach((key, block) => {
      if (key === "") return;
      let pairs = ranges.get(key);
      if (pairs === undefined) ranges.set(key, (pairs = []));
      const start = blocks.textStart[block]!;
      if (pairs.length > 0 && start < pairs.at(-1)!) return; // inside an element of the same signature
      pairs.push(start, blocks.textEnd[block]!);
    });
    for (const [key, pairs] of ranges) {
      let group = groups.get(key);
      if (group === undefined) groups.set(key, (group = { key, pages: 0, counted: 0, content: 0, where: [] }));
      const inside = rangeCounts(structure, pairs);
      group.pages++;
      group.counted += inside.counted;
      group.content += inside.content;
      group.where.push({ page: pageIndex, pairs });
    }
  });
  return groups;
}

export interface StructureChoice {
  readonly strip: string[];
  readonly main: string[];
  /** Containers of the page's title alone (the title is never removed, though other pages list it as a link). */
  readonly keep: string[];
  /** The content share below which a group is template (the cut of the groups' histogram), in [0, 1]. */
  readonly stripShare: number;
}

/**
 * Main entries written: one. A fallback (the next smallest container that held the content on the mined pages) did
 * not change a figure on the dev sites, and on a site of l3s-gn1 it matched the navigation of another kind of page
 * and kept only that (news.com.au: rules alone 0.69 with fallbacks, recall 0.86).
 */
const MAIN_ENTRIES = 1;
/** Most keep entries written (one title container, and a fallback). */
const KEEP_ENTRIES = 2;
const HEADING = /^h[1-6]$/;
/** Bins of the content-share histogram (as the text rules' document-frequency histogram). */
const SHARE_BINS = 100;

/**
 * Strip, main and keep from the groups of the choosing pages. Only groups on at least half of those pages count: a
 * container of the template is there on most pages (half of four choosing pages is a container that two of them show).
 */
export function chooseStructure(groups: ReadonlyMap<string, GroupStatistics>, structures: readonly PageStructure[]): StructureChoice {
  const pageCount = structures.length;
  const common = [...groups.values()].filter((group) => group.pages * 2 >= pageCount && group.counted > 0);
  // Histogram of template share (1 - content share): the cut separates template containers (high) from content ones.
  const histogram = new Float64Array(SHARE_BINS);
  const binOf = (group: GroupStatistics) => Math.min(SHARE_BINS - 1, Math.floor((1 - group.content / group.counted) * SHARE_BINS));
  for (const group of common) histogram[binOf(group)]++;
  const cut = findCutoff(histogram, SHARE_BINS, { bins: SHARE_BINS, energyTolerance: 0 });
  const stripShare = 1 - cut.share;
  // A template container holds no block of content (a block whose own text is above the cut) on any choosing page.
  const contentBlocks = structures.map((structure) => contentBlockStarts(structure, stripShare));
  const holdsContent = (group: GroupStatistics) =>
    group.where.some(({ page, pairs }) => pairs.some((value, index) => index % 2 === 0 && contentBlocks[page]![pairs[index + 1]!]! > contentBlocks[page]![value]!));
  const specific = specificKeys(groups);
  const holdsAllContentBlocks = (group: GroupStatistics) =>
    group.where.every(({ page, pairs }) => {
      let inside = 0;
      for (let k = 0; k < pairs.length; k += 2) inside += contentBlocks[page]![pairs[k + 1]!]! - contentBlocks[page]![pairs[k]!]!;
      return inside === contentBlocks[page]![structures[page]!.page.text.length]!;
    });
  const template = common.filter((group) => binOf(group) >= cut.bin && !holdsContent(group) && specific(group.key));
  // Over the rule set's selector limit, the groups inside others go first, then the ones with the least text.
  const limit = SELECTOR_MAX_PER_RULE_SET - MAIN_ENTRIES - KEEP_ENTRIES;
  const strip = (template.length <= limit ? template : outermost(template, structures).slice(0, limit)).map((group) => group.key);
  // Main: holds all of the page's content blocks on every choosing page where it occurs; the one that keeps the least
  // text over the choosing pages (a page it does not match keeps all of its text).
  const pageCounted = structures.reduce((sum, structure) => sum + structure.counted[structure.page.text.length]!, 0);
  const kept = (group: GroupStatistics) => pageCounted - group.where.reduce((sum, { page }) => sum + structures[page]!.counted[structures[page]!.page.text.length]!, 0) + group.counted;
  const main = common
    .filter(holdsAllContentBlocks)
    .sort((a, b) => kept(a) - kept(b) || b.pages - a.pages)
    .slice(0, MAIN_ENTRIES)
    .map((group) => group.key);
  return { strip: strip.sort(), main, keep: chooseKeep(common, structures), stripShare };
}

/**
 * Keep: the groups that hold the title heading and nothing else on every choosing page where they occur, with another
 * text on each page (a heading of the site's name is in every page's <title> too); the most pages first.
 */
function chooseKeep(common: readonly GroupStatistics[], structures: readonly PageStructure[]): string[] {
  const textOf = ({ page, pairs }: GroupStatistics["where"][number]) => structures[page]!.page.text.slice(pairs[0], pairs.at(-1));
  return common
    .filter((group) => group.where.every(({ page, pairs }) => onlyHeadings(structures[page]!, pairs, true)) && new Set(group.where.map(textOf)).size === group.where.length)
    .sort((a, b) => b.pages - a.pages || (a.key < b.key ? -1 : 1))
    .slice(0, KEEP_ENTRIES)
    .map((group) => group.key);
}

/** Whether each [start, end) pair is the text of a heading (`titles`: one that states the page's title). */
function onlyHeadings(structure: PageStructure, pairs: ArrayLike<number>, titles: boolean): boolean {
  const { page } = structure;
  const ranges = new Set<string>();
  for (let block = 1; block < page.blockCount; block++) {
    if (titles ? structure.titles[block] === 1 : HEADING.test(tagName(page.blocks.tag[block]!))) ranges.add(`${page.blocks.textStart[block]}:${page.blocks.textEnd[block]}`);
  }
  for (let k = 0; k < pairs.length; k += 2) if (pairs[k] !== pairs[k + 1] && !ranges.has(`${pairs[k]}:${pairs[k + 1]}`)) return false;
  return true;
}

/**
 * Whether a signature names one kind of element: an id, a region tag alone, or a class found in no other signature
 * of the site. A class shared by many signatures ("left", "clearfix", "col-6") is layout: what it wraps on one page
 * says little of what it wraps on the next.
 */
function specificKeys(groups: ReadonlyMap<string, GroupStatistics>): (key: string) => boolean {
  const keysOf = new Map<string, number>();
  const classesOf = (key: string): string[] => key.split(/(?=[.#])/).slice(1);
  for (const key of groups.keys()) for (const token of classesOf(key)) keysOf.set(token, (keysOf.get(token) ?? 0) + 1);
  return (key) => {
    const tokens = classesOf(key);
    return tokens.length === 0 || tokens.some((token) => token.startsWith("#") || keysOf.get(token) === 1);
  };
}

/**
 * The groups not always inside another of them (an element whose container is stripped needs no selector of its
 * own), the most text first.
 */
function outermost(groups: readonly GroupStatistics[], structures: readonly PageStructure[]): GroupStatistics[] {
  const covered = structures.map((structure) => new Uint8Array(structure.page.text.length + 1));
  const kept: GroupStatistics[] = [];
  for (const group of [...groups].sort((a, b) => b.counted - a.counted || (a.key < b.key ? -1 : 1))) {
    // Elements nest or are apart: one inside a kept group's element has its first character covered.
    const inside = group.where.every(({ page, pairs }) => pairs.every((value, index) => index % 2 === 1 || value === pairs[index + 1] || covered[page]![value] === 1));
    if (inside) continue;
    kept.push(group);
    for (const { page, pairs } of group.where) for (let index = 0; index < pairs.length; index += 2) covered[page]!.fill(1, pairs[index], pairs[index + 1]);
  }
  return kept;
}

/** Prefix counts over the page text of where content blocks start: [i] = content blocks starting before i. */
function contentBlockStarts(structure: PageStructure, share: number): Int32Array {
  const { page } = structure;
  const starts = new Int32Array(page.text.length + 1);
  for (let block = 1; block < page.blockCount; block++) if (isContentBlock(structure, block, share)) starts[page.blocks.textStart[block]! + 1]++;
  for (let at = 1; at <= page.text.length; at++) starts[at] += starts[at - 1]!;
  return starts;
}

export interface HoldBackCheck {
  readonly strip: string[];
  readonly main: string[];
  readonly keep: string[];
  /** Strip, main and keep entries dropped, with why. */
  readonly dropped: string[];
}

/**
 * The choice checked with the real matcher (what pass 1 and HTMLRewriter will remove), on the held-back pages and
 * on the choosing pages (a selector also matches elements of other signatures): a strip selector stays if what it
 * matches holds no content block on any of them; a main entry stays if, on every page where it is the first entry
 * to match, it holds all of the page's content blocks; a keep entry stays if it matches headings only.
 */
export function holdBackCheck(choice: StructureChoice, pages: readonly PageStructure[]): HoldBackCheck {
  const selectors = [...choice.strip, ...choice.main, ...choice.keep];
  const keepFrom = choice.strip.length + choice.main.length;
  const bad = selectors.find((selector) => !parseSelector(selector).ok);
  if (bad !== undefined) throw new Error(`a mined selector does not parse: ${bad}`);
  const lists = selectors.map((selector) => (parseSelector(selector) as { list: SelectorList }).list);
  const failed = new Uint8Array(selectors.length);
  for (const structure of pages) {
    const matches = matchInGroups(structure, lists);
    const contentBlocks = contentBlockStarts(structure, choice.stripShare);
    choice.strip.forEach((_selector, index) => {
      const pairs = matches[index]!.text;
      for (let k = 0; k < pairs.length; k += 2) if (contentBlocks[pairs[k + 1]!]! > contentBlocks[pairs[k]!]!) failed[index] = 1;
    });
    const first = choice.main.findIndex((_selector, index) => mainMatches(structure.page.text, matches[choice.strip.length + index]!));
    const main = matches[choice.strip.length + first];
    if (main !== undefined) {
      let inside = 0;
      for (let k = 0; k < main.text.length; k += 2) inside += contentBlocks[main.text[k + 1]!]! - contentBlocks[main.text[k]!]!;
      if (inside < contentBlocks[structure.page.text.length]!) failed[choice.strip.length + first] = 1;
    }
    choice.keep.forEach((_selector, index) => {
      if (!onlyHeadings(structure, matches[keepFrom + index]!.text, false)) failed[keepFrom + index] = 1;
    });
  }
  const why = (index: number) =>
    index < choice.strip.length ? "strip %s: holds content" : index < keepFrom ? "main %s: leaves content out" : "keep %s: holds more than a heading";
  const dropped = selectors.flatMap((selector, index) => (failed[index] === 0 ? [] : [why(index).replace("%s", selector)]));
  return {
    strip: choice.strip.filter((_selector, index) => failed[index] === 0),
    main: choice.main.filter((_selector, index) => failed[choice.strip.length + index] === 0),
    keep: choice.keep.filter((_selector, index) => failed[keepFrom + index] === 0),
    dropped,
  };
}

/** matchSelectors over any number of lists, in walks of at most SELECTOR_MATCH_MAX_LISTS. */
function matchInGroups(structure: PageStructure, lists: readonly SelectorList[]): ReturnType<typeof matchSelectors> {
  const matches: ReturnType<typeof matchSelectors> = [];
  for (let from = 0; from < lists.length; from += SELECTOR_MATCH_MAX_LISTS) matches.push(...matchSelectors(structure.page, lists.slice(from, from + SELECTOR_MATCH_MAX_LISTS)));
  return matches;
}
