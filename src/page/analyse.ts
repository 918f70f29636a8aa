/**
 * Pass 1: the decoded page string → PageModel, in one scan (scanner.ts) with a stack of open elements.
 *
 * The tree follows lol-html (the parser inside HTMLRewriter) so that pass 2 removes exactly the elements
 * pass 1 describes: every start tag of a non-void element opens an element (no element is dropped or
 * moved), and an end tag closes the nearest open element of its name with everything above it (a stray
 * end tag is ignored). On top of that, the start tags that close an element in HTML5 do so here too
 * (`<p>` by blocks, `<li>` by `<li>`, cells and rows, options, `<head>` by `<body>`): each such close is
 * recorded as an implied end tag, which pass 2 writes into the page so that lol-html sees it as well.
 */
import { CLEAN_SLICE_CHARACTERS, CLEAN_SLICE_EVENTS } from "../config";
import { finishSlices, type Slices } from "../slices";
import { CHARSET_PARAMETER } from "./charset";
import { decodeEntityAt, entityEnd } from "./entities";
import { findAttribute, readAttribute } from "./attributes";
import { MetadataCollector } from "./metadata-scan";
import { openedNoscriptSource } from "./noscript";
import { RewriterAmbiguity } from "./rewriter-ambiguity";
import { ScanLog } from "./scan-log";
import { HtmlScan, NAMESPACE_MATH, NAMESPACE_SVG, TEXT_CDATA, TEXT_DATA, TEXT_RAW, TEXT_RCDATA, type ScanHandler } from "./scanner";
import {
  FLAG_BLOCK, FLAG_BUTTON_SCOPE, FLAG_CLOSES_P, FLAG_HEADING, FLAG_SPECIAL, FLAG_TABLE_SCOPE, FLAG_VOID, TAG_A,
  TAG_BODY, TAG_BR, TAG_DD, TAG_DT, TAG_FLAGS, TAG_HEAD, TAG_HTML, TAG_LI, TAG_OPTGROUP, TAG_OPTION, TAG_OTHER, TAG_P, TAG_SELECT,
  TAG_NAMES, TAG_ROOT, TAG_TBODY, TAG_TD, TAG_TFOOT, TAG_TH, TAG_THEAD, TAG_TITLE, TAG_TR, TAG_DIV, TAG_ADDRESS, TAG_META, TAG_BUTTON, tagId,
} from "./tags";
import {
  CLOSED_BY_ANCESTOR_END_TAG, CLOSED_BY_END_OF_PAGE, CLOSED_BY_IMPLIED_END, CLOSED_BY_OWN_END_TAG, MARKUP_COUNTERS,
  MARKUP_IMAGES, MARKUP_INPUTS, MARKUP_LINKS, MARKUP_TAGS, type PageModel,
} from "./types";

export interface AnalyseOptions {
  /** Also gather the reader metadata's facts (PageModel.metadataFacts) in the same walk, for formats that show them. */
  readonly metadata?: boolean;
  /** Also record the walk's events (PageModel.scanLog), for the writers that walk the markup again (Markdown, article). */
  readonly scanLog?: boolean;
  /** Read a <noscript> that holds the page's main text as markup (noscript.ts), for the formats that show text; the html
   * of a page is what a browser running its scripts gets, and keeps its <noscript> elements as they are. */
  readonly noscriptContent?: boolean;
}

/** Builds the page model of a decoded HTML string. Never throws on malformed HTML. */
export function analysePage(html: string, options: AnalyseOptions = {}): PageModel {
  return finishSlices(analysePageSlices(html, options));
}

/** analysePage in slices of CLEAN_SLICE_CHARACTERS of source (slices.ts): the same page model, the scan paused between. */
export function* analysePageSlices(html: string, options: AnalyseOptions = {}): Slices<PageModel> {
  const page = yield* analyseSource(html, options);
  const swallowedAt = page.unclosedRawText === true ? runawayTitleEnd(html, page) : -1;
  // The page still had an element left open: the warning stands, though what it swallowed is read now.
  const read = swallowedAt < 0 ? page : { ...(yield* analyseSource(`${html.slice(0, swallowedAt)}</title>${html.slice(swallowedAt)}`, options)), unclosedRawText: true };
  const opened = options.noscriptContent === true ? openedNoscriptSource(read) : null;
  return opened === null ? read : { ...(yield* analyseSource(opened, options)), ...(read.unclosedRawText === true ? { unclosedRawText: true } : {}) };
}

/**
 * A <title> left open takes the rest of the page as its text (HTML5 reads a title up to its end tag or the
 * end of the file), so the page has no text at all: a truncated or mangled head, seen on archived news
 * pages. A title never holds markup, and the browsers those pages were written for ended it at the next
 * tag; so does this, by writing "</title>" there into the source that both passes read. Returns that
 * offset, or -1 when the element left open is not the title.
 */
function runawayTitleEnd(html: string, page: PageModel): number {
  const title = page.runawayTitleStart ?? -1;
  if (title < 0) return -1;
  const tag = SWALLOWED_TAG.exec(html.slice(title));
  return tag === null ? -1 : title + tag.index;
}

/**
 * Source characters per scan event that a recorded walk is first sized for, so that it seldom grows (a copy of every
 * array each time): the dev pages have 31 at the median and 16 at the 1st percentile (fewer means more events).
 */
const CHARACTERS_PER_LOGGED_EVENT = 16;

function* analyseSource(html: string, options: AnalyseOptions): Slices<PageModel> {
  const builder = new PageBuilder(html);
  const collector = options.metadata === true ? new MetadataCollector(html) : null;
  const log = options.scanLog === true ? new ScanLog(Math.ceil(html.length / CHARACTERS_PER_LOGGED_EVENT)) : null;
  let listeners: ScanHandler = builder;
  if (collector !== null) listeners = new Listeners(listeners, collector);
  if (log !== null) listeners = new Listeners(listeners, log);
  const scan = new HtmlScan(html, listeners);
  for (let offset = CLEAN_SLICE_CHARACTERS; !scan.continueTo(offset); offset += CLEAN_SLICE_CHARACTERS) yield;
  return { ...builder.finish(), ...(collector === null ? {} : { metadataFacts: collector.facts }), ...(log === null ? {} : { scanLog: log }) };
}

/** Walks a page for a later stage: pass 1's recorded walk where the page model has one (PageModel.scanLog), else a scan. */
export function walkPage(page: PageModel, handler: ScanHandler): void {
  finishSlices(walkPageSlices(page, handler));
}

/** walkPage in slices (CLEAN_SLICE_EVENTS events of the recorded walk, or CLEAN_SLICE_CHARACTERS of source scanned). */
export function* walkPageSlices(page: PageModel, handler: ScanHandler): Slices<void> {
  const log = page.scanLog;
  if (log === undefined) {
    const scan = new HtmlScan(page.source, handler);
    for (let offset = CLEAN_SLICE_CHARACTERS; !scan.continueTo(offset); offset += CLEAN_SLICE_CHARACTERS) yield;
    return;
  }
  for (let from = 0; from < log.events; from += CLEAN_SLICE_EVENTS) {
    if (from > 0) yield;
    log.replay(handler, from, from + CLEAN_SLICE_EVENTS);
  }
}

/**
 * One walk of the scanner, two listeners (nested for more): each hears every event, the first before the second.
 * Two fields, not a list, so that each call site sees few kinds of listener (a list's loop cost a recorded pass 1 a few
 * percent).
 */
class Listeners implements ScanHandler {
  constructor(private readonly first: ScanHandler, private readonly second: ScanHandler) {}

  startTag(name: string, tagStart: number, nameEnd: number, tagEnd: number, selfClosing: boolean, foreign: boolean, namespace: number): void {
    this.first.startTag(name, tagStart, nameEnd, tagEnd, selfClosing, foreign, namespace);
    this.second.startTag(name, tagStart, nameEnd, tagEnd, selfClosing, foreign, namespace);
  }

  endTag(name: string, tagStart: number, tagEnd: number): void {
    this.first.endTag(name, tagStart, tagEnd);
    this.second.endTag(name, tagStart, tagEnd);
  }

  text(start: number, end: number, kind: number): void {
    this.first.text(start, end, kind);
    this.second.text(start, end, kind);
  }
}

/** How deep below the top of the open elements the HTML5 implied-end searches look (elements); real pages nest
 * far less (the deepest block on the dev pages is 35 elements down), so this only bounds the work on hostile pages. */
const IMPLIED_END_SEARCH_DEPTH = 256;

/** Bits of PageBuilder.openRendering: character data directly in the element is rendered; its content can be. */
const RENDERS_TEXT = 1;
const RENDERS_CONTENT = 2;
/** svg elements whose character data is drawn (foreignObject holds HTML, which is rendered too). */
const SVG_TEXT_ELEMENTS = new Set(["text", "tspan", "textpath", "foreignobject"]);
const TAG_TEMPLATE = tagId("template");
const TAG_SCRIPT = tagId("script");
const FOREIGN_SCOPE_NAMES = new Set(["foreignobject", "desc", "title", "mi", "mo", "mn", "ms", "mtext", "annotation-xml"]);
const TAG_XMP = tagId("xmp");
const TAG_PLAINTEXT = tagId("plaintext");

/** Start tag name → its counter in BlockTable.markup (every start tag also counts in MARKUP_TAGS). */
const MARKUP_KIND = new Map<string, number>([
  ["a", MARKUP_LINKS], ["img", MARKUP_IMAGES], ["svg", MARKUP_IMAGES], ["picture", MARKUP_IMAGES],
  ["input", MARKUP_INPUTS], ["button", MARKUP_INPUTS], ["select", MARKUP_INPUTS], ["textarea", MARKUP_INPUTS],
]);
/** MARKUP_KIND by the tag id of the name (0: none), so that listed names need no lookup by string; "picture" has no id. */
const MARKUP_KIND_BY_ID = new Uint8Array(TAG_NAMES.length);
for (const [name, kind] of MARKUP_KIND) if (tagId(name) !== TAG_OTHER) MARKUP_KIND_BY_ID[tagId(name)] = kind;

/** First size of the growable tables (they double when full; blocks and text nodes start from the page size). */
const INITIAL_CAPACITY = 64;

/**
 * The builder's growing tables, one typed array per column, each listed once: the open elements, the blocks
 * and text nodes (their columns named as in BlockTable and TextNodeTable) and the implied end tags.
 */
const OPEN_COLUMNS = {
  tag: Uint8Array, // tag id (TAG_OTHER for foreign elements)
  name: Uint8Array, // tag id of its name, foreign elements too (TAG_OTHER: only openNames has it)
  block: Int32Array, // its block ordinal, or -1 if not a block
  innermostBlock: Int32Array, // innermost block at or below it
  foreign: Uint8Array, // 1 if in the svg or math namespace
  rendering: Uint8Array, // RENDERS_* bits: is text inside it rendered
};
const BLOCK_COLUMNS = {
  parent: Int32Array, tag: Uint8Array, depth: Uint16Array, sourceStart: Int32Array, sourceNameEnd: Int32Array, startTagEnd: Int32Array,
  sourceEnd: Int32Array, closeKind: Uint8Array, closeRepeat: Uint16Array, firstTextNode: Int32Array, endTextNode: Int32Array,
};
const NODE_COLUMNS = {
  block: Int32Array, textStart: Int32Array, textEnd: Int32Array, sourceStart: Int32Array, sourceEnd: Int32Array, inLink: Uint8Array,
  inButton: Uint8Array,
  raw: Uint8Array, // 1 if raw (references not decoded: CDATA, xmp, plaintext)
};
const IMPLIED_COLUMNS = { offset: Int32Array, tag: Uint8Array };

type Column = Int32Array | Uint16Array | Uint8Array;
/** A column's typed-array constructor: its element size, and a view of `length` elements at `byteOffset` of a buffer. */
type ColumnType = { readonly BYTES_PER_ELEMENT: number; new (buffer: ArrayBuffer, byteOffset: number, length: number): Column };
type Columns<T> = { -readonly [K in keyof T]: T[K] extends new (buffer: ArrayBuffer, byteOffset: number, length: number) => infer A ? A : never };

/**
 * A table of `capacity` rows: a zeroed typed array per column, all views of one buffer. One allocation per table,
 * not one per column: each typed array with a buffer of its own costs an allocation outside the heap, and pass 1
 * made some thirty a page.
 */
function columns<T extends Record<string, ColumnType>>(types: T, capacity: number): Columns<T> {
  let bytes = 0;
  for (const name in types) bytes += columnBytes(types[name].BYTES_PER_ELEMENT, capacity);
  const buffer = new ArrayBuffer(bytes);
  const table: Record<string, Column> = {};
  let offset = 0;
  for (const name in types) {
    table[name] = new types[name](buffer, offset, capacity);
    offset += columnBytes(types[name].BYTES_PER_ELEMENT, capacity);
  }
  return table as Columns<T>;
}

/** Bytes of a column in a table's buffer: rounded up to 4, so that every column starts aligned. */
function columnBytes(elementBytes: number, capacity: number): number {
  return (elementBytes * capacity + 3) & ~3;
}

/** Doubles the rows of every column of a table, in place (into one new buffer). */
function grow(table: Record<string, Column>): void {
  let capacity = 0;
  let bytes = 0;
  for (const name in table) {
    capacity = 2 * table[name].length;
    bytes += columnBytes(table[name].BYTES_PER_ELEMENT, capacity);
  }
  const buffer = new ArrayBuffer(bytes);
  let offset = 0;
  for (const name in table) {
    const column = table[name];
    const next = new (column.constructor as ColumnType)(buffer, offset, capacity);
    next.set(column);
    table[name] = next;
    offset += columnBytes(column.BYTES_PER_ELEMENT, capacity);
  }
}

/** The first `count` rows of every column (views, not copies). */
function trimmed<T extends Record<string, Column>>(table: T, count: number): T {
  const rows: Record<string, Column> = {};
  for (const name in table) rows[name] = table[name].subarray(0, count);
  return rows as T;
}

/**
 * The page model's block table, as one object literal: built by spreading the columns (a table filled by name), it
 * took a new hidden class on every page, so the optimised code of every function that reads it (the feature writers)
 * was thrown away on the next page ("wrong map"). Its type keeps the list whole: a column missing here fails to compile.
 */
function blockTable(rows: Columns<typeof BLOCK_COLUMNS>, textStart: Int32Array, textEnd: Int32Array, markup: Int32Array): PageModel["blocks"] {
  return {
    parent: rows.parent, tag: rows.tag, depth: rows.depth, sourceStart: rows.sourceStart, sourceNameEnd: rows.sourceNameEnd, startTagEnd: rows.startTagEnd,
    sourceEnd: rows.sourceEnd, closeKind: rows.closeKind, closeRepeat: rows.closeRepeat, firstTextNode: rows.firstTextNode, endTextNode: rows.endTextNode,
    textStart, textEnd, markup,
  };
}

/** A copy of `array` in a new array twice as long. */
function doubled<T extends Column>(array: T): T {
  const next = new (array.constructor as new (length: number) => T)(array.length * 2);
  next.set(array);
  return next;
}

/** White space that pass 1 collapses in page text (and text-offsets.ts walks back the same way). */
export function isCollapsibleSpace(code: number): boolean {
  return code <= 32 ? code === 32 || code === 10 || code === 9 || code === 13 || code === 12 : code === 0xa0;
}

/** Raw-text and RCDATA elements: unclosed, each takes the rest of the page as its text (HTML5 tokenizer). */
const RAW_TEXT_ELEMENTS = new Set(["script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "noscript", "plaintext"]);
/** A tag in such text: the page's markup went into the element, not just a truncated script. */
const SWALLOWED_TAG = /<[a-zA-Z!/]/;

/** A character copied into the page text as it stands: not white space, not a reference's "&", not U+0000. */
function isPlainVisible(code: number): boolean {
  return code !== 38 && code !== 0 && !isCollapsibleSpace(code);
}

class PageBuilder implements ScanHandler {
  private readonly source: string;
  // Open elements, bottom (0) to top (openCount - 1).
  private openCount = 0;
  private readonly openNames: string[] = [];
  // Open elements per name: by the name's tag id, in a Map for the names with none (TAG_OTHER). Counted by id so
  // that most start and end tags need no lookup by string.
  private readonly openNameCount = new Int32Array(TAG_NAMES.length);
  private readonly openOtherNameCount = new Map<string, number>();
  private readonly stack: Columns<typeof OPEN_COLUMNS>;
  private linkOpen = 0;
  private buttonOpen = 0;
  // Blocks (ordinal 0 is the root).
  private blockCount = 1;
  private readonly blocks: Columns<typeof BLOCK_COLUMNS>;
  private blockMarkup: Int32Array; // block ordinal × MARKUP_COUNTERS + counter → start tags of that kind directly in the block
  // Text nodes and the page text.
  private textNodeCount = 0;
  private readonly nodes: Columns<typeof NODE_COLUMNS>;
  /** The page text so far, built by appending (V8 keeps it as a rope until it is read). */
  private pageText = "";
  private textLength = 0;
  private pendingSpace = false;
  private lastTextBlock = -1;
  /** A block started or ended since the last text node (an empty block between two texts still separates them). */
  private blockBoundary = false;
  // Implied end tags.
  private impliedCount = 0;
  private readonly implied: Columns<typeof IMPLIED_COLUMNS>;
  // Metadata.
  private title = "";
  private titleSeen = false;
  private lang = "";
  private charsetDeclaration: readonly [number, number] = [-1, -1];
  private lastStartName = "";
  private unclosedRawText = false;
  private readonly ambiguity = new RewriterAmbiguity();
  /** Where the text of a title left open to the end of the page starts, or -1. */
  private runawayTitleStart = -1;
  /** Source offsets of the links that name reader comments (COMMENT_ANCHOR), in order. */
  private readonly commentAnchors: number[] = [];
  /** <noscript> elements with text (PageModel.noscriptTexts): offset of "<noscript", and its text's range; where the last one starts. */
  private readonly noscriptTexts: number[] = [];
  private noscriptTagStart = -1;
  /** Source ranges of every JSON-LD script's text (PageModel.jsonLdScripts). */
  private readonly jsonLdScripts: number[] = [];
  /** The block that holds each <time> element (PageModel.timeBlocks). */
  private readonly timeBlocks: number[] = [];
  /** Whether the open script is JSON-LD. */
  private inJsonLd = false;

  constructor(source: string) {
    this.source = source;
    const blockCapacity = INITIAL_CAPACITY + (source.length >> 8);
    this.stack = columns(OPEN_COLUMNS, INITIAL_CAPACITY);
    this.blocks = columns(BLOCK_COLUMNS, blockCapacity);
    this.blockMarkup = new Int32Array(blockCapacity * MARKUP_COUNTERS);
    this.nodes = columns(NODE_COLUMNS, INITIAL_CAPACITY + (source.length >> 7));
    this.implied = columns(IMPLIED_COLUMNS, INITIAL_CAPACITY);
    this.blocks.parent[0] = -1;
    this.blocks.tag[0] = TAG_ROOT;
  }

  /** A run of a <noscript>'s text: a new element's, or the rest of the last one's (a scan in slices may split a run). */
  private noteNoscriptText(start: number, end: number): void {
    const last = this.noscriptTexts.length - 3;
    if (last >= 0 && this.noscriptTexts[last] === this.noscriptTagStart) this.noscriptTexts[last + 2] = end;
    else this.noscriptTexts.push(this.noscriptTagStart, start, end);
  }

  private currentBlock(): number {
    return this.openCount === 0 ? 0 : this.stack.innermostBlock[this.openCount - 1];
  }

  startTag(name: string, tagStart: number, nameEnd: number, tagEnd: number, selfClosing: boolean, foreign: boolean, namespace: number): void {
    const nameTag = tagId(name);
    const tag = foreign ? TAG_OTHER : nameTag;
    this.lastStartName = name;
    if (tag === TAG_SCRIPT) this.inJsonLd = !foreign && readAttribute(this.source, nameEnd, tagEnd, "type")?.trim().toLowerCase() === "application/ld+json";
    if (name === "noscript" && !foreign) this.noscriptTagStart = tagStart;
    if (!foreign) this.implyEnds(tag, tagStart);
    if (tag === TAG_HTML && this.lang === "") this.lang = (readAttribute(this.source, nameEnd, tagEnd, "lang") ?? "").trim();
    if (tag === TAG_BR) this.pendingSpace = true;
    if (tag === TAG_A && !foreign && namesComments(this.source, nameEnd, tagEnd)) this.commentAnchors.push(tagStart);
    if (tag === TAG_OTHER && name === "time" && !foreign) this.timeBlocks.push(this.currentBlock());
    if (tag === TAG_META && this.charsetDeclaration[0] < 0) this.charsetDeclaration = findCharsetLabel(this.source, nameEnd, tagEnd);
    if (this.ambiguity.watching || nameTag === TAG_SELECT || name === "frameset") this.ambiguity.startTag(name);
    if (foreign ? selfClosing : (TAG_FLAGS[tag] & FLAG_VOID) !== 0) {
      this.countMarkup(this.currentBlock(), name, nameTag);
      return;
    }
    this.push(name, nameTag, tag, foreign, tagStart, nameEnd, tagEnd);
    this.stack.rendering[this.openCount - 1] = this.renderingOf(name, tag, foreign ? namespace : 0);
    this.countMarkup(this.currentBlock(), name, nameTag);
  }

  /**
   * Whether text in a new element is rendered, as a browser renders it: not in <template> contents (inert),
   * svg <desc>/<title> or MathML annotations; in svg only inside <text>, <tspan>, <textPath> and
   * <foreignObject>; HTML content that broke out of svg or math is rendered again.
   */
  private renderingOf(name: string, tag: number, namespace: number): number {
    const parent = this.openCount >= 2 ? this.stack.rendering[this.openCount - 2] : RENDERS_CONTENT | RENDERS_TEXT;
    if ((parent & RENDERS_CONTENT) === 0) return 0;
    if (namespace === NAMESPACE_SVG) {
      if (name === "desc" || name === "title") return 0;
      if (SVG_TEXT_ELEMENTS.has(name)) return RENDERS_CONTENT | RENDERS_TEXT;
      const parentIsSvg = this.openCount >= 2 && this.stack.foreign[this.openCount - 2] === 1 && name !== "svg";
      return RENDERS_CONTENT | (parentIsSvg ? parent & RENDERS_TEXT : 0);
    }
    if (namespace === NAMESPACE_MATH) return name === "annotation" || name === "annotation-xml" ? 0 : RENDERS_CONTENT | RENDERS_TEXT;
    return tag === TAG_TEMPLATE ? 0 : RENDERS_CONTENT | RENDERS_TEXT;
  }

  /** Counts a start tag in the block that holds it (a block's own start tag counts in the block). */
  private countMarkup(block: number, name: string, nameTag: number): void {
    const row = block * MARKUP_COUNTERS;
    this.blockMarkup[row + MARKUP_TAGS]++;
    const kind = nameTag === TAG_OTHER ? MARKUP_KIND.get(name) : MARKUP_KIND_BY_ID[nameTag];
    if (kind !== undefined && kind !== 0) this.blockMarkup[row + kind]++;
  }

  private push(name: string, nameTag: number, tag: number, foreign: boolean, tagStart: number, nameEnd: number, tagEnd: number): void {
    const parentBlock = this.currentBlock();
    if (this.openCount === this.stack.tag.length) grow(this.stack);
    const index = this.openCount++;
    this.openNames[index] = name;
    if (nameTag !== TAG_OTHER) this.openNameCount[nameTag]++;
    else this.openOtherNameCount.set(name, (this.openOtherNameCount.get(name) ?? 0) + 1);
    this.stack.name[index] = nameTag;
    this.stack.tag[index] = tag;
    this.stack.foreign[index] = foreign ? 1 : 0;
    if (tag === TAG_A) this.linkOpen++;
    else if (tag === TAG_BUTTON) this.buttonOpen++;
    if ((TAG_FLAGS[tag] & FLAG_BLOCK) === 0) {
      this.stack.block[index] = -1;
      this.stack.innermostBlock[index] = parentBlock;
      return;
    }
    if (this.blockCount === this.blocks.parent.length) {
      grow(this.blocks);
      this.blockMarkup = doubled(this.blockMarkup);
    }
    const block = this.blockCount++;
    const blocks = this.blocks;
    this.blockBoundary = true;
    this.stack.block[index] = block;
    this.stack.innermostBlock[index] = block;
    blocks.parent[block] = parentBlock;
    blocks.tag[block] = tag;
    blocks.depth[block] = Math.min(index + 1, 0xffff);
    blocks.sourceStart[block] = tagStart;
    blocks.sourceNameEnd[block] = nameEnd;
    blocks.startTagEnd[block] = tagEnd;
    blocks.firstTextNode[block] = this.textNodeCount;
  }

  endTag(name: string, tagStart: number, tagEnd: number): void {
    if (this.ambiguity.watching) this.ambiguity.endTag(name);
    // An end tag with no open element of its name is ignored at once (no walk down a deep stack).
    const nameTag = tagId(name);
    const open = nameTag !== TAG_OTHER ? this.openNameCount[nameTag] > 0 : (this.openOtherNameCount.get(name) ?? 0) > 0;
    for (let index = open ? this.openCount - 1 : -1; index >= 0; index--) {
      if (this.stack.name[index] === nameTag && (nameTag !== TAG_OTHER || this.openNames[index] === name)) {
        this.closeAbove(index, tagStart);
        this.closeElement(index, tagEnd, CLOSED_BY_OWN_END_TAG);
        this.openCount = index;
        return;
      }
    }
    if (nameTag === TAG_BR) this.pendingSpace = true; // "</br>" is read as "<br>"
  }

  /** Closes the elements above `index`, ended by an ancestor's end tag starting at `offset`. */
  private closeAbove(index: number, offset: number): void {
    const top = this.openCount - 1;
    if (top === index) return;
    const sameName = new Map<string, number>(); // tag name → open elements of that name seen from the top down
    for (let above = top; above > index; above--) {
      const name = this.openNames[above];
      const repeat = (sameName.get(name) ?? 0) + 1;
      sameName.set(name, repeat);
      this.closeElement(above, offset, CLOSED_BY_ANCESTOR_END_TAG);
      const block = this.stack.block[above];
      if (block >= 0) this.blocks.closeRepeat[block] = Math.min(repeat, 0xffff);
    }
  }

  private closeElement(index: number, sourceEnd: number, kind: number): void {
    const nameTag = this.stack.name[index];
    if (nameTag !== TAG_OTHER) this.openNameCount[nameTag]--;
    else {
      const name = this.openNames[index];
      this.openOtherNameCount.set(name, (this.openOtherNameCount.get(name) ?? 1) - 1);
    }
    if (this.stack.foreign[index] === 0) {
      if (this.stack.tag[index] === TAG_A) this.linkOpen--;
      else if (this.stack.tag[index] === TAG_BUTTON) this.buttonOpen--;
    }
    const block = this.stack.block[index];
    if (block < 0) return;
    this.blockBoundary = true;
    this.blocks.sourceEnd[block] = sourceEnd;
    this.blocks.closeKind[block] = kind;
    this.blocks.endTextNode[block] = this.textNodeCount;
  }

  /** Closes the element at `index` (and those above it) at a start tag, recording the implied end tag. */
  private implyEnd(index: number, offset: number): void {
    if (this.impliedCount === this.implied.offset.length) grow(this.implied);
    this.implied.offset[this.impliedCount] = offset;
    this.implied.tag[this.impliedCount++] = this.stack.tag[index];
    for (let above = this.openCount - 1; above >= index; above--) this.closeElement(above, offset, CLOSED_BY_IMPLIED_END);
    this.openCount = index;
  }

  /** The HTML5 start-tag rules that close open elements. */
  private implyEnds(tag: number, offset: number): void {
    const flags = TAG_FLAGS[tag];
    if (tag === TAG_LI) this.closeListItem(offset, TAG_LI, TAG_LI);
    else if (tag === TAG_DD || tag === TAG_DT) this.closeListItem(offset, TAG_DD, TAG_DT);
    // No <p> open (most start tags): no search down the stack, which on nested lists would reach its floor each time.
    if ((flags & FLAG_CLOSES_P) !== 0 && this.openNameCount[TAG_P] > 0) {
      const paragraph = this.findOpen(TAG_P, TAG_P, FLAG_BUTTON_SCOPE);
      if (paragraph >= 0) this.implyEnd(paragraph, offset);
    }
    const top = this.openCount - 1;
    if ((flags & FLAG_HEADING) !== 0 && top >= 0 && (TAG_FLAGS[this.stack.tag[top]] & FLAG_HEADING) !== 0) this.implyEnd(top, offset);
    if (tag === TAG_TD || tag === TAG_TH) this.closeTablePart(offset, TAG_TD, TAG_TH, TAG_TD);
    else if (tag === TAG_TR) this.closeTablePart(offset, TAG_TR, TAG_TR, TAG_TD);
    else if (tag === TAG_TBODY || tag === TAG_THEAD || tag === TAG_TFOOT) this.closeTableSection(offset);
    else if (tag === TAG_OPTION || tag === TAG_OPTGROUP) this.closeOption(offset, tag);
    else if (tag === TAG_BODY) {
      const head = this.findOpen(TAG_HEAD, TAG_HEAD, 0);
      if (head >= 0) this.implyEnd(head, offset);
    }
  }

  /**
   * Lowest open element the implied-end searches look at: they stop IMPLIED_END_SEARCH_DEPTH elements
   * below the top, so that a hostile page (thousands of open elements, then thousands of block start
   * tags) stays linear. Pass 2 writes whatever pass 1 decided, so both passes still agree.
   */
  private searchFloor(): number {
    return Math.max(0, this.openCount - IMPLIED_END_SEARCH_DEPTH);
  }

  /** Nearest open element with tag `first` or `second`, not looking past an element with `boundary` flags. */
  private findOpen(first: number, second: number, boundary: number): number {
    for (let index = this.openCount - 1; index >= this.searchFloor(); index--) {
      const tag = this.stack.tag[index];
      if ((tag === first || tag === second) && this.stack.foreign[index] === 0) return index;
      if ((TAG_FLAGS[tag] & boundary) !== 0 || (boundary === FLAG_BUTTON_SCOPE && this.isForeignScopeBoundary(index))) return -1;
    }
    return -1;
  }

  /** svg and MathML integration points bound HTML5's "in scope" searches and are "special" (a <p> in foreignObject leaves the outer <p> open). */
  private isForeignScopeBoundary(index: number): boolean {
    return this.stack.foreign[index] === 1 && FOREIGN_SCOPE_NAMES.has(this.openNames[index]);
  }

  /** `<li>` closes an open `<li>` (and `<dd>`/`<dt>` one of those) unless a special element other than address, div or p is in between. */
  private closeListItem(offset: number, first: number, second: number): void {
    for (let index = this.openCount - 1; index >= this.searchFloor(); index--) {
      const tag = this.stack.tag[index];
      if ((tag === first || tag === second) && this.stack.foreign[index] === 0) {
        this.implyEnd(index, offset);
        return;
      }
      if ((TAG_FLAGS[tag] & FLAG_SPECIAL) !== 0 && tag !== TAG_P && tag !== TAG_DIV && tag !== TAG_ADDRESS) return;
      if (this.isForeignScopeBoundary(index)) return;
    }
  }

  /** A cell closes the open cell; a row the open row (or a cell outside a row): within the nearest table. */
  private closeTablePart(offset: number, first: number, second: number, fallback: number): void {
    const part = this.findOpen(first, second, FLAG_TABLE_SCOPE);
    if (part >= 0) {
      this.implyEnd(part, offset);
      return;
    }
    const cell = this.findOpen(fallback, TAG_TH, FLAG_TABLE_SCOPE);
    if (cell >= 0) this.implyEnd(cell, offset);
  }

  /** A table section closes the open section, or else the open row, within the nearest table. */
  private closeTableSection(offset: number): void {
    let section = this.findOpen(TAG_TBODY, TAG_THEAD, FLAG_TABLE_SCOPE);
    const footer = this.findOpen(TAG_TFOOT, TAG_TFOOT, FLAG_TABLE_SCOPE);
    section = Math.max(section, footer);
    if (section >= 0) this.implyEnd(section, offset);
    else this.closeTablePart(offset, TAG_TR, TAG_TR, TAG_TD);
  }

  private closeOption(offset: number, tag: number): void {
    let top = this.openCount - 1;
    if (top >= 0 && this.stack.tag[top] === TAG_OPTION) this.implyEnd(top--, offset);
    if (tag === TAG_OPTGROUP && top >= 0 && this.stack.tag[top] === TAG_OPTGROUP) this.implyEnd(top, offset);
  }

  text(start: number, end: number, kind: number): void {
    if (kind === TEXT_RAW && this.lastStartName === "noscript") this.noteNoscriptText(start, end);
    if (kind === TEXT_RAW && this.inJsonLd && this.lastStartName === "script") this.jsonLdScripts.push(start, end);
    if (end === this.source.length && (kind === TEXT_RAW || kind === TEXT_RCDATA) && RAW_TEXT_ELEMENTS.has(this.lastStartName)) {
      this.unclosedRawText = SWALLOWED_TAG.test(this.source.slice(start, end));
      if (this.unclosedRawText && this.lastStartName === "title") this.runawayTitleStart = start;
    }
    if (kind === TEXT_RCDATA) {
      const top = this.openCount - 1;
      if (!this.titleSeen && top >= 0 && this.stack.tag[top] === TAG_TITLE) {
        this.titleSeen = true;
        this.title = collapseText(this.source, start, end);
      }
      return;
    }
    const top = this.openCount - 1;
    if (top >= 0 && (this.stack.rendering[top] & RENDERS_TEXT) === 0) return;
    if (kind === TEXT_DATA) this.appendText(start, end, false);
    // CDATA in svg or math, and the raw text of <xmp> and <plaintext>, are rendered as written.
    else if (kind === TEXT_CDATA || (kind === TEXT_RAW && top >= 0 && (this.stack.tag[top] === TAG_XMP || this.stack.tag[top] === TAG_PLAINTEXT))) {
      this.appendText(start, end, true);
    }
  }

  /**
   * Appends one run of character data to the page text, white space collapsed. References are decoded
   * unless `raw` (CDATA, xmp, plaintext). U+0000 is dropped from data, as HTML5's tree builder drops it,
   * and read as U+FFFD in raw text, as its tokenizer reads it.
   */
  private appendText(start: number, end: number, raw: boolean): void {
    const source = this.source;
    const block = this.currentBlock();
    let nodeStart = -1; // page-text offset where this node's text starts; -1 until a visible character
    let sourceFirst = -1;
    let sourceLast = -1;
    let position = start;
    while (position < end) {
      const code = source.charCodeAt(position);
      if (isCollapsibleSpace(code) || (code === 0 && !raw)) {
        if (code !== 0) this.pendingSpace = true;
        position++;
        continue;
      }
      let piece: string | null = code === 0 ? "\ufffd" : null;
      let after = position + 1;
      if (code === 38 && !raw) {
        piece = decodeEntityAt(source, position, end);
        if (piece !== null) after = entityEnd();
        if (piece !== null && piece.length === 1 && isCollapsibleSpace(piece.charCodeAt(0))) {
          this.pendingSpace = true;
          position = after;
          continue;
        }
      }
      if (nodeStart < 0) {
        nodeStart = this.beginNode(block);
        sourceFirst = position;
      } else this.writeSpaceIfPending();
      if (piece !== null) {
        this.pageText += piece;
        this.textLength += piece.length;
        sourceLast = position = after;
        continue;
      }
      // A run of visible characters up to the next reference, U+0000 or white space other than one plain space
      // between visible characters (collapsing would write that space as it is), copied in one slice.
      const segment = position++;
      while (position < end) {
        const next = source.charCodeAt(position);
        // Most characters: above the ASCII spaces, not "&", not U+00A0 (a visible character, tested in three comparisons).
        if (next > 32 && next !== 38 && next !== 0xa0) {
          position++;
          continue;
        }
        if (next === 32 && position + 1 < end && isPlainVisible(source.charCodeAt(position + 1))) {
          position += 2;
          continue;
        }
        if (next === 38 || next === 0 || isCollapsibleSpace(next)) break;
        position++;
      }
      sourceLast = this.copySegment(segment, position);
    }
    if (nodeStart >= 0) this.addTextNode(block, nodeStart, sourceFirst, sourceLast, raw);
  }

  private copySegment(start: number, end: number): number {
    this.pageText += this.source.slice(start, end);
    this.textLength += end - start;
    return end;
  }

  /** Writes the separator before a new text node: "\n" between blocks, " " after white space; returns the node's start. */
  private beginNode(block: number): number {
    if (this.textLength > 0) {
      const separator = this.lastTextBlock !== block || this.blockBoundary ? "\n" : this.pendingSpace ? " " : "";
      this.pageText += separator;
      this.textLength += separator.length;
    }
    this.pendingSpace = false;
    this.blockBoundary = false;
    return this.textLength;
  }

  private writeSpaceIfPending(): void {
    if (!this.pendingSpace) return;
    this.pageText += " ";
    this.textLength++;
    this.pendingSpace = false;
  }

  private addTextNode(block: number, textStart: number, sourceStart: number, sourceEnd: number, raw: boolean): void {
    if (this.textNodeCount === this.nodes.block.length) grow(this.nodes);
    const node = this.textNodeCount++;
    const nodes = this.nodes;
    nodes.block[node] = block;
    nodes.textStart[node] = textStart;
    nodes.textEnd[node] = this.textLength;
    nodes.sourceStart[node] = sourceStart;
    nodes.sourceEnd[node] = sourceEnd;
    nodes.inLink[node] = this.linkOpen > 0 ? 1 : 0;
    nodes.inButton[node] = this.buttonOpen > 0 ? 1 : 0;
    nodes.raw[node] = raw ? 1 : 0;
    this.lastTextBlock = block;
  }

  finish(): PageModel {
    for (let index = this.openCount - 1; index >= 0; index--) this.closeElement(index, this.source.length, CLOSED_BY_END_OF_PAGE);
    this.openCount = 0;
    const text = this.pageText;
    const count = this.blockCount;
    this.blocks.sourceEnd[0] = this.source.length;
    this.blocks.closeKind[0] = CLOSED_BY_END_OF_PAGE;
    this.blocks.endTextNode[0] = this.textNodeCount;
    const { textStart, textEnd } = this.blockTextRanges(count);
    const nodes = this.textNodeCount;
    return {
      source: this.source, text, title: this.title, lang: this.lang,
      blockCount: count,
      blocks: blockTable(trimmed(this.blocks, count), textStart, textEnd, this.blockMarkup.subarray(0, count * MARKUP_COUNTERS)),
      textNodeCount: nodes,
      textNodes: trimmed(this.nodes, nodes),
      impliedEndCount: this.impliedCount,
      charsetDeclaration: this.charsetDeclaration,
      unclosedRawText: this.unclosedRawText,
      rewriterMayRefuse: this.ambiguity.found,
      ...(this.runawayTitleStart < 0 ? {} : { runawayTitleStart: this.runawayTitleStart }),
      ...(this.commentAnchors.length === 0 ? {} : { commentAnchors: this.commentAnchors }),
      ...(this.noscriptTexts.length === 0 ? {} : { noscriptTexts: this.noscriptTexts }),
      ...(this.jsonLdScripts.length === 0 ? {} : { jsonLdScripts: this.jsonLdScripts }),
      ...(this.timeBlocks.length === 0 ? {} : { timeBlocks: this.timeBlocks }),
      impliedEnds: trimmed(this.implied, this.impliedCount),
    };
  }

  /**
   * A block's text range runs from its first text node's start to its last one's end. An empty block gets
   * an empty range where its text would be: after the text before it, inside its parent's range.
   */
  private blockTextRanges(count: number): { textStart: Int32Array; textEnd: Int32Array } {
    const textStart = new Int32Array(count);
    const textEnd = new Int32Array(count);
    textEnd[0] = this.textLength;
    const { blocks, nodes } = this;
    for (let block = 0; block < count; block++) {
      const first = blocks.firstTextNode[block];
      const end = blocks.endTextNode[block];
      if (first < end) {
        textStart[block] = nodes.textStart[first];
        textEnd[block] = nodes.textEnd[end - 1];
        continue;
      }
      const parent = blocks.parent[block];
      const before = first > 0 ? nodes.textEnd[first - 1] : 0;
      const at = parent < 0 ? before : Math.min(Math.max(before, textStart[parent]), textEnd[parent]);
      textStart[block] = at;
      textEnd[block] = at;
    }
    return { textStart, textEnd };
  }
}

/** Range of the charset label in a <meta> start tag's attributes, or [-1, -1]. */
function findCharsetLabel(source: string, from: number, to: number): readonly [number, number] {
  const direct = findAttribute(source, from, to, "charset");
  if (direct !== null) {
    const value = source.slice(direct[0], direct[1]);
    const start = direct[0] + (value.length - value.trimStart().length);
    return [start, start + value.trim().length];
  }
  const content = findAttribute(source, from, to, "content");
  if (content === null || findAttribute(source, from, to, "http-equiv") === null) return [-1, -1];
  const match = CHARSET_PARAMETER.exec(source.slice(content[0], content[1]));
  if (match === null) return [-1, -1];
  const start = content[0] + match.index + match[0].length - match[1].length;
  return [start, start + match[1].length];
}

/**
 * A link whose name or id names reader comments (`<a name="comments">`, `<a id="respond">`): the fragment target of
 * the page's "12 comments" links. Sticky at the end of the tag name, so it reads that tag's attributes only (up to
 * its first ">"; a quoted ">" before the name only makes it miss).
 */
const COMMENT_ANCHOR = /[^>]*?(?<![\w-])(?:name|id)\s*=\s*["']?(?:comments?|respond|discussion|reader-?comments)(?=["'\s/>])/iy;

function namesComments(source: string, nameEnd: number, tagEnd: number): boolean {
  if (!mayNameComments(source, nameEnd, tagEnd)) return false;
  COMMENT_ANCHOR.lastIndex = nameEnd;
  return COMMENT_ANCHOR.test(source) && COMMENT_ANCHOR.lastIndex <= tagEnd;
}

/**
 * A cheap test that COMMENT_ANCHOR cannot match, so that the regex runs on few links: its match needs, before the tag's
 * end, a name ending in e or d ("name", "id"), white space at most, "=", then white space and a quote at most, then a
 * value starting with c, r or d (any case). A non-ASCII character where those are looked for (\s takes Unicode
 * spaces) lets the regex decide.
 */
function mayNameComments(source: string, nameEnd: number, tagEnd: number): boolean {
  for (let equals = source.indexOf("=", nameEnd); equals >= 0 && equals < tagEnd; equals = source.indexOf("=", equals + 1)) {
    let i = equals - 1;
    let code = source.charCodeAt(i);
    while (code === 32 || (code >= 9 && code <= 13)) code = source.charCodeAt(--i);
    let lower = code | 0x20;
    if (lower !== 101 && lower !== 100 && code < 0x80) continue;
    i = equals + 1;
    code = source.charCodeAt(i);
    while (code === 32 || (code >= 9 && code <= 13)) code = source.charCodeAt(++i);
    if (code === 34 || code === 39) code = source.charCodeAt(++i);
    lower = code | 0x20;
    if (lower === 99 || lower === 114 || lower === 100 || code >= 0x80) return true;
  }
  return false;
}

/** Title-style text: entities decoded, white space collapsed and trimmed. */
function collapseText(source: string, start: number, end: number): string {
  let result = "";
  let pending = false;
  for (let position = start; position < end; position++) {
    const code = source.charCodeAt(position);
    let piece = code === 0 ? "\ufffd" : source[position]; // RCDATA reads U+0000 as U+FFFD
    if (code === 38) {
      const decoded = decodeEntityAt(source, position, end);
      if (decoded !== null) {
        piece = decoded;
        position = entityEnd() - 1;
      }
    }
    if (piece.length === 1 && isCollapsibleSpace(piece.charCodeAt(0))) {
      pending = result.length > 0;
      continue;
    }
    result += (pending ? " " : "") + piece;
    pending = false;
  }
  return result;
}
