/**
 * Related-content sections: a block whose whole text is a heading that announces other pages ("Related posts:",
 * "You may also like", "Also on HuffPost:", "Lesen Sie auch"), and the first block after it in its container that
 * holds text (the list or slideshow it heads). Every benchmark's gold and every reader leave such lists out, and an
 * article's own class names seldom say what they are. Only that one block goes: a "Related" line inside a story
 * heads a list, never the rest of the story. A heading counts at or after the start of the main content, or when
 * the block it heads holds the main-content estimate: a slideshow of long captions can outweigh the story, and
 * the estimate then gives way (decide.ts).
 */
import { FEATURE_NAMES, mainContentBlock, type FeatureMatrix, type PageModel } from "../page/index";
import { insideMarked } from "./comments";
import { headingWrapper, isHeading } from "./headings";

/** A name after "on" or "from" ("Also on HuffPost", "More stories from The Times"). */
const SOURCE = "[\\p{L}\\p{N} .'&-]+";

/**
 * The whole text of a related-content heading, in English and in the languages the comment headings know: German,
 * French, Spanish, Portuguese, Italian, Dutch, Polish, Swedish, Danish, Norwegian, Finnish, Czech, Turkish,
 * Romanian, Indonesian, Russian, Japanese and Chinese.
 */
const RELATED_HEADING = new RegExp(
  `^(?:related(?:\\s+(?:articles?|stories|posts?|links|news|content|coverage|reading|entries))?(?:\\s+on\\s+${SOURCE})?` +
    `|you\\s+(?:might|may)\\s+also\\s+(?:like|enjoy)|more\\s+(?:stories|news|articles)(?:\\s+from\\s+${SOURCE})?` +
    `|recommended(?:\\s+(?:stories|articles|for\\s+you))?|see\\s+also|also\\s+(?:on|in)\\s+${SOURCE}|read\\s+(?:next|also)|further\\s+reading` +
    `|(?:ähnliche|verwandte|weitere)\\s+artikel|lesen\\s+sie\\s+auch|mehr\\s+zum\\s+thema|das\\s+könnte\\s+sie\\s+auch\\s+interessieren` +
    `|(?:à\\s+)?(?:lire|voir)\\s+aussi|articles\\s+(?:similaires|liés)|sur\\s+le\\s+même\\s+sujet` +
    `|(?:artículos|noticias|artigos|notícias|matérias)\\s+relacionad[ao]s|lee\\s+también|(?:también\\s+)?te\\s+puede\\s+interesar|(?:leia|veja)\\s+também` +
    `|leggi\\s+anche|notizie\\s+correlate|articoli\\s+correlati|ti\\s+potrebbe\\s+interessare` +
    `|gerelateerde\\s+artikelen|lees\\s+ook|meer\\s+over\\s+dit\\s+onderwerp` +
    `|(?:czytaj|zobacz)\\s+(?:też|także)|(?:podobne|powiązane)\\s+artykuły` +
    `|relater(?:ade|ede|te)\\s+artik(?:lar|ler)|l[æe]s\\s+også|läs\\s+också|lue\\s+myös|související\\s+články|čtěte\\s+také` +
    `|[iİ]lgili\\s+haberler|articole\\s+similare|citește\\s+și|baca\\s+juga|(?:berita|artikel)\\s+terkait` +
    `|(?:читайте|смотрите)\\s+также|похожие\\s+(?:статьи|новости)|по\\s+теме` +
    `|関連(?:記事|ニュース)|あわせて読みたい|(?:相[关關]|延伸)(?:文章|阅读|閱讀|新闻|新聞))\\s*[:：]?$`,
  "iu",
);

/** Longest heading text looked at. */
const MAX_HEADING_CHARS = 60;

const MAIN_SCORE_COLUMN = FEATURE_NAMES.indexOf("mainContentScore");
/** Least candidate score, as a share of the best, of an article elsewhere (Readability's share for a sibling that joins the article). */
const ALTERNATIVE_SHARE = 0.2;

/**
 * Block ordinal → 1 for each related-content heading and the block it heads, where the heading is at or after the
 * start of block `main` (none without one), or heads `main` itself while another candidate stands outside it: then
 * the estimate took the related list (a slideshow of long captions) for the article, which lies elsewhere. A
 * heading wrapped in blocks that hold nothing else is taken with them.
 */
export function relatedBlocks(page: PageModel, features: FeatureMatrix, main: number): Uint8Array {
  const related = new Uint8Array(page.blockCount);
  if (main < 0) return related;
  const { parent, textStart } = page.blocks;
  for (let b = 1; b < page.blockCount; b++) {
    if (!isHeading(page, features, b, RELATED_HEADING, MAX_HEADING_CHARS)) continue;
    const top = headingWrapper(page, b);
    const headed = headedBlock(page, top);
    if (textStart[b] < textStart[main] && (headed === 0 || !isAncestorOrSelf(parent, headed, main) || !hasOtherCandidate(page, features, headed))) continue;
    related[top] = 1;
    if (headed > 0) related[headed] = 1;
    b = Math.max(b, headed);
  }
  return related;
}

/** The first block after heading `top` in its container that holds text (0 if none). */
function headedBlock(page: PageModel, top: number): number {
  const { parent, textStart, textEnd, sourceStart, sourceEnd } = page.blocks;
  const container = parent[top];
  let next = top + 1;
  while (next < page.blockCount && sourceStart[next] < sourceEnd[top]) next++;
  for (; next < page.blockCount && (container === 0 || sourceStart[next] < sourceEnd[container]); next++) {
    if (parent[next] === container && textEnd[next] > textStart[next]) return next;
  }
  return 0;
}

/**
 * Whether a main-content candidate outside block `section` scores at least ALTERNATIVE_SHARE of the best: a section
 * that holds the only article-like text is the article, whatever heading stands before it.
 */
function hasOtherCandidate(page: PageModel, features: FeatureMatrix, section: number): boolean {
  const marked = new Uint8Array(page.blockCount);
  marked[section] = 1;
  const other = mainContentBlock(features, insideMarked(page, marked));
  return other > 0 && features.data[other * features.featureCount + MAIN_SCORE_COLUMN] >= ALTERNATIVE_SHARE;
}

function isAncestorOrSelf(parent: Int32Array, ancestor: number, block: number): boolean {
  for (let b = block; b > 0; b = parent[b]) if (b === ancestor) return true;
  return false;
}
