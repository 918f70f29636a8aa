/**
 * The page's kind: what its main content is (design.md, "What the main content is depends on the page's kind"). An
 * article's content is its body; a forum thread's the question and every post; documentation its code, tables and
 * notes; a product page its description and specifications; a listing or collection each item's title and summary; a
 * service page its own sections. The same block (a list of short linked items, a run of signed posts) is template on
 * one kind and content on another, so the decision (decide.ts) reads the kind.
 *
 * Recognised from what the page states of itself and from its structure, never from its wording:
 *   1. schema.org types, in JSON-LD (pass 1's PageModel.jsonLdScripts) and microdata (`itemtype`): a site that marks a
 *      page up says what it is (DiscussionForumPosting, QAPage; Product; TechArticle, APIReference; CollectionPage,
 *      several Products; Article, NewsArticle, BlogPosting…; ItemList);
 *   2. structure, where no type decides: code blocks (documentation writes code in <pre>), a run of posts (sibling
 *      blocks, each signed with a link and a <time>) that holds the page's text, and a run of cards (sibling elements
 *      alike, each with a link) that holds half of it with no article's body beside it. Teaser grids alone are no
 *      sign of a listing: the news pages of 2008-2012 (dragnet, l3s-gn1, cleanportaleval) hold as many beside their
 *      story (docs/classifier.md, "Page kinds").
 * A page that neither tells is "unknown": the decision then keeps to what it does for every page.
 */
import { FLAG_HEADING, FRAME_ELEMENTS, MARKUP_COUNTERS, MARKUP_LINKS, namesComments, readAttribute, TAG_FLAGS, tagId, type PageModel } from "../page/index";
import {
  KIND_BODY_MIN_SHARE, KIND_CARD_MIN_CHARS, KIND_CARD_RUN_MIN_CARDS, KIND_CARD_RUN_MIN_TEXT_SHARE, KIND_CODE_MIN_BLOCKS,
  KIND_COLLECTION_MIN_PRODUCTS, KIND_PARAGRAPH_MIN_CHARS, KIND_POST_RUN_MIN_POSTS, KIND_POST_RUN_MIN_TEXT_SHARE, PROSE_MIN_CHARS,
} from "../config";

/** The page kinds a page is recognised as, or a caller names (`kind=`); "unknown" where the page does not tell. */
export const PAGE_KINDS = ["article", "forum", "product", "documentation", "service", "listing", "collection", "unknown"] as const;
export type PageKind = (typeof PAGE_KINDS)[number];

/** How a kind was found: the page's schema.org types, its structure, a caller's `kind=`, or nothing ("unknown"). */
export type KindEvidence = "schema" | "structure" | "forced" | "none";

export interface PageKindFinding {
  readonly kind: PageKind;
  readonly evidence: KindEvidence;
}

/** Schema.org types that make a page a forum thread: a posting of a discussion, a question with its answers. */
const FORUM_TYPES = ["DiscussionForumPosting", "QAPage"];
/** Types of a thing offered for sale. */
const PRODUCT_TYPES = ["Product", "ProductGroup", "IndividualProduct", "ProductModel"];
/** Types of technical writing: reference and how-to documentation. */
const DOCUMENTATION_TYPES = ["TechArticle", "APIReference"];
/** Types of a page that lists other pages or things. */
const COLLECTION_TYPES = ["CollectionPage", "SearchResultsPage", "OfferCatalog"];
/** Schema.org's article types (Article and its kinds, the postings of a blog or a newspaper); forum postings are above. */
const ARTICLE_TYPE = /^(?:\w*Article|BlogPosting|LiveBlogPosting|Report|Review)$/;

/**
 * The page's kind from its schema.org types, else its structure; "unknown" where neither tells. Linear in the page:
 * one walk of the JSON-LD scripts' text, one search of the source for `itemtype` where JSON-LD tells no kind (it costs
 * about a seventh of pass 1's time on wceb2026's pages, so it runs only then), one walk of the blocks and text nodes.
 */
export function recognisePageKind(page: PageModel): PageKindFinding {
  const known = recognised.get(page);
  if (known !== undefined) return known;
  const finding = recognise(page);
  recognised.set(page, finding);
  return finding;
}

/**
 * Each page model's kind once found: calibration runs classify a page once per candidate setting (src/training), and the
 * kind does not depend on the settings. Weak, so that it goes with the page model.
 */
const recognised = new WeakMap<PageModel, PageKindFinding>();

function recognise(page: PageModel): PageKindFinding {
  const types = jsonLdTypes(page);
  const fromSchema = kindFromTypes(types) ?? kindFromTypes(withMicrodata(page, types));
  if (fromSchema !== null) return { kind: fromSchema, evidence: "schema" };
  const fromStructure = kindFromStructure(page);
  return fromStructure === null ? { kind: "unknown", evidence: "none" } : { kind: fromStructure, evidence: "structure" };
}

function count(types: ReadonlyMap<string, number>, names: readonly string[]): number {
  let total = 0;
  for (const name of names) total += types.get(name) ?? 0;
  return total;
}

/**
 * A kind the types state, or null: a forum's posting or a QAPage first (a thread page also carries an Article or a
 * Person), then a collection type, products where no article type says the page is an article about them (one or
 * two: a product page; more: a collection), documentation, articles, and an ItemList alone last (an article holds
 * one as often as a listing does, so it decides only where no article type is present).
 */
function kindFromTypes(types: ReadonlyMap<string, number>): PageKind | null {
  if (count(types, FORUM_TYPES) > 0) return "forum";
  let article = false;
  for (const name of types.keys()) if (ARTICLE_TYPE.test(name)) article = true;
  const products = count(types, PRODUCT_TYPES);
  if (count(types, COLLECTION_TYPES) > 0) return "collection";
  // Products beside an article type are what an article reviews ("the 10 best chairs", a blog's review of a phone).
  if (products > 0 && !article) return products >= KIND_COLLECTION_MIN_PRODUCTS ? "collection" : "product";
  if (count(types, DOCUMENTATION_TYPES) > 0) return "documentation";
  if (article) return "article";
  if ((types.get("ItemList") ?? 0) > 0) return "listing";
  return null;
}

const TAG_PRE = tagId("pre");

/**
 * A kind the page's structure shows, or null: code blocks (KIND_CODE_MIN_BLOCKS <pre> of code) make documentation;
 * a run of posts that holds half the page's text, with no paragraph outside it, a forum thread; a run of cards that
 * holds half its text, with no article's body beside it, a listing.
 */
function kindFromStructure(page: PageModel): PageKind | null {
  if (codeBlocks(page) >= KIND_CODE_MIN_BLOCKS) return "documentation";
  // A thread's question is its first post: paragraphs outside the run of posts are an article's, and the posts its comments.
  const { posts, proseOutsidePosts } = postRunShares(page);
  if (posts >= KIND_POST_RUN_MIN_TEXT_SHARE && proseOutsidePosts === 0) return "forum";
  // The body first: it is one walk of the text, and most pages have one.
  if (bodyShare(page) < KIND_BODY_MIN_SHARE && cardRunShare(page) >= KIND_CARD_RUN_MIN_TEXT_SHARE) return "listing";
  return null;
}

/** Tag ids of the elements that mark a page's frame, whose lists are its menus. */
const FRAME_TAGS = new Set(FRAME_ELEMENTS.map(tagId));
const TAG_P = tagId("p");
/** A list's items (<li>, a description list's <dd>), alike by their markup where a template gives them no class. */
const LIST_ITEM_TAGS = new Set(["li", "dd"].map(tagId));

/**
 * The largest share of the page's text outside its frame held by one run of cards: KIND_CARD_RUN_MIN_CARDS
 * or more sibling elements alike (the same tag and class, as a template writes them), each with a link, more than one
 * block (a title and a summary, a picture, a price) and KIND_CARD_MIN_CHARS of text, and holding no run of cards itself
 * (a section of cards is not a card), outside the frame and outside comment threads (whose text counts all the same:
 * a story's comments are no listing's cards). Elements without a class are not cards, but for a list's items (<li>,
 * <dd>: a list says its items are alike): the tables and divisions of a 2000s page laid out by hand are alike too. A
 * card's text is counted as the page's is, outside frame elements (a call to action set in an <aside> inside an
 * article's sections is no card's text). Walks of the blocks and text nodes and a map of the candidates, keyed by
 * parent, tag and class.
 */
function cardRunShare(page: PageModel): number {
  const markup = page.blocks.markup;
  if (markup === undefined) return 0;
  const count = page.blockCount;
  const { parent, tag, textStart, textEnd, sourceNameEnd, startTagEnd } = page.blocks;
  const inFrame = new Uint8Array(count); // block ordinal → 1 inside the frame
  for (let b = 1; b < count; b++) inFrame[b] = inFrame[parent[b]] | (FRAME_TAGS.has(tag[b]) ? 1 : 0);
  // Block ordinal → 1 inside a comment thread, 2 not, 0 not yet read: read only above the candidates, each block once.
  const inComments = new Uint8Array(count);
  const commentThread = (b: number): boolean => {
    let top = b;
    while (top > 0 && inComments[top] === 0) top = parent[top];
    let state = top > 0 ? inComments[top] : 2;
    const path: number[] = [];
    for (let at = b; at !== top; at = parent[at]) path.push(at);
    for (let i = path.length - 1; i >= 0; i--) {
      if (state === 2 && namesComments(page.source, sourceNameEnd[path[i]], startTagEnd[path[i]])) state = 1;
      inComments[path[i]] = state;
    }
    return inComments[b] === 1;
  };
  const links = new Int32Array(count); // block ordinal → links in its subtree
  const blocks = new Int32Array(count); // block ordinal → blocks in its subtree, itself included
  for (let b = count - 1; b > 0; b--) {
    links[b] += markup[b * MARKUP_COUNTERS + MARKUP_LINKS];
    blocks[b]++;
    links[parent[b]] += links[b];
    blocks[parent[b]] += blocks[b];
  }
  const unframed = new Float64Array(count); // block ordinal → text characters in its subtree outside the frame
  for (let t = 0; t < page.textNodeCount; t++) if (inFrame[page.textNodes.block[t]] === 0) unframed[page.textNodes.block[t]] += page.textNodes.textEnd[t] - page.textNodes.textStart[t];
  for (let b = count - 1; b > 0; b--) unframed[parent[b]] += unframed[b];
  const candidate = new Uint8Array(count);
  const keys: (string | undefined)[] = new Array(count);
  for (let b = 1; b < count; b++) {
    if (inFrame[b] === 1 || links[b] === 0 || blocks[b] < 2 || textEnd[b] - textStart[b] < KIND_CARD_MIN_CHARS) continue;
    const className = readAttribute(page.source, sourceNameEnd[b], startTagEnd[b], "class")?.trim() ?? "";
    if ((className === "" && !LIST_ITEM_TAGS.has(tag[b])) || commentThread(b)) continue;
    candidate[b] = 1;
    keys[b] = `${parent[b]} ${tag[b]} ${className}`;
  }
  // First the runs among all candidates, to find the blocks that hold one; then the runs of cards that hold none.
  const runs = (use: (b: number) => boolean): Map<string, { cards: number; chars: number }> => {
    const found = new Map<string, { cards: number; chars: number }>();
    for (let b = 1; b < count; b++) {
      if (candidate[b] === 0 || !use(b)) continue;
      const run = found.get(keys[b]!) ?? { cards: 0, chars: 0 };
      run.cards++;
      run.chars += unframed[b];
      found.set(keys[b]!, run);
    }
    return found;
  };
  const first = runs(() => true);
  const holdsRun = new Uint8Array(count); // block ordinal → 1 where a run of candidates lies in its subtree
  for (let b = 1; b < count; b++) if (candidate[b] === 1 && first.get(keys[b]!)!.cards >= KIND_CARD_RUN_MIN_CARDS) holdsRun[parent[b]] = 1;
  for (let b = count - 1; b > 0; b--) holdsRun[parent[b]] |= holdsRun[b];
  let best = 0;
  for (const run of runs((b) => holdsRun[b] === 0).values()) if (run.cards >= KIND_CARD_RUN_MIN_CARDS && run.chars > best) best = run.chars;
  return unframed[0] > 0 ? best / unframed[0] : 0;
}

/**
 * The largest share of the page's prose (text outside links, in runs of PROSE_MIN_CHARS or more) in one container's own
 * paragraphs (<p>): an article's body. A card's summary is a small share of a listing's prose, one of many; a card that
 * holds a tenth of the page's prose in its own paragraphs is a section of an article.
 */
function bodyShare(page: PageModel): number {
  const { parent, tag } = page.blocks;
  const paragraph = new Int32Array(page.blockCount); // block ordinal → the nearest <p> at or above it, 0 for none
  for (let b = 1; b < page.blockCount; b++) paragraph[b] = tag[b] === TAG_P ? b : paragraph[parent[b]];
  const { block, textStart, textEnd, inLink } = page.textNodes;
  const own = new Float64Array(page.blockCount); // container block ordinal → prose in its own paragraphs
  let prose = 0;
  for (let t = 0; t < page.textNodeCount; t++) {
    const chars = textEnd[t] - textStart[t];
    if (chars < PROSE_MIN_CHARS || inLink[t] === 1) continue;
    prose += chars;
    const p = paragraph[block[t]];
    if (p > 0) own[parent[p]] += chars;
  }
  let best = 0;
  for (let b = 0; b < page.blockCount; b++) if (own[b] > best) best = own[b];
  return prose > 0 ? best / prose : 0;
}

/**
 * <pre> blocks that hold code: most of their text outside links (a site of 2008 set its menu's links in <pre>), and
 * not written as sentences. A highlighter may set each line of code in a <div> inside the <pre>: a text node counts
 * for the outermost <pre> around it.
 */
function codeBlocks(page: PageModel): number {
  const { block, textStart, textEnd, inLink } = page.textNodes;
  const { parent, tag } = page.blocks;
  const pre = new Int32Array(page.blockCount); // block ordinal → the outermost <pre> at or above it, 0 for none
  for (let b = 1; b < page.blockCount; b++) pre[b] = pre[parent[b]] > 0 ? pre[parent[b]] : tag[b] === TAG_PRE ? b : 0;
  const linked = new Int32Array(page.blockCount); // <pre> block ordinal → its text's characters inside links, minus those outside
  for (let t = 0; t < page.textNodeCount; t++) {
    if (pre[block[t]] > 0) linked[pre[block[t]]] += (inLink[t] === 1 ? 1 : -1) * (textEnd[t] - textStart[t]);
  }
  let found = 0;
  for (let b = 1; b < page.blockCount; b++) {
    if (page.blocks.tag[b] === TAG_PRE && linked[b] < 0 && !isProse(page.text.slice(page.blocks.textStart[b], page.blocks.textEnd[b]))) found++;
  }
  return found;
}

/** A sentence's end: a stop, then a capital letter starting the next. */
const SENTENCE_END = /[.!?]["')\]]?\s+\p{Lu}/gu;
/** Characters of prose per sentence, at most: sentences run 75-150 characters (code's stops are method calls, not ends). */
const PROSE_CHARS_PER_SENTENCE = 200;

/** Text written as sentences (a press release set in <pre> by a wire service), not code. */
function isProse(text: string): boolean {
  let sentences = 0;
  for (const _ of text.matchAll(SENTENCE_END)) sentences++;
  return sentences * PROSE_CHARS_PER_SENTENCE >= text.length;
}

/**
 * The share of the page's text in runs of posts, and of paragraphs outside them. A container holds a run where
 * KIND_POST_RUN_MIN_POSTS or more of its child blocks are posts: each holds a <time> (when it was written) and a link
 * (who wrote it), and no heading (a post is signed, not titled). Counts per subtree are summed from the last block back
 * (a block's children follow it), so the walk is linear in blocks and text nodes.
 */
export function postRunShares(page: PageModel): { posts: number; proseOutsidePosts: number } {
  const count = page.blockCount;
  const markup = page.blocks.markup;
  if (markup === undefined || page.text.length === 0) return { posts: 0, proseOutsidePosts: 0 };
  const { parent, tag, textStart, textEnd } = page.blocks;
  const links = new Int32Array(count); // block ordinal → links in its subtree
  const headings = new Int32Array(count); // block ordinal → headings in its subtree
  const times = timesPerBlock(page); // block ordinal → <time> elements directly in it, then in its subtree
  const posts = new Int32Array(count); // block ordinal → child blocks that are posts
  const postChars = new Float64Array(count); // block ordinal → text characters of those posts
  for (let b = count - 1; b > 0; b--) {
    links[b] += markup[b * MARKUP_COUNTERS + MARKUP_LINKS];
    if ((TAG_FLAGS[tag[b]] & FLAG_HEADING) !== 0) headings[b]++;
    const up = parent[b];
    if (times[b] > 0 && links[b] > 0 && headings[b] === 0 && textEnd[b] > textStart[b]) {
      posts[up]++;
      postChars[up] += textEnd[b] - textStart[b];
    }
    links[up] += links[b];
    headings[up] += headings[b];
    times[up] += times[b];
  }
  let runChars = 0;
  const inRun = new Uint8Array(count); // block ordinal → 1 inside a run of posts
  for (let b = 1; b < count; b++) {
    inRun[b] = inRun[parent[b]] | (posts[parent[b]] >= KIND_POST_RUN_MIN_POSTS ? 1 : 0);
    if (posts[b] >= KIND_POST_RUN_MIN_POSTS && inRun[b] === 0) runChars += postChars[b];
  }
  return { posts: runChars / page.text.length, proseOutsidePosts: proseOutside(page, inRun) / page.text.length };
}

/** Characters of paragraphs (text nodes outside links of KIND_PARAGRAPH_MIN_CHARS or more) outside the blocks marked. */
function proseOutside(page: PageModel, marked: Uint8Array): number {
  const { block, textStart, textEnd, inLink } = page.textNodes;
  let prose = 0;
  for (let t = 0; t < page.textNodeCount; t++) {
    const chars = textEnd[t] - textStart[t];
    if (chars >= KIND_PARAGRAPH_MIN_CHARS && inLink[t] === 0 && marked[block[t]] === 0) prose += chars;
  }
  return prose;
}

/** Block ordinal → <time> elements directly in the block (pass 1's PageModel.timeBlocks). */
function timesPerBlock(page: PageModel): Int32Array {
  const times = new Int32Array(page.blockCount);
  for (const block of page.timeBlocks ?? []) times[block]++;
  return times;
}

/** "@type": "X" or "@type": ["X", "Y"] in a JSON-LD script (a value longer than a list of names is not read). */
const JSON_LD_TYPE = /"@type"\s*:\s*(\[[^\]]{0,400}\]|"[^"]{0,200}")/g;
const QUOTED = /"([^"]*)"/g;
/** An itemtype attribute's value, read from just after the attribute's name. */
const ITEMTYPE_VALUE = /\s*=\s*["']?([^"'\s>]{1,200})/y;

/**
 * Schema.org type name → nodes or elements of that type: JSON-LD's @type values and microdata's itemtype, each as its
 * last path segment ("https://schema.org/Product" is "Product").
 */
export function schemaTypes(page: PageModel): Map<string, number> {
  return withMicrodata(page, jsonLdTypes(page));
}

/** The types with microdata's itemtype values added (a new map). */
function withMicrodata(page: PageModel, jsonLd: ReadonlyMap<string, number>): Map<string, number> {
  const types = new Map(jsonLd);
  const source = page.source;
  for (let at = source.indexOf("itemtype"); at >= 0; at = source.indexOf("itemtype", at + 8)) {
    ITEMTYPE_VALUE.lastIndex = at + 8;
    const value = ITEMTYPE_VALUE.exec(source);
    if (value !== null) addType(types, value[1]);
  }
  return types;
}

/** Schema.org type name → JSON-LD nodes of that type, read from the scripts' ranges pass 1 kept. */
function jsonLdTypes(page: PageModel): Map<string, number> {
  const types = new Map<string, number>();
  const scripts = page.jsonLdScripts ?? [];
  for (let i = 0; i + 1 < scripts.length; i += 2) {
    for (const match of page.source.slice(scripts[i], scripts[i + 1]).matchAll(JSON_LD_TYPE)) {
      for (const quoted of match[1].matchAll(QUOTED)) addType(types, quoted[1]);
    }
  }
  return types;
}

/** Counts a type by its name, the last segment of a URL ("https://schema.org/Product" is "Product"). */
function addType(types: Map<string, number>, value: string): void {
  const name = value.slice(value.lastIndexOf("/") + 1).trim();
  if (name !== "") types.set(name, (types.get(name) ?? 0) + 1);
}
