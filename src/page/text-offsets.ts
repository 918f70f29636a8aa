/**
 * From page-text offsets back to source offsets inside one text node, by walking its raw source with the
 * same decoding and white-space rules as pass 1 (entities, collapsed runs). Pass 2 uses it to cut the
 * removed part of a partly removed text node out of the source.
 */
import { decodeEntityAt, entityEnd } from "./entities";
import type { PageModel } from "./types";

function isCollapsibleSpace(code: number): boolean {
  return code === 32 || code === 10 || code === 9 || code === 13 || code === 12 || code === 0xa0;
}

/**
 * Source offset where the page-text character at `textOffset` of text node `node` starts (a collapsed
 * space maps to the start of its white-space run); the node's sourceEnd for its textEnd.
 */
export function sourceOffsetOfText(page: PageModel, node: number, textOffset: number): number {
  const { source, textNodes } = page;
  const end = textNodes.sourceEnd[node];
  let position = textNodes.sourceStart[node];
  let textPosition = textNodes.textStart[node];
  if (textOffset <= textPosition) return position;
  let spaceStart = -1; // start of the pending white-space run, -1 if none
  while (position < end) {
    const code = source.charCodeAt(position);
    let next = position + 1;
    let width = 1; // page-text characters this source piece becomes
    let space = isCollapsibleSpace(code);
    if (code === 38) {
      const decoded = decodeEntityAt(source, position, end);
      if (decoded !== null) {
        next = entityEnd();
        width = decoded.length;
        space = decoded.length === 1 && isCollapsibleSpace(decoded.charCodeAt(0));
      }
    }
    if (space) {
      if (spaceStart < 0) spaceStart = position;
      position = next;
      continue;
    }
    if (spaceStart >= 0) {
      if (textPosition >= textOffset) return spaceStart;
      textPosition++;
      spaceStart = -1;
    }
    if (textPosition + width > textOffset) return position;
    textPosition += width;
    position = next;
  }
  return end;
}
