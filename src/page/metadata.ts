/**
 * Reader metadata of a page: title, byline, published date, language, lead image and site name, from
 * <title>, <meta> (Open Graph, Twitter, article:, name=author, Dublin Core, itemprop), <html lang>,
 * <link rel=image_src> and JSON-LD (Article, NewsArticle, BlogPosting… with headline, author, datePublished,
 * image, publisher). One pass of the page scanner, listening only to the few tags it needs; comments are
 * skipped whole (conditional comments hide stale <html> tags), script content is raw text.
 */

import { findAttribute, readAttribute } from "./attributes";
import { decodeEntities as decodeAllEntities } from "./entities";
import { scanHtml, TEXT_DATA, TEXT_RAW, TEXT_RCDATA, type ScanHandler } from "./scanner";

export interface PageMetadata {
  readonly title: string | null;
  /** Author name(s), joined by ", " when there are several. */
  readonly byline: string | null;
  /** ISO 8601 when the date parses, else the text as the page wrote it. */
  readonly published: string | null;
  readonly lang: string | null;
  /** Absolute URL when the page's URL is known. */
  readonly leadImage: string | null;
  readonly siteName: string | null;
}

/** What the scan collects: first value per meta key (lower-cased name, property or itemprop). */
interface HeadFacts {
  readonly meta: Map<string, string>;
  title: string;
  htmlLang: string;
  imageLink: string;
  /** Text of the first itemprop="author" element or <a rel="author"> (a byline when no meta or JSON-LD names one). */
  authorLink: string;
  /** The date of the first element marked as the publication date (see readPublishedElement). */
  timePublished: string;
  readonly jsonLd: string[];
}

/** Most JSON-LD scripts read from one page (pages with dozens are widget noise). */
const MAX_JSON_LD_SCRIPTS = 16;
/** Longest author link text taken as a byline, in characters (longer is a sentence, not a name). */
const MAX_AUTHOR_LINK_CHARS = 100;
/** Longest meta value kept, in characters: anything longer is not a title, name or date. */
const MAX_META_VALUE_CHARS = 2_000;

export function extractMetadata(html: string, pageUrl?: string): PageMetadata {
  const facts = scanHead(html);
  const article = findArticle(facts.jsonLd);
  const meta = (...keys: string[]): string | null => firstMeta(facts.meta, keys);
  // Readability's order: structured data first, then Dublin Core, Open Graph, Twitter, and <title> last.
  const title = article.headline ?? meta("dc.title", "dcterms.title", "og:title", "twitter:title", "headline") ?? nonEmpty(facts.title);
  const byline = notUrl(article.authors) ?? notUrl(meta("author")) ?? notUrl(meta("article:author")) ??
    notUrl(meta("dc.creator", "byl", "sailthru.author", "parsely-author")) ?? nonEmpty(facts.authorLink);
  const published = article.datePublished ??
    meta("article:published_time", "datepublished", "og:published_time", "dc.date.issued", "dcterms.issued", "dcterms.created", "dc.date", "date", "pubdate", "publishdate", "sailthru.date", "parsely-pub-date") ??
    nonEmpty(facts.timePublished);
  const lang = nonEmpty(facts.htmlLang) ?? meta("content-language", "dc.language") ?? localeToLang(meta("og:locale")) ?? article.inLanguage;
  const image = article.image ?? meta("og:image", "og:image:url", "og:image:secure_url", "twitter:image", "twitter:image:src") ?? nonEmpty(facts.imageLink);
  const siteName = meta("og:site_name") ?? article.publisher ?? meta("application-name", "dc.publisher");
  return {
    title: tidy(title),
    byline: tidyByline(byline),
    published: normaliseDate(published),
    lang: tidy(lang),
    leadImage: absoluteUrl(image, pageUrl),
    siteName: tidy(siteName),
  };
}

function scanHead(html: string): HeadFacts {
  const collector = new MetadataCollector(html);
  scanHtml(html, collector);
  return collector.facts;
}

/** The text of one element while the scanner walks through it (nested elements of the same name counted). */
class ElementText {
  text = "";
  private depth = 0;

  constructor(private readonly tag: string) {}

  /** A start tag inside the element. */
  opened(name: string): void {
    if (name === this.tag) this.depth++;
  }

  /** An end tag inside the element; true when it ends the element itself. */
  closed(name: string): boolean {
    if (name !== this.tag) return false;
    return this.depth-- === 0;
  }
}

/** Link texts of author links that name nobody ("View my complete profile" on Blogger, "About" pages). */
const NOT_A_NAME = /^(?:view (?:my )?(?:complete |full )?profile|(?:about|more)(?: (?:me|the author))?|author|profile|posts?|website|e-?mail)$/i;

/** Elements whose start tag may carry itemprop="author" with the author's name as their text. */
const AUTHOR_ELEMENTS = new Set(["a", "span", "div", "p", "address", "cite", "strong", "b", "em", "li", "h3", "h4", "h5", "h6"]);

/** Listens to the page scanner for the few tags metadata needs. */
class MetadataCollector implements ScanHandler {
  readonly facts: HeadFacts = {
    meta: new Map(), title: "", htmlLang: "", imageLink: "", authorLink: "", timePublished: "", jsonLd: [],
  };
  private inJsonLd = false;
  private titleSeen = false;
  /** The first element naming the author (itemprop="author", or an <a rel="author">) while it is open. */
  private author: ElementText | null = null;
  /** An itemprop="name" element inside the author element (microdata Person), and its text once closed. */
  private authorName: ElementText | null = null;
  private authorNameText = "";

  constructor(private readonly html: string) {}

  startTag(name: string, _tagStart: number, nameEnd: number, tagEnd: number, _selfClosing: boolean, foreign: boolean): void {
    if (foreign) return;
    const html = this.html;
    const facts = this.facts;
    // An author element inside another one (a Person inside a byline) is the closer, shorter one: it wins.
    if (facts.authorLink === "" && AUTHOR_ELEMENTS.has(name) && isAuthorElement(html, name, nameEnd, tagEnd)) {
      this.author = new ElementText(name);
      this.authorName = null;
      this.authorNameText = "";
    } else if (this.author !== null) {
      this.readInsideAuthor(name, nameEnd, tagEnd);
    }
    if (name === "meta") readMeta(html, nameEnd, tagEnd, facts);
    else if (name === "html" && facts.htmlLang === "") facts.htmlLang = readAttribute(html, nameEnd, tagEnd, "lang") ?? "";
    else if (name === "link") readLink(html, nameEnd, tagEnd, facts);
    else if (DATE_ELEMENTS.has(name) && facts.timePublished === "") readPublishedElement(html, nameEnd, tagEnd, facts);
    else if (name === "script") this.inJsonLd = isJsonLd(html, nameEnd, tagEnd) && facts.jsonLd.length < MAX_JSON_LD_SCRIPTS;
  }

  private readInsideAuthor(name: string, nameEnd: number, tagEnd: number): void {
    (this.author as ElementText).opened(name);
    if (this.authorName !== null) this.authorName.opened(name);
    else if (this.authorNameText === "" && (readAttribute(this.html, nameEnd, tagEnd, "itemprop") ?? "").trim().toLowerCase() === "name") {
      this.authorName = new ElementText(name);
    }
  }

  endTag(name: string): void {
    if (name === "script") this.inJsonLd = false;
    if (this.authorName !== null && this.authorName.closed(name)) {
      this.authorNameText = this.authorName.text;
      this.authorName = null;
    }
    if (this.author === null || !this.author.closed(name)) return;
    const text = (this.authorNameText || this.author.text).replace(/\s+/g, " ").trim();
    if (text.length <= MAX_AUTHOR_LINK_CHARS && !NOT_A_NAME.test(text)) this.facts.authorLink = text;
    this.author = null;
    this.authorName = null;
    this.authorNameText = "";
  }

  text(start: number, end: number, kind: number): void {
    if (kind === TEXT_RAW && this.inJsonLd) this.facts.jsonLd.push(this.html.slice(start, end));
    else if (kind === TEXT_RCDATA && !this.titleSeen) {
      this.titleSeen = true;
      this.facts.title = decodeAllEntities(this.html, start, end);
    } else if (kind === TEXT_DATA && this.author !== null) {
      const text = ` ${decodeAllEntities(this.html, start, end)}`;
      this.author.text += text;
      if (this.authorName !== null) this.authorName.text += text;
      // Far longer than a name: not a byline (an unclosed link, a whole article marked as the author's).
      if (this.author.text.length > MAX_AUTHOR_LINK_CHARS * 4) this.author = null;
    }
  }
}

function readMeta(html: string, from: number, to: number, facts: HeadFacts): void {
  const key = readAttribute(html, from, to, "property") ?? readAttribute(html, from, to, "name") ??
    readAttribute(html, from, to, "itemprop") ?? readAttribute(html, from, to, "http-equiv");
  if (key === null) return;
  const content = readAttribute(html, from, to, "content");
  if (content === null || content.length > MAX_META_VALUE_CHARS) return;
  const normalisedKey = key.trim().toLowerCase();
  if (!facts.meta.has(normalisedKey) && content.trim() !== "") facts.meta.set(normalisedKey, content);
}

function readLink(html: string, from: number, to: number, facts: HeadFacts): void {
  if (facts.imageLink !== "") return;
  const rel = readAttribute(html, from, to, "rel");
  if (rel !== null && rel.trim().toLowerCase() === "image_src") facts.imageLink = readAttribute(html, from, to, "href") ?? "";
}

/** An element with itemprop="author", or a link with rel="author". */
function isAuthorElement(html: string, name: string, from: number, to: number): boolean {
  const itemprop = readAttribute(html, from, to, "itemprop");
  if (itemprop !== null && /(?:^|\s)author(?:\s|$)/i.test(itemprop)) return true;
  if (name !== "a") return false;
  const rel = readAttribute(html, from, to, "rel");
  return rel !== null && /(?:^|\s)author(?:\s|$)/i.test(rel);
}

/** Elements that mark a publication date in the body: <time>, hAtom's <abbr class="published">, microdata on <span>. */
const DATE_ELEMENTS = new Set(["time", "abbr", "span"]);

/**
 * `<time pubdate>`, any of them with itemprop="datePublished", or hAtom's `<abbr class="published"
 * title="…">`: the date from datetime, content or title.
 */
function readPublishedElement(html: string, from: number, to: number, facts: HeadFacts): void {
  const itemprop = readAttribute(html, from, to, "itemprop");
  const className = readAttribute(html, from, to, "class");
  const published = (itemprop !== null && itemprop.trim().toLowerCase() === "datepublished") ||
    findAttribute(html, from, to, "pubdate") !== null || (className !== null && /(?:^|\s)published(?:\s|$)/.test(className));
  if (!published) return;
  const value = readAttribute(html, from, to, "datetime") ?? readAttribute(html, from, to, "content") ?? readAttribute(html, from, to, "title");
  if (value !== null && /\d{4}/.test(value)) facts.timePublished = value;
}

function isJsonLd(html: string, from: number, to: number): boolean {
  const type = readAttribute(html, from, to, "type");
  return type !== null && type.trim().toLowerCase() === "application/ld+json";
}

function firstMeta(meta: Map<string, string>, keys: readonly string[]): string | null {
  for (const key of keys) {
    const value = meta.get(key);
    if (value !== undefined) return value;
  }
  return null;
}

// ── JSON-LD ──────────────────────────────────────────────────────────────────────────────────────────

interface ArticleFacts {
  readonly headline: string | null;
  readonly authors: string | null;
  readonly datePublished: string | null;
  readonly image: string | null;
  readonly publisher: string | null;
  readonly inLanguage: string | null;
}

const NO_ARTICLE: ArticleFacts = { headline: null, authors: null, datePublished: null, image: null, publisher: null, inLanguage: null };
const ARTICLE_TYPE = /(?:Article|BlogPosting|Report|LiveBlogPosting)$/;

type JsonObject = Record<string, unknown>;

/** The first article node of the page's JSON-LD (through @graph and arrays); malformed scripts are skipped. */
function findArticle(scripts: readonly string[]): ArticleFacts {
  for (const script of scripts) {
    const nodes = flattenNodes(parseLenient(script));
    const article = nodes.find((node) => typesOf(node).some((type) => ARTICLE_TYPE.test(type)));
    if (article === undefined) continue;
    const byId = new Map<string, JsonObject>();
    for (const node of nodes) if (typeof node["@id"] === "string") byId.set(node["@id"], node);
    const resolve = (value: unknown): unknown =>
      isObject(value) && typeof value["@id"] === "string" && Object.keys(value).length === 1 ? byId.get(value["@id"]) ?? value : value;
    return {
      headline: stringOf(article.headline) ?? stringOf(article.name),
      authors: namesOf(article.author, resolve) ?? namesOf(article.creator, resolve),
      datePublished: stringOf(article.datePublished) ?? stringOf(article.dateCreated),
      image: imageOf(resolve(article.image), resolve) ?? imageOf(resolve(article.thumbnailUrl), resolve),
      publisher: namesOf(article.publisher, resolve),
      inLanguage: stringOf(article.inLanguage),
    };
  }
  return NO_ARTICLE;
}

/** JSON.parse, then once more after the usual breakage (comment or CDATA wrappers, raw newlines, trailing commas). */
function parseLenient(script: string): unknown {
  const trimmed = script.trim();
  const first = tryParse(trimmed);
  if (first !== undefined) return first;
  const repaired = withoutWrapperEnd(trimmed.replace(/^(?:<!--|<!\[CDATA\[|\/\/<!\[CDATA\[)\s*/, ""))
    .replace(/[\u0000-\u001f]+/g, " ")
    .replace(/,\s*([}\]])/g, "$1");
  return tryParse(repaired) ?? null;
}

/** Wrapper ends a script may close with ("//]]>" before "]]>", which it ends with too). */
const WRAPPER_ENDS = ["-->", "//]]>", "]]>"];

/**
 * The text without a trailing comment or CDATA end and the white space before it. Checked with endsWith,
 * not a regex: `\s*(?:-->…)$` tries every start in a long run of white space (quadratic on `{` + spaces + `x`).
 */
function withoutWrapperEnd(text: string): string {
  for (const end of WRAPPER_ENDS) if (text.endsWith(end)) return text.slice(0, text.length - end.length).trimEnd();
  return text;
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined; // malformed JSON-LD is common on the web: the caller tries a repair or skips it
  }
}

function flattenNodes(value: unknown, into: JsonObject[] = [], depth = 0): JsonObject[] {
  if (depth > 4) return into;
  if (Array.isArray(value)) for (const entry of value) flattenNodes(entry, into, depth + 1);
  else if (isObject(value)) {
    into.push(value);
    if (Array.isArray(value["@graph"])) flattenNodes(value["@graph"], into, depth + 1);
  }
  return into;
}

function typesOf(node: JsonObject): string[] {
  const type = node["@type"];
  if (typeof type === "string") return [type];
  return Array.isArray(type) ? type.filter((entry): entry is string => typeof entry === "string") : [];
}

function namesOf(value: unknown, resolve: (value: unknown) => unknown): string | null {
  const names: string[] = [];
  for (const entry of Array.isArray(value) ? value : [value]) {
    const resolved = resolve(entry);
    const name = typeof resolved === "string" ? stringOf(resolved) : isObject(resolved) ? stringOf(resolved.name) : null;
    if (name !== null && name.trim() !== "" && !names.includes(name.trim())) names.push(name.trim());
  }
  return names.length > 0 ? names.join(", ") : null;
}

function imageOf(value: unknown, resolve: (value: unknown) => unknown): string | null {
  const first = Array.isArray(value) ? resolve(value[0]) : value;
  if (typeof first === "string") return stringOf(first);
  return isObject(first) ? stringOf(first.url) ?? stringOf(first.contentUrl) : null;
}

/**
 * A non-empty JSON-LD string, its character references decoded: script content is raw text, and pages write
 * "&amp;" into JSON-LD as into HTML. Decoded as attribute values are, so that a URL's "&region=" stays as
 * written. Values from the markup (title, meta, links) were decoded when read and are not decoded again.
 */
function stringOf(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? decodeJsonLdString(value) : null;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// ── normalising values ───────────────────────────────────────────────────────────────────────────────

/** A byline that is a profile URL (article:author often is) names nobody readable: the next source is tried. */
function notUrl(value: string | null): string | null {
  return value === null || /^\s*https?:\/\//i.test(value) ? null : value;
}

function nonEmpty(value: string | null): string | null {
  return value === null || value.trim() === "" ? null : value;
}

/** White space collapsed and trimmed; null when nothing is left. Values come here decoded once already. */
function tidy(value: string | null): string | null {
  if (value === null) return null;
  const text = value.replace(/\s+/g, " ").trim();
  return text === "" ? null : text;
}

/** A byline that is a profile URL (article:author often is) says nothing readable. */
function tidyByline(value: string | null): string | null {
  const text = tidy(value);
  return text === null || /^https?:\/\//i.test(text) ? null : text.replace(/^by\s+/i, "");
}

/** og:locale is written en_GB; a language tag is en-GB. */
function localeToLang(locale: string | null): string | null {
  return locale === null ? null : locale.trim().replace(/_/g, "-");
}

function normaliseDate(value: string | null): string | null {
  const written = tidy(value);
  if (written === null) return null;
  const text = written.replace(/^(\d{4})\/(\d{2})\/(\d{2})/, "$1-$2-$3"); // 2012/07/24T… (DCTERMS on some sites)
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return text; // a day, not an instant: keep it so
  const time = Date.parse(text);
  return Number.isNaN(time) ? written : new Date(time).toISOString();
}

function absoluteUrl(value: string | null, base: string | undefined): string | null {
  const text = tidy(value);
  if (text === null) return null;
  if (base === undefined) return text;
  return resolveUrl(text, base)?.href ?? text;
}

/** The URL a (possibly relative) reference names, or null when it does not parse. */
function resolveUrl(reference: string, base: string): URL | null {
  try {
    return new URL(reference, base);
  } catch {
    return null; // URL.canParse is missing from the Workers type declarations; the constructor is the test
  }
}

function decodeJsonLdString(text: string): string {
  return text.indexOf("&") < 0 ? text : decodeAllEntities(text, 0, text.length, true);
}
