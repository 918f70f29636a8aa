/**
 * From page-text offsets back to source offsets inside text nodes, by walking their raw source with the
 * same decoding and white-space rules as pass 1 (entities, collapsed runs, U+0000). Pass 2 uses it to cut the
 * removed part of a partly removed text node out of the source.
 */
import { decodeEntityAt, entityEnd } from "./entities";
import { isCollapsibleSpace } from "./analyse";
import type { PageModel } from "./types";

/**
 * Maps page-text offsets to source offsets. Queries in increasing order within a text node continue the
 * walk where the last one stopped, so mapping all cuts of a page costs one walk over their text nodes.
 */
export class SourceOffsetCursor {
  private node = -1;
  private position = 0; // source offset of the next unread piece of the node
  private textPosition = 0; // page-text offset that piece starts at (after a pending space, if any)
  private spaceStart = -1; // start of the pending white-space run before `position`, -1 if none

  constructor(private readonly page: PageModel) {}

  /**
   * Source offset where the page-text character at `textOffset` of text node `node` starts (a collapsed
   * space maps to the start of its white-space run); the node's sourceEnd for its textEnd.
   */
  sourceOffset(node: number, textOffset: number): number {
    const { source, textNodes } = this.page;
    if (node !== this.node || textOffset < this.textPosition) this.restart(node);
    const end = textNodes.sourceEnd[node];
    if (textOffset <= textNodes.textStart[node]) return textNodes.sourceStart[node];
    const raw = textNodes.raw !== undefined && textNodes.raw[node] === 1;
    while (this.position < end) {
      const code = source.charCodeAt(this.position);
      let next = this.position + 1;
      let width = 1; // page-text characters this source piece becomes
      let space = isCollapsibleSpace(code);
      if (code === 0 && !raw) {
        this.position = next; // dropped from data, as pass 1 drops it (U+FFFD in raw text: one character)
        continue;
      }
      if (code === 38 && !raw) {
        const decoded = decodeEntityAt(source, this.position, end);
        if (decoded !== null) {
          next = entityEnd();
          width = decoded.length;
          space = decoded.length === 1 && isCollapsibleSpace(decoded.charCodeAt(0));
        }
      }
      if (space) {
        if (this.spaceStart < 0) this.spaceStart = this.position;
        this.position = next;
        continue;
      }
      if (this.spaceStart >= 0) {
        if (this.textPosition >= textOffset) return this.spaceStart;
        this.textPosition++;
        this.spaceStart = -1;
      }
      if (this.textPosition + width > textOffset) return this.position;
      this.textPosition += width;
      this.position = next;
    }
    return end;
  }

  private restart(node: number): void {
    this.node = node;
    this.position = this.page.textNodes.sourceStart[node];
    this.textPosition = this.page.textNodes.textStart[node];
    this.spaceStart = -1;
  }
}

/** One query of SourceOffsetCursor (see there); for many queries on a page, keep a cursor. */
export function sourceOffsetOfText(page: PageModel, node: number, textOffset: number): number {
  return new SourceOffsetCursor(page).sourceOffset(node, textOffset);
}
