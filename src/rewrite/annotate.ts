/**
 * The annotated variant of pass 2, for looking at a decision: the original page with nothing removed, the
 * blocks the plan removes outlined, and the blocks that lose part of their text outlined dashed.
 *
 * Like pass 2 it works on start tags at known offsets: a mark attribute is inserted just after the tag
 * name of each marked block (the page's own attributes, classes included, stay as they are), and one
 * style sheet in the head draws the outlines (and a light tint as an inset shadow, which keeps the block's own
 * background and so its contrast). One walk over the blocks and text nodes, one string join.
 */
import type { PageModel } from "../page";
import type { NormalisedPlan } from "../plan";

/** Attribute on a block the plan removes whole (only the top-most one of a removed subtree). */
export const ANNOTATE_REMOVED_ATTRIBUTE = "data-clean-removed";
/** Attribute on a kept block that loses part of its text. */
export const ANNOTATE_PARTIAL_ATTRIBUTE = "data-clean-partial";
/** Outline colour of removed blocks: pure magenta, rare on real pages, so a screenshot can be checked for it. */
export const ANNOTATE_REMOVED_COLOUR = "#ff00ff";
const ANNOTATE_PARTIAL_COLOUR = "#ff8c00";

const ANNOTATE_STYLE =
  `<style data-clean-annotate>` +
  `[${ANNOTATE_REMOVED_ATTRIBUTE}]{outline:3px solid ${ANNOTATE_REMOVED_COLOUR}!important;outline-offset:-3px!important;box-shadow:inset 0 0 0 100vmax rgba(255,0,255,.08)!important}` +
  `[${ANNOTATE_PARTIAL_ATTRIBUTE}]{outline:2px dashed ${ANNOTATE_PARTIAL_COLOUR}!important;outline-offset:-2px!important}` +
  `</style>`;

const HEAD_START = /<head(?:\s[^>]*)?>/i;
const HTML_START = /<html(?:\s[^>]*)?>/i;

export interface AnnotateOptions {
  /** Inserted as <base href> so that the page's relative URLs still resolve where the page is shown. */
  readonly baseUrl?: string;
}

export interface AnnotatedPage {
  readonly html: string;
  /** Blocks outlined as removed, and as partly removed. */
  readonly removedBlocks: number;
  readonly partialBlocks: number;
}

export function annotateHtml(page: PageModel, plan: NormalisedPlan, options: AnnotateOptions = {}): AnnotatedPage {
  const marks = markedBlocks(page, plan);
  const source = page.source;
  const head = headInsertion(source, options.baseUrl);
  const pieces: string[] = [];
  let cursor = 0;
  let removedBlocks = 0;
  let partialBlocks = 0;
  const flush = (offset: number, text: string) => {
    pieces.push(source.slice(cursor, offset), text);
    cursor = offset;
  };
  for (let block = 1; block < page.blockCount; block++) {
    const mark = marks[block];
    if (mark === MARK_NONE) continue;
    const offset = page.blocks.sourceNameEnd[block];
    if (head.offset <= offset && head.text !== "") {
      flush(head.offset, head.text);
      head.text = "";
    }
    flush(offset, mark === MARK_REMOVED ? ` ${ANNOTATE_REMOVED_ATTRIBUTE}=""` : ` ${ANNOTATE_PARTIAL_ATTRIBUTE}=""`);
    if (mark === MARK_REMOVED) removedBlocks++;
    else partialBlocks++;
  }
  if (head.text !== "") flush(head.offset, head.text);
  pieces.push(source.slice(cursor));
  return { html: pieces.join(""), removedBlocks, partialBlocks };
}

const MARK_NONE = 0;
const MARK_REMOVED = 1;
const MARK_PARTIAL = 2;

/** Block ordinal → MARK_NONE, MARK_REMOVED (top-most removed block) or MARK_PARTIAL (kept block losing text). */
function markedBlocks(page: PageModel, plan: NormalisedPlan): Uint8Array {
  const marks = new Uint8Array(page.blockCount);
  const covered = plan.removedWithAncestor;
  for (const block of plan.topBlocks) marks[block] = MARK_REMOVED;
  // Text nodes and intervals are both sorted by text offset: one merge walk finds the nodes that lose text.
  const { textStart, textEnd, block: blockOfNode } = page.textNodes;
  const intervals = plan.removedText;
  let interval = 0;
  for (let node = 0; node < page.textNodeCount && interval < intervals.length; node++) {
    while (interval < intervals.length && intervals[interval + 1] <= textStart[node]) interval += 2;
    if (interval >= intervals.length || intervals[interval] >= textEnd[node]) continue;
    const block = blockOfNode[node];
    if (covered[block] === 0 && block !== 0) marks[block] = MARK_PARTIAL;
  }
  return marks;
}

/** Where the style sheet (and <base>) go: just inside <head>, else just inside <html>, else at the start. */
function headInsertion(source: string, baseUrl: string | undefined): { offset: number; text: string } {
  const base = baseUrl === undefined ? "" : `<base href="${escapeAttribute(baseUrl)}">`;
  const text = base + ANNOTATE_STYLE;
  const head = HEAD_START.exec(source);
  if (head !== null) return { offset: head.index + head[0].length, text };
  const html = HTML_START.exec(source);
  if (html !== null) return { offset: html.index + html[0].length, text };
  return { offset: 0, text };
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}
