/**
 * A feed as found in its source string: where its items and their HTML fields are, by offset, so that a
 * rewrite can replace those ranges and keep every other byte as it was.
 */

export type FeedKind = "rss" | "atom" | "rdf";

/** An element by offsets in the feed source. A self-closing element has contentStart = contentEnd = end. */
export interface FeedElement {
  /** Offset of the "<" of its start tag. */
  readonly start: number;
  /** Offset just after its start tag. */
  readonly contentStart: number;
  /** Offset of the "<" of its end tag. */
  readonly contentEnd: number;
  /** Offset just after its end tag. */
  readonly end: number;
}

export interface FeedItem {
  /** The item (RSS, RDF) or entry (Atom) element. */
  readonly element: FeedElement;
  /** The item's link (raw, as written; may be relative), "" if none. */
  readonly link: string;
  /** RSS/RDF `description`, Atom `summary`: null if absent. */
  readonly description: FeedElement | null;
  /** RSS/RDF `content:encoded`, Atom `content`: null if absent. */
  readonly content: FeedElement | null;
}

export interface FeedDocument {
  readonly kind: FeedKind;
  readonly source: string;
  /** The root element's start tag [rootStart, rootNameEnd…): namespace declarations go after its name. */
  readonly rootNameEnd: number;
  /** Prefix bound to the RSS content module namespace on the root (e.g. "content"), null if none. */
  readonly contentPrefix: string | null;
  /** Prefix of Atom elements ("" for the default namespace); "" for other kinds. */
  readonly atomPrefix: string;
  /** Every namespace prefix declared on the root element. */
  readonly declaredPrefixes: readonly string[];
  readonly items: readonly FeedItem[];
  /** The feed's own link to its website (RSS/RDF channel `link`, Atom feed-level alternate `link`), "" if none. */
  readonly siteLink: string;
}

export type FeedParseResult =
  | { readonly ok: true; readonly feed: FeedDocument }
  | { readonly ok: false; readonly reason: "not-a-feed" | "malformed"; readonly detail: string };

/** What to change in one item. Every field is optional: null leaves that part as it was. */
export interface ItemEdit {
  /** Index of the item in FeedDocument.items. */
  readonly item: number;
  /** New HTML for the description (RSS/RDF) or summary (Atom). */
  readonly description: string | null;
  /** New HTML for content:encoded (RSS/RDF) or content (Atom); created if the item has none. */
  readonly content: string | null;
  /** Text of an XML comment added at the end of the item (why full text failed, for example). */
  readonly note: string | null;
}

export const CONTENT_MODULE_NAMESPACE = "http://purl.org/rss/1.0/modules/content/";
export const ATOM_NAMESPACE = "http://www.w3.org/2005/Atom";
