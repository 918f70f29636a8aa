/**
 * The marks that tell prose, in the scripts the web writes in: where a sentence ends, where a clause breaks, which
 * characters are words of their own, and what is code rather than prose. Features (words, sentences, commas), the
 * reader metadata, the rules (a match never cuts a sentence), the miner and the classifier's decision read these.
 */

/**
 * Marks that end a sentence wherever they stand: the ideographic and full-width full stop, exclamation and question
 * marks (Chinese and Japanese, with no space after them), the Arabic question mark and full stop (Arabic, Persian,
 * Urdu), and the Devanagari danda and double danda (Hindi, Marathi, Nepali; Bengali writes the same marks).
 */
const SCRIPT_SENTENCE_ENDS = new Set([0x3002, 0xff01, 0xff0e, 0xff1f, 0x061f, 0x06d4, 0x0964, 0x0965]);

/** . ! ? … ‼, which end a sentence where a space or the text's end follows them, and the marks above. */
const SENTENCE_TERMINALS = new Set([0x2e, 0x21, 0x3f, 0x2026, 0x203c, ...SCRIPT_SENTENCE_ENDS]);

/** The comma and its Arabic, full-width, ideographic, small and vertical forms (the set Readability counts, with the ideographic comma). */
const COMMAS = new Set([0x2c, 0x060c, 0xff0c, 0x3001, 0xfe50, 0xfe10, 0xfe11, 0x2e41, 0x2e34, 0x2e32]);

const ASCII_COMMA = 1;
const ASCII_TERMINAL = 2;
const ASCII_SCRIPT_END = 4;
/**
 * ASCII code → its bits among the sets above: most of a page's text is ASCII, and the features test its every
 * punctuation mark, so an ASCII code is answered by one load instead of a set lookup.
 */
const ASCII_MARKS = Uint8Array.from({ length: 0x80 }, (_, code) =>
  (COMMAS.has(code) ? ASCII_COMMA : 0) | (SENTENCE_TERMINALS.has(code) ? ASCII_TERMINAL : 0) | (SCRIPT_SENTENCE_ENDS.has(code) ? ASCII_SCRIPT_END : 0));

export function isSentenceTerminal(code: number): boolean {
  return code < 0x80 ? (ASCII_MARKS[code] & ASCII_TERMINAL) !== 0 : SENTENCE_TERMINALS.has(code);
}

/** A sentence end that needs no space after it to be one (SCRIPT_SENTENCE_ENDS). */
export function isScriptSentenceEnd(code: number): boolean {
  return code < 0x80 ? (ASCII_MARKS[code] & ASCII_SCRIPT_END) !== 0 : SCRIPT_SENTENCE_ENDS.has(code);
}

export function isComma(code: number): boolean {
  return code < 0x80 ? (ASCII_MARKS[code] & ASCII_COMMA) !== 0 : COMMAS.has(code);
}

/**
 * Kana and CJK ideographs: Chinese and Japanese are written without spaces, so each of these characters
 * counts as a word of its own. Otherwise a whole paragraph would be one long word, and every per-word
 * feature of such a page would be far from what the model learned.
 */
export function isIdeograph(code: number): boolean {
  if (code < 0x3040) return false; // all of Latin, Greek, Cyrillic… with one comparison
  return code <= 0x30ff || (code >= 0x3400 && code <= 0x4dbf) || (code >= 0x4e00 && code <= 0x9fff) || (code >= 0xf900 && code <= 0xfaff);
}

/** Marks that script and style code is full of and prose nearly never holds: = { } ; ( ). */
const CODE_MARKS = /[={};()]/g;
/** Code's assignments and braces: a run of prose may hold semicolons and brackets, seldom these. */
const CODE_STRUCTURE = /[={}]/;

/**
 * Script or style code read as text (a truncated <head> or an unclosed comment spills it into the page): at
 * least four code marks, one per 30 characters or more, among them an assignment or a brace. Prose with
 * semicolons ("beans; cauliflower; and rice") or a {bracketed aside} is not code.
 */
export function isCodeLike(text: string): boolean {
  if (!CODE_STRUCTURE.test(text)) return false;
  const marks = text.match(CODE_MARKS)?.length ?? 0;
  return marks >= 4 && marks * 30 >= text.length;
}
