/**
 * Finds a feed's kind, root namespaces, items and the elements of each item that hold HTML, in one pass
 * of the XML scanner. Lenient like feed readers: a stray end tag is ignored, an unclosed element is closed
 * by the end tag of an ancestor.
 */
import {
  ATOM_NAMESPACE,
  CONTENT_MODULE_NAMESPACE,
  type FeedDocument,
  type FeedElement,
  type FeedItem,
  type FeedKind,
  type FeedParseResult,
} from "./types";
import { readAttribute, readCharacterData, scanXml, type XmlHandler } from "./xml-scanner";

const XMLNS_DECLARATION = /\sxmlns(?::([A-Za-z_][\w.-]*))?\s*=\s*(["'])(.*?)\2/g;

interface RootInfo {
  readonly kind: FeedKind;
  readonly nameEnd: number;
  readonly contentPrefix: string | null;
  readonly atomPrefix: string;
  readonly declaredPrefixes: readonly string[];
}

export function parseFeed(source: string): FeedParseResult {
  const collector = new FeedCollector(source);
  const complete = scanXml(source, collector);
  const root = collector.root;
  if (root === null) return { ok: false, reason: "not-a-feed", detail: "no root element of RSS, RDF or Atom" };
  if (!complete || collector.openAtEnd > 0) {
    return { ok: false, reason: "malformed", detail: "the feed ends inside an element or a tag" };
  }
  const feed: FeedDocument = {
    kind: root.kind,
    source,
    rootNameEnd: root.nameEnd,
    contentPrefix: root.contentPrefix,
    atomPrefix: root.atomPrefix,
    declaredPrefixes: root.declaredPrefixes,
    items: collector.items,
    siteLink: collector.siteLink,
  };
  return { ok: true, feed };
}

/** Reads the root element's start tag: the feed kind and its namespace prefixes; null if not a feed. */
function readRoot(source: string, start: number, nameEnd: number, end: number): RootInfo | null {
  const name = source.slice(start + 1, nameEnd);
  const colon = name.indexOf(":");
  const localName = colon < 0 ? name : name.slice(colon + 1);
  const kind: FeedKind | null =
    localName === "rss" ? "rss" : localName === "RDF" ? "rdf" : localName === "feed" ? "atom" : null;
  if (kind === null) return null;
  const tag = source.slice(start, end);
  const declaredPrefixes: string[] = [];
  let contentPrefix: string | null = null;
  let atomPrefix = "";
  for (const match of tag.matchAll(XMLNS_DECLARATION)) {
    const prefix = match[1] ?? "";
    if (prefix !== "") declaredPrefixes.push(prefix);
    if (match[3] === CONTENT_MODULE_NAMESPACE && prefix !== "") contentPrefix = prefix;
    if (match[3] === ATOM_NAMESPACE && kind === "atom" && colon >= 0 && prefix === name.slice(0, colon)) atomPrefix = prefix;
  }
  return { kind, nameEnd, contentPrefix, atomPrefix, declaredPrefixes };
}

/** One open element on the scanner's stack. */
interface OpenElement {
  readonly name: string;
  readonly start: number;
  readonly contentStart: number;
}

/** Collects items while the scanner runs; an item's fields are its direct children. */
class FeedCollector implements XmlHandler {
  root: RootInfo | null = null;
  readonly items: FeedItem[] = [];
  siteLink = "";
  private readonly stack: OpenElement[] = [];
  private rootSeen = false;
  /** Stack index of the open item, -1 when outside an item. */
  private itemDepth = -1;
  /** The item's link from `link` (RSS, RDF) or the first alternate `link` (Atom). */
  private itemLink = "";
  /** A fallback link from a permalink `guid` (RSS) or an http `id` (Atom). */
  private itemFallbackLink = "";
  private itemDescription: FeedElement | null = null;
  private itemContent: FeedElement | null = null;

  constructor(private readonly source: string) {}

  get openAtEnd(): number {
    return this.stack.length;
  }

  startTag(start: number, nameEnd: number, end: number, selfClosing: boolean): void {
    const name = this.source.slice(start + 1, nameEnd);
    if (!this.rootSeen) {
      this.rootSeen = true;
      this.root = readRoot(this.source, start, nameEnd, end);
    }
    if (this.root === null) return;
    if (selfClosing) {
      this.closeElement({ name, start, contentStart: end }, end, end);
      return;
    }
    this.stack.push({ name, start, contentStart: end });
    if (this.itemDepth < 0 && name === this.itemName()) this.openItem();
  }

  endTag(start: number, nameEnd: number, end: number): void {
    if (this.root === null) return;
    const name = this.source.slice(start + 2, nameEnd);
    let depth = this.stack.length - 1;
    while (depth >= 0 && this.stack[depth].name !== name) depth--;
    if (depth < 0) return; // a stray end tag: ignore it
    while (this.stack.length > depth + 1) {
      const unclosed = this.stack.pop() as OpenElement;
      this.closeElement(unclosed, start, start);
    }
    const element = this.stack.pop() as OpenElement;
    this.closeElement(element, start, end);
  }

  private itemName(): string {
    const root = this.root as RootInfo;
    return root.kind === "atom" ? (root.atomPrefix === "" ? "entry" : `${root.atomPrefix}:entry`) : "item";
  }

  private openItem(): void {
    this.itemDepth = this.stack.length - 1;
    this.itemLink = "";
    this.itemFallbackLink = "";
    this.itemDescription = null;
    this.itemContent = null;
  }

  /** An element ends; contentEnd is where its content stops, end where the element stops. */
  private closeElement(open: OpenElement, contentEnd: number, end: number): void {
    const depth = this.stack.length; // the element is already off the stack: this is its own index
    const element: FeedElement = { start: open.start, contentStart: open.contentStart, contentEnd, end };
    if (depth === this.itemDepth) {
      const about = readAttribute(this.source, open.start, open.contentStart, "rdf:about") ?? "";
      const link = this.itemLink || this.itemFallbackLink || about.trim();
      this.items.push({ element, link, description: this.itemDescription, content: this.itemContent });
      this.itemDepth = -1;
    } else if (this.itemDepth >= 0 && depth === this.itemDepth + 1) {
      this.readField(open.name, element);
    } else if (this.itemDepth < 0 && this.siteLink === "") {
      this.readSiteLink(open.name, depth, element);
    }
  }

  /** The channel's `link` (RSS: rss > channel > link; RDF: RDF > channel > link) or the feed's alternate link (Atom). */
  private readSiteLink(name: string, depth: number, element: FeedElement): void {
    const root = this.root as RootInfo;
    if (root.kind === "atom") {
      const prefix = root.atomPrefix === "" ? "" : `${root.atomPrefix}:`;
      if (depth !== 1 || name !== `${prefix}link`) return;
      const rel = readAttribute(this.source, element.start, element.contentStart, "rel") ?? "alternate";
      const href = readAttribute(this.source, element.start, element.contentStart, "href");
      if (rel === "alternate" && href !== null) this.siteLink = href.trim();
      return;
    }
    if (depth === 2 && name === "link" && this.stack[1]?.name === "channel") this.siteLink = this.text(element).trim();
  }

  private readField(name: string, element: FeedElement): void {
    const root = this.root as RootInfo;
    if (root.kind === "atom") {
      const prefix = root.atomPrefix === "" ? "" : `${root.atomPrefix}:`;
      if (name === `${prefix}summary`) this.itemDescription ??= element;
      else if (name === `${prefix}content`) this.itemContent ??= element;
      else if (name === `${prefix}link`) this.readAtomLink(element);
      else if (name === `${prefix}id`) this.itemFallbackLink = httpOrEmpty(this.text(element));
      return;
    }
    if (name === "description") this.itemDescription ??= element;
    else if (root.contentPrefix !== null && name === `${root.contentPrefix}:encoded`) this.itemContent ??= element;
    else if (name === "link") this.itemLink ||= this.text(element).trim();
    else if (name === "guid") this.readGuid(element);
  }

  private readAtomLink(element: FeedElement): void {
    const rel = readAttribute(this.source, element.start, element.contentStart, "rel") ?? "alternate";
    const href = readAttribute(this.source, element.start, element.contentStart, "href");
    if (rel === "alternate" && href !== null) this.itemLink ||= href.trim();
  }

  private readGuid(element: FeedElement): void {
    const permaLink = readAttribute(this.source, element.start, element.contentStart, "isPermaLink");
    if (permaLink !== "false") this.itemFallbackLink = httpOrEmpty(this.text(element));
  }

  private text(element: FeedElement): string {
    return readCharacterData(this.source, element.contentStart, element.contentEnd);
  }
}

function httpOrEmpty(value: string): string {
  const trimmed = value.trim();
  return /^https?:\/\//i.test(trimmed) ? trimmed : "";
}
