/**
 * The reader API's per-request options, read once from the query and headers of /v1/clean and /v1/read:
 * the format (negotiated), the mode, the article header, the Markdown front matter. Headers carry them
 * where the query string is the target's own (the plain form of /v1/read).
 */
import { CLEAN_FORMATS, type CleanFormat } from "../../clean";
import { quoteValue, ServiceError } from "../errors";
import { DEFAULT_FORMAT, requireMode, type RequestedMode } from "../formats";
import { negotiateFormat } from "./negotiate";

/** Request headers standing for query parameters (for the plain form of /v1/read, where the query is the target's). */
export const FRONT_MATTER_HEADER = "x-front-matter";
export const ARTICLE_HEADER_HEADER = "x-article-header";
export const MODE_HEADER = "x-mode";

export interface ReaderOptions {
  readonly format: CleanFormat;
  /** Whether the format came from Accept or X-Return-Format (the answer then carries Vary). */
  readonly varies: boolean;
  readonly mode: RequestedMode;
  /** format=article: a header of title, byline and date first. */
  readonly articleHeader: boolean;
  /** format=markdown: a YAML front matter block first. */
  readonly frontMatter: boolean;
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
  };
}

/** A yes/no parameter: true, 1, false, 0 or absent (false). */
export function requireFlag(name: string, value: string | undefined): boolean {
  if (value === undefined || value === "" || value === "false" || value === "0") return false;
  if (value === "true" || value === "1") return true;
  throw new ServiceError("bad-request", `${name} must be true or false, not ${quoteValue(value)}`);
}
