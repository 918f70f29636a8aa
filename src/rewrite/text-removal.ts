import type { PageModel, RemovalPlan } from "../page";

/**
 * What a removal plan means for writers that read the page model (text, markdown): which blocks are
 * gone with an ancestor, and where the removed text lies, walked once in document order.
 */

/** Block ordinal → 1 if the block or any ancestor is removed, else 0. Parents precede children, so one pass. */
export function removedWithAncestors(page: PageModel, plan: RemovalPlan): Uint8Array {
  const removed = new Uint8Array(page.blockCount);
  const parent = page.blocks.parent;
  for (let block = 0; block < page.blockCount; block++) {
    const up = parent[block];
    removed[block] = plan.removedBlocks[block] === 1 || (up >= 0 && removed[up] === 1) ? 1 : 0;
  }
  return removed;
}

/** Source ranges of removed blocks whose parent is kept, flattened [start, end) pairs in document order. */
export function topRemovedRanges(page: PageModel, plan: RemovalPlan): Int32Array {
  const removed = removedWithAncestors(page, plan);
  const { parent, sourceStart, sourceEnd } = page.blocks;
  const ranges: number[] = [];
  for (let block = 1; block < page.blockCount; block++) {
    if (plan.removedBlocks[block] === 1 && removed[parent[block]] === 0) ranges.push(sourceStart[block], sourceEnd[block]);
  }
  return Int32Array.from(ranges);
}

/** Whether text[from, to) holds a newline; reads only that range (indexOf would run on to the end of the text). */
export function hasNewline(text: string, from: number, to: number): boolean {
  for (let position = from; position < to; position++) if (text.charCodeAt(position) === 10) return true;
  return false;
}

/** Receives the kept parts of a text node. */
export interface PieceSink {
  piece(from: number, to: number): void;
}

/**
 * A cursor over the plan's removed text intervals (sorted, disjoint) for text nodes visited in document
 * order: `keptPieces` calls back with the parts of [start, end) that survive, without allocating.
 */
export class RemovedTextCursor {
  /** Index into plan.removedText of the first interval that may still overlap what comes next (even). */
  private next = 0;

  constructor(private readonly intervals: Int32Array) {}

  /** Calls `piece(from, to)` for each kept part of [start, end); returns how many parts were cut out. */
  keptPieces(start: number, end: number, sink: PieceSink): number {
    const intervals = this.intervals;
    while (this.next < intervals.length && intervals[this.next + 1] <= start) this.next += 2;
    let position = start;
    let cuts = 0;
    for (let index = this.next; index < intervals.length && intervals[index] < end; index += 2) {
      const cutStart = Math.max(intervals[index], start);
      if (cutStart > position) sink.piece(position, cutStart);
      position = Math.max(position, intervals[index + 1]);
      cuts++;
    }
    if (position < end) sink.piece(position, end);
    return cuts;
  }
}
