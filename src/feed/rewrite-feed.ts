/**
 * Reading an item's HTML out of the feed, and writing cleaned HTML back in. The rewrite replaces only
 * the content of the edited elements (plus, where needed, an added content element, a namespace
 * declaration and the XML declaration's encoding); every other byte of the feed is kept as it was.
 */
import { CONTENT_MODULE_NAMESPACE, type FeedDocument, type FeedElement, type ItemEdit } from "./types";
import { readAttribute, readCharacterData } from "./xml-scanner";

/** How an Atom text construct is typed; RSS fields are always escaped HTML. */
type ContentType = "html" | "xhtml" | "text" | "external";

function atomContentType(feed: FeedDocument, element: FeedElement): ContentType {
  if (readAttribute(feed.source, element.start, element.contentStart, "src") !== null) return "external";
  const type = (readAttribute(feed.source, element.start, element.contentStart, "type") ?? "text").trim().toLowerCase();
  if (type === "html" || type === "text/html") return "html";
  if (type === "xhtml" || type === "application/xhtml+xml") return "xhtml";
  return "text";
}

/** The HTML an element holds, or null if it holds none (Atom plain text, external content, empty). */
export function readItemHtml(feed: FeedDocument, element: FeedElement | null): string | null {
  if (element === null || element.contentStart === element.contentEnd) return null;
  const type = feed.kind === "atom" ? atomContentType(feed, element) : "html";
  if (type === "text" || type === "external") return null;
  // XHTML content is markup already (a div wrapper and its children); HTML parses it as it is.
  if (type === "xhtml") return feed.source.slice(element.contentStart, element.contentEnd);
  const html = readCharacterData(feed.source, element.contentStart, element.contentEnd);
  return html.trim() === "" ? null : html;
}

/** One replacement in the source: [start, end) becomes text. */
interface Splice {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

export function rewriteFeed(feed: FeedDocument, edits: readonly ItemEdit[]): string {
  const splices: Splice[] = [];
  const declaration = encodingSplice(feed.source);
  if (declaration !== null) splices.push(declaration);
  const needsContentPrefix = feed.kind !== "atom" && feed.contentPrefix === null &&
    edits.some((edit) => edit.content !== null && feed.items[edit.item].content === null);
  const contentPrefix = feed.contentPrefix ?? freePrefix(feed.declaredPrefixes);
  if (needsContentPrefix) {
    splices.push({ start: feed.rootNameEnd, end: feed.rootNameEnd, text: ` xmlns:${contentPrefix}="${CONTENT_MODULE_NAMESPACE}"` });
  }
  for (const edit of edits) splices.push(...itemSplices(feed, edit, contentPrefix));
  splices.sort((a, b) => a.start - b.start || a.end - b.end);
  let output = "";
  let position = 0;
  for (const splice of splices) {
    output += feed.source.slice(position, splice.start) + splice.text;
    position = splice.end;
  }
  return output + feed.source.slice(position);
}

function itemSplices(feed: FeedDocument, edit: ItemEdit, contentPrefix: string): Splice[] {
  const item = feed.items[edit.item];
  const splices: Splice[] = [];
  if (edit.description !== null && item.description !== null) {
    splices.push(replaceContent(feed, item.description, edit.description));
  }
  let insertion = "";
  if (edit.content !== null) {
    if (item.content !== null) splices.push(replaceContent(feed, item.content, edit.content));
    else insertion += newContentElement(feed, contentPrefix, edit.content);
  }
  if (edit.note !== null) insertion += `<!-- ${commentSafe(edit.note)} -->`;
  if (insertion !== "") {
    const close = item.element.contentEnd;
    if (item.element.contentStart === item.element.end) {
      // A self-closing item: open it up (rare; keeps the rewrite total).
      const tag = feed.source.slice(item.element.start, item.element.end).replace(/\s*\/>$/, ">");
      const name = /^<([^\s/>]+)/.exec(tag)?.[1] ?? "item";
      splices.push({ start: item.element.start, end: item.element.end, text: `${tag}${insertion}</${name}>` });
    } else {
      splices.push({ start: close, end: close, text: insertion });
    }
  }
  return splices;
}

/** Replaces an element's content with HTML, keeping the element's own style (CDATA or escaped). */
function replaceContent(feed: FeedDocument, element: FeedElement, html: string): Splice {
  const original = feed.source.slice(element.contentStart, element.contentEnd);
  let startTag = feed.source.slice(element.start, element.contentStart);
  if (feed.kind === "atom") startTag = setAtomHtmlType(feed, element, startTag);
  const body = feed.kind !== "atom" && original.includes("<![CDATA[") ? cdata(html) : escapeXmlText(html);
  if (element.contentStart === element.end) {
    const name = /^<([^\s/>]+)/.exec(startTag)?.[1] ?? "content";
    return { start: element.start, end: element.end, text: `${startTag.replace(/\s*\/>$/, ">")}${body}</${name}>` };
  }
  return { start: element.start, end: element.contentEnd, text: startTag + body };
}

/** Cleaned output is HTML, so an Atom element typed xhtml, text or external becomes type="html". */
function setAtomHtmlType(feed: FeedDocument, element: FeedElement, startTag: string): string {
  const type = atomContentType(feed, element);
  if (type === "html") return startTag;
  const withoutTypeOrSource = startTag.replace(/\s(?:type|src)\s*=\s*(["'])[^"']*\1/g, "");
  return withoutTypeOrSource.replace(/^(<[^\s/>]+)/, '$1 type="html"');
}

function newContentElement(feed: FeedDocument, contentPrefix: string, html: string): string {
  if (feed.kind === "atom") {
    const name = feed.atomPrefix === "" ? "content" : `${feed.atomPrefix}:content`;
    return `<${name} type="html">${escapeXmlText(html)}</${name}>`;
  }
  return `<${contentPrefix}:encoded>${cdata(html)}</${contentPrefix}:encoded>`;
}

function freePrefix(declared: readonly string[]): string {
  let prefix = "content";
  for (let suffix = 2; declared.includes(prefix); suffix++) prefix = `content${suffix}`;
  return prefix;
}

/** The output is a JavaScript string, sent as UTF-8: the XML declaration must say so. */
function encodingSplice(source: string): Splice | null {
  if (!source.startsWith("<?xml")) return null;
  const end = source.indexOf("?>");
  if (end < 0) return null;
  const match = /\sencoding\s*=\s*(["'])([^"']*)\1/.exec(source.slice(0, end));
  if (match === null || match[2].toLowerCase() === "utf-8") return null;
  const valueStart = match.index + match[0].indexOf(match[1]) + 1;
  return { start: valueStart, end: valueStart + match[2].length, text: "UTF-8" };
}

/**
 * Characters XML 1.0 does not allow (C0 controls other than tab, LF, CR; U+FFFE, U+FFFF; lone
 * surrogates) are dropped: one of them would make the whole feed unreadable.
 */
const NOT_XML_CHARACTER = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function escapeXmlText(text: string): string {
  return text.replace(NOT_XML_CHARACTER, "").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** A CDATA section; a "]]>" inside is split across two sections so that it cannot end the first early. */
export function cdata(text: string): string {
  return `<![CDATA[${text.replace(NOT_XML_CHARACTER, "").replace(/]]>/g, "]]]]><![CDATA[>")}]]>`;
}

/** XML comments may not contain "--" nor end with "-". */
function commentSafe(text: string): string {
  return text.replace(NOT_XML_CHARACTER, "").replace(/-(?=-)/g, "- ").replace(/-$/, "- ");
}
