/**
 * Related-content sections: a block whose whole text is a heading that announces other pages ("Related posts:",
 * "You may also like", "Also on HuffPost:", "Lesen Sie auch"), and the first block after it in its container that
 * holds text (the list or slideshow it heads). Every benchmark's gold and every reader leave such lists out, and an
 * article's own class names seldom say what they are. Only that one block goes: a "Related" line inside a story
 * heads a list, never the rest of the story. A heading counts at or after the start of the main content, or when
 * the block it heads holds the main-content estimate: a slideshow of long captions can outweigh the story, and
 * the estimate then gives way (decide.ts).
 */
import { FEATURE_NAMES, mainContentBlock, tagId, type FeatureMatrix, type PageModel } from "../page/index";
import { insideMarked } from "./comments";
import { headingWrapper, isHeading } from "./headings";

/** A name after "on" or "from" ("Also on HuffPost", "More stories from The Times"). */
const SOURCE = "[\\p{L}\\p{N} .'&-]+";

/**
 * What a related-content heading or label names, in English and in the languages the comment headings know: German,
 * French, Spanish, Portuguese, Italian, Dutch, Polish, Swedish, Danish, Norwegian, Finnish, Czech, Turkish,
 * Romanian, Indonesian, Russian, Japanese and Chinese.
 */
const RELATED_NAMES =
  `related(?:\\s+(?:articles?|stories|posts?|links|news|content|coverage|reading|entries))?(?:\\s+on\\s+${SOURCE})?` +
    `|you\\s+(?:might|may)\\s+also\\s+(?:like|enjoy)|more\\s+(?:[\\p{L}\\p{N}'’&-]+\\s+){0,2}(?:stories|news|articles)(?:\\s+from\\s+${SOURCE})?` +
    `|recommended(?:\\s+(?:stories|articles|for\\s+you))?|see\\s+also|also\\s+(?:on|in)\\s+${SOURCE}|read\\s+(?:next|also)|further\\s+reading` +
    `|(?:ähnliche|verwandte|weitere)\\s+artikel|lesen\\s+sie\\s+auch|mehr\\s+zum\\s+thema|das\\s+könnte\\s+sie\\s+auch\\s+interessieren` +
    `|(?:à\\s+)?(?:lire|voir)\\s+aussi|articles\\s+(?:similaires|liés)|sur\\s+le\\s+même\\s+sujet` +
    `|(?:artículos|noticias|artigos|notícias|matérias)\\s+relacionad[ao]s|lee\\s+también|(?:también\\s+)?te\\s+puede\\s+interesar|(?:leia|veja)\\s+também|(?:você\\s+)?(?:também\\s+)?pode\\s+gostar` +
    `|leggi\\s+anche|notizie\\s+correlate|articoli\\s+correlati|ti\\s+potrebbe\\s+interessare` +
    `|gerelateerde\\s+artikelen|lees\\s+ook|meer\\s+over\\s+dit\\s+onderwerp` +
    `|(?:czytaj|zobacz)\\s+(?:też|także)|(?:podobne|powiązane)\\s+artykuły` +
    `|relater(?:ade|ede|te)\\s+artik(?:lar|ler)|l[æe]s\\s+også|läs\\s+också|lue\\s+myös|související\\s+články|čtěte\\s+také` +
    `|[iİ]lgili\\s+haberler|articole\\s+similare|citește\\s+și|baca\\s+juga|(?:berita|artikel)\\s+terkait` +
    `|(?:читайте|смотрите)\\s+также|похожие\\s+(?:статьи|новости)|по\\s+теме` +
    `|関連(?:記事|ニュース)|あわせて読みたい|(?:相[关關]|延伸)(?:文章|阅读|閱讀|新闻|新聞)`;

/** The whole text of a related-content heading. */
const RELATED_HEADING = new RegExp(`^(?:${RELATED_NAMES})\\s*(?:[:：]|\\.{3}|…)?$`, "iu");

/**
 * The start of a line that links one other story from inside an article: a related-content name, "Read more" or "See
 * more", then a colon ("Related: Europa, icy moon of Jupiter", "READ MORE: China plague outbreak confirmed", "SEE ALSO:
 * …"). "More:" alone is no label: it names a story's own sources as often (dragnet's neojaponisme.com).
 */
const RELATED_LABEL = new RegExp(`^[(\\[]?\\s*(?:${RELATED_NAMES}|(?:read|see)\\s+more)\\s*[:：]`, "iu");
/** Longest related line looked at (characters): a label and a headline or two. */
const MAX_RELATED_LINE_CHARS = 300;
/** Least share of a related line's text after its label that is link text. */
const RELATED_LINE_LINK_SHARE = 0.5;

/** Longest heading text looked at. */
const MAX_HEADING_CHARS = 60;

const MAIN_SCORE_COLUMN = FEATURE_NAMES.indexOf("mainContentScore");
const TAG_P = tagId("p");
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
    b = Math.max(b, headed > 0 ? markLikeSiblings(page, headed, related) : b);
  }
  markRelatedLines(page, textStart[main], related);
  return related;
}

/**
 * Marks the related lines (RELATED_LABEL, then mostly link text) that start at or after page-text offset `from`: each
 * links one other story from inside the article, and readers and the benchmarks' gold leave them out.
 */
function markRelatedLines(page: PageModel, from: number, related: Uint8Array): void {
  const { textStart, textEnd, sourceEnd } = page.blocks;
  let linkChars: Float64Array | null = null;
  for (let b = 1; b < page.blockCount; b++) {
    const length = textEnd[b] - textStart[b];
    if (textStart[b] < from || length === 0 || length > MAX_RELATED_LINE_CHARS || related[b] === 1) continue;
    const label = RELATED_LABEL.exec(page.text.slice(textStart[b], textEnd[b]).trimStart());
    if (label === null) continue;
    linkChars ??= blockLinkChars(page);
    if (linkChars[b] < RELATED_LINE_LINK_SHARE * (length - label[0].length)) continue;
    related[b] = 1;
    while (b + 1 < page.blockCount && page.blocks.sourceStart[b + 1] < sourceEnd[b]) b++; // its subtree goes with it
  }
}

/** Block ordinal → characters of link text in its subtree. */
function blockLinkChars(page: PageModel): Float64Array {
  const chars = new Float64Array(page.blockCount);
  const { block, textStart, textEnd, inLink } = page.textNodes;
  for (let t = 0; t < page.textNodeCount; t++) if (inLink[t] === 1) chars[block[t]] += textEnd[t] - textStart[t];
  for (let b = page.blockCount - 1; b > 0; b--) chars[page.blocks.parent[b]] += chars[b];
  return chars;
}

/**
 * Marks the run of siblings after block `first` with its tag (the cards of a list of teasers: <article>, <article>,
 * ...), and returns the last block of the run's last subtree. A list that a heading names goes on while its cards do;
 * a run of paragraphs is not one (the text after a related line may be the story's own).
 */
function markLikeSiblings(page: PageModel, first: number, related: Uint8Array): number {
  const { parent, tag, sourceStart, sourceEnd } = page.blocks;
  let last = first;
  for (let b = first + 1; tag[first] !== TAG_P && b < page.blockCount; b++) {
    if (sourceStart[b] < sourceEnd[last]) continue; // inside the last card
    if (parent[b] !== parent[first] || tag[b] !== tag[first]) break;
    related[b] = 1;
    last = b;
  }
  let end = last;
  while (end + 1 < page.blockCount && sourceStart[end + 1] < sourceEnd[last]) end++;
  return end;
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
