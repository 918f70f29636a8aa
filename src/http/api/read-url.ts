/**
 * The page at a URL, fetched (every hop checked) and cleaned: the shared end of `GET /v1/clean?url=` and
 * `GET /v1/read/<url>`.
 */
import { pageSampler } from "../../learning";
import type { Env } from "../shared/bindings";
import { declaredTooLarge, isHtmlBody, mediaType, readFetchedBody } from "../shared/body";
import { cleanPage, passThrough } from "../shared/clean-page";
import { ServiceError } from "../shared/errors";
import { fetchOrigin } from "../shared/origin-fetch";
import type { HttpSettings } from "../shared/settings";
import { requireSiteParam, siteOfHost } from "../shared/site";
import { checkTarget } from "../shared/target";
import { ruleSetVersion } from "../proxy/routes";
import { modelVersion } from "../proxy/clean";
import { loadSiteRules } from "../shared/rules-store";
import { cachedAnswer, keptPrivateWhere, readerCacheTtl } from "../shared/cache";
import { originHeaders, type EtiquetteBindings } from "./etiquette";
import { addVary } from "./negotiate";
import { selectorKey, type ReaderOptions } from "./reader-options";

export interface UrlToRead {
  readonly url: string;
  /** ?site=: whose rules apply (default: the final URL's host without www.). */
  readonly site: string | undefined;
  readonly options: ReaderOptions;
}

/** The Worker var of the reader cache's TTL (shared/cache.ts). */
export interface ReaderCacheBindings {
  READER_CACHE_TTL?: string;
}

export async function readUrl(env: Env & ReaderCacheBindings & EtiquetteBindings, settings: HttpSettings, read: UrlToRead, context: CacheContext): Promise<Response> {
  const target = requireUrl(read.url, settings);
  const site = requireSite(read.site, target);
  // Keyed by the rules of the site the URL names (a redirect to another site is rare; the TTL bounds it).
  const rules = await loadSiteRules(env, site, target);
  const { options } = read;
  const forwarded = originHeaders(context.request, env);
  const parts = [
    "read", target.href, read.site ?? "", options.format, options.mode, options.kind, String(options.articleHeader), String(options.frontMatter),
    JSON.stringify(forwarded), ruleSetVersion(rules), modelVersion(), selectorKey(options.selectors), options.shape, JSON.stringify(options.shapeOptions),
  ];
  const cache = { request: context.request, parts, ttlSeconds: readerCacheTtl(env.READER_CACHE_TTL), waitUntil: context.waitUntil, bypass: options.noCache };
  // X-Timeout may shorten the origin fetch's limits, never lengthen them past the deployment's.
  const limited = options.timeoutMs === null ? settings : {
    ...settings, fetchTimeoutMs: Math.min(settings.fetchTimeoutMs, options.timeoutMs), fetchBodyTimeoutMs: Math.min(settings.fetchBodyTimeoutMs, options.timeoutMs),
  };
  const response = await cachedAnswer(cache, () => fetchAndClean(env, limited, read, forwarded, context.waitUntil, context.request.signal));
  if (options.varies) addVary(response.headers);
  if (forwarded["accept-language"] !== undefined) addVary(response.headers, "Accept-Language");
  return response;
}

export interface CacheContext {
  readonly request: Request;
  readonly waitUntil: (promise: Promise<unknown>) => unknown;
}

/** Fetches and cleans the page; `signal` is the client's request's: once it aborts (the client hung up), the fetch and the cleaning stop. */
async function fetchAndClean(
  env: Env, settings: HttpSettings, read: UrlToRead, forwarded: Record<string, string>, waitUntil: CacheContext["waitUntil"], signal: AbortSignal,
): Promise<Response> {
  const { format, mode } = read.options;
  const target = requireUrl(read.url, settings);
  const fetched = await fetchOrigin(target, settings, forwarded, signal);
  if (!fetched.ok) throw new ServiceError(fetched.code, fetched.message);
  const { response } = fetched;
  const site = requireSite(read.site, fetched.url);
  const contentType = response.headers.get("content-type");
  // Declared over the limit: stream it through as it is, without reading any of it first.
  const { shape, shapeOptions } = read.options;
  const tooLargePage = (body: ReadableStream<Uint8Array> | Uint8Array) =>
    passThrough({ body, contentType, html: null, charset: null, url: fetched.url.href, site, format, reason: "too-large", rules: null, shape, shapeOptions });
  if (declaredTooLarge(response, settings.maxBodyBytes)) return tooLargePage(response.body ?? new Uint8Array(0));
  const body = await readFetchedBody(response, settings.maxBodyBytes, settings.fetchBodyTimeoutMs);
  if (body.kind === "bad-encoding") throw new ServiceError("origin-error", `${fetched.url.host}: ${body.message}`);
  if (body.kind === "timeout") throw new ServiceError("origin-timeout", `${fetched.url.host} did not send the page within ${settings.fetchBodyTimeoutMs} ms`);
  if (body.kind === "too-large") return tooLargePage(body.stream);
  if (!isHtmlBody(contentType, body.bytes)) {
    throw new ServiceError("unsupported-media-type", `${fetched.url.host} sent ${mediaType(contentType) || "unlabelled bytes"}, not HTML`);
  }
  const answer = await cleanPage(env, {
    bytes: body.bytes, contentType, url: fetched.url.href, site, format, mode, kind: read.options.kind, source: "fetched", maxBytes: settings.maxBodyBytes,
    articleHeader: read.options.articleHeader, frontMatter: read.options.frontMatter, selectors: read.options.selectors, shape, shapeOptions,
    // Fetched with no cookie or Authorization (shared/origin-fetch.ts sends none): a page anyone gets, so it may be
    // sampled, under the final URL's own site only (a ?site= naming another site is no evidence about it).
    sample: pageSampler(env, waitUntil, false, { kind: "fetched" }),
    signal,
  });
  return keptPrivateWhere(response.headers, answer);
}

function requireUrl(value: string, settings: HttpSettings): URL {
  const check = checkTarget(value, settings);
  if (!check.ok) throw new ServiceError(check.code, check.message);
  return check.url;
}

/** The site named by ?site=, else the url's host; "" when neither is given (cleaning without rules). */
export function requireSite(value: string | undefined, url: URL | undefined): string {
  if (value === undefined || value === "") return url === undefined ? "" : siteOfHost(url.hostname);
  return requireSiteParam(value);
}
