/**
 * The reader API's cache (GET /v1/clean?url=, /v1/read/…, /v1/feed): answers kept in the Cache API, keyed by
 * what makes them (the target URL, format, mode, site, options, selectors, and the rules and model versions),
 * so that a client polling a page or a feed costs one origin fetch and one cleaning per TTL.
 *
 * - `x-clean-cache: hit | miss | bypass` says which; `Cache-Control: no-cache` (or no-store, or
 *   `Pragma: no-cache`, or Jina's `X-No-Cache: true`) from the client skips the lookup (the fresh answer is
 *   stored all the same).
 * - Answers carry an ETag (of their bytes) and `Cache-Control: private, max-age=<TTL>`: private, since the API
 *   is behind a key and a shared cache in front would hand one client's answer to another without it.
 * - A conditional request (If-None-Match) whose tag matches is answered 304, from the cache or fresh.
 * - Only complete cleanings are stored: errors, bailouts (x-clean-bailout) and feeds with failed items are not,
 *   nor an answer made from an origin's answer that a shared cache must not keep (it set a cookie, or said
 *   private or no-store: forbidsSharedStore): the producer marks such an answer `Cache-Control: no-store`.
 */
import { READER_CACHE_TTL_SECONDS } from "../../config";
import { hexDigest } from "../../digest";
import { bypassesCache, CACHE_CONTROL_HEADER, forbidsSharedStore, isNotModified, notModifiedResponse } from "../proxy/cache";
import { ttlSeconds } from "./settings";

/** Bump when the reader API's output changes for the same input (every cached answer is then missed). */
const READER_OUTPUT_VERSION = "1";
/** Path of the cache-key URLs (on the request's own origin); no proxied page's key has it (those carry __clean_version). */
const KEY_PATH = "/__reader-cache/";

export interface CacheRequest {
  readonly request: Request;
  /** What makes the answer, in a fixed order (target URL, format, mode, options, versions…). */
  readonly parts: readonly string[];
  /** Seconds an answer stays (READER_CACHE_TTL, default config READER_CACHE_TTL_SECONDS); 0 turns the cache off. */
  readonly ttlSeconds: number;
  /** Keeps the store going after the answer (the execution context's waitUntil); a returned promise is awaited. */
  readonly waitUntil: (promise: Promise<unknown>) => unknown;
  /** The client asked for a fresh answer in its own words (Jina's X-No-Cache): the lookup is skipped, as for no-cache. */
  readonly bypass?: boolean;
}

/** The TTL from the Worker var READER_CACHE_TTL (seconds; "0" turns caching off). */
export function readerCacheTtl(value: string | undefined): number {
  return ttlSeconds(value, READER_CACHE_TTL_SECONDS);
}

export async function cachedAnswer(cache: CacheRequest, produce: () => Promise<Response>): Promise<Response> {
  const { request } = cache;
  if (request.method !== "GET" || cache.ttlSeconds === 0) return produce();
  const key = await cacheKey(new URL(request.url).origin, cache.parts);
  const bypass = cache.bypass === true || bypassesCache(request.headers);
  if (!bypass) {
    const hit = await caches.default.match(key);
    if (hit !== undefined) return answer(request, hit, "hit");
  }
  const fresh = await produce();
  const unshared = /(^|[\s,])no-store([\s,]|$)/.test(fresh.headers.get("cache-control") ?? "");
  if (fresh.status !== 200 || unshared || fresh.headers.has("x-clean-bailout") || /(?:failed|skipped)=[1-9]/.test(fresh.headers.get("x-feed-items") ?? "")) {
    fresh.headers.set(CACHE_CONTROL_HEADER, bypass ? "bypass" : "miss");
    return fresh;
  }
  const body = await fresh.arrayBuffer();
  const headers = new Headers(fresh.headers);
  headers.set("etag", `"${await hexDigest(body, 32)}"`);
  headers.set("cache-control", `public, max-age=${cache.ttlSeconds}`);
  await cache.waitUntil(caches.default.put(key, new Response(body, { status: 200, headers })).catch((error: unknown) => console.error("reader cache put failed", error)));
  return answer(request, new Response(body, { status: 200, headers }), bypass ? "bypass" : "miss");
}

/** A stored or fresh answer to the client: private to it, 304 when its tag matches. */
function answer(request: Request, response: Response, state: "hit" | "miss" | "bypass"): Response {
  const headers = new Headers(response.headers);
  headers.set("cache-control", headers.get("cache-control")?.replace(/^public\b/, "private") ?? "private");
  headers.set(CACHE_CONTROL_HEADER, state);
  if (request.headers.has("if-none-match") && isNotModified(request.headers, headers)) {
    void response.body?.cancel();
    return notModifiedResponse(headers, { [CACHE_CONTROL_HEADER]: state });
  }
  return new Response(response.body, { status: response.status, headers });
}

async function cacheKey(origin: string, parts: readonly string[]): Promise<Request> {
  const digest = await hexDigest(JSON.stringify([READER_OUTPUT_VERSION, ...parts]), 32);
  return new Request(`${origin}${KEY_PATH}${digest}`, { method: "GET" });
}

/** An answer made from an origin's answer, marked to stay out of the reader cache when the origin's headers say so. */
export function keptPrivateWhere(originHeaders: Headers, answer: Response): Response {
  if (!forbidsSharedStore(originHeaders)) return answer;
  const marked = new Response(answer.body, answer);
  marked.headers.set("cache-control", "private, no-store");
  return marked;
}

/** The execution context's waitUntil, or awaiting in line where there is none (app.request() in tests). */
export function waitUntilOf(context: { readonly executionCtx: { waitUntil(promise: Promise<unknown>): void } }): (promise: Promise<unknown>) => unknown {
  try {
    const executionContext = context.executionCtx;
    return (promise) => executionContext.waitUntil(promise);
  } catch {
    return (promise) => promise;
  }
}
