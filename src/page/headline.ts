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
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
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
  const key = comparisonKey(headline);
  if (key.length < MIN_HEADLINE_KEY) return null;
  const title = comparisonKey(page.title);
  const { textStart, textEnd } = page.blocks;
  let found: Uint8Array | null = null;
  for (let block = 1; block < page.blockCount; block++) {
    const length = textEnd[block] - textStart[block];
    if (length < key.length || length > 2 * Math.max(headline.length, page.title.length)) continue;
    const text = comparisonKey(page.text.slice(textStart[block], textEnd[block]));
    if (text !== key && !(text.includes(key) && title.includes(text))) continue;
    found ??= new Uint8Array(page.blockCount);
    found[block] = 1;
  }
  return found;
}
