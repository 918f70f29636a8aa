import { ARTICLE_HEADER_MAX_CHARS, HEADLINE_MAX_CHARS, HEADLINE_MAX_LEAD_CHARS, PROSE_MIN_CHARS } from "../config";
import { headlineKey, statesHeadline, tagId, type PageModel } from "../page";
import type { NormalisedPlan } from "../plan";
import { CHARACTERS_PER_UNIT, type WorkMeter } from "../work-meter";
import { hasNewline, RemovedTextCursor, type PieceSink } from "./text-removal";

/**
 * The kept text of a page: text nodes of kept blocks, minus removed text, in document order; the text of
 * different blocks is apart by a blank line (the style of the gold texts: paragraphs apart by blank lines).
 * With `body` (articleBody), only the article's body: without its header and its figures' captions. Reads only the
 * page model: no second parse.
 */
export function writeText(page: PageModel, plan: NormalisedPlan, work?: WorkMeter, body: ArticleBody | null = null): string {
  const removed = plan.removedWithAncestor;
  const cursor = new RemovedTextCursor(plan.removedText);
  const sink = new TextSink(page.text);
  const { block, textStart, textEnd } = page.textNodes;
  for (let node = 0; node < page.textNodeCount; node++) {
    // Past the page's work budget the text stops here; the caller sees the meter exhausted and passes the page through.
    if (work !== undefined && !work.spend(1 + (textEnd[node] - textStart[node]) / CHARACTERS_PER_UNIT)) break;
    if (removed[block[node]] === 0 && (body === null || !outsideBody(page, body, node))) cursor.keptPieces(textStart[node], textEnd[node], sink);
  }
  return tidyParagraphs(sink.parts.join(""));
}

/** A range of page text [start, end). */
export interface TextRange {
  readonly start: number;
  readonly end: number;
}

/** What of the kept text is not the article's body: its header (articleHeader) and its figures' captions (figureCaptions). */
export interface ArticleBody {
  readonly header: TextRange | null;
  readonly captions: Uint8Array | null;
}

/**
 * The article's body as the text format holds it by default: without the header (headline, byline, date line,
 * standfirst: a reader shows them from the metadata) and without figures' captions (plain text shows no image).
 */
export function articleBody(page: PageModel, plan: NormalisedPlan, headline: string | null): ArticleBody {
  const captions = figureCaptions(page);
  const body = { header: articleHeader(page, plan, headline, captions), captions };
  // A page whose kept text is all header and captions (a photo and its caption) is not emptied: it keeps them.
  return body.header === null && captions === null ? body : keepsBodyText(page, plan, body) ? body : { header: null, captions: null };
}

/** Whether the plan keeps any text that is not white space outside the header and captions of `body`. */
function keepsBodyText(page: PageModel, plan: NormalisedPlan, body: ArticleBody): boolean {
  const removed = plan.removedWithAncestor;
  const cursor = new RemovedTextCursor(plan.removedText);
  const sink = new VisibleTextProbe(page.text);
  const { block, textStart, textEnd } = page.textNodes;
  for (let node = 0; node < page.textNodeCount && !sink.found; node++) {
    if (removed[block[node]] === 0 && !outsideBody(page, body, node)) cursor.keptPieces(textStart[node], textEnd[node], sink);
  }
  return sink.found;
}

/** Whether text node `node` lies outside the article's body. */
export function outsideBody(page: PageModel, body: ArticleBody, node: number): boolean {
  const { header, captions } = body;
  if (captions !== null && captions[page.textNodes.block[node]] === 1) return true;
  return header !== null && page.textNodes.textStart[node] >= header.start && page.textNodes.textEnd[node] <= header.end;
}

const TAG_FIGURE = tagId("figure");
const TAG_FIGCAPTION = tagId("figcaption");
/** What a figure holds that is text of its own, not a caption: a quotation, a code listing, a table, a list. */
const FIGURE_CONTENT_TAGS = new Set(["blockquote", "pre", "code", "table", "ul", "ol", "dl"].map(tagId));

/**
 * Block ordinal → 1 for the blocks of figures' captions (a <figcaption>, and text of a <figure> outside a quotation,
 * code listing, table or list it holds), or null when the page has no figure. Plain text shows no image, and a
 * caption without its image reads as a stray line in the story; the article and Markdown formats keep both.
 */
function figureCaptions(page: PageModel): Uint8Array | null {
  const { tag, parent } = page.blocks;
  let captions: Uint8Array | null = null;
  let content: Uint8Array | null = null;
  for (let b = 1; b < page.blockCount; b++) {
    const inFigure = tag[b] === TAG_FIGURE || tag[b] === TAG_FIGCAPTION || captions?.[parent[b]] === 1;
    if (!inFigure) continue;
    captions ??= new Uint8Array(page.blockCount);
    content ??= new Uint8Array(page.blockCount);
    content[b] = content[parent[b]] | (FIGURE_CONTENT_TAGS.has(tag[b]) && tag[parent[b]] !== TAG_FIGCAPTION ? 1 : 0);
    captions[b] = 1;
  }
  if (captions === null || content === null) return null;
  for (let b = 1; b < page.blockCount; b++) if (content[b] === 1) captions[b] = 2; // inside a figure, but its own text
  return captions;
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

const TAG_H1 = tagId("h1");
const TAG_P = tagId("p");
const TAG_HEADER = tagId("header");

/**
 * The article's header where the kept text starts with one: from the start of the kept text to the article's first
 * paragraph. It holds the headline (the first kept block that is an <h1> or states the page's headline, headlineBlocks
 * of `headline`, with no more than a kicker or a section name, HEADLINE_MAX_LEAD_CHARS of kept text, before it) and
 * what stands between the headline and the first paragraph: byline, date line, standfirst, share bar, lead image. The
 * first paragraph is the first kept text node of prose (PROSE_MIN_CHARS) after the headline, outside figures and
 * <header>, in a <p>, or the first of two blocks of sentences before it (firstParagraphStart: an article written in
 * <div>s has paragraphs too); where none comes within ARTICLE_HEADER_MAX_CHARS of kept text, the header ends with the
 * headline.
 * The header goes only where it is the lesser part: the kept text after it must hold at least as many characters as
 * the header (else only the headline goes, on the same terms), so that a page that is all header, or whose prose a
 * header rule misread, is never emptied or gutted. Null when the kept text does not start with a headline. The text
 * format leaves the header out by default, as the benchmarks of article bodies and Readability's textContent do: a
 * reader shows title, byline and date from the metadata.
 */
function articleHeader(page: PageModel, plan: NormalisedPlan, headline: string | null, captions: Uint8Array | null): TextRange | null {
  const found = leadingHeadline(page, plan, headline);
  if (found === null) return null;
  const end = firstParagraphStart(page, plan, found, captions);
  const chars = keptCharsBefore(page, plan, [end, found.end]);
  if (end !== found.end && chars.after[0] >= chars.before[0]) return { start: 0, end };
  return chars.after[1] >= chars.before[1] && chars.after[1] > 0 ? { start: 0, end: found.end } : null;
}

/**
 * Where the first paragraph after the headline starts in page text (see articleHeader), or the headline's end when none
 * comes in time. A header holds one standfirst at most: where two blocks of sentences (isSentences) come before the
 * first <p>, the article is written in <div>s and starts at the first of them.
 */
function firstParagraphStart(page: PageModel, plan: NormalisedPlan, found: TextRange, captions: Uint8Array | null): number {
  const removed = plan.removedWithAncestor;
  const cursor = new RemovedTextCursor(plan.removedText);
  const counter = new KeptCharsCounter(page.text);
  const { block, textStart, textEnd } = page.textNodes;
  let firstSentences = -1;
  let lastSentencesBlock = -1;
  for (let node = 0; node < page.textNodeCount && counter.chars <= ARTICLE_HEADER_MAX_CHARS; node++) {
    if (textStart[node] < found.end || removed[block[node]] === 1) continue;
    if (textEnd[node] - textStart[node] >= PROSE_MIN_CHARS && captions?.[block[node]] !== 1 && !insideTag(page, block[node], TAG_HEADER)) {
      if (insideTag(page, block[node], TAG_P)) return textStart[node];
      if (block[node] !== lastSentencesBlock && isSentences(page, block[node])) {
        if (firstSentences >= 0) return firstSentences;
        firstSentences = textStart[node];
        lastSentencesBlock = block[node];
      }
    }
    cursor.keptPieces(textStart[node], textEnd[node], counter);
  }
  return found.end;
}

/** Kept characters (white space not counted) before and after each page-text offset of `at`, in one walk. */
function keptCharsBefore(page: PageModel, plan: NormalisedPlan, at: readonly number[]): { before: number[]; after: number[] } {
  const removed = plan.removedWithAncestor;
  const cursor = new RemovedTextCursor(plan.removedText);
  const counter = new KeptCharsCounter(page.text);
  const before = at.map(() => 0);
  const { block, textStart, textEnd } = page.textNodes;
  for (let node = 0; node < page.textNodeCount; node++) {
    for (let i = 0; i < at.length; i++) if (textStart[node] < at[i]) before[i] = counter.chars;
    if (removed[block[node]] === 0) cursor.keptPieces(textStart[node], textEnd[node], counter);
    for (let i = 0; i < at.length; i++) if (textEnd[node] <= at[i]) before[i] = counter.chars;
  }
  return { before, after: before.map((chars) => counter.chars - chars) };
}

/** Whether a block is or lies in an element of tag `tag`. */
function insideTag(page: PageModel, start: number, tag: number): boolean {
  for (let b = start; b > 0; b = page.blocks.parent[b]) if (page.blocks.tag[b] === tag) return true;
  return false;
}

/** Sentence ends: full stop, question and exclamation marks, an ellipsis, CJK full stops, with closing quotes or brackets after. */
const SENTENCE_END = /[.!?\u2026\u3002\uff01\uff1f]["'\u201d\u2019)\]]*$/u;

/** Whether a block's text ends a sentence: a paragraph does, a byline, a date line or a kicker does not. */
function isSentences(page: PageModel, b: number): boolean {
  const { textStart, textEnd } = page.blocks;
  let end = textEnd[b];
  while (end > textStart[b] && /\s/.test(page.text[end - 1])) end--;
  return end > textStart[b] && SENTENCE_END.test(page.text.slice(Math.max(textStart[b], end - 4), end));
}

/** The headline's text range where the kept text starts with it (see articleHeader), or null. */
function leadingHeadline(page: PageModel, plan: NormalisedPlan, headline: string | null): TextRange | null {
  const compared = headline === null ? null : headlineKey(page, headline);
  const removed = plan.removedWithAncestor;
  const cursor = new RemovedTextCursor(plan.removedText);
  const counter = new KeptCharsCounter(page.text);
  const { block, textStart, textEnd } = page.textNodes;
  const { parent, tag } = page.blocks;
  for (let node = 0; node < page.textNodeCount && counter.chars <= HEADLINE_MAX_LEAD_CHARS; node++) {
    if (removed[block[node]] === 1) continue;
    const before = counter.chars;
    cursor.keptPieces(textStart[node], textEnd[node], counter);
    if (counter.chars === before) continue;
    for (let b = block[node]; b > 0; b = parent[b]) {
      const range = { start: page.blocks.textStart[b], end: page.blocks.textEnd[b] };
      if (range.end - range.start > HEADLINE_MAX_CHARS) break;
      if (tag[b] === TAG_H1 || (compared !== null && statesHeadline(page, b, compared))) return range;
    }
  }
  return null;
}

/** Counts the kept characters that are not white space. */
class KeptCharsCounter implements PieceSink {
  chars = 0;

  constructor(private readonly text: string) {}

  piece(from: number, to: number): void {
    for (let position = from; position < to; position++) if (!isLineSpace(this.text.charCodeAt(position)) && this.text.charCodeAt(position) !== 10) this.chars++;
  }
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
