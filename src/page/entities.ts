/**
 * Character references in text: numeric ones, and the named ones of HTML 4 (the ones pages actually use),
 * with the HTML5 rule that the Latin-1 names and amp/lt/gt/quot may omit the semicolon.
 */

/** Names of U+00A0..U+00FF in order (the Latin-1 entities of HTML 4; also valid without ";"). */
const LATIN1_NAMES = (
  "nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 acute " +
  "micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml Aring AElig " +
  "Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash " +
  "Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc " +
  "euml igrave iacute icirc iuml eth ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml " +
  "yacute thorn yuml"
).split(" ");

const GREEK_UPPER = "Alpha Beta Gamma Delta Epsilon Zeta Eta Theta Iota Kappa Lambda Mu Nu Xi Omicron Pi Rho".split(" ");
const GREEK_UPPER_TAIL = "Sigma Tau Upsilon Phi Chi Psi Omega".split(" "); // from U+03A3 (U+03A2 is unassigned)
const GREEK_LOWER = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigmaf sigma tau upsilon phi chi psi omega".split(" ");

/** Other named references: name, code point. */
const OTHER_NAMES =
  "quot 34 amp 38 apos 39 lt 60 gt 62 OElig 338 oelig 339 Scaron 352 scaron 353 Yuml 376 fnof 402 circ 710 tilde 732 " +
  "thetasym 977 upsih 978 piv 982 ensp 8194 emsp 8195 thinsp 8201 zwnj 8204 zwj 8205 lrm 8206 rlm 8207 ndash 8211 " +
  "mdash 8212 lsquo 8216 rsquo 8217 sbquo 8218 ldquo 8220 rdquo 8221 bdquo 8222 dagger 8224 Dagger 8225 bull 8226 " +
  "hellip 8230 permil 8240 prime 8242 Prime 8243 lsaquo 8249 rsaquo 8250 oline 8254 frasl 8260 euro 8364 image 8465 " +
  "weierp 8472 real 8476 trade 8482 alefsym 8501 larr 8592 uarr 8593 rarr 8594 darr 8595 harr 8596 crarr 8629 " +
  "lArr 8656 uArr 8657 rArr 8658 dArr 8659 hArr 8660 forall 8704 part 8706 exist 8707 empty 8709 nabla 8711 " +
  "isin 8712 notin 8713 ni 8715 prod 8719 sum 8721 minus 8722 lowast 8727 radic 8730 prop 8733 infin 8734 ang 8736 " +
  "and 8743 or 8744 cap 8745 cup 8746 int 8747 there4 8756 sim 8764 cong 8773 asymp 8776 ne 8800 equiv 8801 le 8804 " +
  "ge 8805 sub 8834 sup 8835 nsub 8836 sube 8838 supe 8839 oplus 8853 otimes 8855 perp 8869 sdot 8901 lceil 8968 " +
  "rceil 8969 lfloor 8970 rfloor 8971 lang 9001 rang 9002 loz 9674 spades 9824 clubs 9827 hearts 9829 diams 9830 " +
  "hyphen 8208 dash 8208 nbhy 8209 horbar 8213 laquo 171 raquo 187 copysr 8471 check 10003 cross 10007 star 9734 starf 9733";

/** Entity name → decoded string. */
const NAMED = new Map<string, string>();
/** Names that HTML5 also accepts without the trailing ";". */
const LEGACY = new Set<string>(["amp", "lt", "gt", "quot", "AMP", "LT", "GT", "QUOT", "COPY", "REG"]);

LATIN1_NAMES.forEach((name, index) => {
  NAMED.set(name, String.fromCharCode(0xa0 + index));
  LEGACY.add(name);
});
GREEK_UPPER.forEach((name, index) => NAMED.set(name, String.fromCharCode(0x391 + index)));
GREEK_UPPER_TAIL.forEach((name, index) => NAMED.set(name, String.fromCharCode(0x3a3 + index)));
GREEK_LOWER.forEach((name, index) => NAMED.set(name, String.fromCharCode(0x3b1 + index)));
{
  const parts = OTHER_NAMES.split(" ");
  for (let i = 0; i + 1 < parts.length; i += 2) NAMED.set(parts[i], String.fromCodePoint(Number(parts[i + 1])));
  for (const [upper, lower] of [["AMP", "amp"], ["LT", "lt"], ["GT", "gt"], ["QUOT", "quot"], ["COPY", "copy"], ["REG", "reg"]]) {
    NAMED.set(upper, NAMED.get(lower) ?? "");
  }
}

/** Windows-1252 meanings of numeric references &#128; to &#159; (what browsers do). */
const C1_REMAP = "\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178";

/** Longest entity name in the table, in characters. */
const MAX_NAME_LENGTH = 10;

/** Offset just after the last reference decodeEntityAt decoded (read it with entityEnd()). */
let lastEntityEnd = 0;

export function entityEnd(): number {
  return lastEntityEnd;
}

/**
 * Decodes the character reference starting at `start` (the "&") in `source`, not reading past `limit`.
 * Returns the decoded string (entityEnd() then gives the offset after the reference), or null if none.
 */
export function decodeEntityAt(source: string, start: number, limit: number): string | null {
  const next = start + 1 < limit ? source.charCodeAt(start + 1) : -1;
  if (next === 35) return decodeNumeric(source, start, limit);
  let end = start + 1;
  while (end < limit && end - start <= MAX_NAME_LENGTH + 1 && isAlphanumeric(source.charCodeAt(end))) end++;
  if (end === start + 1) return null;
  const hasSemicolon = end < limit && source.charCodeAt(end) === 59;
  const name = source.slice(start + 1, end);
  const value = NAMED.get(name);
  if (value !== undefined && (hasSemicolon || LEGACY.has(name))) {
    lastEntityEnd = hasSemicolon ? end + 1 : end;
    return value;
  }
  return decodeLegacyPrefix(source, start, end);
}

/** "&copy2024" style: a legacy name followed by more letters or digits (HTML5 matches the longest prefix). */
function decodeLegacyPrefix(source: string, start: number, end: number): string | null {
  for (let length = Math.min(end - start - 1, 6); length >= 2; length--) {
    const name = source.slice(start + 1, start + 1 + length);
    if (LEGACY.has(name)) {
      lastEntityEnd = start + 1 + length;
      return NAMED.get(name) ?? null;
    }
  }
  return null;
}

function decodeNumeric(source: string, start: number, limit: number): string | null {
  let position = start + 2;
  const hex = position < limit && (source.charCodeAt(position) | 0x20) === 120;
  if (hex) position++;
  const digitsStart = position;
  let value = 0;
  while (position < limit) {
    const digit = digitValue(source.charCodeAt(position), hex);
    if (digit < 0) break;
    value = Math.min(value * (hex ? 16 : 10) + digit, 0x110000);
    position++;
  }
  if (position === digitsStart) return null;
  lastEntityEnd = position < limit && source.charCodeAt(position) === 59 ? position + 1 : position;
  if (value >= 0x80 && value <= 0x9f) return C1_REMAP[value - 0x80];
  if (value === 0 || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)) return "\ufffd";
  return String.fromCodePoint(value);
}

function digitValue(code: number, hex: boolean): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (!hex) return -1;
  const lower = code | 0x20;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}

function isAlphanumeric(code: number): boolean {
  return (code >= 48 && code <= 57) || ((code | 0x20) >= 97 && (code | 0x20) <= 122);
}

/** Decodes every character reference in source[start, end). */
export function decodeEntities(source: string, start: number, end: number): string {
  let position = source.indexOf("&", start);
  if (position < 0 || position >= end) return source.slice(start, end);
  let result = "";
  let copied = start;
  while (position >= 0 && position < end) {
    const decoded = decodeEntityAt(source, position, end);
    if (decoded !== null) {
      result += source.slice(copied, position) + decoded;
      copied = lastEntityEnd;
      position = source.indexOf("&", copied);
    } else {
      position = source.indexOf("&", position + 1);
    }
  }
  return result + source.slice(copied, end);
}
