/**
 * Rules never cut inside content. The page text holds one "\n" between the text of two blocks (src/page/types.ts),
 * so it is a sequence of lines, each the text of one block between two block edges. A rule interval is cut at
 * those edges into pieces, one per line it touches, and a piece is applied only when neither of its ends splits a
 * sentence. An end of a piece is clean when:
 *   - it is at a block edge: between the end and the line's edge on that side there is no letter, digit or mark
 *     (white space and punctuation there belong to the neighbouring block, and go with the piece), or
 *   - it is at a sentence edge: the separator run (white space, punctuation, symbols) between the piece's content
 *     and the kept content beside it holds a sentence terminal (. ! ? …, their full-width forms, and the marks of
 *     other scripts: src/page/text-marks.ts). That run belongs to the neighbour and stays: only the piece from its
 *     first to its last letter or digit goes.
 * A piece with an unclean end is not applied at all: a rule never takes words out of a sentence ("the BBC" out of
 * "the BBC's Kate Dailey visits…", a date out of "Reporter · 14 March 2026"). Text-node edges inside a line are
 * not edges: an inline element (<a>, <time>) sits inside a sentence. Linear in the text the intervals touch.
 */
import { isSentenceTerminal } from "../page/index";
import { isSeparatorCode } from "./prefilter";

const NEWLINE = 10;

/**
 * The applicable part of sorted, disjoint [start, end) intervals (flattened) in `text`: every piece of an interval
 * within one line whose ends are both clean, as defined above. Sorted and disjoint too.
 */
export function contentEdgeIntervals(text: string, intervals: Int32Array): Int32Array {
  const output: number[] = [];
  for (let pair = 0; pair + 1 < intervals.length; pair += 2) {
    const end = intervals[pair + 1];
    for (let pieceStart = intervals[pair]; pieceStart < end; ) {
      let pieceEnd = text.indexOf("\n", pieceStart);
      if (pieceEnd < 0 || pieceEnd > end) pieceEnd = end;
      if (pieceEnd > pieceStart) applyPiece(text, pieceStart, pieceEnd, output);
      pieceStart = pieceEnd + 1;
    }
  }
  return mergeAcrossLines(text, output);
}

/** Pushes the applied part of the piece [start, end) (no "\n" inside), if any. */
function applyPiece(text: string, start: number, end: number, output: number[]): void {
  const firstContent = nextContent(text, start, end);
  const lastContent = previousContent(text, end, start); // just after the piece's last letter or digit
  const before = skipSeparatorsBack(text, start); // just after the kept content before the piece, or the line start
  const after = skipSeparatorsForward(text, end); // the kept content after the piece, or the line end
  const atLineStart = before === 0 || text.charCodeAt(before - 1) === NEWLINE;
  const atLineEnd = after === text.length || text.charCodeAt(after) === NEWLINE;
  if (firstContent === end) {
    // Separators only: a whole line of them (a "›" or "|" block) goes; part of a line is nothing worth cutting.
    if (atLineStart && atLineEnd) output.push(before, after);
    return;
  }
  const startClean = atLineStart || holdsTerminal(text, before, firstContent);
  const endClean = atLineEnd || holdsTerminal(text, lastContent, after);
  if (!startClean || !endClean) return;
  output.push(atLineStart ? before : firstContent, atLineEnd ? after : lastContent);
}

/** First position in [from, limit) holding a letter, digit or mark, or limit. */
function nextContent(text: string, from: number, limit: number): number {
  let position = from;
  while (position < limit && isSeparatorCode(text.charCodeAt(position))) position += 1;
  return position;
}

/** Position just after the last letter, digit or mark in [limit, from), or limit. */
function previousContent(text: string, from: number, limit: number): number {
  let position = from;
  while (position > limit && isSeparatorCode(text.charCodeAt(position - 1))) position -= 1;
  return position;
}

/** Back from `from` over separators other than "\n": stops just after content, just after a "\n", or at 0. */
function skipSeparatorsBack(text: string, from: number): number {
  let position = from;
  while (position > 0) {
    const code = text.charCodeAt(position - 1);
    if (code === NEWLINE || !isSeparatorCode(code)) break;
    position -= 1;
  }
  return position;
}

/** Forward from `from` over separators other than "\n": stops at content, at a "\n", or at the end. */
function skipSeparatorsForward(text: string, from: number): number {
  let position = from;
  while (position < text.length) {
    const code = text.charCodeAt(position);
    if (code === NEWLINE || !isSeparatorCode(code)) break;
    position += 1;
  }
  return position;
}

function holdsTerminal(text: string, from: number, to: number): boolean {
  for (let position = from; position < to; position += 1) {
    const code = text.charCodeAt(position);
    if (code === NEWLINE) return false;
    if (isSentenceTerminal(code)) return true;
  }
  return false;
}

/**
 * Sorted pieces (flattened) joined where they overlap, touch, or meet across one "\n" (a piece reaching the end of
 * a line and one starting the next): then a block whose lines all go is covered by one interval and goes whole.
 */
function mergeAcrossLines(text: string, pieces: number[]): Int32Array {
  const merged: number[] = [];
  for (let index = 0; index < pieces.length; index += 2) {
    const last = merged.length - 1;
    const joins = last > 0 && (pieces[index] <= merged[last] || (pieces[index] === merged[last] + 1 && text.charCodeAt(merged[last]) === NEWLINE));
    if (joins) merged[last] = Math.max(merged[last], pieces[index + 1]);
    else merged.push(pieces[index], pieces[index + 1]);
  }
  return Int32Array.from(merged);
}
