/**
 * Where the article ends, as the site's schema.org markup says: the element whose itemprop is articleBody (microdata),
 * or the JSON-LD `articleBody` text (the story as the site states it; the article ends with the last block whose words
 * are in it). Blocks after the article's end are other stories (teasers, newsletters, "more in tech", tag lists) and
 * go. Keeping every block whose words are in the JSON-LD text was measured and not kept: it keeps the wrappers
 * around the story whole, share bars with them (scrapinghub 0.9397 -> 0.9359).
 */
import { ARTICLE_BODY_CONTENT_SHARE, ARTICLE_BODY_MIN_WORDS, ARTICLE_BODY_SHOWN_SHARE, ARTICLE_BODY_SHINGLE, ARTICLE_BODY_TEMPLATE_SHARE } from "../config";
import { readAttribute, type PageModel } from "../page/index";

/** Deepest nesting of JSON-LD values searched for an articleBody (a @graph of objects holds it two or three down). */
const MAX_JSON_DEPTH = 8;
/** A word as the benchmarks count them: a run of letters, digits and underscores. */
const WORD = /[\p{L}\p{N}_]+/gu;

/** What the article body says of the page's blocks. */
export interface ArticleBodyMarks {
  /**
   * Block ordinal → 1 for the blocks after the article's end: after the articleBody element, or after the last block
   * with ARTICLE_BODY_CONTENT_SHARE of its words in the JSON-LD text and with at most ARTICLE_BODY_TEMPLATE_SHARE in it.
   */
  readonly after: Uint8Array;
}

/**
 * The blocks after the page's article, or null when no visible element is the articleBody and the JSON-LD states none
 * of ARTICLE_BODY_MIN_WORDS words or more, or the page does not show it (less than ARTICLE_BODY_SHOWN_SHARE of its
 * words outside `hidden` blocks).
 */
export function articleBodyMarks(page: PageModel, hidden: Uint8Array): ArticleBodyMarks | null {
  const element = mentionsArticleBody(page.source) ? articleBodyElement(page, hidden) : -1;
  if (element > 0) {
    const after = new Uint8Array(page.blockCount);
    const end = page.blocks.textEnd[element];
    for (let b = element + 1; b < page.blockCount; b++) if (page.blocks.textStart[b] >= end && page.blocks.textEnd[b] > end) after[b] = 1;
    return { after };
  }
  const body = articleBodyText(page);
  if (body === null) return null;
  const bodyWords = words(body);
  if (bodyWords.length < ARTICLE_BODY_MIN_WORDS) return null;
  const shingles = new Set<string>();
  for (let i = 0; i + ARTICLE_BODY_SHINGLE <= bodyWords.length; i++) shingles.add(bodyWords.slice(i, i + ARTICLE_BODY_SHINGLE).join(" "));
  const { covered, total } = coveredWords(page, shingles, hidden);
  let shown = 0; // words of the page outside hidden blocks that the article body holds
  for (let b = 1; b < page.blockCount; b++) shown += covered[b];
  if (shown < ARTICLE_BODY_SHOWN_SHARE * bodyWords.length) return null;
  for (let b = page.blockCount - 1; b > 0; b--) {
    covered[page.blocks.parent[b]] += covered[b];
    total[page.blocks.parent[b]] += total[b];
  }
  let end = -1; // page-text offset where the last block of the article body ends
  for (let b = 1; b < page.blockCount; b++) {
    if (hidden[b] === 1 || total[b] === 0 || covered[b] < ARTICLE_BODY_CONTENT_SHARE * total[b]) continue;
    end = Math.max(end, page.blocks.textEnd[b]);
  }
  const after = new Uint8Array(page.blockCount);
  for (let b = 1; b < page.blockCount; b++) {
    if (page.blocks.textStart[b] >= end && total[b] > 0 && covered[b] <= ARTICLE_BODY_TEMPLATE_SHARE * total[b]) after[b] = 1;
  }
  return { after };
}

/**
 * Block ordinal → words of its own text nodes (`total`), and how many of them a shingle of the article body holds
 * (`covered`); own text only, not summed up the tree. Words of hidden blocks count in neither.
 */
function coveredWords(page: PageModel, shingles: ReadonlySet<string>, hidden: Uint8Array): { covered: Float64Array; total: Float64Array } {
  const covered = new Float64Array(page.blockCount);
  const total = new Float64Array(page.blockCount);
  const tokens: string[] = [];
  const starts: number[] = [];
  for (const match of page.text.matchAll(WORD)) {
    tokens.push(match[0].toLowerCase());
    starts.push(match.index);
  }
  const inBody = new Uint8Array(tokens.length);
  for (let i = 0; i + ARTICLE_BODY_SHINGLE <= tokens.length; i++) {
    if (shingles.has(tokens.slice(i, i + ARTICLE_BODY_SHINGLE).join(" "))) inBody.fill(1, i, i + ARTICLE_BODY_SHINGLE);
  }
  const { block, textStart, textEnd } = page.textNodes;
  let token = 0;
  for (let t = 0; t < page.textNodeCount; t++) {
    while (token < starts.length && starts[token] < textStart[t]) token++;
    for (; token < starts.length && starts[token] < textEnd[t]; token++) {
      if (hidden[block[t]] === 1) continue;
      total[block[t]]++;
      covered[block[t]] += inBody[token];
    }
  }
  return { covered, total };
}

function words(text: string): string[] {
  return Array.from(text.matchAll(WORD), (match) => match[0].toLowerCase());
}

/**
 * Whether the source holds "articleBody". Found through its "Body": a search for a pattern starting with a letter as
 * common in markup as "a" stops at nearly every character, one for the rarer "B" skips most of the page (about 3 times
 * faster over the dev pages' sources in Node).
 */
function mentionsArticleBody(source: string): boolean {
  for (let at = source.indexOf("Body", 7); at >= 0; at = source.indexOf("Body", at + 4)) if (source.startsWith("article", at - 7)) return true;
  return false;
}

/** The first visible block whose itemprop names the articleBody (schema.org microdata), or -1. */
function articleBodyElement(page: PageModel, hidden: Uint8Array): number {
  for (let b = 1; b < page.blockCount; b++) {
    if (hidden[b] === 1 || page.blocks.textEnd[b] === page.blocks.textStart[b]) continue;
    const itemprop = readAttribute(page.source, page.blocks.sourceNameEnd[b], page.blocks.startTagEnd[b], "itemprop");
    if (itemprop !== null && /(?:^|\s)articleBody(?:\s|$)/.test(itemprop)) return b;
  }
  return -1;
}

/** The longest articleBody string of the page's JSON-LD scripts (PageModel.articleBodyScripts), or null. */
export function articleBodyText(page: PageModel): string | null {
  const ranges = page.articleBodyScripts;
  if (ranges === undefined) return null;
  let best: string | null = null;
  for (let i = 0; i + 1 < ranges.length; i += 2) {
    let value: unknown;
    try {
      value = JSON.parse(page.source.slice(ranges[i], ranges[i + 1]));
    } catch {
      continue; // a site's broken JSON says nothing
    }
    for (const text of bodies(value, 0)) if (best === null || text.length > best.length) best = text;
  }
  return best;
}

/** The articleBody strings of a JSON-LD value, searched through objects and arrays. */
function bodies(value: unknown, depth: number): string[] {
  if (depth > MAX_JSON_DEPTH || value === null || typeof value !== "object") return [];
  if (Array.isArray(value)) return value.flatMap((item) => bodies(item, depth + 1));
  const out: string[] = [];
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (key === "articleBody" && typeof item === "string") out.push(item);
    else out.push(...bodies(item, depth + 1));
  }
  return out;
}
