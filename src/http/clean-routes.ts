import { Hono } from "hono";
import type { Env } from "../worker";
import { isHtmlBody, mediaType, readBodyLimited, requestBodyStream, type BrokenBody } from "./body";
import { cleanPage, passThrough } from "./clean-page";
import { quoteValue, ServiceError } from "./errors";
import { parseFormat, requireMode } from "./formats";
import { fetchOrigin } from "./origin-fetch";
import { resolveSettings, type HttpSettings } from "./settings";
import { parseSite, siteOfHost } from "./site";
import { checkTarget } from "./target";

/**
 * /v1/clean: the reader API.
 *   POST /v1/clean?url=…|site=…&format=…   body: the page's HTML
 *   GET  /v1/clean?url=…&format=…[&site=…]  the page is fetched
 * The site (whose rules apply) is `site` if given, else the page URL's host without "www.".
 */
/** A request body that cannot be read to its end (a dropped upload, broken compression). */
const BROKEN_REQUEST_BODY: BrokenBody = { code: "bad-request", message: "the body could not be read to its end (broken upload or compression)" };

export const cleanRoutes = new Hono<{ Bindings: Env }>();

cleanRoutes.post("/", async (context) => {
  const settings = resolveSettings(context.env);
  const format = requireFormat(context.req.query("format"));
  const mode = requireMode(context.req.query("mode"));
  const url = context.req.query("url");
  // The url of a posted page only names it (its site, links, json): it is not fetched, so any address will do.
  const pageUrl = url === undefined ? undefined : requirePageUrl(url, settings);
  const site = requireSite(context.req.query("site"), pageUrl);
  const request = context.req.raw;
  const declaredLength = Number(request.headers.get("content-length") ?? "0");
  if (declaredLength > settings.maxBodyBytes) throw tooLarge(settings);
  const stream = requestBodyStream(request);
  if (stream === null) throw new ServiceError("unsupported-media-type", "content-encoding must be gzip, deflate or none");
  const body = await readBodyLimited(stream, settings.maxBodyBytes, settings.fetchBodyTimeoutMs, BROKEN_REQUEST_BODY);
  if (body.kind === "too-large") {
    await body.stream.cancel();
    throw tooLarge(settings);
  }
  if (body.kind === "timeout") throw new ServiceError("bad-request", "the request body did not arrive in time");
  if (body.bytes.length === 0) throw new ServiceError("bad-request", "the body is empty: send the page's HTML");
  const contentType = request.headers.get("content-type");
  if (!isHtmlBody(contentType, body.bytes)) {
    throw new ServiceError("unsupported-media-type", `the body must be HTML (content-type text/html), not ${mediaType(contentType) || "unlabelled non-HTML bytes"}`);
  }
  return cleanPage(context.env, { bytes: body.bytes, contentType, url: pageUrl?.href, site, format, mode, source: "body", maxBytes: settings.maxBodyBytes, articleHeader: requireFlag("header", context.req.query("header")) });
});

cleanRoutes.get("/", async (context) => {
  const settings = resolveSettings(context.env, context.req.raw);
  const format = requireFormat(context.req.query("format"));
  const mode = requireMode(context.req.query("mode"));
  const url = context.req.query("url");
  if (url === undefined || url === "") throw new ServiceError("bad-request", "the url parameter is required (or POST the HTML)");
  const target = requireUrl(url, settings);
  const fetched = await fetchOrigin(target, settings);
  if (!fetched.ok) throw new ServiceError(fetched.code, fetched.message);
  const { response } = fetched;
  const site = requireSite(context.req.query("site"), fetched.url);
  if (!response.ok) {
    await response.body?.cancel();
    throw new ServiceError("origin-error", `${fetched.url.host} answered ${response.status} for ${fetched.url.pathname}`);
  }
  const contentType = response.headers.get("content-type");
  // Declared over the limit: stream it through as it is, without reading any of it first.
  const tooLargePage = (body: ReadableStream<Uint8Array> | Uint8Array) =>
    passThrough({ body, contentType, html: null, charset: null, url: fetched.url.href, site, format, reason: "too-large", rules: null });
  if (Number(response.headers.get("content-length") ?? "0") > settings.maxBodyBytes) return tooLargePage(response.body ?? new Uint8Array(0));
  const body = await readBodyLimited(response.body, settings.maxBodyBytes, settings.fetchBodyTimeoutMs);
  if (body.kind === "timeout") throw new ServiceError("origin-timeout", `${fetched.url.host} did not send the page within ${settings.fetchBodyTimeoutMs} ms`);
  if (body.kind === "too-large") return tooLargePage(body.stream);
  if (!isHtmlBody(contentType, body.bytes)) {
    throw new ServiceError("unsupported-media-type", `${fetched.url.host} sent ${mediaType(contentType) || "unlabelled bytes"}, not HTML`);
  }
  return cleanPage(context.env, { bytes: body.bytes, contentType, url: fetched.url.href, site, format, mode, source: "fetched", maxBytes: settings.maxBodyBytes, articleHeader: requireFlag("header", context.req.query("header")) });
});

function requireFormat(value: string | undefined) {
  const format = parseFormat(value);
  if (format === null) throw new ServiceError("bad-request", `format must be html, text, markdown, json or article, not ${quoteValue(value ?? "")}`);
  return format;
}

/** A yes/no parameter: true, 1, false, 0 or absent (false). */
export function requireFlag(name: string, value: string | undefined): boolean {
  if (value === undefined || value === "" || value === "false" || value === "0") return false;
  if (value === "true" || value === "1") return true;
  throw new ServiceError("bad-request", `${name} must be true or false, not ${quoteValue(value)}`);
}

function requireUrl(value: string, settings: HttpSettings): URL {
  const check = checkTarget(value, settings);
  if (!check.ok) throw new ServiceError(check.code, check.message);
  return check.url;
}

function requirePageUrl(value: string, settings: HttpSettings): URL {
  const check = checkTarget(value, settings);
  if (!check.ok && check.code === "invalid-url") throw new ServiceError(check.code, check.message);
  return check.ok ? check.url : new URL(value);
}

/** The site named by ?site=, else the url's host; "" when neither is given (cleaning without rules). */
function requireSite(value: string | undefined, url: URL | undefined): string {
  if (value === undefined || value === "") return url === undefined ? "" : siteOfHost(url.hostname);
  const site = parseSite(value);
  if (site === null) throw new ServiceError("bad-request", `site must be a host name such as example.com, not ${quoteValue(value)}`);
  return site;
}

function tooLarge(settings: HttpSettings): ServiceError {
  return new ServiceError("payload-too-large", `the body is over the limit of ${settings.maxBodyBytes} bytes`);
}
