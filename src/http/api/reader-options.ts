/**
 * The reader API's per-request options, read once from the query and headers of /v1/clean and /v1/read:
 * the format (negotiated), the mode, the article header, the Markdown front matter, and the request's CSS
 * selectors (X-Target-Selector, X-Remove-Selector). Headers carry them where the query string is the target's
 * own (the plain form of /v1/read).
 */
import { CLEAN_FORMATS, type CleanFormat, type RequestSelectors } from "../../clean";
import { parseSelector, type SelectorList } from "../../selectors";
import { quoteValue, ServiceError } from "../shared/errors";
import { DEFAULT_FORMAT, requireMode, type RequestedMode } from "../shared/formats";
import { negotiateFormat } from "./negotiate";

/** Request headers standing for query parameters (for the plain form of /v1/read, where the query is the target's). */
export const FRONT_MATTER_HEADER = "x-front-matter";
export const ARTICLE_HEADER_HEADER = "x-article-header";
export const MODE_HEADER = "x-mode";
/** Keep only what this selector matches (the mode still cleans inside it); query parameter target-selector. */
export const TARGET_SELECTOR_HEADER = "x-target-selector";
/** Remove what this selector matches, too; query parameter remove-selector. */
export const REMOVE_SELECTOR_HEADER = "x-remove-selector";

export interface ReaderOptions {
  readonly format: CleanFormat;
  /** Whether the format came from Accept or X-Return-Format (the answer then carries Vary). */
  readonly varies: boolean;
  readonly mode: RequestedMode;
  /** format=article: a header of title, byline and date first. */
  readonly articleHeader: boolean;
  /** format=markdown: a YAML front matter block first. */
  readonly frontMatter: boolean;
  /** The request's selectors, parsed (null each when not given). */
  readonly selectors: RequestSelectors;
}

/** Reads the options; `query` is null where the query string is not the API's (the plain form of /v1/read). */
export function readerOptions(request: Request, query: URLSearchParams | null): ReaderOptions {
  const parameter = (name: string, header: string | null): string | undefined => query?.get(name) ?? (header === null ? undefined : request.headers.get(header) ?? undefined);
  const { format, varies } = negotiateFormat(request, query?.get("format") ?? undefined, CLEAN_FORMATS, DEFAULT_FORMAT);
  return {
    format,
    varies,
    mode: requireMode(parameter("mode", MODE_HEADER)),
    articleHeader: requireFlag("header", parameter("header", ARTICLE_HEADER_HEADER)),
    frontMatter: requireFlag("frontmatter", parameter("frontmatter", FRONT_MATTER_HEADER)),
    selectors: {
      target: requireSelector("X-Target-Selector", parameter("target-selector", TARGET_SELECTOR_HEADER)),
      remove: requireSelector("X-Remove-Selector", parameter("remove-selector", REMOVE_SELECTOR_HEADER)),
    },
  };
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
