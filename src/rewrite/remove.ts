/**
 * Pass 2 for html output: the page streamed through HTMLRewriter with what the plan removes taken out,
 * with one call into JavaScript per removed element (clean() cuts the removed blocks that end with their own end
 * tag out of the source string instead: see RewriteHtmlOptions; when that leaves no element to remove, the page
 * does not go through HTMLRewriter at all).
 *
 * Before the page goes in, a few edits are written into the source string at offsets pass 1 recorded:
 * - a mark attribute in the start tag of every top-most removed block, and of every element that is not a block
 *   that selectors removed whole; one selector on the mark removes them, and lol-html (the parser inside
 *   HTMLRewriter) decides where each ends;
 * - the end tags HTML5 implies (`<p>a<p>b`), which lol-html does not imply: with them, lol-html's open
 *   elements equal pass 1's at every point, so both end every element at the same place;
 * - for a removed block or element that an ancestor's end tag closes, its own end tag(s) just before it, so
 *   that lol-html does not remove the ancestor's end tag with it;
 * - a <meta> charset declaration other than UTF-8 becomes "utf-8" (the page was decoded; it goes out as UTF-8);
 * - the removed parts of partly removed text nodes are cut out (page-text offsets mapped back to source
 *   offsets, entities and collapsed white space included), with an empty comment where the text on both
 *   sides of a cut would otherwise join into a tag or a character reference.
 */
import type { HtmlRewriterBackend, SelectorHandler } from "../runtime";
import { CLOSED_BY_ANCESTOR_END_TAG, CLOSED_BY_OWN_END_TAG, SourceOffsetCursor, tagName, type PageModel } from "../page";
import type { NormalisedPlan, RemovedElements } from "../plan";

/** Attribute that marks the start tags of removed blocks; a suffix is added if the page already uses it. */
export const REMOVE_MARK_ATTRIBUTE = "data-clean-remove";

export type RewriteHtmlResult =
  | { readonly ok: true; readonly html: string; /** elements HTMLRewriter removed (calls into JavaScript), and blocks cut from the source before it (cutClosedBlocks) */ readonly removedElements: number }
  | { readonly ok: false; readonly reason: "rewriter-error" | "handler-error"; readonly detail: string };

export interface RewriteHtmlOptions {
  /**
   * Removed blocks that end with their own end tag are cut out of the source string (one space in their place,
   * what element.replace(" ") writes) instead of being marked for HTMLRewriter to remove: pass 1 and lol-html
   * end every element at the same place, so the bytes are the same, without a call into JavaScript per block
   * (15-20 µs in workerd) or a selector for lol-html to test on every element of those names. Off, every removed
   * block goes through HTMLRewriter: the pass parity tests (every dev page, the html5lib trees, malformed
   * snippets) check pass 1 against that, then that both ways write the same bytes.
   */
  readonly cutClosedBlocks?: boolean;
}

/** Runs pass 2: the page without the plan's removed blocks and text, as HTML that still renders. */
export async function rewriteHtml(page: PageModel, plan: NormalisedPlan, backend: HtmlRewriterBackend, options: RewriteHtmlOptions = {}): Promise<RewriteHtmlResult> {
  const edits = new SourceEdits();
  const [cut, topRemoved] = options.cutClosedBlocks === true ? splitClosedBlocks(page, plan.topBlocks) : [new Int32Array(0), plan.topBlocks];
  // Most pages have no block left to mark once the closed ones are cut: then the page is not searched for the marks' names.
  const [mark, elementMark] = topRemoved.length > 0 || plan.removedElements !== undefined ? chooseMarkAttributes(page.source) : [REMOVE_MARK_ATTRIBUTE, REMOVE_MARK_ATTRIBUTE];
  addImpliedEnds(page, edits);
  addRemovedBlocks(page, topRemoved, mark, edits);
  const names = new Set<string>();
  const elementNames = new Set<string>();
  const spaced = new Set<string>();
  if (plan.removedElements !== undefined) addRemovedElements(page.source, plan.removedElements, [elementMark, `${elementMark}-s`], edits, [elementNames, spaced]);
  addTextCuts(page, plan, edits);
  const [charsetStart, charsetEnd] = page.charsetDeclaration ?? [-1, -1];
  if (declaresOtherCharset(page)) edits.replace(charsetStart, charsetEnd, "utf-8");
  // Last, so that an edit recorded at a cut block's start (an implied end tag before it) stays before its space.
  for (const block of cut) edits.cut(page.blocks.sourceStart[block], page.blocks.sourceEnd[block], " ");
  const input = edits.apply(page.source);
  let removedElements = cut.length;
  // A removed block becomes one space, not nothing: its boundary separated the text before it from the
  // text after it, and without it "Personal<ul>…</ul>Resources" would read "PersonalResources".
  for (const block of topRemoved) names.add(tagName(page.blocks.tag[block]));
  const handlers: SelectorHandler[] = [];
  if (names.size > 0) handlers.push({ selector: markSelector(names, mark), element: (element) => { removedElements++; element.replace(" "); } });
  // An element that is not a block goes without a trace where its text ran on into the text around it ("north<a>…</a>."),
  // and as one space where white space at its inner edges separated that text from its neighbours ("[<em>note </em>]").
  if (elementNames.size > 0) handlers.push({ selector: markSelector(elementNames, elementMark), element: (element) => { removedElements++; element.remove(); } });
  if (spaced.size > 0) handlers.push({ selector: markSelector(spaced, `${elementMark}-s`), element: (element) => { removedElements++; element.replace(" "); } });
  // With no handler (most pages: their removed blocks were cut from the source), HTMLRewriter gives its input back
  // byte for byte (so it does on every dev page), with two exceptions that still go through it: a lone surrogate,
  // which UTF-8 cannot carry, comes back as U+FFFD, and a page whose parse it cannot tell it refuses
  // (PageModel.rewriterMayRefuse): a bailout, and the page goes out as it came.
  if (handlers.length === 0 && page.rewriterMayRefuse !== true && isWellFormed(input)) return { ok: true, html: input, removedElements };
  const outcome = await backend.rewrite(input, handlers);
  if (!outcome.ok) return outcome;
  return { ok: true, html: outcome.html, removedElements };
}

/** Whether a string has no lone surrogate (String.prototype.isWellFormed, ES2024; false where the engine lacks it). */
function isWellFormed(text: string): boolean {
  const native = (text as { isWellFormed?: () => boolean }).isWellFormed;
  return typeof native === "function" && native.call(text);
}

/** True when the page declares a charset other than UTF-8 in a <meta>: the output is UTF-8, and says so. */
export function declaresOtherCharset(page: PageModel): boolean {
  const [start, end] = page.charsetDeclaration ?? [-1, -1];
  return start >= 0 && !/^utf-?8$/i.test(page.source.slice(start, end));
}

/**
 * The selector of the marked elements, qualified by their tag names ("div[mark],li[mark]"): lol-html then
 * reads attributes only of elements with those names, where a bare "[mark]" makes it read every element's
 * (measured with html-rewriter-wasm on the dev pages: about twice the bare pass for "[mark]", about the
 * bare pass itself for "div[mark]").
 */
function markSelector(names: ReadonlySet<string>, mark: string): string {
  return Array.from(names, (name) => `${name}[${mark}]`).join(",");
}

/** The mark attribute as the page might already hold it, with any numeric suffix (attribute names ignore case). */
const MARK_IN_PAGE = new RegExp(`${REMOVE_MARK_ATTRIBUTE}(?:-(\\d{1,9}))?`, "gi");

/**
 * The mark attributes of removed blocks and of removed elements that are not blocks: the name with numeric
 * suffixes above any the page itself already uses (one scan of the page); blocks keep the plain name when it is free.
 */
function chooseMarkAttributes(source: string): [string, string] {
  let highest = 0; // 0: the page has no such attribute; 1: the plain name; n: the name with suffix "-n"
  for (const match of source.matchAll(MARK_IN_PAGE)) highest = Math.max(highest, match[1] === undefined ? 1 : Number(match[1]));
  return [highest === 0 ? REMOVE_MARK_ATTRIBUTE : `${REMOVE_MARK_ATTRIBUTE}-${highest + 1}`, `${REMOVE_MARK_ATTRIBUTE}-${highest + 2}`];
}


/** The top removed blocks closed by their own end tag (cut from the source), and the others (marked for HTMLRewriter). */
function splitClosedBlocks(page: PageModel, topRemoved: Int32Array): [Int32Array, Int32Array] {
  const closed = topRemoved.filter((block) => page.blocks.closeKind[block] === CLOSED_BY_OWN_END_TAG);
  return closed.length === topRemoved.length ? [closed, new Int32Array(0)] : [closed, topRemoved.filter((block) => page.blocks.closeKind[block] !== CLOSED_BY_OWN_END_TAG)];
}

function addImpliedEnds(page: PageModel, edits: SourceEdits): void {
  const { offset, tag } = page.impliedEnds;
  for (let index = 0; index < page.impliedEndCount; index++) edits.insert(offset[index], `</${tagName(tag[index])}>`);
}

function addRemovedBlocks(page: PageModel, topRemoved: Int32Array, mark: string, edits: SourceEdits): void {
  const blocks = page.blocks;
  for (const block of topRemoved) {
    edits.insert(blocks.sourceNameEnd[block], ` ${mark}`);
    if (blocks.closeKind[block] === CLOSED_BY_ANCESTOR_END_TAG) {
      edits.insert(blocks.sourceEnd[block], `</${tagName(blocks.tag[block])}>`.repeat(blocks.closeRepeat[block]));
    }
  }
}

/**
 * Marks the elements that are not blocks removed whole, as blocks are marked: with the first mark, or the second
 * where white space separates its neighbours' text from it or its own text nodes from each other (pass 1 kept that
 * space in the page text); adds their names to the matching set.
 */
function addRemovedElements(source: string, elements: RemovedElements, marks: [string, string], edits: SourceEdits, names: [Set<string>, Set<string>]): void {
  for (let element = 0; element < elements.count; element++) {
    const nameEnd = elements.sourceNameEnd[element];
    const name = source.slice(elements.sourceStart[element] + 1, nameEnd).toLowerCase();
    const spaced = elements.separated[element] === 1 || edgeSpace(source, nameEnd, elements.sourceEnd[element]) ? 1 : 0;
    names[spaced].add(name);
    edits.insert(nameEnd, ` ${marks[spaced]}`);
    if (elements.closeRepeat[element] > 0) edits.insert(elements.sourceEnd[element], `</${name}>`.repeat(elements.closeRepeat[element]));
  }
}

/** A reference to a no-break space, or a <br> tag: white space as pass 1 reads it between text. */
const SPACE_MARKUP = /^(?:&nbsp;?|&#0*160;?|&#x0*a0;?|<br\b)/i;

/**
 * Whether an element's content (from the end of its tag name to `end`) has white space before its first visible
 * character or after its last, outside tags (any at all when nothing is visible): pass 1 made that a separator of
 * the text around the element. Reads the element once; tags are skipped to their ">".
 */
function edgeSpace(source: string, from: number, end: number): boolean {
  let position = source.indexOf(">", from) + 1;
  if (position <= 0 || position > end) return false;
  let space = false;
  let visible = false;
  while (position < end) {
    const code = source.charCodeAt(position);
    const markup = code === 60 || code === 38 ? SPACE_MARKUP.exec(source.slice(position, position + 8)) : null;
    if (code === 32 || code === 9 || code === 10 || code === 13 || code === 12 || code === 0xa0 || markup !== null) {
      space = true;
      position += markup === null ? 1 : markup[0].length;
      if (code !== 60) continue;
    } else if (code !== 60) {
      if (space && !visible) return true;
      visible = true;
      space = false;
      position += 1;
      continue;
    }
    const close = source.indexOf(">", position); // a tag (a <br> included) is skipped to its end
    position = close < 0 || close >= end ? end : close + 1;
  }
  return space;
}

/** Cuts the plan's removed text out of the text nodes of kept blocks. */
function addTextCuts(page: PageModel, plan: NormalisedPlan, edits: SourceEdits): void {
  const { removedText: intervals, removedWithAncestor } = plan;
  const nodes = page.textNodes;
  const cursor = new SourceOffsetCursor(page);
  let node = 0;
  for (let index = 0; index + 1 < intervals.length; index += 2) {
    const start = intervals[index];
    const end = intervals[index + 1];
    while (node < page.textNodeCount && nodes.textEnd[node] <= start) node++;
    for (let current = node; current < page.textNodeCount && nodes.textStart[current] < end; current++) {
      if (removedWithAncestor[nodes.block[current]] === 1) continue;
      const cutStart = Math.max(start, nodes.textStart[current]);
      const cutEnd = Math.min(end, nodes.textEnd[current]);
      if (cutEnd <= cutStart) continue;
      const sourceStart = cursor.sourceOffset(current, cutStart);
      const sourceEnd = cursor.sourceOffset(current, cutEnd);
      edits.replace(sourceStart, sourceEnd, joinsIntoMarkup(page.source, nodes.sourceStart[current], sourceStart) ? EMPTY_COMMENT : "");
    }
  }
}

/** Written where a cut would otherwise join the text around it into a tag or a character reference. */
const EMPTY_COMMENT = "<!---->";
/** Longest run of name characters after "&" that could still become a reference, in characters. */
const REFERENCE_REACH = 32;

/**
 * True when the raw text before a cut ends with "<" or an unfinished "&name", which the text after the
 * cut could complete ("<< Home" less " H" would read "<<ome": a tag).
 */
function joinsIntoMarkup(source: string, nodeStart: number, cutStart: number): boolean {
  if (cutStart <= nodeStart) return false;
  if (source.charCodeAt(cutStart - 1) === 60) return true;
  for (let position = cutStart - 1; position >= nodeStart && position >= cutStart - REFERENCE_REACH; position--) {
    const code = source.charCodeAt(position);
    if (code === 38) return true;
    const lower = code | 0x20;
    if (!((code >= 48 && code <= 57) || (lower >= 97 && lower <= 122) || code === 35)) return false;
  }
  return false;
}

/**
 * Edits to a source string: insertions and replaced ranges, applied in one join. Edits are recorded in
 * any order; equal offsets keep the order they were recorded in. A cut range takes every edit that starts
 * inside it (after its start, before its end) with it, as HTMLRewriter's removal of an element takes what was
 * written inside it.
 */
class SourceEdits {
  private readonly offsets: number[] = []; // edit ordinal → source offset where it applies
  private readonly ends: number[] = []; // edit ordinal → end of the replaced range (= offset for insertions)
  private readonly texts: string[] = []; // edit ordinal → text written at the offset
  private readonly isCut: boolean[] = []; // edit ordinal → whether it is a cut range

  insert(offset: number, text: string): void {
    this.offsets.push(offset);
    this.ends.push(offset);
    this.texts.push(text);
    this.isCut.push(false);
  }

  /** Replaces source[start, end) with `text`. */
  replace(start: number, end: number, text: string): void {
    if (end <= start) return;
    this.offsets.push(start);
    this.ends.push(end);
    this.texts.push(text);
    this.isCut.push(false);
  }

  /** Replaces source[start, end) with `text` and drops the edits that start inside it (disjoint ranges only). */
  cut(start: number, end: number, text: string): void {
    if (end <= start) return;
    this.replace(start, end, text);
    this.isCut[this.isCut.length - 1] = true;
  }

  apply(source: string): string {
    const order = Array.from(this.offsets.keys()).sort((a, b) => this.offsets[a] - this.offsets[b] || a - b);
    const pieces: string[] = [];
    let cursor = 0;
    let insideEnd = -1; // end of the last cut range met
    for (const edit of order) {
      const start = this.offsets[edit];
      if (start < insideEnd) continue;
      if (this.isCut[edit]) insideEnd = this.ends[edit];
      const offset = Math.max(start, cursor);
      pieces.push(source.slice(cursor, offset), this.texts[edit]);
      cursor = Math.max(offset, this.ends[edit]);
    }
    pieces.push(source.slice(cursor));
    return pieces.join("");
  }
}
