/**
 * Character references as HTML5 reads them: the full table of named references (2,231 names, the legacy
 * ones that may omit the ";" included), numeric references with the windows-1252 remap of 0x80-0x9F and
 * U+FFFD for NUL, surrogates and values past U+10FFFF, and the attribute-value rule (a legacy name without
 * ";" followed by "=" or a letter or digit stays as written). The table and the state machine that walks it
 * are those of the `entities` package (the decoder of htmlparser2 and parse5); this file feeds it offsets
 * into the page string, so decoding allocates only the decoded characters.
 */
import { DecodingMode, HtmlEntityDecoder } from "entities/decode";

/** Up to two UTF-16 units or code points the decoder emitted for the current reference (-1: none). */
let firstUnit = -1;
let secondUnit = -1;

const decoder = new HtmlEntityDecoder((unit: number) => {
  if (firstUnit < 0) firstUnit = unit;
  else secondUnit = unit;
});

/** Offset just after the last reference decodeEntityAt decoded (read it with entityEnd()). */
let lastEntityEnd = 0;

export function entityEnd(): number {
  return lastEntityEnd;
}

/** A character that can continue a reference (a letter, a digit or ";"), or "=" which decides one in an attribute. */
function continuesReference(code: number): boolean {
  return isAlphanumeric(code) || code === 59 || code === 61;
}

/**
 * Decodes the character reference starting at `start` (the "&") in `source`, not reading past `limit`;
 * `inAttribute` applies the attribute-value rule. Returns the decoded string (entityEnd() then gives the
 * offset after the reference), or null if the "&" starts no reference.
 */
export function decodeEntityAt(source: string, start: number, limit: number, inAttribute = false): string | null {
  const next = start + 1 < limit ? source.charCodeAt(start + 1) : -1;
  if (next !== 35 && !isAlphanumeric(next)) return null;
  const common = commonReference(source, start, limit, next);
  if (common !== null) return common;
  firstUnit = -1;
  secondUnit = -1;
  decoder.startEntity(inAttribute ? DecodingMode.Attribute : DecodingMode.Legacy);
  // The decoder reads to the end of the string it is given. Ranges from the scanner end at a character that
  // stops every reference ("<", a quote, a space); only a range cut elsewhere needs a bounded copy.
  let consumed = limit >= source.length || !continuesReference(source.charCodeAt(limit))
    ? decoder.write(source, start + 1)
    : decoder.write(source.slice(start + 1, limit), 0);
  if (consumed < 0) consumed = decoder.end();
  if (consumed <= 0 || firstUnit < 0) return null;
  lastEntityEnd = start + consumed;
  // Named values come as UTF-16 units (a surrogate pair is two), numeric ones as a code point: fromCodePoint takes both.
  return secondUnit < 0 ? String.fromCodePoint(firstUnit) : String.fromCodePoint(firstUnit, secondUnit);
}

/** "&amp;", "&nbsp;", "&quot;", "&lt;" and "&gt;" (most references on real pages), read without the decoder's setup. */
function commonReference(source: string, start: number, limit: number, next: number): string | null {
  const name = next === 97 ? "amp;" : next === 110 ? "nbsp;" : next === 113 ? "quot;" : next === 108 ? "lt;" : next === 103 ? "gt;" : "";
  if (name === "" || start + 1 + name.length > limit || !source.startsWith(name, start + 1)) return null;
  lastEntityEnd = start + 1 + name.length;
  return next === 97 ? "&" : next === 110 ? "\u00a0" : next === 113 ? '"' : next === 108 ? "<" : ">";
}

function isAlphanumeric(code: number): boolean {
  return (code >= 48 && code <= 57) || ((code | 0x20) >= 97 && (code | 0x20) <= 122);
}

/** Decodes every character reference in source[start, end); `inAttribute` for attribute values. */
export function decodeEntities(source: string, start: number, end: number, inAttribute = false): string {
  let position = ampersandBefore(source, start, end);
  if (position < 0) return source.slice(start, end);
  let result = "";
  let copied = start;
  while (position >= 0) {
    const decoded = decodeEntityAt(source, position, end, inAttribute);
    if (decoded !== null) {
      result += source.slice(copied, position) + decoded;
      copied = lastEntityEnd;
      position = ampersandBefore(source, copied, end);
    } else {
      position = ampersandBefore(source, position + 1, end);
    }
  }
  return result + source.slice(copied, end);
}

/**
 * The first "&" in source[from, end), or -1. Not indexOf: it searches to the end of the page, so decoding
 * many short ranges of a page with no "&" after them would read the rest of the page each time (quadratic).
 */
function ampersandBefore(source: string, from: number, end: number): number {
  for (let index = from; index < end; index++) if (source.charCodeAt(index) === 38) return index;
  return -1;
}
