import { decodeEntities, FLAG_BLOCK, FLAG_VOID, HtmlScan, TAG_FLAGS, tagId, TEXT_DATA, type ScanHandler } from "../page";
import { DROPPED_ELEMENTS, escapeText } from "./article-writer";
import { escapeLineStart, escapeMarkdown } from "./markdown-writer";

/**
 * The text of a page that could not be cleaned, where no page model is to be had (the page is over a limit, or its
 * budget is spent): one scan of the page's start by pass 1's scanner, no tree, no page model, so that the work is
 * bounded by `maxCharacters` whatever the page holds. Its character data only, entities decoded, white space folded,
 * one paragraph per block; nothing of a script, style or other raw-text element, of svg or math, or of the elements
 * the article format drops with their content (DROPPED_ELEMENTS). The formats below write it with no markup of the
 * page: plain text, Markdown with its syntax escaped, and an article fragment of escaped paragraphs.
 */
export function fallbackParagraphs(html: string, maxCharacters: number): string[] {
  const collector = new ParagraphCollector(html, maxCharacters);
  // The markup that starts before the bound is read whole (however far it reaches), the rest of the page not at all.
  new HtmlScan(html, collector).continueTo(maxCharacters);
  collector.endParagraph();
  return collector.paragraphs;
}

/** The paragraphs as the text format writes them: a blank line between two. */
export function fallbackText(paragraphs: readonly string[]): string {
  return paragraphs.join("\n\n");
}

/** The paragraphs as Markdown: text only, every character Markdown would read as syntax (or as HTML) escaped. */
export function fallbackMarkdown(paragraphs: readonly string[]): string {
  return paragraphs.map((paragraph) => escapeLineStart(escapeMarkdown(paragraph))).join("\n\n");
}

/** The paragraphs as an article fragment: one <p> each, the text escaped; no other element, no attribute. */
export function fallbackArticle(paragraphs: readonly string[]): string {
  return paragraphs.map((paragraph) => `<p>${escapeText(paragraph)}</p>`).join("");
}

class ParagraphCollector implements ScanHandler {
  readonly paragraphs: string[] = [];
  private current = "";
  /** Characters written so far (paragraphs and the one under way). */
  private written = 0;
  /** The dropped element being passed over (svg and math included) and its nesting inside itself; 0 when none. */
  private droppedName = "";
  private droppedDepth = 0;

  constructor(private readonly html: string, private readonly maxCharacters: number) {}

  startTag(name: string, _tagStart: number, _nameEnd: number, _tagEnd: number, selfClosing: boolean, foreign: boolean): void {
    if (this.droppedDepth > 0) {
      // A start tag back in HTML ends svg or math (a breakout), as the article writer reads it.
      if ((this.droppedName === "svg" || this.droppedName === "math") && !foreign) this.droppedDepth = 0;
      else {
        if (name === this.droppedName && !selfClosing) this.droppedDepth++;
        return;
      }
    }
    const flags = TAG_FLAGS[tagId(name)];
    if (DROPPED_ELEMENTS.has(name) && !selfClosing && (flags & FLAG_VOID) === 0) {
      this.droppedName = name;
      this.droppedDepth = 1;
    }
    if ((flags & FLAG_BLOCK) !== 0 || name === "br") this.endParagraph();
  }

  endTag(name: string): void {
    if (this.droppedDepth > 0) {
      if (name === this.droppedName) this.droppedDepth--;
      return;
    }
    if ((TAG_FLAGS[tagId(name)] & FLAG_BLOCK) !== 0) this.endParagraph();
  }

  text(start: number, end: number, kind: number): void {
    if (kind !== TEXT_DATA || this.droppedDepth > 0 || this.written >= this.maxCharacters) return;
    const text = decodeEntities(this.html, start, end);
    const room = this.maxCharacters - this.written;
    const piece = text.length > room ? text.slice(0, room) : text;
    this.current += piece;
    this.written += piece.length;
  }

  endParagraph(): void {
    const paragraph = this.current.replace(/\s+/g, " ").trim();
    if (paragraph !== "") this.paragraphs.push(paragraph);
    this.current = "";
  }
}
