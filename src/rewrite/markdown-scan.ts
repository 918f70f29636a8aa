/**
 * The walk under the Markdown and article writers: pass 1's walk heard again (or the scanner over the source
 * once more), reporting start and end tags, the page model's text nodes where they fall, and raw character data
 * (for <pre>). Removed blocks are passed over by their source ranges; svg and math content, scripts, styles and
 * titles are not reported (the scanner marks them foreign or as raw text). Also what both writers read the same
 * way: the nesting cap, and HTML's implied and stray end tags.
 */
import { TEXT_DATA, walkPageSlices, type PageModel, type ScanHandler } from "../page";
import type { Slices } from "../slices";
import { CHARACTERS_PER_UNIT, type WorkMeter } from "../work-meter";

export interface MarkupHandler {
  /** A text node of the page model, in document order. */
  textNode(node: number): void;
  /** Character data source[start, end) (entities not decoded), outside removed blocks. */
  rawText(start: number, end: number): void;
  /** A start tag (lower-case name); attributes lie in source[nameEnd, tagEnd). */
  startTag(name: string, nameEnd: number, tagEnd: number): void;
  endTag(name: string): void;
  /** A start tag in svg or math content (optional: the Markdown writer passes over them, the article writer drops that content). */
  foreignStartTag?(name: string): void;
}

/** Reports the page's markup to `handler`, in slices (slices.ts); past the work budget of `work`, nothing more (the caller checks the meter). */
export function scanMarkupSlices(page: PageModel, skipRanges: Int32Array, handler: MarkupHandler, work?: WorkMeter): Slices<void> {
  return walkPageSlices(page, new SkippingScan(skipRanges, page.textNodes.sourceStart, page.textNodeCount, handler, work));
}

class SkippingScan implements ScanHandler {
  /** Index (even) of the next removed range in skipRanges. */
  private nextSkip = 0;
  /** End of the removed range being passed over; -1 when none. */
  private skipEnd = -1;
  /** The next text node of the page model not yet reported or passed. */
  private node = 0;

  constructor(
    private readonly skipRanges: Int32Array,
    private readonly nodeStart: Int32Array,
    private readonly nodeCount: number,
    private readonly handler: MarkupHandler,
    private readonly work: WorkMeter | undefined,
  ) {}

  /** Counts one event (and the characters it covers); false once the budget is spent: the walk then reports nothing more. */
  private charge(characters: number): boolean {
    return this.work === undefined || this.work.spend(1 + characters / CHARACTERS_PER_UNIT);
  }

  /** Whether an event at `offset` lies in a removed block (entering or leaving ranges as the walk passes). */
  private skipped(offset: number): boolean {
    if (this.skipEnd >= 0) {
      if (offset < this.skipEnd) return true;
      this.skipEnd = -1;
    }
    const ranges = this.skipRanges;
    while (this.nextSkip < ranges.length && ranges[this.nextSkip + 1] <= offset) this.nextSkip += 2;
    if (this.nextSkip < ranges.length && ranges[this.nextSkip] <= offset) {
      this.skipEnd = ranges[this.nextSkip + 1];
      this.nextSkip += 2;
      return true;
    }
    return false;
  }

  startTag(name: string, tagStart: number, nameEnd: number, tagEnd: number, _selfClosing: boolean, foreign: boolean): void {
    if (!this.charge(tagEnd - tagStart) || this.skipped(tagStart)) return;
    if (foreign) this.handler.foreignStartTag?.(name);
    else this.handler.startTag(name, nameEnd, tagEnd);
  }

  endTag(name: string, tagStart: number): void {
    if (!this.charge(0) || this.skipped(tagStart)) return;
    this.handler.endTag(name);
  }

  text(start: number, end: number, kind: number): void {
    if (kind !== TEXT_DATA || !this.charge(end - start)) return;
    const skipped = this.skipped(start);
    while (this.node < this.nodeCount && this.nodeStart[this.node] < end) {
      if (!skipped && this.nodeStart[this.node] >= start) this.handler.textNode(this.node);
      this.node++;
    }
    if (!skipped) this.handler.rawText(start, end);
  }
}

/**
 * The writers' nesting cap: past it, elements add no structure (their text still comes). Every open element
 * costs work at each close and on each line's prefix, so unbounded nesting would make a writer quadratic. An
 * element passed over is counted by name, so that its end tag is passed over too.
 */
export class NestingCap {
  private readonly passedOver = new Map<string, number>();

  constructor(private readonly maxDepth: number) {}

  /** True (and counted) when an element opened with `openCount` elements already open would pass the cap. */
  passesOver(name: string, openCount: number): boolean {
    if (openCount < this.maxDepth) return false;
    this.passedOver.set(name, (this.passedOver.get(name) ?? 0) + 1);
    return true;
  }

  /** True (and uncounted) for the end tag of an element passed over. */
  endsPassedOver(name: string): boolean {
    const count = this.passedOver.get(name) ?? 0;
    if (count === 0) return false;
    this.passedOver.set(name, count - 1);
    return true;
  }
}

/**
 * Depth in `open` (the writer's open elements, innermost last) of the element that end tag `name` closes, or -1
 * for a stray end tag, which HTML ignores. Every scope HTML searches stops at an open table, so no end tag but the
 * table's own looks past one: a stray `</td>` in a nested table, or a `</div>` in a cell for a div opened before
 * the table, closes nothing outside it.
 */
export function closedDepth(open: readonly string[], name: string): number {
  for (let depth = open.length - 1; depth >= 0; depth--) {
    if (open[depth] === name) return depth;
    if (open[depth] === "table") return -1;
  }
  return -1;
}

/** Implied ends: a start tag closes an open element of `closes`, unless one of the `boundaries` lies between. */
interface ImpliedEnd {
  readonly closes: ReadonlySet<string>;
  readonly boundaries: ReadonlySet<string>;
}
export const HEADINGS: ReadonlySet<string> = new Set(["h1", "h2", "h3", "h4", "h5", "h6"]);
const PARAGRAPH_BOUNDARIES = new Set(["div", "li", "td", "th", "blockquote", "section", "article", "table", "ul", "ol", "dd", "dt", "figure", "details"]);
/** A block start closes an open <p>; a heading closes an open heading. */
const PARAGRAPH_END: ImpliedEnd = { closes: new Set(["p"]), boundaries: PARAGRAPH_BOUNDARIES };
const HEADING_END: ImpliedEnd = { closes: HEADINGS, boundaries: PARAGRAPH_BOUNDARIES };
const CLOSES_PARAGRAPH = new Set([
  "p", "div", "section", "article", "main", "header", "footer", "aside", "nav", "center", "hgroup", "form", "fieldset", "address",
  "figure", "figcaption", "details", "summary", "dl", "li", "dt", "dd", ...HEADINGS, "ul", "ol", "pre", "blockquote", "table", "hr",
]);
const TABLE = new Set(["table"]);
/** dt and dd close each other, cells each other, table sections each other (and what a section holds). */
const DEFINITION_END: ImpliedEnd = { closes: new Set(["dt", "dd"]), boundaries: new Set(["dl"]) };
const CELL_END: ImpliedEnd = { closes: new Set(["td", "th"]), boundaries: new Set(["tr", "table"]) };
const SECTION_END: ImpliedEnd = { closes: new Set(["thead", "tbody", "tfoot", "tr", "td", "th", "caption"]), boundaries: TABLE };
const IMPLIED_ENDS: Readonly<Record<string, ImpliedEnd>> = {
  li: { closes: new Set(["li"]), boundaries: new Set(["ul", "ol"]) },
  dt: DEFINITION_END,
  dd: DEFINITION_END,
  td: CELL_END,
  th: CELL_END,
  tr: { closes: new Set(["tr", "td", "th"]), boundaries: TABLE },
  thead: SECTION_END,
  tbody: SECTION_END,
  tfoot: SECTION_END,
  a: { closes: new Set(["a"]), boundaries: new Set(["td", "th", "table"]) },
};

/**
 * The depth in `open` (innermost last) from which start tag `name` closes the open elements, as HTML's implied end
 * tags do (simplified: a block start closes an open <p>, a heading an open heading, a cell the open cell, a row the
 * open row, a list item the open item...); `open.length` when it closes none. Each rule closes the outermost open
 * element it names above the nearest of its boundaries.
 */
export function impliedEndDepth(open: readonly string[], name: string): number {
  let depth = open.length;
  if (CLOSES_PARAGRAPH.has(name)) depth = closedBy(open, depth, PARAGRAPH_END);
  if (HEADINGS.has(name)) depth = closedBy(open, depth, HEADING_END);
  const implied = IMPLIED_ENDS[name];
  if (implied !== undefined) depth = closedBy(open, depth, implied);
  return depth;
}

/** The depth from which `end` closes the open elements below `depth` (`depth` when it closes none). A function, not a closure made per start tag: this runs on every one. */
function closedBy(open: readonly string[], depth: number, end: ImpliedEnd): number {
  let closed = depth;
  for (let index = depth - 1; index >= 0 && !end.boundaries.has(open[index]); index--) if (end.closes.has(open[index])) closed = index;
  return closed;
}
