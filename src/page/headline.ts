/**
 * The blocks of a page that state its headline.
 */
import type { PageModel } from "./types";

/** Shortest headline, in letters and digits, that names one page rather than a site ("Home", "News", "Blog"). */
const MIN_HEADLINE_KEY = 10;

/**
 * Letters and digits only, lower case: a <title> and the heading that states it differ in punctuation and white space
 * ("Now–2x" and "Now2x", "Stats… Impressive!" and "Stats Impressive!"), not in words.
 */
function comparisonKey(text: string): string {
  return rangeKey(text, 0, text.length, Infinity) ?? "";
}

/**
 * comparisonKey of text[start, end), or null once the key is longer than `limit`. ASCII text (most headings, and
 * most blocks compared) is keyed in one loop that stops at the limit; other text by the Unicode pattern.
 */
function rangeKey(text: string, start: number, end: number, limit: number): string | null {
  if (end - start > keyCodes.length) return limited(unicodeComparisonKey(text.slice(start, end)), limit);
  let kept = 0;
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x80) return limited(unicodeComparisonKey(text.slice(start, end)), limit);
    const lower = code >= 65 && code <= 90 ? code | 0x20 : code;
    if (!((lower >= 97 && lower <= 122) || (code >= 48 && code <= 57))) continue;
    if (kept === limit) return null;
    keyCodes[kept++] = lower;
  }
  return String.fromCharCode.apply(null, keyCodes.subarray(0, kept) as unknown as number[]);
}

/** rangeKey's buffer. */
const keyCodes = new Uint16Array(4096);

function unicodeComparisonKey(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
}

function limited(key: string, limit: number): string | null {
  return key.length > limit ? null : key;
}

/** The page's <title> as isTitleText compares it (computed once per page). */
export function titleKey(page: PageModel): string {
  return comparisonKey(page.title);
}

/** Whether `text` states the page's headline: long enough to name one page, and part of the <title> (its titleKey). */
export function isTitleText(text: string, title: string): boolean {
  const key = comparisonKey(text);
  return key.length >= MIN_HEADLINE_KEY && title.includes(key);
}

/**
 * Block ordinal → 1 for the blocks that state the article's `headline` (the <title> without the site's name,
 * titleWithoutSiteName): their text, compared by comparisonKey, is the headline, or holds it and is part of the page's <title>
 * ("Section: Post" where the <title> says so). Null when the headline is too short to name one page, or no block
 * states it. Only blocks about the headline's length are compared, so the walk stays linear in the page.
 */
export function headlineBlocks(page: PageModel, headline: string): Uint8Array | null {
  const compared = headlineKey(page, headline);
  if (compared === null) return null;
  let found: Uint8Array | null = null;
  for (let block = 1; block < page.blockCount; block++) {
    if (!statesHeadline(page, block, compared)) continue;
    found ??= new Uint8Array(page.blockCount);
    found[block] = 1;
  }
  return found;
}

/** A headline as statesHeadline compares blocks with it. */
export interface HeadlineKey {
  readonly key: string;
  readonly title: string;
  /** Longest block text (characters) that may state it. */
  readonly maxChars: number;
}

/** The headline's comparison key, or null when it is too short to name one page. */
export function headlineKey(page: PageModel, headline: string): HeadlineKey | null {
  const key = comparisonKey(headline);
  return key.length < MIN_HEADLINE_KEY ? null : { key, title: comparisonKey(page.title), maxChars: 2 * Math.max(headline.length, page.title.length) };
}

/** Whether one block states the headline (see headlineBlocks): for a caller that looks at a few blocks only. */
export function statesHeadline(page: PageModel, block: number, { key, title, maxChars }: HeadlineKey): boolean {
  const { textStart, textEnd } = page.blocks;
  const length = textEnd[block] - textStart[block];
  if (length < key.length || length > maxChars) return false;
  // A key longer than both the headline's and the title's can be neither.
  const text = rangeKey(page.text, textStart[block], textEnd[block], Math.max(key.length, title.length));
  return text !== null && (text === key || (text.includes(key) && title.includes(text)));
}
