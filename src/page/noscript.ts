/**
 * What a cleaner without scripts receives: a <noscript> element's content is what a browser without scripts shows,
 * and some software serves its whole page there (Discourse sends a thread's every post in <noscript> and renders the
 * visible page by script, so the page a scanner reads holds a title and a notice). Pass 1 reads <noscript> as text,
 * as browsers that run scripts (and HTMLRewriter) do; where a <noscript> holds the page's main text, it is read as
 * markup instead. Most <noscript> elements are a tracking pixel, a lazy-loaded image's fallback, a style sheet or a
 * notice to enable scripts: little or no prose, and they stay text, out of every output.
 */
import { NOSCRIPT_MIN_PROSE_CHARS, PROSE_MIN_CHARS } from "../config";
import { scanHtml, TEXT_DATA, type ScanHandler } from "./scanner";
import type { PageModel } from "./types";

/** Characters of "<noscript" and "</noscript"; the tag names are replaced by "div" padded with spaces to the same length. */
const START_NAME = "<noscript".length;
const END_NAME = "</noscript".length;

/**
 * The page's source with each <noscript> that holds the main text read as a <div> (same length: every offset stays),
 * or null when none does. A <noscript> holds the main text when the page shows less than NOSCRIPT_MIN_PROSE_CHARS of
 * prose outside it (text outside links in runs of PROSE_MIN_CHARS, as the article guard counts prose) and the
 * <noscript> holds that much or more: the page is drawn by script, and what a reader without scripts gets is the
 * page. A page that shows its own text is read as a browser running its scripts shows it: its <noscript> is another
 * rendering of something it shows (a gallery's captions without the gallery, dragnet's bbc.co.uk "in pictures"),
 * not its text.
 */
export function openedNoscriptSource(page: PageModel): string | null {
  const found = page.noscriptTexts;
  if (found === undefined || visibleProse(page) >= NOSCRIPT_MIN_PROSE_CHARS) return null;
  let source: string | null = null;
  for (let i = 0; i + 2 < found.length; i += 3) {
    const [tagStart, textStart, textEnd] = [found[i], found[i + 1], found[i + 2]];
    if (textEnd - textStart < NOSCRIPT_MIN_PROSE_CHARS) continue; // too short to hold that much prose
    if (proseOf(page.source.slice(textStart, textEnd)) < NOSCRIPT_MIN_PROSE_CHARS) continue;
    source ??= page.source;
    source = `${source.slice(0, tagStart)}<div${" ".repeat(START_NAME - 4)}${source.slice(tagStart + START_NAME)}`;
    if (page.source.startsWith("</", textEnd) && page.source.slice(textEnd, textEnd + END_NAME).toLowerCase() === "</noscript") {
      source = `${source.slice(0, textEnd)}</div${" ".repeat(END_NAME - 5)}${source.slice(textEnd + END_NAME)}`;
    }
  }
  return source;
}

/** Prose characters of the page's text (all of it outside <noscript>, which pass 1 read as text), counted up to NOSCRIPT_MIN_PROSE_CHARS. */
function visibleProse(page: PageModel): number {
  const { textStart, textEnd, inLink } = page.textNodes;
  let prose = 0;
  for (let t = 0; t < page.textNodeCount; t++) {
    const chars = textEnd[t] - textStart[t];
    if (chars >= PROSE_MIN_CHARS && inLink[t] === 0) prose += chars;
    if (prose >= NOSCRIPT_MIN_PROSE_CHARS) break;
  }
  return prose;
}

/** Prose characters of a fragment read as markup: its text runs outside links, trimmed, of PROSE_MIN_CHARS or more. */
function proseOf(fragment: string): number {
  const counter = new ProseCounter(fragment);
  scanHtml(fragment, counter);
  return counter.prose;
}

class ProseCounter implements ScanHandler {
  prose = 0;
  private linkDepth = 0;

  constructor(private readonly fragment: string) {}

  startTag(name: string, _tagStart: number, _nameEnd: number, _tagEnd: number, selfClosing: boolean): void {
    if (name === "a" && !selfClosing) this.linkDepth++;
  }

  endTag(name: string): void {
    if (name === "a" && this.linkDepth > 0) this.linkDepth--;
  }

  text(start: number, end: number, kind: number): void {
    if (kind !== TEXT_DATA || this.linkDepth > 0) return;
    const chars = this.fragment.slice(start, end).trim().length;
    if (chars >= PROSE_MIN_CHARS) this.prose += chars;
  }
}
