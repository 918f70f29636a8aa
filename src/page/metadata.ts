/**
 * Reader metadata of a page: title, byline, published date, language, lead image and site name, from
 * <title>, <meta> (Open Graph, Twitter, article:, name=author, Dublin Core, itemprop), <html lang>,
 * <link rel=image_src> and JSON-LD (Article, NewsArticle, BlogPosting… with headline, author, datePublished,
 * image, publisher). One indexOf pass over the source that looks only at the few tags it needs; the
 * content of scripts, styles and comments is skipped whole (conditional comments hide stale <html> tags).
 */

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
  /** Text of the first <a rel="author"> (a byline when no meta or JSON-LD names one). */
  authorLink: string;
  /** datetime of the first <time pubdate> or <time itemprop="datePublished">. */
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
  const title = meta("og:title", "twitter:title") ?? article.headline ?? meta("dc.title", "headline") ?? nonEmpty(facts.title);
  const byline = article.authors ?? meta("author", "article:author", "dc.creator", "byl", "sailthru.author", "parsely-author") ??
    nonEmpty(facts.authorLink);
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
  const facts: HeadFacts = {
    meta: new Map(), title: "", htmlLang: "", imageLink: "", authorLink: "", timePublished: "", jsonLd: [],
  };
  let position = html.indexOf("<");
  while (position >= 0) {
    position = readTag(html, position, facts);
    position = html.indexOf("<", position);
  }
  return facts;
}

/** Reads the tag at `start` if it is one of ours; returns where scanning goes on. */
function readTag(html: string, start: number, facts: HeadFacts): number {
  if (html.startsWith("<!--", start)) return skipPast(html, start + 4, "-->");
  const nameEnd = tagNameEnd(html, start + 1);
  if (nameEnd === start + 1) return start + 1;
  const name = html.slice(start + 1, nameEnd).toLowerCase();
  const end = tagEnd(html, nameEnd);
  if (name === "meta") readMeta(html, nameEnd, end, facts);
  else if (name === "html" && facts.htmlLang === "") facts.htmlLang = attribute(html, nameEnd, end, "lang") ?? "";
  else if (name === "link") readLink(html, nameEnd, end, facts);
  else if (name === "a" && facts.authorLink === "") readAuthorLink(html, nameEnd, end, facts);
  else if (name === "time" && facts.timePublished === "") readTime(html, nameEnd, end, facts);
  else if (name === "title" || name === "script" || name === "style" || name === "textarea") {
    const close = indexOfEndTag(html, end, name);
    if (name === "title" && facts.title === "") facts.title = decodeEntities(html.slice(end, close));
    if (name === "script" && isJsonLd(html, nameEnd, end) && facts.jsonLd.length < MAX_JSON_LD_SCRIPTS) {
      facts.jsonLd.push(html.slice(end, close));
    }
    return close;
  }
  return end;
}

function readMeta(html: string, from: number, to: number, facts: HeadFacts): void {
  const key = attribute(html, from, to, "property") ?? attribute(html, from, to, "name") ??
    attribute(html, from, to, "itemprop") ?? attribute(html, from, to, "http-equiv");
  if (key === null) return;
  const content = attribute(html, from, to, "content");
  if (content === null || content.length > MAX_META_VALUE_CHARS) return;
  const normalisedKey = key.trim().toLowerCase();
  if (!facts.meta.has(normalisedKey) && content.trim() !== "") facts.meta.set(normalisedKey, content);
}

function readLink(html: string, from: number, to: number, facts: HeadFacts): void {
  if (facts.imageLink !== "") return;
  const rel = attribute(html, from, to, "rel");
  if (rel !== null && rel.toLowerCase() === "image_src") facts.imageLink = attribute(html, from, to, "href") ?? "";
}

function readAuthorLink(html: string, from: number, to: number, facts: HeadFacts): void {
  const rel = attribute(html, from, to, "rel");
  if (rel === null || !/(?:^|\s)author(?:\s|$)/i.test(rel)) return;
  const close = indexOfEndTag(html, to, "a");
  const text = decodeEntities(html.slice(to, close).replace(/<[^>]*>/g, " ")).replace(/\s+/g, " ").trim();
  if (text.length <= MAX_AUTHOR_LINK_CHARS) facts.authorLink = text;
}

function readTime(html: string, from: number, to: number, facts: HeadFacts): void {
  const tag = html.slice(from, to);
  if (!/\spubdate\b|itemprop\s*=\s*["']?datePublished/i.test(tag)) return;
  facts.timePublished = attribute(html, from, to, "datetime") ?? "";
}

function isJsonLd(html: string, from: number, to: number): boolean {
  const type = attribute(html, from, to, "type");
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
  const repaired = trimmed
    .replace(/^(?:<!--|<!\[CDATA\[|\/\/<!\[CDATA\[)\s*/, "")
    .replace(/\s*(?:-->|\]\]>|\/\/\]\]>)$/, "")
    .replace(/[\u0000-\u001f]+/g, " ")
    .replace(/,\s*([}\]])/g, "$1");
  return tryParse(repaired) ?? null;
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
    const name = typeof resolved === "string" ? resolved : isObject(resolved) ? stringOf(resolved.name) : null;
    if (name !== null && name.trim() !== "" && !names.includes(name.trim())) names.push(name.trim());
  }
  return names.length > 0 ? names.join(", ") : null;
}

function imageOf(value: unknown, resolve: (value: unknown) => unknown): string | null {
  const first = Array.isArray(value) ? resolve(value[0]) : value;
  if (typeof first === "string") return first;
  return isObject(first) ? stringOf(first.url) ?? stringOf(first.contentUrl) : null;
}

function stringOf(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value : null;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// ── normalising values ───────────────────────────────────────────────────────────────────────────────

function nonEmpty(value: string | null): string | null {
  return value === null || value.trim() === "" ? null : value;
}

function tidy(value: string | null): string | null {
  if (value === null) return null;
  const text = decodeEntities(value).replace(/\s+/g, " ").trim();
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

// ── small scanning helpers ──────────────────────────────────────────────────────────────────────────

function skipPast(html: string, from: number, terminator: string): number {
  const at = html.indexOf(terminator, from);
  return at < 0 ? html.length : at + terminator.length;
}

function tagNameEnd(html: string, from: number): number {
  let position = from;
  for (;;) {
    const code = html.charCodeAt(position);
    const letter = (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
    if (!(letter || (position > from && ((code >= 0x30 && code <= 0x39) || code === 0x2d || code === 0x3a)))) return position;
    position++;
  }
}

/** Just after the ">" of a tag (quoted values may hold ">"); the end of the source if unterminated. */
function tagEnd(html: string, from: number): number {
  let position = from;
  while (position < html.length) {
    const code = html.charCodeAt(position);
    if (code === 0x3e) return position + 1;
    if (code === 0x22 || code === 0x27) {
      const close = html.indexOf(code === 0x22 ? '"' : "'", position + 1);
      if (close < 0) return html.length;
      position = close + 1;
    } else {
      position++;
    }
  }
  return html.length;
}

/** Offset of the "<" of `</name` after `from` (any case); the end of the source if missing. */
function indexOfEndTag(html: string, from: number, name: string): number {
  let position = html.indexOf("</", from);
  while (position >= 0) {
    if (html.slice(position + 2, position + 2 + name.length).toLowerCase() === name) return position;
    position = html.indexOf("</", position + 2);
  }
  return html.length;
}

const ATTRIBUTE_CACHE = new Map<string, RegExp>();

/** The value of an attribute in the tag text [from, to), or null. */
function attribute(html: string, from: number, to: number, name: string): string | null {
  let pattern = ATTRIBUTE_CACHE.get(name);
  if (pattern === undefined) {
    pattern = new RegExp(`[\\s"'/]${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`, "i");
    ATTRIBUTE_CACHE.set(name, pattern);
  }
  const match = pattern.exec(html.slice(from - 1, to));
  return match === null ? null : decodeEntities(match[1] ?? match[2] ?? match[3] ?? "");
}

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0", mdash: "\u2014", ndash: "\u2013",
  hellip: "\u2026", rsquo: "\u2019", lsquo: "\u2018", rdquo: "\u201d", ldquo: "\u201c", middot: "\u00b7",
  raquo: "\u00bb", laquo: "\u00ab", copy: "\u00a9", reg: "\u00ae", trade: "\u2122", eacute: "\u00e9",
};
const ENTITY = /&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z]{2,8});/g;

function decodeEntities(text: string): string {
  if (text.indexOf("&") < 0) return text;
  return text.replace(ENTITY, (whole, body: string) => {
    if (body.charCodeAt(0) !== 0x23) return NAMED_ENTITIES[body] ?? NAMED_ENTITIES[body.toLowerCase()] ?? whole;
    const code = body.charCodeAt(1) === 0x78 || body.charCodeAt(1) === 0x58 ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}
