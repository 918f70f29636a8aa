/**
 * Character references as HTML5 reads them: the full table of named references (2,231 names, the legacy
 * ones that may omit the ";" included), numeric references with the windows-1252 remap of 0x80-0x9F and
 * U+FFFD for NUL, surrogates and values past U+10FFFF, and the attribute-value rule (a legacy name without
 * ";" followed by "=" or a letter or digit stays as written). The names are those of entity-table.ts, read
 * once per isolate, on the first reference that needs them, into a hash table of typed arrays; a reference
 * is looked up in place in the page string, so decoding allocates only the decoded characters.
 */
import { ENTITY_DIGITS, ENTITY_MARKS, ENTITY_NAMES, ENTITY_VALUES, ENTITY_WORDS } from "./entity-table";

/** Offset just after the last reference decodeEntityAt decoded (read it with entityEnd()). */
let lastEntityEnd = 0;

export function entityEnd(): number {
  return lastEntityEnd;
}

/**
 * Decodes the character reference starting at `start` (the "&") in `source`, not reading past `limit`;
 * `inAttribute` applies the attribute-value rule. Returns the decoded string (entityEnd() then gives the
 * offset after the reference), or null if the "&" starts no reference.
 */
export function decodeEntityAt(source: string, start: number, limit: number, inAttribute = false): string | null {
  const next = start + 1 < limit ? source.charCodeAt(start + 1) : -1;
  if (next === 35) return numericReference(source, start, limit);
  if (!isAlphanumeric(next)) return null;
  return commonReference(source, start, limit, next) ?? namedReference(source, start + 1, limit, inAttribute);
}

/** "&amp;", "&nbsp;", "&quot;", "&lt;" and "&gt;" (most references on real pages), read without the table. */
function commonReference(source: string, start: number, limit: number, next: number): string | null {
  const name = next === 97 ? "amp;" : next === 110 ? "nbsp;" : next === 113 ? "quot;" : next === 108 ? "lt;" : next === 103 ? "gt;" : "";
  if (name === "" || start + 1 + name.length > limit || !source.startsWith(name, start + 1)) return null;
  lastEntityEnd = start + 1 + name.length;
  return next === 97 ? "&" : next === 110 ? "\u00a0" : next === 113 ? '"' : next === 108 ? "<" : ">";
}

function isAlphanumeric(code: number): boolean {
  return (code >= 48 && code <= 57) || ((code | 0x20) >= 97 && (code | 0x20) <= 122);
}

/**
 * Code points 0x80-0x9F read as windows-1252 (index = code - 0x80; the five codes windows-1252 leaves undefined
 * map to themselves): how HTML5 reads them in numeric references, and how the Encoding Standard decodes those bytes.
 */
export const WINDOWS_1252_C1 = [
  8364, 129, 8218, 402, 8222, 8230, 8224, 8225, 710, 8240, 352, 8249, 338, 141, 381, 143,
  144, 8216, 8217, 8220, 8221, 8226, 8211, 8212, 732, 8482, 353, 8250, 339, 157, 382, 376,
];

/** "&#" and decimal digits, or "&#x" and hexadecimal ones, then the ";" if there is one; null without digits. */
function numericReference(source: string, start: number, limit: number): string | null {
  let index = start + 2;
  const base = index < limit && (source.charCodeAt(index) | 0x20) === 120 ? 16 : 10;
  if (base === 16) index++;
  const digitsStart = index;
  let codePoint = 0;
  for (; index < limit; index++) {
    const digit = digitValue(source.charCodeAt(index));
    if (digit >= base) break;
    // Past U+10FFFF every value reads as U+FFFD: stopping there keeps long digit runs finite.
    codePoint = Math.min(codePoint * base + digit, 0x110000);
  }
  if (index === digitsStart) return null;
  lastEntityEnd = index < limit && source.charCodeAt(index) === 59 ? index + 1 : index;
  if (codePoint === 0 || (codePoint >= 0xd800 && codePoint <= 0xdfff) || codePoint > 0x10ffff) return "\ufffd";
  return String.fromCodePoint(codePoint >= 0x80 && codePoint <= 0x9f ? WINDOWS_1252_C1[codePoint - 0x80]! : codePoint);
}

/** A hexadecimal digit's value, or 16 for any other character. */
function digitValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  const lower = code | 0x20;
  return lower >= 97 && lower <= 102 ? lower - 87 : 16;
}

/*
 * The named references, read from entity-table.ts on first use. Names are found by a hash of their length and
 * five of their characters in an open-addressed table (slots hold entry + 1, 0 is empty; about a quarter full).
 */
const SLOT_BITS = 13;
const SLOT_MASK = (1 << SLOT_BITS) - 1;

let slots: Uint16Array = new Uint16Array(0);
let entryNames: string[] = [];
let entryValues: string[] = [];
/** Per entry: 1 if the name may omit its ";". */
let entryLegacy: Uint8Array = new Uint8Array(0);
/** Per first two characters (7 bits each): bit n set if a name of length n starts with them. */
let exactLengths: Uint32Array = new Uint32Array(0);
/** The same for the names that may omit their ";". */
let legacyLengths: Uint8Array = new Uint8Array(0);

/** A named reference whose name starts at `nameStart`: exact (name and ";"), else the longest legacy name there. */
function namedReference(source: string, nameStart: number, limit: number, inAttribute: boolean): string | null {
  if (slots.length === 0) loadNames();
  // Only the lengths of names that start with the same two characters can end at a ";", and one at most does.
  // A second character past ASCII is folded in: it prunes nothing wrongly, as findName checks every character.
  const second = nameStart + 1 < limit ? source.charCodeAt(nameStart + 1) & 127 : 0;
  let lengths = exactLengths[(source.charCodeAt(nameStart) << 7) | second]!;
  while (lengths !== 0) {
    const length = 31 - Math.clz32(lengths & -lengths);
    lengths &= lengths - 1;
    const end = nameStart + length;
    if (end >= limit) break;
    if (source.charCodeAt(end) !== 59) continue;
    const entry = findName(source, nameStart, length);
    if (entry >= 0) {
      lastEntityEnd = end + 1;
      return entryValues[entry]!;
    }
  }
  // Names that may omit their ";" have at most 6 characters (legacyLengths holds up to 7): the run matters to its 7th.
  const scanEnd = Math.min(limit, nameStart + 7);
  let runEnd = nameStart;
  while (runEnd < scanEnd && isAlphanumeric(source.charCodeAt(runEnd))) runEnd++;
  return legacyReference(source, nameStart, runEnd, limit, inAttribute);
}

/** The longest name that may omit its ";" at the start of the run source[nameStart, runEnd) (at most 7 long), or null. */
function legacyReference(source: string, nameStart: number, runEnd: number, limit: number, inAttribute: boolean): string | null {
  if (runEnd - nameStart < 2) return null;
  // The run's letters and digits are ASCII: its first two index legacyLengths. Lengths past the run are dropped.
  let lengths = legacyLengths[(source.charCodeAt(nameStart) << 7) | source.charCodeAt(nameStart + 1)]! & ((2 << (runEnd - nameStart)) - 1);
  while (lengths !== 0) {
    const length = 31 - Math.clz32(lengths);
    lengths ^= 1 << length;
    const entry = findName(source, nameStart, length);
    if (entry < 0 || entryLegacy[entry] === 0) continue;
    const end = nameStart + length;
    const after = end < limit ? source.charCodeAt(end) : -1;
    // In an attribute value, "&not=" or "&notx" stays as written (the longest legacy name decides).
    if (inAttribute && (after === 61 || isAlphanumeric(after))) return null;
    lastEntityEnd = end;
    return entryValues[entry]!;
  }
  return null;
}

/** The slot where the search for the name text[start, start + length) (two characters or more) begins. */
function firstSlot(text: string, start: number, length: number): number {
  const end = start + length;
  const outer = (text.charCodeAt(start) << 24) ^ (text.charCodeAt(start + 1) << 16) ^ (text.charCodeAt(end - 2) << 8) ^ text.charCodeAt(end - 1);
  const hash = Math.imul(Math.imul(outer, 0x9e3779b1) ^ (text.charCodeAt(start + (length >> 1)) << 5) ^ length, 0x85ebca6b);
  return (hash ^ (hash >>> 15)) >>> (32 - SLOT_BITS);
}

/** The entry whose name is source[start, start + length), or -1. */
function findName(source: string, start: number, length: number): number {
  for (let slot = firstSlot(source, start, length); ; slot = (slot + 1) & SLOT_MASK) {
    const entry = slots[slot]! - 1;
    if (entry < 0) return -1;
    const name = entryNames[entry]!;
    if (name.length === length && source.startsWith(name, start)) return entry;
  }
}

/** Reads entity-table.ts (its header describes the format) into the hash table, with native string operations. */
function loadNames(): void {
  const values = readValues();
  const words = ENTITY_WORDS.split(" ");
  const firstWordMark = ENTITY_MARKS.length - words.length;
  let text = ENTITY_NAMES;
  words.forEach((word, index) => (text = text.split(ENTITY_MARKS.charAt(firstWordMark + index)).join(word)));
  // Left: each name as its shared-length mark, then its rest and two value digits: ["", mark, rest, mark, rest, …].
  const parts = text.split(/([^0-9A-Za-z])/);
  const count = (parts.length - 1) / 2;
  entryNames = [];
  entryValues = [];
  entryLegacy = new Uint8Array(count);
  exactLengths = new Uint32Array(1 << 14);
  legacyLengths = new Uint8Array(1 << 14);
  let name = "";
  for (let entry = 0; entry < count; entry++) {
    const rest = parts[2 * entry + 2]!;
    name = name.slice(0, ENTITY_MARKS.indexOf(parts[2 * entry + 1]!)) + rest.slice(0, -2);
    const code = ENTITY_DIGITS.indexOf(rest.charAt(rest.length - 2)) * ENTITY_DIGITS.length + ENTITY_DIGITS.indexOf(rest.charAt(rest.length - 1));
    entryNames.push(name);
    entryValues.push(values[code >> 1]!);
    entryLegacy[entry] = code & 1;
    const pair = (name.charCodeAt(0) << 7) | name.charCodeAt(1);
    exactLengths[pair]! |= 1 << name.length;
    if ((code & 1) !== 0) legacyLengths[pair]! |= 1 << name.length;
  }
  slots = new Uint16Array(1 << SLOT_BITS);
  for (let entry = 0; entry < count; entry++) {
    let slot = firstSlot(entryNames[entry]!, 0, entryNames[entry]!.length);
    while (slots[slot] !== 0) slot = (slot + 1) & SLOT_MASK;
    slots[slot] = entry + 1;
  }
}

/** The distinct values of entity-table.ts, in its order. */
function readValues(): string[] {
  const values: string[] = [];
  const cursor = { at: 0 };
  let first = 0;
  while (cursor.at < ENTITY_VALUES.length) {
    const number = readNumber(ENTITY_VALUES, cursor);
    if ((number & 1) !== 0) {
      for (let run = number >> 1; run > 0; run--) values.push(String.fromCodePoint(++first));
      continue;
    }
    first += number >> 2;
    values.push((number & 2) === 0 ? String.fromCodePoint(first) : String.fromCodePoint(first, readNumber(ENTITY_VALUES, cursor)));
  }
  return values;
}

/** A number of entity-table.ts at cursor.at (marks, bijective base 28, then one digit, base 62); moves the cursor past it. */
function readNumber(text: string, cursor: { at: number }): number {
  let high = 0;
  for (let mark = ENTITY_MARKS.indexOf(text.charAt(cursor.at)); mark >= 0; mark = ENTITY_MARKS.indexOf(text.charAt(cursor.at))) {
    high = high * ENTITY_MARKS.length + mark + 1;
    cursor.at++;
  }
  return high * ENTITY_DIGITS.length + ENTITY_DIGITS.indexOf(text.charAt(cursor.at++));
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
