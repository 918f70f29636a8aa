/**
 * Block features for the classifier (papers 000, 003, 004): computed from the page model and its source
 * in a few linear passes (text nodes once, start tags once, blocks twice), the same code in Node and workerd.
 *
 * Counts are gathered per text node or per tag into the block that holds it directly, then summed up the
 * tree (children have higher ordinals than their parents, so one reverse sweep adds each block into its
 * parent). Every feature of a block describes the block with all its descendants.
 */
import { finishSlices, type Slices } from "../slices";
import { PROSE_MIN_CHARS } from "../config";
import { isComma, isIdeograph, isScriptSentenceEnd } from "./text-marks";
import { MARKUP_COUNTERS, MARKUP_IMAGES, MARKUP_INPUTS, MARKUP_LINKS, MARKUP_TAGS, type PageModel } from "./types";
import { findAttributes } from "./attributes";
import { isTitleText, titleKey } from "./headline";
import { TAG_NAMES, TAG_OTHER, TAG_SELECT, tagId } from "./tags";

/** Feature names, in column order of the feature matrix. Append only: a model names its features by how many of these it uses. */
export const FEATURE_NAMES = [
  "logChars", "logWords", "logOwnChars", "linkCharRatio", "linkWordRatio", "linksPerWord", "imagesPerWord",
  "inputsPerWord", "punctuationRatio", "digitRatio", "capitalRatio", "logSentences", "wordsPerSentence",
  "textDensity", "tagsPerWord", "logChildren", "depth", "relativeStart", "relativeEnd", "pageTextShare",
  "parentTextShare", "pageCrossEntropy", "textRepeats", "titleWordRatio",
  "tagParagraph", "tagDiv", "tagListItem", "tagList", "tagCell", "tagTable", "tagHeading", "tagNav",
  "tagHeader", "tagFooter", "tagAside", "tagForm", "tagArticle", "tagSection", "tagOther",
  "inNav", "inHeader", "inFooter", "inAside", "inForm", "inList", "inArticle", "inTable", "inHeading", "inLink",
  "hintNavigation", "hintFooter", "hintShare", "hintRelated", "hintComment", "hintAd", "hintCookie",
  "hintSidebar", "hintHeader", "hintContent",
  "inHintNavigation", "inHintFooter", "inHintShare", "inHintRelated", "inHintComment", "inHintAd",
  "inHintCookie", "inHintSidebar", "inHintHeader", "inHintContent",
  "parentLinkCharRatio", "parentLogChars", "parentWordsPerSentence", "grandparentLinkCharRatio", "grandparentLogChars",
  "inMainContent", "containsMainContent", "mainContentDistance", "commasPerWord", "inHidden",
  "previousLinkCharRatio", "previousLogChars", "nextLinkCharRatio", "nextLogChars", "shortWordRatio", "mainContentScore",
] as const;

export type FeatureName = (typeof FEATURE_NAMES)[number];
export const FEATURE_COUNT = FEATURE_NAMES.length;

/** Row-major matrix: value of feature f for block b at data[b * FEATURE_COUNT + f]. */
export interface FeatureMatrix {
  readonly blockCount: number;
  readonly featureCount: number;
  readonly data: Float32Array;
}

/** Tag groups, in the order of the tag* features; GROUP_OTHER is the last. */
const TAG_GROUPS: readonly (readonly string[])[] = [
  ["p"], ["div"], ["li", "dd", "dt"], ["ul", "ol", "dl", "menu"], ["td", "th"],
  ["table", "tr", "tbody", "thead", "tfoot", "caption"], ["h1", "h2", "h3", "h4", "h5", "h6"], ["nav"],
  ["header"], ["footer"], ["aside"], ["form", "fieldset"], ["article", "main"], ["section"],
];
const GROUP_OTHER = TAG_GROUPS.length;
const TAG_GROUP_OF = new Map<string, number>(TAG_GROUPS.flatMap((names, group) => names.map((name) => [name, group] as const)));
/** Tag id (tags.ts) → group, for the tags pass 1 knows; other names are looked up by name. */
const TAG_GROUP_BY_ID = Uint8Array.from(TAG_NAMES, (name) => TAG_GROUP_OF.get(name) ?? GROUP_OTHER);

/** The elements that mark a page's frame, its menus, header, footer and sidebar (the inNav, inHeader, inFooter and inAside features). */
export const FRAME_ELEMENTS = ["nav", "header", "footer", "aside"] as const;
/** Container bits inherited by descendants, in the order of the in* features (inLink is handled apart). */
const CONTAINER_GROUPS: readonly (readonly string[])[] = [
  ...FRAME_ELEMENTS.map((name) => [name]), ["form"], ["ul", "ol", "dl", "menu"], ["article", "main"],
  ["table"], ["h1", "h2", "h3", "h4", "h5", "h6"],
];
const CONTAINER_BIT_OF = new Map<string, number>(CONTAINER_GROUPS.flatMap((names, bit) => names.map((name) => [name, 1 << bit] as const)));
const CONTAINER_BIT_BY_ID = Uint32Array.from(TAG_NAMES, (name) => CONTAINER_BIT_OF.get(name) ?? 0);

/**
 * Class/id hint groups, in the order of the hint* features. A class or id value is split into words
 * (runs of letters and digits); a word matches a stem it starts with, or equals an exact word.
 */
const HINT_GROUPS: readonly { readonly stems: readonly string[]; readonly exact: readonly string[] }[] = [
  { stems: ["nav", "menu", "breadcrumb", "topbar", "pagination", "pager"], exact: ["links", "tabs"] },
  { stems: ["footer", "copyright", "legal", "bottom"], exact: ["foot"] },
  { stems: ["share", "social", "facebook", "twitter", "sharing", "addthis", "pinterest", "shariff"], exact: ["tweet"] },
  { stems: ["related", "recommend", "popular", "trending", "most", "teaser", "outbrain", "taboola", "revcontent"], exact: ["more", "also"] },
  { stems: ["comment", "reply", "disqus", "respond", "discussion"], exact: [] },
  { stems: ["advert", "sponsor", "promo", "banner", "adsense", "dfp", "doubleclick", "gpt", "mgid"], exact: ["ad", "ads", "adv", "advertisement"] },
  // With the consent platforms whose ids name neither cookies nor consent (Cookiebot's CybotCookiebotDialog, qc-cmp2-container...).
  { stems: ["cookie", "consent", "gdpr", "newsletter", "subscribe", "signup", "modal", "popup", "paywall", "cmp", "cybot", "usercentrics", "didomi", "onetrust", "borlabs", "klaro"], exact: [] },
  { stems: ["sidebar", "widget", "aside", "rail", "sidebox"], exact: ["side"] },
  { stems: ["header", "masthead", "logo", "branding", "topnav", "toolbar"], exact: ["top", "head"] },
  { stems: ["article", "content", "post", "entry", "story", "body", "text", "main", "blog"], exact: [] },
];

const TAG_H1 = tagId("h1");
/** The comment group's hint bit. */
const COMMENT_HINT = 1 << HINT_GROUPS.findIndex((group) => group.stems.includes("comment"));

/** A start tag that hides its element: the boolean attribute hidden, or an inline style display:none / visibility:hidden. */
const HIDDEN_ATTRIBUTE = /(?:^|\s)hidden(?=[\s/>]|$)|display\s*:\s*none|visibility\s*:\s*hidden/i;
/** Container bit (after the container groups) of blocks inside a hidden element. */
const HIDDEN_BIT = 1 << 9;
/** The attributes whose values carry hints. */
const HINT_ATTRIBUTES = ["class", "id"] as const;
/** Scale of the depth feature (elements); depths of real pages seldom pass 40. */
const DEPTH_SCALE = 40;
/** Cap of the words-per-sentence feature (words); longer runs are lists of words with no stops. */
const MAX_WORDS_PER_SENTENCE = 100;
/** A paragraph's credit: 1 + its commas + its length in units of this many characters, at most PARAGRAPH_MAX_LENGTH_CREDIT (Readability's scoring). */
const PARAGRAPH_LENGTH_UNIT = 100;
const PARAGRAPH_MAX_LENGTH_CREDIT = 3;
/** Readability's class weight: a candidate's own class or id naming content adds this much credit, one naming boilerplate takes it away. */
const MAIN_CONTENT_CLASS_WEIGHT = 25;
/** Longest "short" word, in characters: English, French, German, Spanish... function words (the, of, de, la, und, der). */
const SHORT_WORD_LETTERS = 3;
/** Text nodes before and after a block that make its sequence context. */
const NEIGHBOUR_TEXT_NODES = 3;
/** Cap of the tags-per-word and density features, so tag soups do not dominate the normalisation. */
const MAX_RATIO = 20;

/** Per-block sums gathered before the features are formed; typed arrays indexed by block ordinal. */
interface BlockCounts {
  chars: Float64Array; ownChars: Float64Array; linkChars: Float64Array; words: Float64Array;
  linkWords: Float64Array; punctuation: Float64Array; digits: Float64Array; letters: Float64Array;
  capitals: Float64Array; sentences: Float64Array; crossEntropy: Float64Array; titleWords: Float64Array;
  anchors: Float64Array; images: Float64Array; inputs: Float64Array; tags: Float64Array; children: Float64Array;
  commas: Float64Array;
  /** Words of at most SHORT_WORD_LETTERS characters: the function words that prose is full of and menus lack. */
  shortWords: Float64Array;
  /** Own (not summed up) credit of paragraphs: text nodes outside links, at least PROSE_MIN_CHARS long (config). */
  paragraphCredit: Float64Array;
}

/** Computes the feature matrix of a page. */
export function computeFeatures(page: PageModel): FeatureMatrix {
  return finishSlices(computeFeaturesSlices(page));
}

/** computeFeatures in slices (slices.ts): a pause between its passes over the page. */
export function* computeFeaturesSlices(page: PageModel): Slices<FeatureMatrix> {
  const count = page.blockCount;
  const counts = emptyCounts(count);
  const prefixHashes = countText(page, counts);
  yield;
  readMarkup(page, counts);
  for (let b = count - 1; b > 0; b--) addIntoParent(counts, b, page.blocks.parent[b]);
  yield;
  const data = new Float32Array(count * FEATURE_COUNT);
  const repeats = textRepeats(page, prefixHashes);
  yield;
  const tagGroup = new Uint8Array(count); // block ordinal → tag group
  const containers = new Uint32Array(count); // block ordinal → container bits of the block and its ancestors
  const hints = new Uint32Array(count); // block ordinal → hint bits of the block's own class/id
  const inheritedHints = new Uint32Array(count); // block ordinal → hint bits of the block and its ancestors
  describeStartTags(page, tagGroup, containers, hints, inheritedHints);
  yield;
  for (let b = 0; b < count; b++) {
    writeRow(page, counts, b, data, b * FEATURE_COUNT, repeats[b]);
    writeFlags(data, b * FEATURE_COUNT, tagGroup[b], containers[b], hints[b], inheritedHints[b], counts, b);
  }
  yield;
  writeContext(page, data);
  writeSequence(page, data);
  yield;
  writeMainContent(page, counts, { own: hints, inherited: inheritedHints }, containers, data);
  return { blockCount: count, featureCount: FEATURE_COUNT, data };
}

/** The number of BlockCounts' counters. */
const BLOCK_COUNTERS = 20;

/**
 * Zeroed counters, views of one buffer: one allocation a page instead of twenty, each a fresh backing store. A counter
 * added to BlockCounts without a larger BLOCK_COUNTERS makes its view throw (RangeError) on the first page.
 */
function emptyCounts(count: number): BlockCounts {
  const bytes = Float64Array.BYTES_PER_ELEMENT * count;
  const buffer = new ArrayBuffer(bytes * BLOCK_COUNTERS);
  let next = 0;
  const make = (): Float64Array => new Float64Array(buffer, bytes * next++, count);
  return {
    chars: make(), ownChars: make(), linkChars: make(), words: make(), linkWords: make(), punctuation: make(),
    digits: make(), letters: make(), capitals: make(), sentences: make(), crossEntropy: make(), titleWords: make(),
    anchors: make(), images: make(), inputs: make(), tags: make(), children: make(), commas: make(), shortWords: make(), paragraphCredit: make(),
  };
}

function addIntoParent(counts: BlockCounts, block: number, parent: number): void {
  counts.chars[parent] += counts.chars[block];
  counts.linkChars[parent] += counts.linkChars[block];
  counts.words[parent] += counts.words[block];
  counts.linkWords[parent] += counts.linkWords[block];
  counts.punctuation[parent] += counts.punctuation[block];
  counts.digits[parent] += counts.digits[block];
  counts.letters[parent] += counts.letters[block];
  counts.capitals[parent] += counts.capitals[block];
  counts.sentences[parent] += counts.sentences[block];
  counts.crossEntropy[parent] += counts.crossEntropy[block];
  counts.titleWords[parent] += counts.titleWords[block];
  counts.anchors[parent] += counts.anchors[block];
  counts.images[parent] += counts.images[block];
  counts.inputs[parent] += counts.inputs[block];
  counts.tags[parent] += counts.tags[block];
  counts.commas[parent] += counts.commas[block];
  counts.shortWords[parent] += counts.shortWords[block];
  counts.children[parent] += 1;
}

// ── words ────────────────────────────────────────────────────────────────────────────────────────────

/** True for characters that belong to words: ASCII letters and digits, and letters past Latin-1 punctuation. */
function isWordCode(code: number): boolean {
  if (code < 0x80) return (code >= 48 && code <= 57) || ((code | 0x20) >= 97 && (code | 0x20) <= 122) || code === 95;
  if (code < 0xc0) return false;
  if (code >= 0x2000 && code <= 0x2bff) return false; // general punctuation, symbols, arrows, dingbats
  if (isComma(code) || isScriptSentenceEnd(code)) return false; // the Arabic comma and question mark, the danda: marks inside letter blocks
  if (code >= 0x3000 && code <= 0x303f) return false; // CJK punctuation
  if (code >= 0xff01 && code <= 0xff65) return isFullwidthAlphanumeric(code); // fullwidth punctuation is not
  return code !== 0xd7 && code !== 0xf7;
}

function isFullwidthAlphanumeric(code: number): boolean {
  return (code >= 0xff10 && code <= 0xff19) || (code >= 0xff21 && code <= 0xff3a) || (code >= 0xff41 && code <= 0xff5a);
}

/** Character class bits (charClass): a word character, a digit among them, an ASCII capital, an ideograph (a word of its own). */
const CLASS_WORD = 1;
const CLASS_DIGIT = 2;
const CLASS_CAPITAL = 4;
const CLASS_IDEOGRAPH = 8;

/** ASCII code → its class bits: most of a page's text is ASCII, classed by one load a character. */
const ASCII_CLASS = Uint8Array.from({ length: 0x80 }, (_, code) => {
  if (!isWordCode(code)) return 0;
  return CLASS_WORD | (code >= 48 && code <= 57 ? CLASS_DIGIT : 0) | (code >= 65 && code <= 90 ? CLASS_CAPITAL : 0);
});

/** Class bits of a character (a UTF-16 code unit). */
function charClass(code: number): number {
  if (code < 0x80) return ASCII_CLASS[code];
  if (isIdeograph(code)) return CLASS_IDEOGRAPH;
  return isWordCode(code) ? CLASS_WORD : 0;
}

/** 32-bit FNV-1a step over a case-folded character. */
function hashStep(hash: number, code: number): number {
  const folded = code >= 65 && code <= 90 ? code | 0x20 : code;
  return Math.imul(hash ^ folded, FNV_PRIME) >>> 0;
}
const HASH_SEED = 2166136261;
const FNV_PRIME = 16777619;

/**
 * Word hash → occurrences on the page (and whether the title has the word), plus the page's word total. An
 * open-addressed table in typed arrays (linear probing, kept at most half full): a page has thousands of
 * words, and a Map entry for each cost more than the counting. The text nodes' words are kept in order as
 * their slots (`words`), so that the statistics need no second probe: the table remaps them when it grows.
 */
interface WordTable {
  mask: number;
  keys: Uint32Array;
  /** Slot → occurrences on the page; -1 marks an empty slot (a word only of a text node counts 0). */
  counts: Int32Array;
  /** Slot → 1 if the title has the word. */
  inTitle: Uint8Array;
  /** Slots in use. */
  used: number;
  /** Words on the page. */
  total: number;
  /** The text nodes' words, in order, as slots. */
  words: Int32Array;
  wordCount: number;
}

function emptyWordTable(expected: number, words: number): WordTable {
  let size = 64;
  while (size < 2 * expected) size *= 2;
  return {
    mask: size - 1, keys: new Uint32Array(size), counts: new Int32Array(size).fill(-1), inTitle: new Uint8Array(size), used: 0, total: 0,
    words: new Int32Array(words), wordCount: 0,
  };
}

/** The slot of a word hash: its own, or the empty one where it would go. */
function slotOf(table: WordTable, hash: number): number {
  let slot = Math.imul(hash, 0x9e3779b1) & table.mask;
  while (table.counts[slot] >= 0 && table.keys[slot] !== hash) slot = (slot + 1) & table.mask;
  return slot;
}

/** The slot of a word hash, taken for it if new (the table doubles before it is half full). */
function claimSlot(table: WordTable, hash: number): number {
  if (2 * (table.used + 1) > table.mask + 1) growWordTable(table);
  const slot = slotOf(table, hash);
  if (table.counts[slot] < 0) {
    table.keys[slot] = hash;
    table.counts[slot] = 0;
    table.used++;
  }
  return slot;
}

/** Doubles the table, moving each word to its new slot (the kept words' slots too). */
function growWordTable(table: WordTable): void {
  const { keys, counts, inTitle, mask } = table;
  const size = 2 * (mask + 1);
  Object.assign(table, { mask: size - 1, keys: new Uint32Array(size), counts: new Int32Array(size).fill(-1), inTitle: new Uint8Array(size) });
  const moved = new Int32Array(mask + 1); // old slot → new slot
  for (let slot = 0; slot <= mask; slot++) {
    if (counts[slot] < 0) continue;
    const at = slotOf(table, keys[slot]);
    table.keys[at] = keys[slot];
    table.counts[at] = counts[slot];
    table.inTitle[at] = inTitle[slot];
    moved[slot] = at;
  }
  for (let word = 0; word < table.wordCount; word++) table.words[word] = moved[table.words[word]];
}

/** Keeps a text node's word (its slot) in order. */
function keepWord(table: WordTable, slot: number): void {
  if (table.wordCount === table.words.length) {
    const grown = new Int32Array(2 * table.words.length);
    grown.set(table.words);
    table.words = grown;
  }
  table.words[table.wordCount++] = slot;
}

/** Counts a word of the page. */
function countPageWord(table: WordTable, slot: number): void {
  table.counts[slot]++;
  table.total++;
}

/** Calls `word` with the hash of each word of `text` (case-folded). */
function forEachWord(text: string, word: (hash: number) => void): void {
  let hash = HASH_SEED;
  let inWord = false;
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 32;
    const ideograph = isIdeograph(code);
    if (!ideograph && isWordCode(code)) {
      hash = hashStep(inWord ? hash : HASH_SEED, code);
      inWord = true;
      continue;
    }
    if (inWord) word(hash);
    inWord = false;
    if (ideograph) word(hashStep(HASH_SEED, code));
  }
}

/**
 * One pass over every text node: character classes, words, sentence ends; then the word statistics, once the page's
 * word counts are known. The page's words are counted in the same pass: they are the text nodes' words, except
 * that a word runs on across two text nodes that touch (no separator between them in the page text, as in
 * "foo<b>bar</b>"). Each node's words are kept in order (as slots of the word table), so that the statistics add the
 * same terms in the same order as a second walk of the text would. Returns the page text's prefix hashes (textRepeats), taken in the
 * same walk.
 */
function countText(page: PageModel, counts: BlockCounts): Uint32Array {
  const { text, textNodes } = page;
  const prefix = new Uint32Array(text.length + 1); // offset → rolling hash of text[0, offset) (textRepeats)
  // Pages average about one word in six characters; the table grows if there are more.
  const table = emptyWordTable(text.length / 6 + 16, Math.max(64, text.length >> 3));
  const nodeWordEnd = new Int32Array(page.textNodeCount); // text node ordinal → end of its words in table.words
  // A page word that ended a text node may run on into the next (its hash so far in pageHash): it is counted once it
  // ends. Only a node's first word can continue one, so only that word is hashed twice.
  let carried = false;
  let pageHash = HASH_SEED;
  let textHash = 0; // prefix[i], held apart so that the next step need not read it back from the array
  let previousEnd = -1;
  for (let t = 0; t < page.textNodeCount; t++) {
    const block = textNodes.block[t];
    const start = textNodes.textStart[t];
    const end = textNodes.textEnd[t];
    const linked = textNodes.inLink[t] === 1;
    // A separator between this node and the last (a space or a line break) ends the page's word.
    if (carried && start !== previousEnd) {
      countPageWord(table, claimSlot(table, pageHash));
      carried = false;
    }
    let continuing: boolean = carried; // this node's first word (if it starts right away) runs on the carried page word
    // The separator before the node (text nodes and their separators make the whole page text).
    for (let i = Math.max(0, previousEnd); i < start; i++) prefix[i + 1] = textHash = (Math.imul(textHash, HASH_BASE) + text.charCodeAt(i)) >>> 0;
    previousEnd = end;
    let words = 0;
    let commas = 0;
    let shortWords = 0;
    let digits = 0;
    let letters = 0;
    let capitals = 0;
    let punctuation = 0;
    let sentences = 0;
    let wordStart = start;
    let hash = HASH_SEED;
    let inWord = false;
    for (let i = start; i < end; i++) {
      const code = text.charCodeAt(i);
      prefix[i + 1] = textHash = (Math.imul(textHash, HASH_BASE) + code) >>> 0;
      const kind = charClass(code);
      if ((kind & CLASS_WORD) !== 0) {
        const folded = code | ((kind & CLASS_CAPITAL) << 3); // A-Z to a-z, as hashStep folds
        if (!inWord) {
          wordStart = i;
          hash = HASH_SEED;
        }
        hash = Math.imul(hash ^ folded, FNV_PRIME) >>> 0;
        if (continuing) pageHash = Math.imul(pageHash ^ folded, FNV_PRIME) >>> 0;
        inWord = true;
        const digit = (kind & CLASS_DIGIT) >> 1;
        digits += digit;
        letters += 1 - digit;
        capitals += (kind & CLASS_CAPITAL) >> 2;
        continue;
      }
      if (inWord) {
        words++;
        if (i - wordStart <= SHORT_WORD_LETTERS) shortWords++;
        const slot = claimSlot(table, hash);
        keepWord(table, slot);
        inWord = false;
        if (!continuing) countPageWord(table, slot); // mostly the page's word is the node's and ends here too
      }
      if (continuing) {
        countPageWord(table, claimSlot(table, pageHash));
        continuing = false;
      }
      if ((kind & CLASS_IDEOGRAPH) !== 0) {
        words++;
        shortWords++;
        letters++;
        const slot = claimSlot(table, hashStep(HASH_SEED, code));
        keepWord(table, slot);
        countPageWord(table, slot);
        continue;
      }
      if (code === 32) continue;
      punctuation++;
      if (isComma(code)) commas++;
      if ((code === 46 || code === 33 || code === 63) && (i + 1 >= end || text.charCodeAt(i + 1) === 32)) sentences++;
      else if (isScriptSentenceEnd(code)) sentences++;
    }
    // The node's end: its last word ends, and the page's word may run on into the next node (so may a carried one
    // through a node with no text).
    if (inWord) {
      words++;
      if (end - wordStart <= SHORT_WORD_LETTERS) shortWords++;
      keepWord(table, claimSlot(table, hash));
      if (!continuing) pageHash = hash;
    }
    carried = inWord || continuing;
    nodeWordEnd[t] = table.wordCount;
    counts.digits[block] += digits;
    counts.letters[block] += letters;
    counts.capitals[block] += capitals;
    counts.punctuation[block] += punctuation;
    counts.sentences[block] += sentences;
    counts.chars[block] += end - start;
    counts.ownChars[block] += end - start;
    counts.words[block] += words;
    counts.commas[block] += commas;
    counts.shortWords[block] += shortWords;
    if (linked) {
      counts.linkChars[block] += end - start;
      counts.linkWords[block] += words;
    } else if (end - start >= PROSE_MIN_CHARS && page.blocks.tag[block] !== TAG_SELECT) {
      counts.paragraphCredit[block] += 1 + commas + Math.min(PARAGRAPH_MAX_LENGTH_CREDIT, (end - start) / PARAGRAPH_LENGTH_UNIT);
    }
  }
  if (carried) countPageWord(table, claimSlot(table, pageHash));
  for (let i = Math.max(0, previousEnd); i < text.length; i++) prefix[i + 1] = textHash = (Math.imul(textHash, HASH_BASE) + text.charCodeAt(i)) >>> 0;
  forEachWord(page.title, (hash) => {
    table.inTitle[claimSlot(table, hash)] = 1;
  });
  countWordStatistics(page, counts, table, nodeWordEnd);
  return prefix;
}

/**
 * How unexpected each word is on its page (its share of the page's words), summed per block, and the block's words
 * that the title has. The term of a word depends on its slot only: computed once per slot, not per word.
 */
function countWordStatistics(page: PageModel, counts: BlockCounts, table: WordTable, nodeWordEnd: Int32Array): void {
  const logTotal = Math.log(table.total + 1);
  const surprise = new Float64Array(table.mask + 1); // slot → logTotal - log of its count (a word not on the page: count 1)
  // Most slots are empty or hold a word seen once (log 1 = 0): only the others need a logarithm.
  for (let slot = 0; slot <= table.mask; slot++) surprise[slot] = table.counts[slot] > 1 ? logTotal - Math.log(table.counts[slot]) : logTotal;
  let word = 0;
  for (let t = 0; t < page.textNodeCount; t++) {
    const block = page.textNodes.block[t];
    for (const end = nodeWordEnd[t]; word < end; word++) {
      const slot = table.words[word];
      counts.crossEntropy[block] += surprise[slot];
      counts.titleWords[block] += table.inTitle[slot];
    }
  }
}

// ── markup ───────────────────────────────────────────────────────────────────────────────────────────

/** Start tags per block, as pass 1 counted them (page.blocks.markup); zero for hand-built models without them. */
function readMarkup(page: PageModel, counts: BlockCounts): void {
  const markup = page.blocks.markup;
  if (!markup) return;
  for (let b = 0; b < page.blockCount; b++) {
    const at = b * MARKUP_COUNTERS;
    counts.tags[b] = markup[at + MARKUP_TAGS];
    counts.anchors[b] = markup[at + MARKUP_LINKS];
    counts.images[b] = markup[at + MARKUP_IMAGES];
    counts.inputs[b] = markup[at + MARKUP_INPUTS];
  }
}

/** Tag group, container bits and class/id hint bits of every block, from its own start tag and ancestors. */
function describeStartTags(page: PageModel, tagGroup: Uint8Array, containers: Uint32Array, hints: Uint32Array, inheritedHints: Uint32Array): void {
  const { source, blocks } = page;
  const holdsHeadline = headlineHolders(page);
  tagGroup[0] = GROUP_OTHER;
  for (let b = 1; b < page.blockCount; b++) {
    const tag = blocks.tag[b];
    const name = tag === TAG_OTHER ? source.slice(blocks.sourceStart[b] + 1, blocks.sourceNameEnd[b]).toLowerCase() : null;
    tagGroup[b] = name === null ? TAG_GROUP_BY_ID[tag] : TAG_GROUP_OF.get(name) ?? GROUP_OTHER;
    const parent = blocks.parent[b];
    containers[b] = containers[parent] | (name === null ? CONTAINER_BIT_BY_ID[tag] : CONTAINER_BIT_OF.get(name) ?? 0);
    hints[b] = hintBits(source, blocks.sourceNameEnd[b], blocks.startTagEnd[b]);
    if (holdsHeadline !== null && holdsHeadline[b] === 1) hints[b] &= ~COMMENT_HINT;
    inheritedHints[b] = inheritedHints[parent] | hints[b];
    if ((containers[parent] & HIDDEN_BIT) !== 0 || mayHide(source, blocks.sourceNameEnd[b], blocks.startTagEnd[b])) containers[b] |= HIDDEN_BIT;
  }
}

/**
 * Block ordinal → 1 for the blocks that hold the page's headline, an <h1> that states the <title> (null when none
 * does). A comment never holds it: a story whose class says it has comments (lifehacker's <article class="…
 * commented">, "has-comments") gets no comment hint, and its paragraphs inherit none.
 */
function headlineHolders(page: PageModel): Uint8Array | null {
  let holds: Uint8Array | null = null;
  let title: string | null = null;
  const { tag, parent, textStart, textEnd } = page.blocks;
  for (let b = 1; b < page.blockCount; b++) {
    if (tag[b] !== TAG_H1) continue;
    title ??= titleKey(page);
    if (!isTitleText(page.text.slice(textStart[b], textEnd[b]), title)) continue;
    holds ??= new Uint8Array(page.blockCount);
    for (let a = parent[b]; a > 0 && holds[a] === 0; a = parent[a]) holds[a] = 1;
  }
  return holds;
}

/** Whether a start tag's attributes (source[from, to)) hide the element; most tags have none to test. */
function mayHide(source: string, from: number, to: number): boolean {
  return to - from > 6 && HIDDEN_ATTRIBUTE.test(source.slice(from, to));
}

/** A stem or exact word of a hint group, with the group's bit. */
interface HintWord {
  readonly word: string;
  readonly bit: number;
  readonly exact: boolean;
}

/**
 * The first two characters of a stem or exact word (ASCII codes c1 * 128 + c2) → the hint groups' stems and exact
 * words that start with them: a value's word is compared with one or two of them, not with all of its first letter's.
 */
const HINT_WORDS_BY_PAIR: readonly (readonly HintWord[] | undefined)[] = (() => {
  const byPair: HintWord[][] = new Array(128 * 128);
  HINT_GROUPS.forEach(({ stems, exact }, group) => {
    for (const [words, isExact] of [[stems, false], [exact, true]] as const) {
      for (const word of words) (byPair[word.charCodeAt(0) * 128 + word.charCodeAt(1)] ??= []).push({ word, bit: 1 << group, exact: isExact });
    }
  });
  return byPair;
})();

/** A character of a hint word: a lower-case ASCII letter or a digit (a lower-cased value's word characters). */
function isHintWordCode(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 48 && code <= 57);
}

/** An ASCII upper-case letter's lower case; any other code as it is. */
function foldCase(code: number): number {
  return code >= 65 && code <= 90 ? code | 0x20 : code;
}

/** Whether `word` (lower-case) is written at text[at, end), ASCII case folded. */
function wordAt(text: string, at: number, end: number, word: string): boolean {
  if (at + word.length > end) return false;
  for (let k = 0; k < word.length; k++) if (foldCase(text.charCodeAt(at + k)) !== word.charCodeAt(k)) return false;
  return true;
}

/**
 * Hint bits of a class or id value text[start, end), lower-cased: at each start of a word (a run of lower-case ASCII
 * letters and digits), the stems it starts with and the exact word it is. -1 for a value with a non-ASCII character
 * unless `lowerCased`: such a value is lower-cased by toLowerCase first (which maps the Kelvin sign to "k").
 */
function valueHintBits(text: string, start: number, end: number, lowerCased: boolean): number {
  let bits = 0;
  for (let i = start; i < end; ) {
    const code = foldCase(text.charCodeAt(i));
    if (!isHintWordCode(code)) {
      if (code >= 128 && !lowerCased) return -1;
      i++;
      continue;
    }
    // A word starts at i (every hint word starts with a letter or digit).
    const second = foldCase(text.charCodeAt(i + 1)); // past the value's end, wordAt turns the candidates down
    const candidates = second < 128 ? HINT_WORDS_BY_PAIR[code * 128 + second] : undefined;
    if (candidates !== undefined) {
      for (const { word, bit, exact } of candidates) {
        if (wordAt(text, i, end, word) && !(exact && i + word.length < end && isHintWordCode(foldCase(text.charCodeAt(i + word.length))))) bits |= bit;
      }
    }
    for (i++; i < end && isHintWordCode(foldCase(text.charCodeAt(i))); i++); // to the word's end
  }
  return bits;
}

/** The value ranges of HINT_ATTRIBUTES in the start tag being read (findAttributes). */
const hintRanges = new Int32Array(2 * HINT_ATTRIBUTES.length);

/** Whether a start tag's class or id names reader comments (the hintComment group: comment, reply, disqus...). */
export function namesComments(source: string, from: number, to: number): boolean {
  return (hintBits(source, from, to) & COMMENT_HINT) !== 0;
}

/** Hint bits of a start tag's class and id values (attributes in source[from, to)). */
function hintBits(source: string, from: number, to: number): number {
  if (to - from < 4) return 0;
  let bits = 0;
  findAttributes(source, from, to, HINT_ATTRIBUTES, hintRanges);
  for (let n = 0; n < HINT_ATTRIBUTES.length; n++) {
    const start = hintRanges[2 * n];
    const end = hintRanges[2 * n + 1];
    if (end <= start) continue;
    let valueBits = valueHintBits(source, start, end, false);
    if (valueBits < 0) {
      const value = source.slice(start, end).toLowerCase();
      valueBits = valueHintBits(value, 0, value.length, true);
    }
    bits |= valueBits;
  }
  return bits;
}

// ── page-level comparisons ───────────────────────────────────────────────────────────────────────────

/** Base of the rolling text hash of textRepeats. */
const HASH_BASE = 1000003;

/** HASH_BASE^exponent mod 2^32, by squaring: a block needs one power, and a table of all would be as long as the page. */
function basePower(exponent: number): number {
  let result = 1;
  for (let base = HASH_BASE, rest = exponent; rest > 0; rest >>>= 1, base = Math.imul(base, base)) if ((rest & 1) === 1) result = Math.imul(result, base);
  return result;
}

/**
 * Block ordinal → how many other blocks on the page have exactly the same text (blocks whose text range
 * equals their parent's are the same text seen twice and are not counted). Polynomial prefix hashes
 * (mod 2^32, `prefix`: offset → hash of text[0, offset), from countText) give each block's text hash in constant time.
 */
function textRepeats(page: PageModel, prefix: Uint32Array): Float64Array {
  const { blocks } = page;
  // An open-addressed table of the keys (text hash and length) in typed arrays, at most half full.
  let size = 64;
  while (size < 2 * page.blockCount) size *= 2;
  const keyHash = new Uint32Array(size);
  const keyLength = new Int32Array(size); // slot → the key's length + 1; 0 marks an empty slot
  const seen = new Int32Array(size); // slot → blocks with that text, nested same-text blocks once
  const slots = new Int32Array(page.blockCount).fill(-1); // block ordinal → its key's slot; -1 if its text is empty
  for (let b = 1; b < page.blockCount; b++) {
    const start = blocks.textStart[b];
    const end = blocks.textEnd[b];
    if (end <= start) continue;
    const parent = blocks.parent[b];
    if (parent > 0 && blocks.textStart[parent] === start && blocks.textEnd[parent] === end) {
      slots[b] = slots[parent]; // the same text seen twice: parents come first, so its key is known
      continue;
    }
    const hash = (prefix[end] - Math.imul(prefix[start], basePower(end - start))) >>> 0;
    const length = Math.min(end - start, 65535) + 1;
    let slot = Math.imul(hash ^ length, 0x9e3779b1) & (size - 1);
    while (keyLength[slot] !== 0 && (keyHash[slot] !== hash || keyLength[slot] !== length)) slot = (slot + 1) & (size - 1);
    keyHash[slot] = hash;
    keyLength[slot] = length;
    seen[slot]++;
    slots[b] = slot;
  }
  const repeats = new Float64Array(page.blockCount);
  for (let b = 1; b < page.blockCount; b++) repeats[b] = slots[b] >= 0 ? seen[slots[b]] - 1 : 0;
  return repeats;
}

// ── rows ─────────────────────────────────────────────────────────────────────────────────────────────

/** Math.log1p of the counts below LOG_TABLE_SIZE, which most blocks' counts are: a lookup is cheaper than the logarithm. */
const LOG_TABLE_SIZE = 1024;
const LOG1P = Float64Array.from({ length: LOG_TABLE_SIZE }, (_, n) => Math.log1p(n));

/** Math.log1p of a count (a whole number at least 0). */
function logCount(count: number): number {
  return count < LOG_TABLE_SIZE ? LOG1P[count] : Math.log1p(count);
}

function writeRow(page: PageModel, counts: BlockCounts, b: number, out: Float32Array, row: number, repeats: number): void {
  const { blocks } = page;
  const chars = counts.chars[b];
  const words = counts.words[b];
  const perWord = 1 / Math.max(1, words);
  const perChar = 1 / Math.max(1, chars);
  const pageChars = page.text.length + 1;
  const parent = blocks.parent[b];
  const sourceLength = blocks.sourceEnd[b] - blocks.sourceStart[b];
  let column = row;
  out[column++] = logCount(chars);
  out[column++] = logCount(words);
  out[column++] = logCount(counts.ownChars[b]);
  out[column++] = counts.linkChars[b] * perChar;
  out[column++] = counts.linkWords[b] * perWord;
  out[column++] = Math.min(MAX_RATIO, counts.anchors[b] * perWord);
  out[column++] = Math.min(MAX_RATIO, counts.images[b] * perWord);
  out[column++] = Math.min(MAX_RATIO, counts.inputs[b] * perWord);
  out[column++] = counts.punctuation[b] * perChar;
  out[column++] = counts.digits[b] * perChar;
  out[column++] = counts.capitals[b] / (counts.letters[b] + 1);
  out[column++] = logCount(counts.sentences[b]);
  out[column++] = Math.min(MAX_WORDS_PER_SENTENCE, words / (counts.sentences[b] + 1));
  out[column++] = sourceLength > 0 ? Math.min(1, chars / sourceLength) : 0;
  out[column++] = Math.min(MAX_RATIO, counts.tags[b] * perWord);
  out[column++] = logCount(counts.children[b]);
  out[column++] = blocks.depth[b] / DEPTH_SCALE;
  out[column++] = blocks.textStart[b] / pageChars;
  out[column++] = blocks.textEnd[b] / pageChars;
  out[column++] = chars / pageChars;
  out[column++] = parent >= 0 ? chars / (counts.chars[parent] + 1) : 1;
  out[column++] = counts.crossEntropy[b] * perWord;
  out[column++] = logCount(repeats);
  out[column++] = counts.titleWords[b] * perWord;
  out[row + SHORT_WORD_COLUMN] = counts.shortWords[b] * perWord;
}

/** Offset of the first tag* column in a row. */
const TAG_COLUMN = FEATURE_NAMES.indexOf("tagParagraph");
const CONTAINER_COLUMN = FEATURE_NAMES.indexOf("inNav");
/** Feature columns of the page's frame (FRAME_ELEMENTS: inNav, inHeader, inFooter, inAside), the first container bits. */
export const FRAME_COLUMNS: readonly number[] = FRAME_ELEMENTS.map((_, bit) => CONTAINER_COLUMN + bit);
const IN_LINK_COLUMN = FEATURE_NAMES.indexOf("inLink");
const HINT_COLUMN = FEATURE_NAMES.indexOf("hintNavigation");
const INHERITED_HINT_COLUMN = FEATURE_NAMES.indexOf("inHintNavigation");

/** Writes 1 at column + bit for each set bit of `bits`: the row's flags are all 0 before, and most bits are not set. */
function writeBits(out: Float32Array, column: number, bits: number): void {
  for (let rest = bits; rest !== 0; rest &= rest - 1) out[column + 31 - Math.clz32(rest & -rest)] = 1; // lowest set bit first
}

function writeFlags(out: Float32Array, row: number, group: number, containers: number, hints: number, inherited: number, counts: BlockCounts, b: number): void {
  out[row + TAG_COLUMN + group] = 1;
  writeBits(out, row + CONTAINER_COLUMN, containers & ((1 << CONTAINER_GROUPS.length) - 1));
  out[row + IN_LINK_COLUMN] = counts.chars[b] > 0 && counts.linkChars[b] === counts.chars[b] ? 1 : 0;
  writeBits(out, row + HINT_COLUMN, hints);
  writeBits(out, row + INHERITED_HINT_COLUMN, inherited);
}

// ── context ──────────────────────────────────────────────────────────────────────────────────────────

const LINK_RATIO_COLUMN = FEATURE_NAMES.indexOf("linkCharRatio");
const LOG_CHARS_COLUMN = FEATURE_NAMES.indexOf("logChars");
const WORDS_PER_SENTENCE_COLUMN = FEATURE_NAMES.indexOf("wordsPerSentence");
const PARENT_COLUMN = FEATURE_NAMES.indexOf("parentLinkCharRatio");
const MAIN_COLUMN = FEATURE_NAMES.indexOf("inMainContent");

/** Hint groups that speak against main content (all but "content"): comments, sidebars, navigation... */
const BOILERPLATE_HINTS = (1 << (HINT_GROUPS.length - 1)) - 1;
/** Hint bit of the "content" group (the last). */
const CONTENT_HINT = 1 << (HINT_GROUPS.length - 1);
/** Factor on the main-content credit of a block inside a boilerplate-hinted element (like Readability's class weights). */
const MAIN_CONTENT_HINT_DISCOUNT = 0.25;

/** Readability's class weight of a block's own class and id: + for a name of content (article, post, entry...), - for one of boilerplate. */
function classWeight(ownHints: number): number {
  return ((ownHints & CONTENT_HINT) !== 0 ? MAIN_CONTENT_CLASS_WEIGHT : 0) - ((ownHints & BOILERPLATE_HINTS) !== 0 ? MAIN_CONTENT_CLASS_WEIGHT : 0);
}

/** Parent and grandparent features (the root stands in for missing ancestors). */
function writeContext(page: PageModel, data: Float32Array): void {
  const { parent } = page.blocks;
  for (let b = 0; b < page.blockCount; b++) {
    const up = b === 0 ? 0 : parent[b];
    const upper = up === 0 ? 0 : parent[up];
    const row = b * FEATURE_COUNT;
    data[row + PARENT_COLUMN] = data[up * FEATURE_COUNT + LINK_RATIO_COLUMN];
    data[row + PARENT_COLUMN + 1] = data[up * FEATURE_COUNT + LOG_CHARS_COLUMN];
    data[row + PARENT_COLUMN + 2] = data[up * FEATURE_COUNT + WORDS_PER_SENTENCE_COLUMN];
    data[row + PARENT_COLUMN + 3] = data[upper * FEATURE_COUNT + LINK_RATIO_COLUMN];
    data[row + PARENT_COLUMN + 4] = data[upper * FEATURE_COUNT + LOG_CHARS_COLUMN];
  }
}

const PREVIOUS_COLUMN = FEATURE_NAMES.indexOf("previousLinkCharRatio");
const SHORT_WORD_COLUMN = FEATURE_NAMES.indexOf("shortWordRatio");
const MAIN_SCORE_COLUMN = FEATURE_NAMES.indexOf("mainContentScore");

/**
 * Sequence context (the neighbours a linear-chain CRF sees, paper 004): the link share and log length of
 * the NEIGHBOUR_TEXT_NODES text nodes just before a block's text and just after it. A paragraph between
 * paragraphs is prose; a short line between links is a menu, whatever its own markup says.
 */
function writeSequence(page: PageModel, data: Float32Array): void {
  const { textNodes } = page;
  const nodes = page.textNodeCount;
  const chars = new Float64Array(nodes + 1); // text node ordinal → characters of the text nodes before it (prefix sums)
  const linked = new Float64Array(nodes + 1); // the same, of linked text nodes
  for (let t = 0; t < nodes; t++) {
    const length = textNodes.textEnd[t] - textNodes.textStart[t];
    chars[t + 1] = chars[t] + length;
    linked[t + 1] = linked[t] + (textNodes.inLink[t] === 1 ? length : 0);
  }
  const window = (from: number, to: number, row: number): void => {
    const start = Math.max(0, from);
    const end = Math.min(nodes, to);
    const total = end > start ? chars[end] - chars[start] : 0;
    data[row] = total > 0 ? (linked[end] - linked[start]) / total : 0;
    data[row + 1] = logCount(total);
  };
  for (let b = 0; b < page.blockCount; b++) {
    const row = b * FEATURE_COUNT + PREVIOUS_COLUMN;
    const first = page.blocks.firstTextNode[b];
    const end = page.blocks.endTextNode[b];
    window(first - NEIGHBOUR_TEXT_NODES, first, row);
    window(end, end + NEIGHBOUR_TEXT_NODES, row + 2);
  }
}

/**
 * A main-content estimate in the manner of Readability: each paragraph (a long text node outside links)
 * credits 1 + its commas + its length in hundreds of characters (at most 3) to the block that holds it,
 * counted for that block's parent and, half, for its grandparent; the block with the
 * highest count, discounted by its link share, is the main content container. Features: inside it,
 * an ancestor of it, and the distance to it in page text (share of the page).
 */
function writeMainContent(page: PageModel, counts: BlockCounts, hints: { own: Uint32Array; inherited: Uint32Array }, containers: Uint32Array, data: Float32Array): void {
  const { parent, textStart, textEnd } = page.blocks;
  const count = page.blockCount;
  const candidate = new Float64Array(count); // block ordinal → paragraph characters credited to it
  for (let b = 1; b < count; b++) {
    const up = parent[b];
    candidate[up] += counts.paragraphCredit[b];
    if (up > 0) candidate[parent[up]] += counts.paragraphCredit[b] / 2;
  }
  let main = 0;
  let best = 0;
  const score = new Float64Array(count); // block ordinal → its candidate score
  for (let b = 1; b < count; b++) {
    if (candidate[b] <= 0) continue;
    const hinted = (containers[b] & HIDDEN_BIT) !== 0 ? 0 : (hints.inherited[b] & BOILERPLATE_HINTS) !== 0 ? MAIN_CONTENT_HINT_DISCOUNT : 1;
    const credit = Math.max(0, candidate[b] + classWeight(hints.own[b]));
    score[b] = credit * hinted * (1 - counts.linkChars[b] / Math.max(1, counts.chars[b]));
    if (score[b] > best) { best = score[b]; main = b; }
  }
  const inside = new Uint8Array(count); // block ordinal → 1 if the block is the main container or inside it
  for (let b = 1; b < count; b++) inside[b] = b === main || inside[parent[b]] === 1 ? 1 : 0;
  const pageChars = Math.max(1, page.text.length);
  for (let b = 0; b < count; b++) {
    const row = b * FEATURE_COUNT + MAIN_COLUMN;
    data[row] = inside[b];
    data[row + 2] = inside[b] === 1 ? 0 : Math.max(0, textStart[main] - textEnd[b], textStart[b] - textEnd[main]) / pageChars;
    data[row + 3] = counts.commas[b] / Math.max(1, counts.words[b]);
    data[row + 4] = (containers[b] & HIDDEN_BIT) !== 0 ? 1 : 0;
    // Every candidate keeps its score beside the winner's, so a close runner-up (comments, a sidebar) is seen as such.
    data[b * FEATURE_COUNT + MAIN_SCORE_COLUMN] = best > 0 ? score[b] / best : 0;
  }
  for (let b = main > 0 ? parent[main] : -1; b >= 0; b = parent[b]) data[b * FEATURE_COUNT + MAIN_COLUMN + 1] = 1;
}

/**
 * The main-content block of the features' estimate: the first block (in document order) marked inside it; -1 if
 * none. Given blocks known not to hold the article (`excluded`, block ordinal → 1), an estimate among them gives
 * way to the best-scoring candidate outside them.
 */
export function mainContentBlock(features: FeatureMatrix, excluded?: Uint8Array): number {
  let main = -1;
  for (let b = 1; b < features.blockCount && main < 0; b++) if (features.data[b * features.featureCount + MAIN_COLUMN] === 1) main = b;
  if (main < 0 || excluded === undefined || excluded[main] === 0) return main;
  let best = -1;
  let bestScore = 0;
  for (let b = 1; b < features.blockCount; b++) {
    const score = features.data[b * features.featureCount + MAIN_SCORE_COLUMN];
    if (excluded[b] === 0 && score > bestScore) [best, bestScore] = [b, score];
  }
  return best;
}
