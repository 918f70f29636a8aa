import type { PageModel } from "../page";
import type { NormalisedPlan } from "../plan";

/**
 * What a removal plan means for writers that read the page model (text, markdown, article): where the
 * removed blocks and the removed text lie, walked once in document order.
 */

/**
 * Source ranges of the top-most removed blocks and of the elements removed whole (plan.removedElements),
 * flattened [start, end) pairs in document order (the two never overlap).
 */
export function topRemovedRanges(page: PageModel, plan: NormalisedPlan): Int32Array {
  const { sourceStart, sourceEnd } = page.blocks;
  const elements = plan.removedElements;
  const ranges = new Int32Array((plan.topBlocks.length + (elements?.count ?? 0)) * 2);
  let length = 0;
  let element = 0;
  const addElementsBefore = (offset: number): void => {
    for (; elements !== undefined && element < elements.count && elements.sourceStart[element] < offset; element++) {
      ranges[length++] = elements.sourceStart[element];
      ranges[length++] = elements.sourceEnd[element];
    }
  };
  for (const block of plan.topBlocks) {
    addElementsBefore(sourceStart[block]);
    ranges[length++] = sourceStart[block];
    ranges[length++] = sourceEnd[block];
  }
  addElementsBefore(Number.MAX_SAFE_INTEGER);
  return ranges;
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
