import type { MetadataFacts } from "./metadata-scan";
import type { ScanLog } from "./scan-log";

/**
 * The page model: what pass 1 (page analysis) learns of a page, and all that the later stages need.
 * Per-block and per-text-node data live in typed arrays indexed by ordinal.
 *
 * Page text: the text nodes of the page in document order, entities decoded, white space inside a block
 * collapsed to single spaces, and one "\n" between the text of two different blocks. Rules, features,
 * the miner and the text writers all read this one string.
 */
export interface PageModel {
  /** The decoded HTML the model was built from; offsets named `source*` point into it. */
  readonly source: string;
  /** Page text as described above. Offsets named `text*` point into it. */
  readonly text: string;
  /** Document metadata found while scanning (empty string when absent). */
  readonly title: string;
  readonly lang: string;
  /** Number of blocks, the virtual root included. */
  readonly blockCount: number;
  readonly blocks: BlockTable;
  readonly textNodeCount: number;
  readonly textNodes: TextNodeTable;
  /**
   * End tags that HTML5 implies where pass 1 closed an element at a start tag (`<p>a<p>b`, `<li>a<li>b`,
   * `<td>a<td>b`…). lol-html (inside HTMLRewriter) implies none, so pass 2 writes these end tags into the
   * page it streams: then lol-html's open elements equal pass 1's at every point and both agree where
   * every element ends.
   */
  readonly impliedEndCount: number;
  readonly impliedEnds: ImpliedEndTable;
  /**
   * Source range [start, end) of the charset label of the first <meta charset> or <meta http-equiv
   * content="…; charset=…">, or [-1, -1]. The source is a decoded string: pass 2 writes "utf-8" here.
   * Optional so that hand-built page models in tests need not give it (absent means none).
   */
  readonly charsetDeclaration?: readonly [number, number];
  /**
   * A raw-text or RCDATA element (script, style, title, textarea…) left open whose text, running to the end of
   * the page, holds markup: the page's rest went into it, for a browser too (pass 1 closes a title at its first
   * tag instead, and this stays true: the page was broken). Optional, as charsetDeclaration.
   */
  readonly unclosedRawText?: boolean;
  /**
   * HTMLRewriter refuses this page: a start tag that switches to text stands where lol-html cannot tell whether a
   * browser ignores it (between <select> and </select>, or after <frameset>: rewriter-ambiguity.ts), so pass 2 runs
   * it even with nothing for it to remove (rewrite/remove.ts). Optional, as charsetDeclaration.
   */
  readonly rewriterMayRefuse?: boolean;
  /** Source offset where the text of a <title> left open to the end starts (pass 1 then closes it: analyse.ts), when so. */
  readonly runawayTitleStart?: number;
  /**
   * Source offsets of the links whose name or id names reader comments (`<a name="comments">`, `<a id="respond">`):
   * the targets of the page's "12 comments" links, where a comment section starts. Optional, as charsetDeclaration.
   */
  readonly commentAnchors?: readonly number[];
  /**
   * The <noscript> elements with text, flattened triples: offset of the start tag's "<", and the range [start, end) of
   * the element's text (raw text: scripts run here, as in the browsers pages are written for; page/noscript.ts opens
   * the ones that hold the page's main text). Optional, as charsetDeclaration.
   */
  readonly noscriptTexts?: readonly number[];
  /**
   * Source ranges [start, end) of every JSON-LD script's text, flattened pairs: its schema.org types tell the page's
   * kind (classify/kind.ts), and an `articleBody` in it the story's text as the site gives it (classify/article-body.ts).
   * Optional, as charsetDeclaration.
   */
  readonly jsonLdScripts?: readonly number[];
  /** The ordinal of the block that holds each <time> element, in order: posts are signed with one (classify/kind.ts). Optional, as charsetDeclaration. */
  readonly timeBlocks?: readonly number[];
  /** The reader metadata's facts, when pass 1 was asked to gather them (analysePage's metadata option). */
  readonly metadataFacts?: MetadataFacts;
  /** Pass 1's scanner events, when it was asked to record them (analysePage's scanLog option). */
  readonly scanLog?: ScanLog;
}

/** Implied end tags in source order (several may share an offset: write them in ordinal order). */
export interface ImpliedEndTable {
  /** Implied end ordinal → source offset (the "<" of the start tag that closed the element). */
  readonly offset: Int32Array;
  /** Implied end ordinal → tag id of the closed element (see tags.ts). */
  readonly tag: Uint8Array;
}

/** How an element was closed (BlockTable.closeKind). */
export const CLOSED_BY_OWN_END_TAG = 0;
/** By a start tag that implies its end; an implied end tag is recorded at sourceEnd. */
export const CLOSED_BY_IMPLIED_END = 1;
/** By the end tag of an enclosing element, which starts at sourceEnd (lol-html would remove that end tag with it). */
export const CLOSED_BY_ANCESTOR_END_TAG = 2;
/** Never closed: it runs to the end of the page. */
export const CLOSED_BY_END_OF_PAGE = 3;

/**
 * Blocks are block-level elements (div, p, li, td, h1…, nav, section…) in document order of their start
 * tags. Ordinal 0 is the virtual root (the document itself): never removed, parent -1.
 */
export interface BlockTable {
  /** Block ordinal → ordinal of the nearest enclosing block; -1 for the root. Always less than the block's own. */
  readonly parent: Int32Array;
  /** Block ordinal → tag id (see tags.ts); the root has TAG_ROOT. */
  readonly tag: Uint8Array;
  /** Block ordinal → element depth in the source tree (root 0). */
  readonly depth: Uint16Array;
  /** Block ordinal → source offset of the "<" of its start tag (root: 0). */
  readonly sourceStart: Int32Array;
  /** Block ordinal → source offset just after the tag name in its start tag: where a mark attribute can be inserted. */
  readonly sourceNameEnd: Int32Array;
  /** Block ordinal → source offset just after the ">" of its start tag (attributes lie before it). */
  readonly startTagEnd: Int32Array;
  /** Block ordinal → source offset just after the element ends (its end tag, or where it is closed implicitly). */
  readonly sourceEnd: Int32Array;
  /** Block ordinal → [textStart, textEnd): range of the page text covered by the block and its descendants. */
  readonly textStart: Int32Array;
  readonly textEnd: Int32Array;
  /** Block ordinal → CLOSED_BY_* constant above. */
  readonly closeKind: Uint8Array;
  /**
   * Block ordinal → for CLOSED_BY_ANCESTOR_END_TAG, how many end tags of the block's name close it at
   * sourceEnd (1 + open elements of the same name inside it); 0 otherwise.
   */
  readonly closeRepeat: Uint16Array;
  /** Block ordinal → [firstTextNode, endTextNode): the text nodes inside the block and its descendants. */
  readonly firstTextNode: Int32Array;
  readonly endTextNode: Int32Array;
  /**
   * Start tags directly in each block (not in its child blocks; a block's own start tag counts in it):
   * value for block b and counter c (MARKUP_* below) at markup[b * MARKUP_COUNTERS + c]. Comments and the
   * insides of raw-text elements hold no tags. Optional so that hand-built page models need not give it.
   */
  readonly markup?: Int32Array;
}

/** Counters of BlockTable.markup. */
export const MARKUP_TAGS = 0; // all start tags
export const MARKUP_LINKS = 1; // <a>
export const MARKUP_IMAGES = 2; // <img>, <svg>, <picture>
export const MARKUP_INPUTS = 3; // <input>, <button>, <select>, <textarea>
export const MARKUP_COUNTERS = 4;

/** Text nodes: maximal runs of character data (after entity decoding) with non-white-space content. */
export interface TextNodeTable {
  /** Text node ordinal → ordinal of the block that holds it directly. */
  readonly block: Int32Array;
  /** Text node ordinal → [textStart, textEnd): its range in the page text (collapsed white space). */
  readonly textStart: Int32Array;
  readonly textEnd: Int32Array;
  /** Text node ordinal → [sourceStart, sourceEnd): its raw range in the source (entities not decoded). */
  readonly sourceStart: Int32Array;
  readonly sourceEnd: Int32Array;
  /** Text node ordinal → 1 if the text node lies inside an <a> element, else 0. */
  readonly inLink: Uint8Array;
  /**
   * Text node ordinal → 1 inside a <button>: a control's label ("Share", "Listen", "Accept all"), never the
   * article's text. Optional so that hand-built page models need not give it.
   */
  readonly inButton?: Uint8Array;
  /**
   * Text node ordinal → 1 if its source is raw character data (CDATA in svg or math, <xmp>, <plaintext>):
   * references are not decoded there. Optional so that hand-built page models need not give it.
   */
  readonly raw?: Uint8Array;
}
