/**
 * The reader API's per-request options, read once from the query and headers of /v1/clean and /v1/read:
 * the format (negotiated), the mode, the article header, the Markdown front matter, and the request's CSS
 * selectors (X-Target-Selector, X-Remove-Selector). Headers carry them where the query string is the target's
 * own (the plain form of /v1/read).
 */
import { CLEAN_FORMATS, type CleanFormat, type RequestSelectors } from "../../clean";
import { parseSelector, type SelectorList } from "../../selectors";
import { quoteValue, requireKnownParameters, ServiceError } from "../shared/errors";
import { DEFAULT_FORMAT, requireKind, requireMode, type RequestedKind, type RequestedMode } from "../shared/formats";
import { DEFAULT_SHAPE_OPTIONS, RETAIN_IMAGES, type AnswerShape, type RetainImages, type ShapeOptions } from "../shared/reader-shapes";
import { acceptsAnything, FRONT_MATTER_HEADER, negotiateFormat, RETURN_FORMAT_HEADER } from "./negotiate";

export { FRONT_MATTER_HEADER };

/** Request headers standing for query parameters (for the plain form of /v1/read, where the query is the target's). */
export const ARTICLE_HEADER_HEADER = "x-article-header";
export const MODE_HEADER = "x-mode";
/** Keep only what this selector matches (the mode still cleans inside it); query parameter target-selector. */
export const TARGET_SELECTOR_HEADER = "x-target-selector";
/** Remove what this selector matches, too; query parameter remove-selector. */
export const REMOVE_SELECTOR_HEADER = "x-remove-selector";
/** Jina Reader's request headers (docs/agents.md has the table of what each does here). */
export const NO_CACHE_HEADER = "x-no-cache";
export const CACHE_TOLERANCE_HEADER = "x-cache-tolerance";
export const LINKS_SUMMARY_HEADER = "x-with-links-summary";
export const IMAGES_SUMMARY_HEADER = "x-with-images-summary";
export const RETAIN_IMAGES_HEADER = "x-retain-images";
export const TIMEOUT_HEADER = "x-timeout";
/** The request headers of the reader's options (CORS allows them: api/etiquette.ts). */
export const READER_OPTION_HEADERS = [
  ARTICLE_HEADER_HEADER, MODE_HEADER, TARGET_SELECTOR_HEADER, REMOVE_SELECTOR_HEADER, NO_CACHE_HEADER, CACHE_TOLERANCE_HEADER,
  LINKS_SUMMARY_HEADER, IMAGES_SUMMARY_HEADER, RETAIN_IMAGES_HEADER, TIMEOUT_HEADER,
] as const;
/**
 * The query parameters /v1/clean and /v1/read (encoded form, POST) read: the page (url, site), the API key, the format
 * and shape, the page kind, and each option by its kebab-case name and Jina's camelCase one. Any other is refused
 * (400 naming these): a typo such as `fromat=text` would otherwise answer 200 in the default format.
 */
export const READER_QUERY_PARAMETERS = [
  "url", "site", "key", "format", "shape", "mode", "kind", "header", "frontmatter",
  "target-selector", "targetSelector", "remove-selector", "removeSelector", "links-summary", "withLinksSummary",
  "images-summary", "withImagesSummary", "retain-images", "retainImages", "no-cache", "noCache", "cache-tolerance", "cacheTolerance", "timeout",
] as const;
/** X-Return-Format's value for Jina's text envelope. */
const CONTENT_FORMAT = "content";
/** Longest X-Timeout taken, in seconds (Jina's own range is 1-180); the deployment's fetch timeout caps it too. */
const MAX_TIMEOUT_SECONDS = 180;

export interface ReaderOptions {
  readonly format: CleanFormat;
  /** Whether the format came from Accept or X-Return-Format (the answer then carries Vary). */
  readonly varies: boolean;
  readonly mode: RequestedMode;
  /** What the page is, when the caller knows (?kind=); "auto": recognised from the page (classify/kind.ts). */
  readonly kind: RequestedKind;
  /** format=article: a header of title, byline and date first; format=text: the article header (headline to first paragraph) kept (left out by default). */
  readonly articleHeader: boolean;
  /** format=markdown: a YAML front matter block first. */
  readonly frontMatter: boolean;
  /** The request's selectors, parsed (null each when not given). */
  readonly selectors: RequestSelectors;
  /** Whose shape the answer takes (cleaned as json first when not `document`). */
  readonly shape: AnswerShape;
  readonly shapeOptions: ShapeOptions;
  /** X-No-Cache (or X-Cache-Tolerance: 0): skip the cache lookup. */
  readonly noCache: boolean;
  /** X-Timeout in ms (the origin fetch's limit, never above the deployment's); null when not given. */
  readonly timeoutMs: number | null;
}

/** Which route reads the options: /v1/read answers Jina's shapes by default, /v1/clean its documented default. */
export type ReaderRoute = "clean" | "read";

/** Reads the options; `query` is null where the query string is not the API's (the plain form of /v1/read). */
export function readerOptions(request: Request, query: URLSearchParams | null, route: ReaderRoute = "clean", body: Readonly<Record<string, string>> = {}): ReaderOptions {
  // Query first (kebab-case, then Jina's camelCase), then a posted body's field, then the header.
  if (query !== null) requireKnownParameters(query, READER_QUERY_PARAMETERS);
  const parameter = (name: string, header: string | null, camel?: string): string | undefined =>
    query?.get(name) ?? (camel === undefined ? undefined : query?.get(camel) ?? body[camel]) ?? body[name] ?? (header === null ? undefined : request.headers.get(header) ?? undefined);
  const { format: negotiated, varies, shape } = negotiateShape(request, query?.get("format") ?? undefined, route, query?.get("shape") ?? undefined);
  return {
    format: shape === "document" ? negotiated : "json",
    varies,
    mode: requireMode(parameter("mode", MODE_HEADER)),
    kind: requireKind(parameter("kind", null)),
    articleHeader: requireFlag("header", parameter("header", ARTICLE_HEADER_HEADER)),
    frontMatter: requireFlag("frontmatter", parameter("frontmatter", FRONT_MATTER_HEADER)),
    selectors: {
      target: requireSelector("X-Target-Selector", parameter("target-selector", TARGET_SELECTOR_HEADER, "targetSelector")),
      remove: requireSelector("X-Remove-Selector", parameter("remove-selector", REMOVE_SELECTOR_HEADER, "removeSelector")),
    },
    shape,
    shapeOptions: {
      linksSummary: requireFlag(LINKS_SUMMARY_HEADER, summaryFlag(parameter("links-summary", LINKS_SUMMARY_HEADER, "withLinksSummary"))),
      imagesSummary: requireFlag(IMAGES_SUMMARY_HEADER, summaryFlag(parameter("images-summary", IMAGES_SUMMARY_HEADER, "withImagesSummary"))),
      retainImages: requireRetainImages(parameter("retain-images", RETAIN_IMAGES_HEADER, "retainImages")),
    },
    noCache: requireFlag(NO_CACHE_HEADER, parameter("no-cache", NO_CACHE_HEADER, "noCache")) || parameter("cache-tolerance", CACHE_TOLERANCE_HEADER, "cacheTolerance")?.trim() === "0",
    timeoutMs: requireTimeout(parameter("timeout", TIMEOUT_HEADER, "timeout")),
  };
}

/**
 * The format and the answer's shape: `?shape=readability` (json); X-Return-Format: content, Jina's text envelope;
 * on /v1/read, Jina's text envelope when the client states no preference (no format, no X-Return-Format, an
 * Accept of nothing or only *\/*) and Jina's JSON when Accept picks application/json. Everything else as before.
 */
function negotiateShape(request: Request, queryFormat: string | undefined, route: ReaderRoute, queryShape: string | undefined): { format: CleanFormat; varies: boolean; shape: AnswerShape } {
  if (queryShape !== undefined && queryShape !== "") {
    if (queryShape !== "readability") throw new ServiceError("bad-request", `shape must be readability, not ${quoteValue(queryShape)}`);
    return { format: "json", varies: false, shape: "readability" };
  }
  const returnFormat = request.headers.get(RETURN_FORMAT_HEADER)?.trim().toLowerCase();
  const named = queryFormat !== undefined && queryFormat !== "";
  if (!named && returnFormat === CONTENT_FORMAT) return { format: "json", varies: true, shape: "jina-text" };
  if (route === "read" && !named && (returnFormat === undefined || returnFormat === "") && acceptsAnything(request.headers.get("accept"))) {
    return { format: "json", varies: true, shape: "jina-text" };
  }
  const { format, varies } = negotiateFormat(request, queryFormat, CLEAN_FORMATS, DEFAULT_FORMAT);
  const fromAccept = !named && (returnFormat === undefined || returnFormat === "");
  return { format, varies, shape: route === "read" && fromAccept && format === "json" ? "jina-json" : "document" };
}

/** Jina's summaries take "all" (every link, repeats included) beside "true": here both list each URL once. */
function summaryFlag(value: string | undefined): string | undefined {
  return value?.trim().toLowerCase() === "all" ? "true" : value;
}

function requireRetainImages(value: string | undefined): RetainImages {
  if (value === undefined || value.trim() === "") return DEFAULT_SHAPE_OPTIONS.retainImages;
  const retain = value.trim().toLowerCase();
  if (!(RETAIN_IMAGES as readonly string[]).includes(retain)) throw new ServiceError("bad-request", `X-Retain-Images must be one of ${RETAIN_IMAGES.join(", ")}, not ${quoteValue(value)}`);
  return retain as RetainImages;
}

/** X-Timeout: whole seconds from 1 to MAX_TIMEOUT_SECONDS, as ms; null when absent. */
function requireTimeout(value: string | undefined): number | null {
  if (value === undefined || value.trim() === "") return null;
  const seconds = Number(value);
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_TIMEOUT_SECONDS) throw new ServiceError("bad-request", `X-Timeout must be whole seconds from 1 to ${MAX_TIMEOUT_SECONDS}, not ${quoteValue(value)}`);
  return seconds * 1000;
}

/** A selector in the subset src/selectors reads, or absent (null); anything else is a 400 that says why. */
export function requireSelector(name: string, value: string | undefined): SelectorList | null {
  if (value === undefined || value.trim() === "") return null;
  const parsed = parseSelector(value);
  if (!parsed.ok) throw new ServiceError("bad-request", `${name}: ${parsed.reason}`);
  return parsed.list;
}

/** The selectors as they go into a cache key: their text, "" where absent. */
export function selectorKey(selectors: RequestSelectors): string {
  return JSON.stringify([selectors.target?.source ?? "", selectors.remove?.source ?? ""]);
}

/** A yes/no parameter: true, 1, false, 0 or absent (false). */
export function requireFlag(name: string, value: string | undefined): boolean {
  if (value === undefined || value === "" || value === "false" || value === "0") return false;
  if (value === "true" || value === "1") return true;
  throw new ServiceError("bad-request", `${name} must be true or false, not ${quoteValue(value)}`);
}
