import { Hono } from "hono/tiny";
import { keyIdOf, pageSampler, sentWithCredentials } from "../../learning";
import type { Env } from "../shared/bindings";
import { addVary } from "./negotiate";
import { readerOptions } from "./reader-options";
import { readUrl, requireSite } from "./read-url";
import { waitUntilOf } from "../shared/cache";
import { isHtmlBody, mediaType, readBodyLimited, requestBodyStream, type BrokenBody } from "../shared/body";
import { cleanPage } from "../shared/clean-page";
import { ServiceError } from "../shared/errors";
import { presentedKey } from "../shared/keys";
import { resolveSettings, type HttpSettings } from "../shared/settings";
import { checkTarget } from "../shared/target";

/**
 * /v1/clean: the reader API.
 *   POST /v1/clean?url=…|site=…&format=…   body: the page's HTML
 *   GET  /v1/clean?url=…&format=…[&site=…]  the page is fetched (api/read-url.ts, shared with /v1/read)
 * The format may also come from X-Return-Format or Accept (api/negotiate.ts).
 * The site (whose rules apply) is `site` if given, else the page URL's host without "www.".
 */
/** A request body that cannot be read to its end (a dropped upload, broken compression). */
const BROKEN_REQUEST_BODY: BrokenBody = { code: "bad-request", message: "the body could not be read to its end (broken upload or compression)" };

export const cleanRoutes = new Hono<{ Bindings: Env }>();

cleanRoutes.post("/", async (context) => {
  const settings = resolveSettings(context.env);
  const options = readerOptions(context.req.raw, new URL(context.req.url).searchParams);
  const { format, mode } = options;
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
  const response = await cleanPage(context.env, {
    bytes: body.bytes, contentType, url: pageUrl?.href, site, format, mode, kind: options.kind, source: "body", maxBytes: settings.maxBodyBytes,
    articleHeader: options.articleHeader, frontMatter: options.frontMatter, selectors: options.selectors, shape: options.shape, shapeOptions: options.shapeOptions, signal: request.signal,
    // A page sent with a cookie or a login of its own may be one person's: it is cleaned, never sampled. Its `url` only
    // names it: it is learned from only for a site an admin allowed the posting key (src/learning/posting-keys.ts).
    sample: pageSampler(context.env, waitUntilOf(context), sentWithCredentials(request.headers), { kind: "posted", keyId: await keyIdOf(presentedKey(request) ?? "") }),
  });
  if (options.varies) addVary(response.headers);
  return response;
});

cleanRoutes.get("/", async (context) => {
  const settings = resolveSettings(context.env, context.req.raw);
  const options = readerOptions(context.req.raw, new URL(context.req.url).searchParams);
  const url = context.req.query("url");
  if (url === undefined || url === "") throw new ServiceError("bad-request", "the url parameter is required (or POST the HTML)");
  return readUrl(context.env, settings, { url, site: context.req.query("site"), options }, { request: context.req.raw, waitUntil: waitUntilOf(context) });
});

function requirePageUrl(value: string, settings: HttpSettings): URL {
  const check = checkTarget(value, settings);
  if (!check.ok && check.code === "invalid-url") throw new ServiceError(check.code, check.message);
  return check.ok ? check.url : new URL(value);
}

function tooLarge(settings: HttpSettings): ServiceError {
  return new ServiceError("payload-too-large", `the body is over the limit of ${settings.maxBodyBytes} bytes`);
}
