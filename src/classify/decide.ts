/**
 * From block scores to a removal plan: score (model), quantise, smooth over the tree (isotonic
 * regression with text-length penalties), remove the top-most blocks above the threshold.
 */
import { FRAME_MIN_SHARE, PROSE_MIN_CHARS, SMOOTHING_SCORE_LEVELS, SPREAD_MAIN_MAX_SHARE } from "../config";
import { computeFeatures, FRAME_COLUMNS, isCodeLike, isTitleText, mainContentBlock, TAG_SELECT, tagId, titleKey, type FeatureMatrix, type PageModel } from "../page/index";
import { keepWhole, normalisePlan, type NormalisedPlan, type RemovalPlan } from "../plan/index";
import { articleBodyMarks, type ArticleBodyMarks } from "./article-body";
import { scoreBlocks, type ClassifierModel, type FallbackKind, type UnsureMargins } from "./model";
import { commentBlocks, insideMarked } from "./comments";
import { hiddenBlocks } from "./hidden";
import { consentBlocks } from "./consent";
import { relatedBlocks } from "./related";
import { recognisePageKind, type PageKind } from "./kind";
import { isotonicSmooth } from "./smoothing";

export interface ClassifyOptions {
  /** Smooth the scores over the tree (default true); without it each block's own text is judged alone. */
  readonly smoothing: boolean;
  /** Overrides of the model's settings (for calibration runs). */
  readonly threshold?: number;
  readonly penaltyScale?: number;
  readonly charsPerUnit?: number;
  readonly keepChars?: number;
  readonly keepMargin?: number;
  /** Outside the main-content block and its ancestors, blocks go above the base threshold (not the page's). */
  readonly mainOnly?: boolean;
  /** Least share of the page's prose that is kept (the guard against losing the article; 0 off). */
  readonly keepProse?: number;
  /** Features already computed for this page (skips computing them again). */
  readonly features?: FeatureMatrix;
  /** Model scores already computed for this page (skips features and scoring; for calibration runs). */
  readonly scores?: Float32Array;
  /** Smoothed scores already computed for this page with the same penalty settings (skips smoothing; for calibration runs). */
  readonly smoothed?: Float32Array;
  /** The page's comment blocks already found (commentBlocks; for calibration runs). */
  readonly comments?: Uint8Array;
  /** The page's related-content sections already found (relatedBlocks; for calibration runs). */
  readonly related?: Uint8Array;
  /** The page's unread blocks already found (unreadBlocks: hidden elements and consent banners; for calibration runs). */
  readonly hidden?: Uint8Array;
  /** What the page's JSON-LD articleBody says of its blocks, already found (articleBodyMarks; for calibration runs). */
  readonly articleBody?: ArticleBodyMarks | null;
  /** The page's kind (kind.ts), found already or named by the caller; recognised from the page when absent. */
  readonly kind?: PageKind;
  /** Override of the model's unsure margins per page kind (for calibration runs; see fallbackKind). */
  readonly unsureMargins?: UnsureMargins;
}

export interface Classification {
  /** Block ordinal → model score. */
  readonly scores: Float32Array;
  /** Block ordinal → smoothed score (equal to the quantised scores when smoothing is off). */
  readonly smoothed: Float32Array;
  readonly plan: NormalisedPlan;
  /** Block ordinal → 1 for the top-most reader-comment blocks (see comments.ts; none without features, none on a forum thread). */
  readonly comments: Uint8Array;
  /** The page's kind the decision read. */
  readonly kind: PageKind;
}

const DEFAULT_OPTIONS: ClassifyOptions = { smoothing: true };

/** Per-block smoothing weights and penalties from the page's text lengths. */
export function smoothingInputs(page: PageModel, penaltyScale: number, charsPerUnit: number): { weights: Float32Array; penalties: Float32Array } {
  const count = page.blockCount;
  const ownChars = new Float64Array(count); // block ordinal → characters of its own text nodes
  for (let t = 0; t < page.textNodeCount; t++) ownChars[page.textNodes.block[t]] += page.textNodes.textEnd[t] - page.textNodes.textStart[t];
  const weights = new Float32Array(count);
  const penalties = new Float32Array(count);
  const pageChars = page.text.length + 1;
  for (let b = 0; b < count; b++) {
    weights[b] = 1 + ownChars[b] / charsPerUnit;
    penalties[b] = (penaltyScale * pageChars) / (page.blocks.textEnd[b] - page.blocks.textStart[b] + 1);
  }
  return { weights, penalties };
}

/** Smooths block scores over the page's block tree (scores quantised to SMOOTHING_SCORE_LEVELS first). */
export function smoothScores(page: PageModel, scores: Float32Array, weights: Float32Array, penalties: Float32Array): Float32Array {
  const quantised = quantise(scores);
  return isotonicSmooth({ parent: page.blocks.parent, scores: quantised, weights, penalties, levels: quantisedLevels(quantised) });
}

/**
 * The distinct values of quantised scores in increasing order, as distinctLevels gives them, from the levels present
 * instead of a sort of every score; undefined where a score is NaN (distinctLevels keeps each NaN apart).
 */
function quantisedLevels(quantised: Float32Array): Float32Array | undefined {
  const top = SMOOTHING_SCORE_LEVELS - 1;
  const present = new Uint8Array(SMOOTHING_SCORE_LEVELS);
  let count = 0;
  for (let i = 0; i < quantised.length; i++) {
    const level = Math.round(quantised[i] * top); // exact: quantised[i] is level / top rounded to a float
    if (!(level >= 0)) return undefined;
    count += 1 - present[level];
    present[level] = 1;
  }
  const levels = new Float32Array(count);
  for (let level = 0, at = 0; level <= top; level++) if (present[level] === 1) levels[at++] = level / top;
  return levels;
}

function quantise(scores: Float32Array): Float32Array {
  const out = new Float32Array(scores.length);
  const top = SMOOTHING_SCORE_LEVELS - 1;
  for (let i = 0; i < scores.length; i++) out[i] = Math.round(Math.min(1, Math.max(0, scores[i])) * top) / top;
  return out;
}

/** Scores, smooths and decides; the plan removes top-most blocks whose (smoothed) score passes the threshold. */
export function classifyPage(page: PageModel, model: ClassifierModel, options: ClassifyOptions = DEFAULT_OPTIONS): Classification {
  const json = model.json;
  const decision = options.smoothing ? json : json.rawDecision ?? json;
  const baseThreshold = options.threshold ?? decision.threshold;
  const keepChars = options.keepChars ?? decision.keepChars ?? 0;
  const keepMargin = options.keepMargin ?? decision.keepMargin ?? 0;
  const mainOnly = options.mainOnly ?? decision.mainOnly ?? false;
  const keepProse = options.keepProse ?? json.keepProse ?? 0;
  const features = options.features ?? (options.scores ? undefined : computeFeatures(page));
  const scores = options.scores ? options.scores.slice() : scoreBlocks(features!, model);
  const kind = options.kind ?? recognisePageKind(page).kind;
  // A thread's posts are its content, and a listing's lists of short linked items are its items: neither goes apart.
  const comments = kind === "forum" ? new Uint8Array(page.blockCount) : options.comments ?? (features ? commentBlocks(page, features) : new Uint8Array(page.blockCount));
  const related = kind === "listing" || kind === "collection" ? new Uint8Array(page.blockCount) : options.related ?? (features ? relatedBlocks(page, features, mainContentBlock(features)) : new Uint8Array(page.blockCount));
  const hidden = options.hidden ?? unreadBlocks(page, features);
  const body = options.articleBody !== undefined ? options.articleBody : articleBodyMarks(page, hidden);
  // Reader comments go apart from the plan (clean() removes them by default), and related-content sections go:
  // the guards do not raise the page's threshold to keep their text, which would keep every template block
  // scoring as high with it.
  const apart = comments.slice();
  for (let b = 1; b < page.blockCount; b++) apart[b] |= related[b] | hidden[b] | (body?.after[b] ?? 0);
  const uncounted = insideMarked(page, apart);
  // A related section can hold the estimated main content (a slideshow of long captions): the article is elsewhere.
  const main = features ? mainContentBlock(features, insideMarked(page, related)) : -1;
  scores[0] = 0; // the document itself is never template
  const smoothed = !options.smoothing ? quantise(scores) : options.smoothed ?? smoothPage(page, scores, options.penaltyScale ?? json.smoothing.penaltyScale, options.charsPerUnit ?? json.smoothing.charsPerUnit);
  const fallback = features ? fallbackKind(page, kind, features, comments) : null;
  const unsure = fallback === null ? 0 : (options.unsureMargins ?? json.unsureMargins)?.[fallback] ?? 0;
  const level = Math.max(pageThreshold(page, smoothed, baseThreshold, keepChars, keepMargin, main, uncounted), proseThreshold(page, smoothed, baseThreshold, keepProse, uncounted)) + unsure;
  const thresholds = blockThresholds(page, main, baseThreshold + unsure, level, mainOnly);
  if (!options.smoothing) return { scores, smoothed, comments, kind, plan: normalisePlan(page, planFromOwnScores(page, smoothed, thresholds)) };
  const removedBlocks = new Uint8Array(page.blockCount);
  // Normalising keeps the top-most of these blocks, each taking its subtree.
  for (let b = 1; b < page.blockCount; b++) if (smoothed[b] > thresholds[b] || related[b] === 1 || hidden[b] === 1 || body?.after[b] === 1) removedBlocks[b] = 1;
  // The fall-back keeps what the model is unsure of, and removes what the page itself marks as its frame, and the
  // options of a <select>: a form control's list (a menu of the site's sections), never the page's text.
  if (unsure > 0) {
    const frame = frameBlocks(page, features!, main);
    for (let b = 1; b < page.blockCount; b++) removedBlocks[b] |= frame[b] | (page.blocks.tag[b] === TAG_SELECT ? 1 : 0);
  }
  const plan = { removedBlocks, removedText: removedTextNodes(page, main, removedBlocks) };
  const kept = keptForKind(page, kind, features, insideMarked(page, apart));
  return { scores, smoothed, comments, kind, plan: kept === null ? normalisePlan(page, plan) : keepWhole(page, plan, kept) };
}

/**
 * Block ordinal → 1 for the top-most blocks a kind keeps whatever the model scores (null: none), outside the blocks that
 * go apart (`apart`: hidden, related, comments): documentation's code and reference tables, a product's specifications,
 * which the model, trained on articles, reads as template. (A thread's posts that a comment hint names were measured
 * too, kept the same way: forum threads on wceb2026 fell 0.6547 to 0.6414, the hints there naming reply forms and
 * quote boxes as often as posts; the model keeps a thread's posts well once they no longer go apart as comments.)
 */
function keptForKind(page: PageModel, kind: PageKind, features: FeatureMatrix | undefined, apart: Uint8Array): Uint8Array | null {
  if (features === undefined) return null;
  return kind === "documentation" || kind === "product" ? codeAndTables(page, features, apart) : null;
}

const TAG_PRE = tagId("pre");
const TAG_TABLE = tagId("table");

/**
 * Block ordinal → 1 for the top-most code blocks (<pre>) and tables with text outside the page's frame (navigation,
 * header, footer, sidebar) and outside the blocks that go apart (`apart`: hidden, related, comments): documentation's
 * code and reference tables, a product's specifications. The model, trained on articles, reads their short lines and
 * cells as template.
 */
function codeAndTables(page: PageModel, features: FeatureMatrix, apart: Uint8Array): Uint8Array {
  const { parent, tag, textStart, textEnd } = page.blocks;
  const kept = new Uint8Array(page.blockCount);
  const inside = new Uint8Array(page.blockCount); // block ordinal → 1 inside a kept block
  const layout = layoutTables(page);
  for (let b = 1; b < page.blockCount; b++) {
    inside[b] = inside[parent[b]] | kept[parent[b]];
    if (inside[b] === 1 || apart[b] === 1 || (tag[b] !== TAG_PRE && !(tag[b] === TAG_TABLE && layout[b] === 0)) || textEnd[b] === textStart[b]) continue;
    const row = b * features.featureCount;
    if (FRAME_COLUMNS.every((column) => features.data[row + column] === 0)) kept[b] = 1;
  }
  return kept;
}

/** Blocks that a table of data never holds, and a table that lays out a page does: sections, divisions, forms, headings, tables. */
const LAYOUT_TAGS = new Set(["table", "div", "section", "article", "main", "nav", "header", "footer", "aside", "form", "h1", "h2", "h3", "h4", "h5", "h6"].map(tagId));

/** Block ordinal → 1 for the tables that hold a layout block (LAYOUT_TAGS) below them: a page's layout, not its data. */
function layoutTables(page: PageModel): Uint8Array {
  const { parent, tag } = page.blocks;
  const layout = new Uint8Array(page.blockCount);
  const table = new Int32Array(page.blockCount); // block ordinal → nearest table at or above it, 0 for none
  for (let b = 1; b < page.blockCount; b++) {
    table[b] = tag[b] === TAG_TABLE ? b : table[parent[b]];
    const holder = table[parent[b]];
    if (holder > 0 && LAYOUT_TAGS.has(tag[b])) for (let t = holder; t > 0 && layout[t] === 0; t = table[parent[t]]) layout[t] = 1;
  }
  return layout;
}

/**
 * The kind whose unsure margin the page's decision takes (the model's unsureMargins), or null where the page is decided
 * as an article is. The model was trained on articles; on a page that is something else, removing a block the reader
 * wanted costs more than keeping one too many (a reader skips a line, never recovers one), and there all the visible text
 * scored above the classifier (issue 43's kept-back pages). So such a page keeps the blocks the model is unsure of
 * (scored up to the margin above the threshold) and, in their place, loses what it marks as its frame (frameBlocks).
 * A page recognised as a kind other than an article takes its kind's margin. An unknown page takes the margin of
 * "unknown" where it is shaped unlike an article and marks its frame (most unknown pages are articles: the older sets'
 * news pages tell no kind): its main-content block holds at most SPREAD_MAIN_MAX_SHARE of its prose outside reader
 * comments (`comments`, found here if not given), and its frame elements at least FRAME_MIN_SHARE of its text.
 * Training chooses each margin inside the folds (UNSURE_MARGIN_GRID).
 */
export function fallbackKind(page: PageModel, kind: PageKind, features: FeatureMatrix, comments?: Uint8Array): FallbackKind | null {
  if (kind === "article") return null;
  if (kind !== "unknown") return kind;
  // Reader comments go apart: their prose does not spread an article's page, nor does its main content lie among them.
  const uncounted = insideMarked(page, comments ?? commentBlocks(page, features));
  const main = mainContentBlock(features, uncounted);
  if (main <= 0 || page.text.length === 0) return null;
  const inMain = subtree(page, main);
  const frame = frameBlocks(page, features, main);
  const { block, textStart, textEnd } = page.textNodes;
  let prose = 0;
  let mainProse = 0;
  let framed = 0;
  for (let t = 0; t < page.textNodeCount; t++) {
    const chars = textEnd[t] - textStart[t];
    if (frame[block[t]] === 1) framed += chars;
    if (!isProseNode(page, t) || uncounted[block[t]] === 1) continue;
    prose += chars;
    if (inMain[block[t]] === 1) mainProse += chars;
  }
  return mainProse <= SPREAD_MAIN_MAX_SHARE * prose && framed >= FRAME_MIN_SHARE * page.text.length ? "unknown" : null;
}

/** Whether text node `t` is prose: a run of PROSE_MIN_CHARS or more outside links, and outside a <select> (a form control's list). */
function isProseNode(page: PageModel, t: number): boolean {
  const { block, textStart, textEnd, inLink } = page.textNodes;
  return textEnd[t] - textStart[t] >= PROSE_MIN_CHARS && inLink[t] === 0 && page.blocks.tag[block[t]] !== TAG_SELECT;
}

/**
 * Block ordinal → 1 for the blocks inside the elements that mark the page's frame (<nav>, <header>, <footer>, <aside>),
 * except those that hold the main-content block or lie inside it: a page whose main text sits in such an element
 * (a whole page wrapped in <header>) does not use it for its frame.
 */
function frameBlocks(page: PageModel, features: FeatureMatrix, main: number): Uint8Array {
  const frame = new Uint8Array(page.blockCount);
  const spared = main > 0 ? mainAndAncestors(page, main) : new Uint8Array(page.blockCount);
  for (let b = 1; b < page.blockCount; b++) {
    const row = b * features.featureCount;
    if (spared[b] === 0 && FRAME_COLUMNS.some((column) => features.data[row + column] === 1)) frame[b] = 1;
  }
  return frame;
}

/**
 * Block ordinal → 1 for the blocks no reader reads as the article, whatever the model scores: hidden elements
 * (hidden.ts) and, where the features are at hand, consent banners (consent.ts).
 */
export function unreadBlocks(page: PageModel, features: FeatureMatrix | undefined): Uint8Array {
  const unread = hiddenBlocks(page);
  if (features === undefined) return unread;
  const consent = consentBlocks(page, features);
  for (let b = 1; b < page.blockCount; b++) unread[b] |= consent[b];
  return unread;
}

/**
 * Text nodes that go outside the removed blocks, as sorted [start, end) pairs of page text: the loose text (see
 * looseText) and the labels of buttons ("Share", "Listen to this article", "Accept all"), which are controls,
 * not the article's text. A button's text as long as a run of prose stays: an accordion's question is a button.
 */
function removedTextNodes(page: PageModel, main: number, removedBlocks: Uint8Array): Int32Array {
  const loose = looseText(page, main, removedBlocks);
  const { inButton, textStart, textEnd } = page.textNodes;
  const intervals: number[] = [];
  for (let t = 0; t < page.textNodeCount; t++) {
    const label = inButton?.[t] === 1 && textEnd[t] - textStart[t] < PROSE_MIN_CHARS;
    if (loose[t] === 1 || label) intervals.push(textStart[t], textEnd[t]);
  }
  return Int32Array.from(intervals);
}

/**
 * Text that no score removes: text outside every block element (inline links and words straight in <body>, or
 * script a truncated head spilled into the page), and links that stand loose in the main content's ancestors,
 * outside every block they hold (skip links, "Tweet", "« Older post"), which stay with their containers because
 * those hold the article. When the page has a main-content block that the plan keeps, and that block's prose
 * outweighs the loose text's (spilled script is code, not prose), the loose text is not the article: it goes as
 * removed text. A page whose prose is mostly loose (an old page written straight into <body>) keeps it, and a
 * loose link that states the <title> is the headline, which stays. Returns text node ordinal → 1 for the loose
 * text that goes.
 */
function looseText(page: PageModel, main: number, removedBlocks: Uint8Array): Uint8Array {
  const loose = new Uint8Array(page.textNodeCount); // text node ordinal → 1 if it goes
  if (main <= 0) return loose;
  const { parent } = page.blocks;
  for (let b = main; b > 0; b = parent[b]) if (removedBlocks[b] === 1) return loose;
  const { block, textStart, textEnd, inLink } = page.textNodes;
  const inMain = subtree(page, main);
  const framing = new Uint8Array(page.blockCount); // block ordinal → 1 for the main content's ancestors, whose own links frame it
  for (let b = parent[main]; b > 0; b = parent[b]) framing[b] = 1;
  const title = titleKey(page);
  let looseProse = 0;
  let mainProse = 0;
  for (let t = 0; t < page.textNodeCount; t++) {
    const chars = textEnd[t] - textStart[t];
    const prose = chars >= PROSE_MIN_CHARS && inLink[t] === 0 ? chars : 0;
    if (block[t] === 0) {
      if (prose > 0 && !isCodeLike(page.text.slice(textStart[t], textEnd[t]))) looseProse += prose;
      loose[t] = 1;
    } else if (framing[block[t]] === 1 && inLink[t] === 1) {
      if (!isTitleText(page.text.slice(textStart[t], textEnd[t]), title)) loose[t] = 1;
    } else if (inMain[block[t]] === 1) mainProse += prose;
  }
  return looseProse >= mainProse ? loose.fill(0) : loose;
}

/**
 * The page's threshold: the model's, raised if needed so that the kept block keeps at least `keepChars`
 * characters of its text (or all of it), together with blocks scoring at most `margin` above it: a page is
 * never emptied because all its scores run high. The kept block is the main-content block of the features'
 * estimate (`main`), or without one the least template-like block with `keepChars` characters or more.
 * Values are quantised levels, so the raise goes level by level through that block's subtree. Text inside
 * reader comments and related-content sections (`uncounted`) does not count: it goes apart from the plan.
 */
function pageThreshold(page: PageModel, values: Float32Array, threshold: number, keepChars: number, margin: number, main: number, uncounted: Uint8Array): number {
  if (keepChars <= 0) return threshold;
  const { textStart, textEnd } = page.blocks;
  let kept = main;
  for (let b = 1; b < page.blockCount && main <= 0; b++) {
    if (textEnd[b] - textStart[b] >= keepChars && (kept <= 0 || values[b] < values[kept])) kept = b;
  }
  if (kept < 0) return threshold;
  const top = SMOOTHING_SCORE_LEVELS - 1;
  const charsAtLevel = new Float64Array(SMOOTHING_SCORE_LEVELS); // level → own text of subtree blocks at that level
  const inside = subtree(page, kept);
  let total = 0;
  for (let t = 0; t < page.textNodeCount; t++) {
    const block = page.textNodes.block[t];
    if (inside[block] !== 1 || uncounted[block] === 1) continue;
    const chars = page.textNodes.textEnd[t] - page.textNodes.textStart[t];
    charsAtLevel[Math.round(Math.min(1, Math.max(0, values[block])) * top)] += chars;
    total += chars;
  }
  const wanted = Math.min(keepChars, total);
  let level = Math.round(Math.min(1, values[kept] + margin) * top);
  let keptChars = 0;
  for (let k = 0; k <= level; k++) keptChars += charsAtLevel[k];
  while (keptChars < wanted && level < top) keptChars += charsAtLevel[++level];
  return Math.max(threshold, level / top + 1e-6);
}

/** Block ordinal → 1 for the main-content block `main`, the blocks under it and its ancestors. */
function mainAndAncestors(page: PageModel, main: number): Uint8Array {
  const near = subtree(page, main);
  for (let b = page.blocks.parent[main]; b > 0; b = page.blocks.parent[b]) near[b] = 1;
  return near;
}

/** Block ordinal → 1 for `root` and the blocks under it (in document order, they follow it without a gap). */
function subtree(page: PageModel, root: number): Uint8Array {
  const inside = new Uint8Array(page.blockCount);
  inside[root] = 1;
  for (let b = root + 1; b < page.blockCount && inside[page.blocks.parent[b]] === 1; b++) inside[b] = 1;
  return inside;
}

function smoothPage(page: PageModel, scores: Float32Array, penaltyScale: number, charsPerUnit: number): Float32Array {
  const { weights, penalties } = smoothingInputs(page, penaltyScale, charsPerUnit);
  return followParentWhereEmpty(page, smoothScores(page, scores, weights, penalties));
}

/**
 * A block without text (an image, a form, an empty wrapper) takes its parent's score: the model reads text,
 * and none of its training examples was such a block, so it goes or stays with what holds it. The image in
 * an article stays with the article. The tree order stays monotone (a child equals its parent).
 */
function followParentWhereEmpty(page: PageModel, smoothed: Float32Array): Float32Array {
  const { parent, textStart, textEnd } = page.blocks;
  for (let b = 1; b < page.blockCount; b++) if (textEnd[b] === textStart[b]) smoothed[b] = smoothed[parent[b]];
  return smoothed;
}

/**
 * The guard against losing the article: the threshold, raised level by level until the blocks at or below
 * it hold at least `share` of the page's prose. A page's article is its prose (text outside links, in runs
 * of PROSE_MIN_CHARS or more); a plan that removes most of it has misread the page, and keeping more of the
 * page costs less than keeping nothing of the article. Smoothed scores never fall below an ancestor's, so
 * a text node is kept exactly when its own block's level is at or below the threshold.
 */
function proseThreshold(page: PageModel, values: Float32Array, threshold: number, share: number, uncounted: Uint8Array): number {
  if (share <= 0) return threshold;
  const top = SMOOTHING_SCORE_LEVELS - 1;
  const proseAtLevel = new Float64Array(SMOOTHING_SCORE_LEVELS); // level → prose characters in blocks at that level
  let total = 0;
  for (let t = 0; t < page.textNodeCount; t++) {
    const chars = page.textNodes.textEnd[t] - page.textNodes.textStart[t];
    const block = page.textNodes.block[t];
    // A select's options are a form control's list, never prose (a "more from this site" menu can outweigh the article).
    if (!isProseNode(page, t) || uncounted[block] === 1) continue;
    proseAtLevel[Math.round(Math.min(1, Math.max(0, values[block])) * top)] += chars;
    total += chars;
  }
  if (total === 0) return threshold;
  let level = 0;
  let kept = proseAtLevel[0];
  while (level < top && (level + 1) / top <= threshold) kept += proseAtLevel[++level];
  if (kept >= share * total) return threshold;
  while (kept < share * total && level < top) kept += proseAtLevel[++level];
  return Math.max(threshold, level / top + 1e-6);
}

/**
 * Block ordinal → threshold: the page's, except (with `mainOnly`) outside the main-content block and its
 * ancestors, where the base threshold applies: text away from the main content stays only if its score is
 * low on its own merits.
 */
function blockThresholds(page: PageModel, main: number, base: number, pageLevel: number, mainOnly: boolean): Float32Array {
  const thresholds = new Float32Array(page.blockCount).fill(pageLevel);
  if (!mainOnly || main <= 0) return thresholds;
  const near = mainAndAncestors(page, main);
  for (let b = 1; b < page.blockCount; b++) if (near[b] === 0) thresholds[b] = base;
  return thresholds;
}

/** The plan of the classifier alone. */
export function planFromClassifier(page: PageModel, model: ClassifierModel, options: ClassifyOptions = DEFAULT_OPTIONS): NormalisedPlan {
  return classifyPage(page, model, options).plan;
}

/**
 * Without smoothing: each block's own text goes when its own score passes the threshold; a block whose
 * whole subtree passes goes whole (top-most such block), so its markup goes with it.
 */
function planFromOwnScores(page: PageModel, scores: Float32Array, thresholds: Float32Array): RemovalPlan {
  const count = page.blockCount;
  const { parent } = page.blocks;
  const allAbove = new Uint8Array(count).fill(1); // block ordinal → 1 if the block and all descendants pass
  allAbove[0] = 0;
  for (let b = count - 1; b > 0; b--) {
    if (!(scores[b] > thresholds[b])) allAbove[b] = 0;
    if (allAbove[b] === 0) allAbove[parent[b]] = 0;
  }
  const removedBlocks = new Uint8Array(count);
  for (let b = 1; b < count; b++) if (allAbove[b] === 1 && allAbove[parent[b]] === 0) removedBlocks[b] = 1;
  const ranges: number[] = []; // one [start, end) pair per removed text node, as src/rules plans have them
  for (let t = 0; t < page.textNodeCount; t++) {
    const block = page.textNodes.block[t];
    // allAbove[block] = 1 means the block lies in a subtree removed whole already.
    if (!(scores[block] > thresholds[block]) || allAbove[block] === 1) continue;
    if (page.textNodes.textEnd[t] > page.textNodes.textStart[t]) ranges.push(page.textNodes.textStart[t], page.textNodes.textEnd[t]);
  }
  return { removedBlocks, removedText: Int32Array.from(ranges) };
}

