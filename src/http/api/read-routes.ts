/**
 * GET /v1/read/<url>: the page at <url>, fetched and cleaned, the URL in the path (Jina Reader's form).
 *   /v1/read/https://example.com/a?b=1        plain: the whole rest of the request URL, query included, is the
 *                                              target's; options come from headers (Accept, X-Return-Format,
 *                                              X-Mode, X-Article-Header, X-Front-Matter), a `key` parameter is
 *                                              the API's and is left out of the target
 *   /v1/read/https%3A%2F%2Fexample.com%2Fa?format=markdown
 *                                              encoded: the path is the target, the query is the API's, as on /v1/clean
 * POST /v1/read with `{"url": …}` (JSON, or a form: Jina's way for URLs with a #fragment) and options as fields.
 * With no Accept preference the answer is Jina's text envelope; Accept: application/json gets Jina's JSON
 * (api/reader-options.ts, shared/reader-shapes.ts); errors carry Jina's fields beside ours (shared/errors.ts).
 */
import { Hono } from "hono/tiny";
import { READ_POST_MAX_BYTES } from "../../config";
import type { Env } from "../shared/bindings";
import { mediaType, readBodyLimited, requestBodyStream } from "../shared/body";
import { quoteValue, ServiceError } from "../shared/errors";
import { resolveSettings } from "../shared/settings";
import { readerOptions } from "./reader-options";
import { waitUntilOf } from "../shared/cache";
import { readUrl } from "./read-url";

const READ_PREFIX = "/v1/read/";

export const readRoutes = new Hono<{ Bindings: Env }>();

readRoutes.get("/*", async (context) => {
  const settings = resolveSettings(context.env, context.req.raw);
  const target = targetOfPath(context.req.raw.url);
  const options = readerOptions(context.req.raw, target.apiQuery, "read");
  const cache = { request: context.req.raw, waitUntil: waitUntilOf(context) };
  return readUrl(context.env, settings, { url: target.url, site: target.apiQuery?.get("site") ?? undefined, options }, cache);
});

readRoutes.post("/", async (context) => {
  const settings = resolveSettings(context.env, context.req.raw);
  const fields = await postedFields(context.req.raw, settings.fetchBodyTimeoutMs);
  const url = fields.url;
  if (url === undefined || url === "") throw new ServiceError("bad-request", 'send the page\'s URL as {"url": "https://…"} (JSON) or url=… (a form)');
  const query = new URL(context.req.url).searchParams;
  const options = readerOptions(context.req.raw, query, "read", fields);
  const cache = { request: context.req.raw, waitUntil: waitUntilOf(context) };
  return readUrl(context.env, settings, { url, site: query.get("site") ?? fields.site, options }, cache);
});

/** The fields of a POST /v1/read body: a JSON object (strings, numbers and booleans as text) or a form. */
async function postedFields(request: Request, timeoutMs: number): Promise<Record<string, string>> {
  const stream = requestBodyStream(request);
  if (stream === null) throw new ServiceError("unsupported-media-type", "content-encoding must be gzip, deflate or none");
  const body = await readBodyLimited(stream, READ_POST_MAX_BYTES, timeoutMs, { code: "bad-request", message: "the body could not be read to its end" });
  if (body.kind === "too-large") {
    await body.stream.cancel();
    throw new ServiceError("payload-too-large", `the body of POST /v1/read is over ${READ_POST_MAX_BYTES} bytes: send the URL and options only`);
  }
  if (body.kind === "timeout") throw new ServiceError("bad-request", "the request body did not arrive in time");
  const text = new TextDecoder().decode(body.bytes);
  const type = mediaType(request.headers.get("content-type"));
  if (type === "application/json" || (type === "" && text.trimStart().startsWith("{"))) return jsonFields(text);
  if (type === "application/x-www-form-urlencoded" || type === "") return Object.fromEntries(new URLSearchParams(text));
  throw new ServiceError("unsupported-media-type", `the body must be JSON or a form (application/x-www-form-urlencoded), not ${quoteValue(type)}`);
}

function jsonFields(text: string): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ServiceError("bad-request", "the body is not valid JSON");
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new ServiceError("bad-request", 'the body must be a JSON object such as {"url": "https://…"}');
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(parsed)) {
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") fields[name] = String(value);
    else if (value !== null) throw new ServiceError("bad-request", `${quoteValue(name)} must be a string, a number or true/false`);
  }
  return fields;
}

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
