/**
 * Reading one attribute of a start tag, with the same attribute states as the scanner (quoted values may
 * hold ">" or spaces; names are case-insensitive). Used for the few attributes pass 1 needs (lang, charset).
 */
import { decodeEntities } from "./entities";

/** HTML's ASCII white space, between a tag's name and attributes (the scanner's test too). */
export function isTagSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 12 || code === 13;
}

/** The attribute last read by readNextAttribute: its name's range and its value's (empty for a bare name). */
let nameStart = 0;
let nameEnd = 0;
let valueStart = 0;
let valueEnd = 0;

/**
 * What a character is inside a tag, for the scanner's tagEndAt: the codes that end a name or a value, by a table
 * of the codes below 128; any other code is TAG_ORDINARY.
 */
export const TAG_ORDINARY = 0;
export const TAG_SPACE = 1; // HTML's ASCII white space
export const TAG_SLASH = 2; // "/"
export const TAG_EQUALS = 3; // "="
export const TAG_CLOSE = 4; // ">"
const TAG_CHARACTER = new Uint8Array(128);
for (let code = 0; code < 128; code++) if (isTagSpace(code)) TAG_CHARACTER[code] = TAG_SPACE;
TAG_CHARACTER[47] = TAG_SLASH;
TAG_CHARACTER[61] = TAG_EQUALS;
TAG_CHARACTER[62] = TAG_CLOSE;

export function tagCharacter(code: number): number {
  return code < 128 ? TAG_CHARACTER[code] : TAG_ORDINARY;
}

/** Reads the attribute at or after `i` in source[i, to): sets the ranges above; returns where the next one may start, or -1 when none is left. */
function readNextAttribute(source: string, i: number, to: number): number {
  while (i < to) {
    const code = source.charCodeAt(i);
    if (!isTagSpace(code) && code !== 47 && code !== 62) break;
    i++;
  }
  if (i >= to) return -1;
  nameStart = i;
  i++; // the first character of a name may be "="
  while (i < to && !isTagSpace(source.charCodeAt(i)) && source.charCodeAt(i) !== 47 && source.charCodeAt(i) !== 61 && source.charCodeAt(i) !== 62) i++;
  nameEnd = i;
  while (i < to && isTagSpace(source.charCodeAt(i))) i++;
  valueStart = i;
  valueEnd = i;
  if (i < to && source.charCodeAt(i) === 61) {
    i++;
    while (i < to && isTagSpace(source.charCodeAt(i))) i++;
    const quote = source.charCodeAt(i);
    if (quote === 34 || quote === 39) {
      const close = source.indexOf(quote === 34 ? '"' : "'", i + 1);
      valueStart = i + 1;
      valueEnd = close < 0 || close > to ? to : close;
      i = valueEnd + 1;
    } else {
      valueStart = i;
      while (i < to && !isTagSpace(source.charCodeAt(i)) && source.charCodeAt(i) !== 62) i++;
      valueEnd = i;
    }
  }
  return i;
}

/** Value range [start, end) of the attribute `lowercaseName` in source[from, to), or null when absent. */
export function findAttribute(source: string, from: number, to: number, lowercaseName: string): [number, number] | null {
  for (let i = readNextAttribute(source, from, to); i >= 0; i = readNextAttribute(source, i, to)) {
    if (nameEnd - nameStart === lowercaseName.length && namesMatch(source, nameStart, lowercaseName)) return [valueStart, valueEnd];
  }
  return null;
}

/**
 * The value ranges of several attributes in one reading of the tag: ranges[2n] and ranges[2n + 1] become the range
 * of lowercaseNames[n] (its first occurrence, as findAttribute gives it), or -1 and -1 when absent.
 */
export function findAttributes(source: string, from: number, to: number, lowercaseNames: readonly string[], ranges: Int32Array): void {
  ranges.fill(-1, 0, 2 * lowercaseNames.length);
  let missing = lowercaseNames.length;
  for (let i = readNextAttribute(source, from, to); i >= 0 && missing > 0; i = readNextAttribute(source, i, to)) {
    for (let n = 0; n < lowercaseNames.length; n++) {
      const name = lowercaseNames[n];
      if (ranges[2 * n] >= 0 || nameEnd - nameStart !== name.length || !namesMatch(source, nameStart, name)) continue;
      ranges[2 * n] = valueStart;
      ranges[2 * n + 1] = valueEnd;
      missing--;
    }
  }
}

/**
 * Whether the name at source[start, start + name length), lower-cased, is `lowercaseName`: compared code by code, with
 * no string made (every tag's names are tested), except where the name holds a non-ASCII character, which toLowerCase
 * may map to ASCII (the Kelvin sign to "k").
 */
function namesMatch(source: string, start: number, lowercaseName: string): boolean {
  for (let i = 0; i < lowercaseName.length; i++) {
    const code = source.charCodeAt(start + i);
    if (code >= 0x80) return source.slice(start, start + lowercaseName.length).toLowerCase() === lowercaseName;
    if ((code >= 65 && code <= 90 ? code | 0x20 : code) !== lowercaseName.charCodeAt(i)) return false;
  }
  return true;
}

/** Decoded value of an attribute (HTML5's attribute-value rule for references), or null when absent. */
export function readAttribute(source: string, from: number, to: number, lowercaseName: string): string | null {
  const range = findAttribute(source, from, to, lowercaseName);
  return range === null ? null : decodeEntities(source, range[0], range[1], true);
}
