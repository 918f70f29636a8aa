/** Feeds (RSS 2.0, RSS 1.0/RDF, Atom 1.0): find items and their HTML, write cleaned HTML back in place. */
export type { FeedDocument, FeedElement, FeedItem, FeedKind, FeedParseResult, ItemEdit } from "./types";
export { parseFeed } from "./parse-feed";
export { cdata, escapeXmlText, readItemHtml, rewriteFeed } from "./rewrite-feed";
export { mapBounded } from "./map-bounded";
export { decodeFeed, type FeedDecodeResult } from "./decode-feed";
