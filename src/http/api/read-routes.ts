/**
 * GET /v1/read/<url>: the page at <url>, fetched and cleaned, the URL in the path (Jina Reader's form).
 *   /v1/read/https://example.com/a?b=1        plain: the whole rest of the request URL, query included, is the
 *                                              target's; options come from headers (Accept, X-Return-Format,
 *                                              X-Mode, X-Article-Header, X-Front-Matter), a `key` parameter is
 *                                              the API's and is left out of the target
 *   /v1/read/https%3A%2F%2Fexample.com%2Fa?format=markdown
 *                                              encoded: the path is the target, the query is the API's, as on /v1/clean
 */
import { Hono } from "hono/tiny";
import type { Env } from "../shared/bindings";
import { ServiceError } from "../shared/errors";
import { resolveSettings } from "../shared/settings";
import { readerOptions } from "./reader-options";
import { waitUntilOf } from "../shared/cache";
import { readUrl } from "./read-url";

const READ_PREFIX = "/v1/read/";

export const readRoutes = new Hono<{ Bindings: Env }>();

readRoutes.get("/*", async (context) => {
  const settings = resolveSettings(context.env, context.req.raw);
  const target = targetOfPath(context.req.raw.url);
  const options = readerOptions(context.req.raw, target.apiQuery);
  const cache = { request: context.req.raw, waitUntil: waitUntilOf(context) };
  return readUrl(context.env, settings, { url: target.url, site: target.apiQuery?.get("site") ?? undefined, options }, cache);
});

/** The target URL in a /v1/read request URL, and the query string that is the API's (null in the plain form). */
export function targetOfPath(requestUrl: string): { url: string; apiQuery: URLSearchParams | null } {
  const url = new URL(requestUrl);
  const start = url.pathname.indexOf(READ_PREFIX);
  const path = start < 0 ? "" : url.pathname.slice(start + READ_PREFIX.length);
  if (path === "") throw new ServiceError("bad-request", "put the page's URL after /v1/read/, e.g. /v1/read/https://example.com/");
  if (/^https?%3a/i.test(path)) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      throw new ServiceError("invalid-url", "the encoded URL after /v1/read/ does not decode");
    }
    return { url: decoded, apiQuery: url.searchParams };
  }
  // Plain form: runtimes fold "https://" in a path to "https:/"; the scheme's slashes are put back.
  const plain = path.replace(/^(https?):\/*/i, "$1://");
  // The target's query as written (re-encoding it would change it), without the API's key.
  const search = url.search.slice(1).split("&").filter((pair) => pair !== "" && !/^key(?:=|$)/.test(pair)).join("&");
  return { url: `${plain}${search === "" ? "" : `?${search}`}`, apiQuery: null };
}
