import type { PageModel } from "../page";
import type { NormalisedPlan } from "../plan";
import { CHARACTERS_PER_UNIT, type WorkMeter } from "../work-meter";
import { hasNewline, RemovedTextCursor, type PieceSink } from "./text-removal";

/**
 * The kept text of a page: text nodes of kept blocks, minus removed text, in document order; the text of
 * different blocks is apart by a blank line (the style of the gold texts: paragraphs apart by blank lines).
 * Reads only the page model: no second parse.
 */
export function writeText(page: PageModel, plan: NormalisedPlan, work?: WorkMeter): string {
  const removed = plan.removedWithAncestor;
  const cursor = new RemovedTextCursor(plan.removedText);
  const sink = new TextSink(page.text);
  const { block, textStart, textEnd } = page.textNodes;
  for (let node = 0; node < page.textNodeCount; node++) {
    // Past the page's work budget the text stops here; the caller sees the meter exhausted and passes the page through.
    if (work !== undefined && !work.spend(1 + (textEnd[node] - textStart[node]) / CHARACTERS_PER_UNIT)) break;
    if (removed[block[node]] === 0) cursor.keptPieces(textStart[node], textEnd[node], sink);
  }
  return tidyParagraphs(sink.parts.join(""));
}

/**
 * Whether the plan keeps any text that is not white space: what `writeText(page, plan).trim() !== ""` tells,
 * without writing the text (it stops at the first such character).
 */
export function keepsText(page: PageModel, plan: NormalisedPlan): boolean {
  const removed = plan.removedWithAncestor;
  const cursor = new RemovedTextCursor(plan.removedText);
  const sink = new VisibleTextProbe(page.text);
  const { block, textStart, textEnd } = page.textNodes;
  for (let node = 0; node < page.textNodeCount && !sink.found; node++) {
    if (removed[block[node]] === 0) cursor.keptPieces(textStart[node], textEnd[node], sink);
  }
  return sink.found;
}

/** Notes whether a kept piece holds a character that String.prototype.trim would keep. */
class VisibleTextProbe implements PieceSink {
  found = false;

  constructor(private readonly text: string) {}

  piece(from: number, to: number): void {
    this.found ||= this.text.slice(from, to).trim() !== "";
  }
}

/** Collects kept pieces of page text with what goes between them. */
class TextSink implements PieceSink {
  readonly parts: string[] = [];
  /** End in page text of the last kept piece, -1 before the first. */
  private lastEnd = -1;

  constructor(private readonly text: string) {}

  piece(from: number, to: number): void {
    if (this.lastEnd >= 0) this.parts.push(separator(this.text, this.lastEnd, from));
    this.parts.push(this.text.slice(from, to));
    this.lastEnd = to;
  }
}

/**
 * What goes between two kept pieces: a paragraph break if a block boundary ("\n" in page text) lies
 * between them; else a space if there was white space or removed text between them; else nothing
 * (two text nodes of one word, such as "<b>W</b>ord").
 */
function separator(text: string, previousEnd: number, nextStart: number): string {
  if (nextStart <= previousEnd) return "";
  return hasNewline(text, previousEnd, nextStart) ? "\n\n" : " ";
}

/** Trims spaces at line ends, folds runs of spaces and of blank lines, trims the whole. */
function tidyParagraphs(text: string): string {
  return trimLines(text)
    .replace(/\n{3,}/g, "\n\n")
    .replace(/[ \t]{2,}/g, " ")
    .trim();
}

function isLineSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 0xa0;
}

/** Spaces, tabs and no-break spaces at both ends of every line removed, in one pass (a regex with a starred
 * space class before the newline retries every space of a long run: quadratic). */
function trimLines(text: string): string {
  const lines = text.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    let start = 0;
    let end = line.length;
    // The text's own start and end are trimmed later, with all white space.
    if (index > 0) while (start < end && isLineSpace(line.charCodeAt(start))) start++;
    if (index < lines.length - 1) while (end > start && isLineSpace(line.charCodeAt(end - 1))) end--;
    if (start > 0 || end < line.length) lines[index] = line.slice(start, end);
  }
  return lines.join("\n");
}
