/**
 * Reader metadata from a page's JSON-LD: the first article node (Article, NewsArticle, BlogPosting…, through
 * @graph and arrays, @id references resolved) and the site's name from a WebSite node. Malformed scripts are
 * repaired once (comment or CDATA wrappers, raw control characters, trailing commas) or skipped.
 */
import { decodeEntities } from "./entities";

export interface JsonLdFacts {
  /** Title candidates in the order the node's type prefers them (see titlesOf). */
  readonly titles: readonly string[];
  readonly authors: string | null;
  readonly datePublished: string | null;
  readonly description: string | null;
  readonly image: string | null;
  readonly publisher: string | null;
  readonly inLanguage: string | null;
  /** The name of a WebSite node. */
  readonly websiteName: string | null;
}

const NO_FACTS: JsonLdFacts = {
  titles: [], authors: null, datePublished: null, description: null, image: null, publisher: null, inLanguage: null, websiteName: null,
};
/** Schema.org's article types (Article and its kinds, the postings: BlogPosting, SocialMediaPosting, DiscussionForumPosting…, Report, APIReference). */
const ARTICLE_TYPE = /(?:Article|Posting|Report|APIReference)$/;
/**
 * Types whose `headline` is the title as shown. A plain Article's `headline` is often a summary (Wikipedia
 * writes the article's short description there and its title in `name`), so `name` goes first for it.
 */
const HEADLINE_FIRST_TYPE = /^(?:NewsArticle|BlogPosting|LiveBlogPosting|ReportageNewsArticle|AnalysisNewsArticle|OpinionNewsArticle|ReviewNewsArticle|BackgroundNewsArticle|Report)$/;

type JsonObject = Record<string, unknown>;

export function readJsonLd(scripts: readonly string[]): JsonLdFacts {
  let websiteName: string | null = null;
  for (const script of scripts) {
    const nodes = flattenNodes(parseLenient(script));
    websiteName ??= stringOf(nodes.find((node) => typesOf(node).includes("WebSite"))?.name);
    const article = nodes.find((node) => typesOf(node).some((type) => ARTICLE_TYPE.test(type)));
    if (article === undefined) continue;
    const byId = new Map<string, JsonObject>();
    for (const node of nodes) if (typeof node["@id"] === "string") byId.set(node["@id"], node);
    const resolve = (value: unknown): unknown =>
      isObject(value) && typeof value["@id"] === "string" && Object.keys(value).length === 1 ? byId.get(value["@id"]) ?? value : value;
    return {
      titles: titlesOf(article),
      authors: namesOf(article.author, resolve) ?? namesOf(article.creator, resolve),
      datePublished: stringOf(article.datePublished) ?? stringOf(article.dateCreated),
      description: stringOf(article.description),
      image: imageOf(resolve(article.image), resolve) ?? imageOf(resolve(article.thumbnailUrl), resolve),
      publisher: namesOf(article.publisher, resolve),
      inLanguage: stringOf(article.inLanguage),
      websiteName,
    };
  }
  return { ...NO_FACTS, websiteName };
}

/** headline then name for news and blog types, name then headline for the rest; the caller picks by the page's <title>. */
function titlesOf(article: JsonObject): string[] {
  const headline = stringOf(article.headline);
  const name = stringOf(article.name);
  const headlineFirst = typesOf(article).some((type) => HEADLINE_FIRST_TYPE.test(type));
  const ordered = headlineFirst ? [headline, name] : [name, headline];
  return ordered.filter((title): title is string => title !== null);
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
  if (typeof value !== "string" || value.trim() === "") return null;
  return value.indexOf("&") < 0 ? value : decodeEntities(value, 0, value.length, true);
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A JSON object's string fields, for JSON a page writes into a meta tag (parsely-page); null when it is not an object. */
export function parseMetaJson(content: string): Readonly<Record<string, string>> | null {
  const value = tryParse(content.trim());
  if (!isObject(value)) return null;
  const fields: Record<string, string> = {};
  for (const [key, field] of Object.entries(value)) {
    if (typeof field === "string" && field.trim() !== "") fields[key] = field;
    else if (Array.isArray(field) && field.every((entry) => typeof entry === "string") && field.length > 0) fields[key] = field.join(", ");
  }
  return fields;
}
