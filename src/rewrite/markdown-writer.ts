import { MARKDOWN_MAX_NESTING } from "../config";
import { decodeEntities, readAttribute, type PageModel } from "../page";
import type { NormalisedPlan } from "../plan";
import { hasNewline, RemovedTextCursor, topRemovedRanges, type PieceSink } from "./text-removal";
import { closedDepth, impliedEndDepth, NestingCap, scanMarkupSlices, type MarkupHandler } from "./markdown-scan";
import { finishSlices, type Slices } from "../slices";
import { ReferenceResolver } from "./url-reference";
import type { WorkMeter } from "../work-meter";

/**
 * Markdown of the kept part of a page: headings, paragraphs, lists (nested), links, images, emphasis,
 * code and pre, blockquotes and tables. One pass over the source: tags come from a small scanner, text
 * from the page model's text nodes (decoded and white space collapsed by pass 1), removed blocks are
 * jumped over by their source range, removed text is cut from the text nodes.
 */
export interface MarkdownOptions {
  /** The page's URL: relative links and image sources are made absolute against it. */
  readonly baseUrl?: string;
  /** Most elements the writer acts on open at once; deeper ones are written as their text alone (config MARKDOWN_MAX_NESTING). */
  readonly maxNesting?: number;
  /** The page's work meter: the walk stops once its budget is spent (the caller checks it). */
  readonly work?: WorkMeter;
}

export function writeMarkdown(page: PageModel, plan: NormalisedPlan, options: MarkdownOptions = {}): string {
  return finishSlices(writeMarkdownSlices(page, plan, options));
}

/** writeMarkdown in slices of its walk (slices.ts). */
export function* writeMarkdownSlices(page: PageModel, plan: NormalisedPlan, options: MarkdownOptions = {}): Slices<string> {
  const writer = new MarkdownBuilder(page, plan, options.baseUrl, options.maxNesting ?? MARKDOWN_MAX_NESTING);
  yield* scanMarkupSlices(page, topRemovedRanges(page, plan), writer, options.work);
  return writer.finish();
}

/** Break levels between pieces of output: none, a line break, a paragraph break (blank line). */
const NO_BREAK = 0;
const LINE_BREAK = 1;
const PARAGRAPH_BREAK = 2;

const HEADING_LEVEL: Readonly<Record<string, number>> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };
/** Elements that stand as paragraphs of their own (block breaks around them). */
const PARAGRAPH_ELEMENTS = new Set([
  "p", "div", "section", "article", "main", "header", "footer", "nav", "aside", "figure", "figcaption", "dl", "dt",
  "dd", "form", "fieldset", "address", "center", "details", "summary", "hgroup", "caption",
]);
const EMPHASIS_MARKER: Readonly<Record<string, string>> = { em: "*", i: "*", strong: "**", b: "**", code: "`", kbd: "`", samp: "`", tt: "`" };
/** Elements written as code spans: their text goes as it is, without escapes, between backtick fences. */
const CODE_NAMES = new Set(["code", "kbd", "samp", "tt"]);
/** Elements that start or end a block of Markdown (a page-text newline next to them adds nothing). */
const BLOCK_NAMES = new Set([
  ...PARAGRAPH_ELEMENTS, "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "blockquote", "pre", "table", "tr", "td", "th", "hr", "br",
]);

/** Every element the writer acts on; the others (most tags of a page) are passed over at once. */
const HANDLED_NAMES = new Set([...BLOCK_NAMES, "a", "img", ...Object.keys(EMPHASIS_MARKER)]);
/** Handled elements that stay open until their end (the rest, img, br and hr, are written at their start tag). */
const OPENED_NAMES = new Set([...HANDLED_NAMES].filter((name) => name !== "img" && name !== "br" && name !== "hr"));

/** One table being written: finished rows of cells, the row being filled, and whether it is for layout. */
interface TableState {
  readonly rows: string[][];
  row: string[] | null;
  /** Out index where the current cell's content starts, -1 outside a cell. */
  cellStart: number;
  headerRow: boolean;
  layout: boolean;
}

class MarkdownBuilder implements MarkupHandler, PieceSink {
  private readonly out: string[] = [];
  /** Open elements we act on, innermost last, and for each: out index of its opening placeholder (-1 if none) and its link target. */
  private readonly openNames: string[] = [];
  private readonly openMarks: number[] = [];
  private readonly openTargets: string[] = [];
  /** Continuation prefixes of blockquotes ("> ") and list items (indent), outermost first. */
  private readonly prefixes: string[] = [];
  /** Lists being written: next number (ordered) or -1 (bulleted). */
  private readonly listCounters: number[] = [];
  private readonly tables: TableState[] = [];
  private pendingBreak = NO_BREAK;
  /** Out index of the first opening placeholder written since the last text, -1 if none (a space goes before it). */
  private firstOpenSinceText = -1;
  private lastTextEnd = -1;
  /** Whether a block element opened or closed since the last text (then page-text newlines say nothing more). */
  private blockSinceText = false;
  private atLineStart = true;
  private preDepth = 0;
  /** Open code span elements (code, kbd, samp, tt): only the outermost writes fences. */
  private codeDepth = 0;
  /** A <br> asked for the pending line break: a hard break when text follows on the same block. */
  private hardBreak = false;
  /** Out index of the last opening fence written ("```" and the line prefix), -1 before any. */
  private fenceIndex = -1;
  private readonly removed: Uint8Array;
  private readonly cursor: RemovedTextCursor;
  private readonly cap: NestingCap;
  private readonly references: ReferenceResolver;

  constructor(
    private readonly page: PageModel,
    plan: NormalisedPlan,
    baseUrl: string | undefined,
    maxNesting: number,
  ) {
    this.references = new ReferenceResolver(baseUrl);
    this.removed = plan.removedWithAncestor;
    this.cursor = new RemovedTextCursor(plan.removedText);
    this.cap = new NestingCap(maxNesting);
  }

  textNode(node: number): void {
    const nodes = this.page.textNodes;
    if (this.preDepth > 0 || this.removed[nodes.block[node]] === 1) return;
    this.cursor.keptPieces(nodes.textStart[node], nodes.textEnd[node], this);
  }

  /** A kept piece of a text node, [from, to) in page text. */
  piece(from: number, to: number): void {
    const text = this.page.text.slice(from, to);
    this.writeText(this.codeDepth > 0 ? text : escapeMarkdown(text), from, to);
  }

  /** Inside <pre> the source text is taken as it is (the page text has its white space collapsed). */
  rawText(start: number, end: number): void {
    if (this.preDepth === 0) return;
    let text = decodeEntities(this.page.source, start, end);
    // HTML drops a newline right after <pre>; so does the fenced block.
    if (this.fenceIndex === this.out.length - 1) text = text.replace(/^\r?\n/, "");
    this.writeText(text, -1, -1);
  }

  startTag(name: string, nameEnd: number, tagEnd: number): void {
    if (!HANDLED_NAMES.has(name)) return; // span, font, input…: nothing to write for them
    if (BLOCK_NAMES.has(name)) this.blockSinceText = true;
    this.closeImplied(name);
    if (OPENED_NAMES.has(name) && this.cap.passesOver(name, this.openNames.length)) {
      // A block passed over still parts its text from the text before it.
      if (BLOCK_NAMES.has(name)) this.requestBreak(PARAGRAPH_BREAK);
      return;
    }
    if (name in HEADING_LEVEL) this.openHeading(name);
    else if (PARAGRAPH_ELEMENTS.has(name)) this.openBlock(name);
    else if (name === "ul" || name === "ol") this.openList(name, this.attribute(nameEnd, tagEnd, "start"));
    else if (name === "li") this.openListItem();
    else if (name === "blockquote") this.openQuote();
    else if (name === "pre") this.openPre();
    else if (name === "a") this.openLink(this.attribute(nameEnd, tagEnd, "href"), this.attribute(nameEnd, tagEnd, "title"));
    else if (name === "code" && this.preDepth > 0) this.labelFence(this.attribute(nameEnd, tagEnd, "class"));
    else if (name in EMPHASIS_MARKER) this.openEmphasis(name);
    else if (name === "img") this.writeImage(nameEnd, tagEnd);
    else if (name === "br") this.writeLineBreak();
    else if (name === "hr") this.writeRule();
    else if (name === "table") this.openTable();
    else if (name === "tr") this.openRow();
    else if (name === "td" || name === "th") this.openCell(name);
  }

  private attribute(nameEnd: number, tagEnd: number, name: string): string | null {
    return readAttribute(this.page.source, nameEnd, tagEnd, name);
  }

  endTag(name: string): void {
    if (this.cap.endsPassedOver(name)) return;
    const depth = closedDepth(this.openNames, name);
    if (depth < 0) return; // an end tag with no open element we act on: ignore it
    if (BLOCK_NAMES.has(name)) this.blockSinceText = true;
    while (this.openNames.length > depth) this.closeTop();
  }

  finish(): string {
    while (this.openNames.length > 0) this.closeTop();
    return trimLineEnds(this.out.join("")).replace(/\n{3,}/g, "\n\n").trim();
  }

  // ── writing ─────────────────────────────────────────────────────────────────────────────────────

  /** Writes text; [textStart, textEnd) is its range in page text (-1 for raw <pre> text). */
  private writeText(text: string, textStart: number, textEnd: number): void {
    if (text === "") return;
    if (this.lastTextEnd >= 0 && textStart >= 0) this.separateFromLastText(textStart);
    this.spillStrayTable();
    this.flushBreak(true);
    const atLineStart = this.atLineStart;
    const piece = this.preDepth > 0 ? this.indentPre(text) : atLineStart && this.codeDepth === 0 ? escapeLineStart(text) : text;
    this.out.push(piece);
    this.atLineStart = false;
    this.firstOpenSinceText = -1;
    this.blockSinceText = false;
    if (textEnd >= 0) this.lastTextEnd = textEnd;
  }

  /** A block boundary in page text between two text nodes asks for a paragraph; white space for a space. */
  private separateFromLastText(textStart: number): void {
    // After a block element's start or end, breaks and list markers already separate the texts.
    if (textStart <= this.lastTextEnd || this.blockSinceText) return;
    if (hasNewline(this.page.text, this.lastTextEnd, textStart) && !this.inHeading()) {
      this.requestBreak(PARAGRAPH_BREAK);
      return;
    }
    if (this.pendingBreak !== NO_BREAK || this.atLineStart) return;
    // The space goes before markers opened since the last text ("a [link]", not "a[ link]").
    if (this.firstOpenSinceText >= 0) this.out[this.firstOpenSinceText] = ` ${this.out[this.firstOpenSinceText]}`;
    else this.out.push(" ");
  }

  private requestBreak(level: number): void {
    if (level > this.pendingBreak) {
      this.pendingBreak = level;
      this.hardBreak = false;
    }
  }

  /**
   * Writes the pending break, with the prefixes of open quotes and list items, if anything came before.
   * `inline`: what follows is text of the same block, so a <br>'s break is a hard one ("\" at the line end;
   * before a block it would be a literal backslash, and trailing spaces are trimmed).
   */
  private flushBreak(inline = false): void {
    const level = this.pendingBreak;
    const hard = this.hardBreak && inline && level === LINE_BREAK;
    this.pendingBreak = NO_BREAK;
    this.hardBreak = false;
    // Nothing written yet, or already at the start of a fresh line: no break to write.
    if (level === NO_BREAK || this.out.length === 0 || this.atLineStart || this.currentCellEmpty()) return;
    const prefix = this.prefixes.join("");
    this.out.push(level === PARAGRAPH_BREAK ? `\n${prefix.trimEnd()}\n${prefix}` : `${hard ? "\\" : ""}\n${prefix}`);
    this.atLineStart = true;
  }

  /** An empty placeholder for an opening marker, filled when the element closes with content. */
  private placeholder(): number {
    this.flushBreak(true);
    const index = this.out.length;
    this.out.push("");
    if (this.firstOpenSinceText < 0) this.firstOpenSinceText = index;
    return index;
  }

  private push(name: string, mark = -1, target = ""): void {
    this.openNames.push(name);
    this.openMarks.push(mark);
    this.openTargets.push(target);
  }

  private closeImplied(name: string): void {
    const depth = impliedEndDepth(this.openNames, name);
    while (this.openNames.length > depth) this.closeTop();
  }

  private closeTop(): void {
    const name = this.openNames.pop() as string;
    const mark = this.openMarks.pop() as number;
    const target = this.openTargets.pop() as string;
    if (name in HEADING_LEVEL) this.closeHeading(name, mark);
    else if (PARAGRAPH_ELEMENTS.has(name)) this.requestBreak(PARAGRAPH_BREAK);
    else if (name === "ul" || name === "ol") this.closeList();
    else if (name === "li") this.closeListItem(mark);
    else if (name === "blockquote") this.closeQuote();
    else if (name === "pre") this.closePre();
    else if (name === "a") this.closeLink(mark, target);
    else if (name in EMPHASIS_MARKER) this.closeEmphasis(name, mark);
    else if (name === "table") this.closeTable();
    else if (name === "tr") this.closeRow();
    else if (name === "td" || name === "th") this.closeCell();
  }

  // ── blocks ──────────────────────────────────────────────────────────────────────────────────────

  private openBlock(name: string): void {
    this.requestBreak(PARAGRAPH_BREAK);
    this.push(name);
  }

  private openHeading(name: string): void {
    this.requestBreak(this.inCell() ? NO_BREAK : PARAGRAPH_BREAK);
    this.push(name, this.placeholder());
  }

  private closeHeading(name: string, mark: number): void {
    if (!this.inCell() && this.hasTextAfter(mark)) this.out[mark] = `${"#".repeat(HEADING_LEVEL[name])} `;
    this.requestBreak(this.inCell() ? NO_BREAK : PARAGRAPH_BREAK);
  }

  private openList(name: string, startAttribute: string | null): void {
    const start = name === "ol" ? Number.parseInt(startAttribute ?? "1", 10) : -1;
    this.requestBreak(this.listCounters.length > 0 ? LINE_BREAK : PARAGRAPH_BREAK);
    this.listCounters.push(name === "ol" ? (Number.isFinite(start) ? start : 1) : -1);
    this.push(name);
  }

  private closeList(): void {
    this.listCounters.pop();
    this.requestBreak(this.listCounters.length > 0 ? LINE_BREAK : PARAGRAPH_BREAK);
  }

  private openListItem(): void {
    const depth = this.listCounters.length - 1;
    const counter = depth >= 0 ? this.listCounters[depth] : -1;
    const marker = counter < 0 ? "- " : `${counter}. `;
    if (depth >= 0 && counter >= 0) this.listCounters[depth] = counter + 1;
    this.requestBreak(LINE_BREAK);
    this.flushBreak();
    this.out.push(marker);
    this.atLineStart = true; // what follows the marker starts the item's first line
    this.push("li", this.out.length - 1);
    this.prefixes.push(" ".repeat(marker.length));
  }

  /** An item that wrote nothing after its marker (all its content removed) leaves no empty bullet. */
  private closeListItem(marker: number): void {
    this.prefixes.pop();
    if (marker >= 0 && marker < this.out.length && !this.hasTextAfter(marker)) {
      this.out.length = marker;
      if (this.firstOpenSinceText >= marker) this.firstOpenSinceText = -1;
      this.atLineStart = true;
    }
    this.requestBreak(LINE_BREAK);
  }

  private openQuote(): void {
    this.requestBreak(PARAGRAPH_BREAK);
    this.flushBreak();
    this.prefixes.push("> ");
    this.out.push("> "); // the current line is the quote's first
    this.atLineStart = true;
    this.push("blockquote");
  }

  private closeQuote(): void {
    this.prefixes.pop();
    this.requestBreak(PARAGRAPH_BREAK);
  }

  private openPre(): void {
    if (this.preDepth > 0) {
      // A <pre> inside a <pre> is more of the same block.
      this.preDepth++;
      this.push("pre");
      return;
    }
    this.requestBreak(PARAGRAPH_BREAK);
    this.flushBreak();
    this.out.push(`\`\`\`\n${this.prefixes.join("")}`);
    this.fenceIndex = this.out.length - 1;
    this.atLineStart = true;
    this.preDepth++;
    this.push("pre");
  }

  /** `<pre><code class="language-js">`: the fence says the language, as Markdown renderers expect. */
  private labelFence(className: string | null): void {
    const language = className === null ? null : /(?:^|\s)(?:language|lang)-([\w+#.-]+)/.exec(className)?.[1];
    if (language === undefined || language === null || this.fenceIndex !== this.out.length - 1) return;
    this.out[this.fenceIndex] = this.out[this.fenceIndex].replace("```", `\`\`\`${language}`);
  }

  private closePre(): void {
    this.preDepth--;
    if (this.preDepth > 0) return;
    const fenceIndex = this.fenceIndex;
    // An empty <pre> writes nothing (an empty fenced block would show as an empty box).
    if (!this.hasTextAfter(fenceIndex)) {
      this.out.length = fenceIndex;
      this.atLineStart = true;
      this.requestBreak(PARAGRAPH_BREAK);
      return;
    }
    // A newline that ends the block's text is the closing fence's own.
    const last = this.out.length - 1;
    if (last > fenceIndex && this.out[last].endsWith("\n")) this.out[last] = this.out[last].replace(/\r?\n$/, "");
    // The fence is longer than any backtick run in the code, so that a line of ``` inside does not close it.
    const fence = "`".repeat(Math.max(3, longestRun(this.out.slice(fenceIndex + 1).join(""), 96) + 1));
    this.out[fenceIndex] = fence + this.out[fenceIndex].slice(3);
    const prefix = this.prefixes.join("");
    this.out.push(`\n${prefix}${fence}`);
    this.atLineStart = false;
    this.requestBreak(PARAGRAPH_BREAK);
  }

  private indentPre(text: string): string {
    const prefix = this.prefixes.join("");
    return prefix === "" ? text : text.replace(/\n/g, `\n${prefix}`);
  }

  /** <br>: a hard line break, or a space inside a table cell, a heading or a code span (each is one line). */
  private writeLineBreak(): void {
    if (!this.inCell() && this.codeDepth === 0 && !this.inHeading()) {
      this.requestBreak(LINE_BREAK);
      if (this.pendingBreak === LINE_BREAK) this.hardBreak = true;
      return;
    }
    if (!this.atLineStart) this.out.push(" ");
  }

  private writeRule(): void {
    this.requestBreak(PARAGRAPH_BREAK);
    this.flushBreak();
    this.out.push("---");
    this.atLineStart = false;
    this.requestBreak(PARAGRAPH_BREAK);
  }

  // ── inline ──────────────────────────────────────────────────────────────────────────────────────

  private openLink(href: string | null, title: string | null): void {
    const reference = href === null ? "" : href.trim();
    const destination = reference === "" || reference.startsWith("#") ? null : this.destination(reference);
    this.push("a", this.placeholder(), destination !== null ? `${linkDestination(destination)}${linkTitle(title)}` : "");
  }

  /** A link's text in brackets and its destination (with its title); inside code or pre its text alone (no Markdown there). */
  private closeLink(mark: number, target: string): void {
    if (target === "" || this.preDepth > 0 || this.codeDepth > 0 || !this.hasTextAfter(mark)) return;
    this.out[mark] += "[";
    this.out.push(`](${target})`);
  }

  private openEmphasis(name: string): void {
    this.push(name, this.placeholder());
    if (CODE_NAMES.has(name)) this.codeDepth++;
  }

  private closeEmphasis(name: string, mark: number): void {
    if (CODE_NAMES.has(name)) return this.closeCode(mark);
    const marker = EMPHASIS_MARKER[name];
    // Bold inside bold is bold: an element inside one with the same marker adds none ("****x****" is no emphasis at all).
    if (this.preDepth > 0 || this.codeDepth > 0 || !this.hasTextAfter(mark) || this.openNames.some((open) => EMPHASIS_MARKER[open] === marker)) return;
    this.out[mark] += marker;
    this.out.push(marker);
  }

  /**
   * A code span: fenced by the shortest backtick run that its text does not hold (CommonMark ends a span at
   * a run of the same length), with a space inside each fence when the text starts or ends with a backtick.
   */
  private closeCode(mark: number): void {
    this.codeDepth--;
    if (this.preDepth > 0 || this.codeDepth > 0 || !this.hasTextAfter(mark)) return;
    const content = this.out.slice(mark + 1).join("");
    const fence = "`".repeat(shortestAbsentRun(content, 96));
    const pad = /^`|`$/.test(content) || (/^ .*\S.* $/.test(content)) ? " " : "";
    this.out[mark] += fence + pad;
    this.out.push(pad + fence);
  }

  /**
   * An image, unless it is a tracking pixel (1 × 1) or inline data. White space around its tag in the
   * source becomes a space around it (text nodes hold no white space at their edges).
   */
  private writeImage(nameEnd: number, tagEnd: number): void {
    const source = this.attribute(nameEnd, tagEnd, "src")?.trim() ?? "";
    if (source === "" || this.attribute(nameEnd, tagEnd, "width") === "1" || this.attribute(nameEnd, tagEnd, "height") === "1") return;
    const destination = this.destination(source);
    if (destination === null) return;
    if (this.codeDepth > 0) return; // a code span holds text only
    this.spillStrayTable();
    this.flushBreak(true);
    const text = escapeMarkdown((this.attribute(nameEnd, tagEnd, "alt") ?? "").replace(/\s+/g, " ").trim());
    const tagStart = nameEnd - 4; // "<img"
    if (!this.atLineStart && /\s/.test(this.page.source.charAt(tagStart - 1))) this.out.push(" ");
    this.out.push(`![${text}](${linkDestination(destination)}${linkTitle(this.attribute(nameEnd, tagEnd, "title"))})`);
    if (/\s/.test(this.page.source.charAt(tagEnd))) this.out.push(" ");
    this.atLineStart = false;
    this.firstOpenSinceText = -1;
  }

  private hasTextAfter(mark: number): boolean {
    for (let index = mark + 1; index < this.out.length; index++) if (/\S/.test(this.out[index])) return true;
    return false;
  }

  /**
   * A link's or image's destination: made absolute against the page when it has a URL (as written when it has none),
   * or null when the URL parser reads it as an active scheme (ACTIVE_SCHEMES), however it is spelled ("jav&#x09;ascript:",
   * " JaVaScript:"). One the parser does not resolve (relative without a base, or malformed) stays as written: the
   * parser, a browser's alike, reads no scheme in it.
   */
  private destination(reference: string): string | null {
    const resolved = this.references.resolve(reference);
    if (resolved === null) return reference;
    return ACTIVE_SCHEMES.has(resolved.protocol) ? null : this.references.hasBase ? resolved.href : reference;
  }

  // ── tables ──────────────────────────────────────────────────────────────────────────────────────

  private inCell(): boolean {
    const table = this.tables[this.tables.length - 1];
    return table !== undefined && table.cellStart >= 0;
  }

  private inHeading(): boolean {
    for (let depth = this.openNames.length - 1; depth >= 0; depth--) if (this.openNames[depth] in HEADING_LEVEL) return true;
    return false;
  }

  private currentCellEmpty(): boolean {
    const table = this.tables[this.tables.length - 1];
    return table !== undefined && table.cellStart >= 0 && table.cellStart === this.out.length;
  }

  /**
   * Content inside a table but outside its cells (malformed pages: a table or text between rows) comes
   * out where it stands: the rows held so far are written first, as layout, so nothing changes order.
   */
  private spillStrayTable(): void {
    const table = this.tables[this.tables.length - 1];
    if (table === undefined || table.cellStart >= 0) return;
    table.layout = true;
    const rows = table.row !== null && table.row.length > 0 ? [...table.rows, table.row] : table.rows;
    if (rows.length === 0) return;
    this.requestBreak(PARAGRAPH_BREAK);
    this.flushBreak();
    const text = layoutTable(rows, this.prefixes.join(""));
    if (text !== "") this.out.push(text);
    this.atLineStart = false;
    this.requestBreak(PARAGRAPH_BREAK);
    table.rows.length = 0;
    if (table.row !== null) table.row = [];
  }

  private openTable(): void {
    this.spillStrayTable();
    const outer = this.tables[this.tables.length - 1];
    if (outer !== undefined) outer.layout = true; // a table inside a table is layout, not data
    this.requestBreak(PARAGRAPH_BREAK);
    this.flushBreak();
    this.tables.push({ rows: [], row: null, cellStart: -1, headerRow: false, layout: false });
    this.push("table");
  }

  private openRow(): void {
    const table = this.tables[this.tables.length - 1];
    // A row or cell outside any table (its table removed, or ended by a stray end tag) is a paragraph, as its text is.
    if (table === undefined) return this.requestBreak(PARAGRAPH_BREAK);
    // Cells outside any row (after a stray </tr>) make a row of their own, as a browser's implied <tr> does.
    if (table.row !== null && table.row.length > 0) table.rows.push(table.row);
    table.row = [];
    this.push("tr");
  }

  private openCell(name: string): void {
    const table = this.tables[this.tables.length - 1];
    if (table === undefined) return this.requestBreak(PARAGRAPH_BREAK);
    if (table.row === null) table.row = [];
    if (name === "th" && table.rows.length === 0) table.headerRow = true;
    this.pendingBreak = NO_BREAK;
    table.cellStart = this.out.length;
    this.atLineStart = true;
    this.push(name);
  }

  private closeCell(): void {
    const table = this.tables[this.tables.length - 1];
    if (table === undefined || table.cellStart < 0) return;
    const content = this.out.splice(table.cellStart).join("").trim();
    if (/\n\s*\n/.test(content) || /^(?:[-*] |\d+\. |#|```)/m.test(content)) table.layout = true;
    (table.row ??= []).push(content);
    table.cellStart = -1;
    this.pendingBreak = NO_BREAK;
  }

  private closeRow(): void {
    const table = this.tables[this.tables.length - 1];
    if (table === undefined || table.row === null) return;
    if (table.row.length > 0) table.rows.push(table.row);
    table.row = null;
  }

  private closeTable(): void {
    const table = this.tables.pop();
    if (table === undefined) return;
    if (table.row !== null && table.row.length > 0) table.rows.push(table.row);
    const cells = table.rows.reduce((count, row) => Math.max(count, row.length), 0);
    const hasText = table.rows.some((row) => row.some((cell) => cell !== ""));
    if (!hasText) return this.requestBreak(PARAGRAPH_BREAK);
    this.requestBreak(PARAGRAPH_BREAK);
    this.flushBreak();
    const prefix = this.prefixes.join("");
    if (table.layout || cells < 2 || table.rows.length < 2) this.out.push(layoutTable(table.rows, prefix));
    else this.out.push(dataTable(table.rows, cells, prefix));
    this.atLineStart = false;
    this.requestBreak(PARAGRAPH_BREAK);
  }
}

/** A data table as a pipe table: the first row is the header (Markdown needs one). */
function dataTable(rows: readonly string[][], cells: number, prefix: string): string {
  const line = (row: readonly string[]): string => {
    const padded = Array.from({ length: cells }, (_, index) => (row[index] ?? "").replace(/\s*\n\s*/g, " ").replace(/\|/g, "\\|"));
    return `| ${padded.join(" | ")} |`;
  };
  const lines = [line(rows[0]), `|${" --- |".repeat(cells)}`, ...rows.slice(1).map(line)];
  return lines.join(`\n${prefix}`);
}

/** A layout table: each non-empty cell becomes a paragraph. */
function layoutTable(rows: readonly string[][], prefix: string): string {
  const paragraphs = rows.flat().filter((cell) => cell !== "");
  return paragraphs.join(`\n${prefix.trimEnd()}\n${prefix}`);
}

/** Schemes whose URL runs script or holds a document of its own: a link or image to one is left out (text stays). */
const ACTIVE_SCHEMES: ReadonlySet<string> = new Set(["javascript:", "vbscript:", "data:"]);

const MARKDOWN_SYNTAX = /[\\`*[\]<_]|!$/;

/** Escapes Markdown syntax in text; a "!" ending a piece is escaped too, since a link may follow ("![" is an image). */
export function escapeMarkdown(text: string): string {
  if (!MARKDOWN_SYNTAX.test(text)) return text;
  // An underscore between two letters or digits never starts or ends emphasis (snake_case stays as written).
  return text.replace(/[\\`*[\]<]|!$/g, "\\$&").replace(/(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, "\\_");
}

/** Text at the start of a line that Markdown would read as a heading, quote, list item or rule. */
export function escapeLineStart(text: string): string {
  return text.replace(/^(\s*)(#{1,6}(?=\s|$)|>|[-+](?=\s|$)|\d+(?=[.)](?:\s|$))|=+\s*$)/, (_, space: string, marker: string) =>
    /^\d/.test(marker) ? `${space}${marker}\\` : `${space}\\${marker}`);
}

/** Spaces and tabs at line ends removed, in one pass (/[ \t]+\n/ retries every space of a long run: quadratic). */
function trimLineEnds(text: string): string {
  const lines = text.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    let end = line.length;
    while (end > 0 && (line.charCodeAt(end - 1) === 32 || line.charCodeAt(end - 1) === 9)) end--;
    if (end < line.length) lines[index] = line.slice(0, end);
  }
  return lines.join("\n");
}

/** Lengths of the runs of `character` (a char code) in a text: the shortest run length from 1 that does not occur. */
function shortestAbsentRun(text: string, character: number): number {
  const lengths = new Set<number>();
  let run = 0;
  for (let index = 0; index <= text.length; index++) {
    if (index < text.length && text.charCodeAt(index) === character) run++;
    else if (run > 0) {
      lengths.add(run);
      run = 0;
    }
  }
  let length = 1;
  while (lengths.has(length)) length++;
  return length;
}

/** The longest run of `character` (a char code) in a text. */
function longestRun(text: string, character: number): number {
  let longest = 0;
  let run = 0;
  for (let index = 0; index < text.length; index++) {
    run = text.charCodeAt(index) === character ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return longest;
}

/** A link's or image's title as Markdown writes it after the destination: quoted, white space collapsed, `"` and `\` escaped. */
function linkTitle(title: string | null): string {
  const text = title === null ? "" : title.replace(/\s+/g, " ").trim();
  return text === "" ? "" : ` "${text.replace(/["\\]/g, "\\$&")}"`;
}

function linkDestination(url: string): string {
  return /[\s()<>]/.test(url) ? `<${url.replace(/[<>]/g, encodeURIComponent)}>` : url;
}
