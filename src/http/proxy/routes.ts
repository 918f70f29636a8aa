/**
 * The CDN-side proxy: configured origins served through the cleaner (see config.ts for PROXY_ORIGINS).
 *
 * 1. match the request to a configured origin (host mode or prefix mode), else hand it to the other routes;
 * 2. a GET for a cleaned page already in the Cache API (keyed by URL and cleaning version) is answered
 *    from there, with a 304 when the client's validators match;
 * 3. otherwise the request goes to the origin, conditional headers translated (cache.ts);
 * 4. a 200 HTML answer is cleaned (format html), its links kept on the proxy, stored when storable;
 *    redirects keep their status with Location on the proxy; everything else streams through untouched.
 * Too large or undecodable pages pass through as the origin's bytes with `x-clean-bailout`.
 *
 * Privacy: an allow-list of the client's headers reaches the origin (PER_CLIENT_HEADERS…), never the service's own
 * key (x-api-key, a Bearer or ?key= holding one of its keys); the client's Cookie and Authorization only for entries
 * with `forwardCredentials`. A page fetched with a header of the client's own is neither stored for others (with
 * credentials: unless the entry says `cacheCredentialed`) nor sampled for learning.
 * Prefix mode serves other sites on this Worker's own origin, so its answers carry a CSP sandbox that lets
 * their scripts run in an opaque origin, away from this origin's pages, storage and cookies (see docs/api.md, "Proxy").
 */
import { Hono } from "hono/tiny";
import { pageSampler, type PageSampler } from "../../learning";
import type { Env } from "../shared/bindings";
import { HTML_MEDIA_TYPES, mediaType } from "../shared/body";
import { setBailoutHeaders } from "../shared/clean-page";
import { errorResponse } from "../shared/errors";
import { ACCEPT_HTML, requestOrigin, USER_AGENT } from "../shared/origin-fetch";
import { configuredKeys, matchesAny } from "../shared/keys";
import { cleanProxiedPage, modelVersion, type ProxiedPage } from "./clean";
import { proxyConfigFromVar, resolveProxyTarget, type ProxyTarget } from "./config";
import {
  bypassesCache,
  CACHE_CONTROL_HEADER,
  carriesCredentials,
  cacheKey,
  cleanedEtag,
  cleaningVersion,
  digest,
  isNotModified,
  isStorable,
  notModifiedResponse,
  originIfNoneMatch,
} from "./cache";
import { linkRewriter, rewriteLocation } from "./links";
import { CONTENT_TYPES, type CleanFormat } from "../../clean";
import { addVary, proxyFormat, proxyFrontMatter } from "../api/negotiate";
import { MARKDOWN_TOKENS_HEADER } from "../shared/clean-page";
import { estimateMarkdownTokens } from "../shared/tokens";
import { CONTENT_SIGNAL } from "../../config";
import { HOP_HEADER, resolveSettings, type HttpSettings } from "../shared/settings";
import { loadSiteRules, type SiteRules } from "../shared/rules-store";

export interface ProxyBindings extends Env {
  /** JSON object: proxy host or path prefix → origin URL (see config.ts). Absent: no proxy. */
  PROXY_ORIGINS?: string;
  /** The Content-Signal of the proxied site's Markdown and text (contentsignals.org): "off" sends none; default config CONTENT_SIGNAL. */
  CONTENT_SIGNAL?: string;
}

/** What a proxied request needs, resolved once. */
interface ProxyRequest {
  readonly request: Request;
  readonly target: ProxyTarget;
  /** The origin URL without the service's own key, and the headers the origin gets. */
  readonly originUrl: URL;
  readonly forwarded: Headers;
  readonly settings: HttpSettings;
  readonly rules: SiteRules;
  /** Cleaning version: part of the cache key and of cleaned ETags. */
  readonly version: string;
  /** html, or markdown or text for a client that asked (api/negotiate.ts); the version above includes it. */
  readonly format: CleanFormat;
  /** Markdown with a YAML front matter block (Accept: text/markdown; frontmatter=true, or X-Front-Matter); in the version too. */
  readonly frontMatter: boolean;
  /** The Content-Signal header of Markdown and text answers, or null for none. */
  readonly contentSignal: string | null;
  readonly waitUntil: (promise: Promise<unknown>) => void;
  /** Keeps a cleaned GET for learning when no credentials went to the origin (src/learning). */
  readonly sample: PageSampler;
}

/**
 * The client's request headers the origin gets: an allow-list, so that what a client sends cannot become the page
 * another visitor is served from the cache, or the site's page the service learns from (an origin may reflect or
 * vary on any header, Vary or not). Every visitor's GET reaches the origin alike: the service's own Accept and
 * User-Agent (origin-fetch.ts), no Accept-Language, and revalidations (If-None-Match, If-Modified-Since: translated,
 * they only ever make a 304). The headers below make the answer the client's own: forwarded, but a page fetched with
 * one is neither stored for others nor sampled for learning (ownedByClient).
 */
const PER_CLIENT_HEADERS = ["range", "if-range", "if-match", "if-unmodified-since"];
/** What a form post or an API call needs beside those (GET and HEAD never carry them: browsers send a Referer with every link). */
const PER_CLIENT_BODY_HEADERS = ["content-type", "content-encoding", "content-language", "origin", "referer", "x-requested-with"];
/** Client credentials, forwarded only for entries that say `forwardCredentials`. */
const CREDENTIAL_HEADERS = ["cookie", "authorization"];
/** Revalidation headers, translated from cleaned ETags (cache.ts). */
const REVALIDATION_HEADERS = ["if-none-match", "if-modified-since"];
/**
 * Prefix mode's policy: the proxied page keeps its scripts, forms and pop-ups, in an opaque origin
 * (no allow-same-origin), so it cannot read this origin's other pages, storage or cookies.
 */
const PREFIX_SANDBOX = "sandbox allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox allow-modals allow-downloads";
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export const proxyRoutes = new Hono<{ Bindings: ProxyBindings }>();

proxyRoutes.use("*", async (context, next) => {
  const config = proxyConfigFromVar(context.env.PROXY_ORIGINS);
  if (!config.ok) return next();
  const target = resolveProxyTarget(config.config, new URL(context.req.url));
  if (target === null) return next();
  const settings = resolveSettings(context.env, context.req.raw);
  const rules = await loadSiteRules(context.env, target.entry.site);
  const waitUntil = (promise: Promise<unknown>): void => context.executionCtx.waitUntil(promise);
  const serviceKeys = [...configuredKeys(context.env.API_KEYS), ...configuredKeys(context.env.ADMIN_KEY)];
  const format = proxyFormat(context.req.raw);
  const frontMatter = format === "markdown" && proxyFrontMatter(context.req.raw);
  // Each format is its own cleaned page: its own cache entry and ETag.
  const variant = frontMatter ? `${format}+front-matter` : format;
  const version = format === "html" ? cleaningVersion(ruleSetVersion(rules), modelVersion()) : digest(`${cleaningVersion(ruleSetVersion(rules), modelVersion())}|${variant}`);
  const forwarded = await forwardedHeaders(context.req.raw, target, settings, version, serviceKeys);
  const proxied: ProxyRequest = {
    request: context.req.raw,
    target,
    originUrl: await withoutServiceKey(target.targetUrl, serviceKeys),
    forwarded,
    settings,
    rules,
    version,
    format,
    frontMatter,
    contentSignal: contentSignal(context.env.CONTENT_SIGNAL),
    // The Worker always runs with an execution context (fetch handler, wrangler dev, the test pool).
    waitUntil,
    // The operator mapped this origin to the site (PROXY_ORIGINS): its pages are the site's own.
    // A page fetched with the client's own headers (credentials among them) is the client's, not the site's.
    sample: pageSampler(context.env, waitUntil, ownedByClient(forwarded, false), { kind: "proxied" }),
  };
  const response = await serveProxied(proxied);
  return finishProxied(proxied, response);
});

/** What every proxied answer gets: no Set-Cookie unless credentials are forwarded, the sandbox in prefix mode. */
function finishProxied(proxied: ProxyRequest, response: Response): Response {
  const { entry } = proxied.target;
  // The site's Content-Signal on its cleaned Markdown and text, set on the way out (not stored: the var may change).
  const signal = proxied.format !== "html" && response.headers.has("x-clean-mode") && !response.headers.has("x-clean-bailout") ? proxied.contentSignal : null;
  if (entry.forwardCredentials && entry.kind === "host" && signal === null) return response;
  const finished = new Response(response.body, response);
  if (signal !== null) finished.headers.set(CONTENT_SIGNAL_HEADER, signal);
  if (entry.forwardCredentials && entry.kind === "host") return finished;
  if (!entry.forwardCredentials) finished.headers.delete("set-cookie");
  if (entry.kind === "prefix") finished.headers.append("content-security-policy", PREFIX_SANDBOX);
  return finished;
}

async function serveProxied(proxied: ProxyRequest): Promise<Response> {
  const { request } = proxied;
  const shared = !ownedByClient(proxied.forwarded, proxied.target.entry.cacheCredentialed);
  const useCache = request.method === "GET" && shared && !bypassesCache(request.headers);
  if (useCache) {
    const hit = await caches.default.match(cacheKey(request.url, proxied.version));
    if (hit !== undefined) return answerFromCache(request, hit);
  }
  const origin = await fetchFromOrigin(proxied);
  if (!origin.ok) return origin.response;
  const response = origin.response;
  if (response.status === 304) return notModifiedFromOrigin(proxied, response);
  if (REDIRECT_STATUSES.has(response.status)) return redirectThrough(proxied, response);
  if (response.status === 200 && HTML_MEDIA_TYPES.has(mediaType(response.headers.get("content-type")))) {
    return request.method === "HEAD" ? htmlHeadThrough(proxied, response) : cleanThrough(proxied, response, useCache ? "miss" : "bypass");
  }
  return new Response(response.body, response);
}

function answerFromCache(request: Request, hit: Response): Response {
  if (isNotModified(request.headers, hit.headers)) {
    void hit.body?.cancel();
    // A 304 carries the Vary its 200 would (RFC 9110 15.4.5); the stored copy was put before Vary: Accept was added.
    const notModified = notModifiedResponse(hit.headers, { [CACHE_CONTROL_HEADER]: "hit" });
    addVary(notModified.headers, "Accept");
    return notModified;
  }
  const response = new Response(hit.body, hit);
  response.headers.set(CACHE_CONTROL_HEADER, "hit");
  addVary(response.headers, "Accept"); // only cleaned pages are stored, one entry per format
  return response;
}

type OriginAnswer = { readonly ok: true; readonly response: Response } | { readonly ok: false; readonly response: Response };

async function fetchFromOrigin(proxied: ProxyRequest): Promise<OriginAnswer> {
  const { request, target, settings, originUrl } = proxied;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), settings.fetchTimeoutMs);
  const hasBody = request.method !== "GET" && request.method !== "HEAD";
  try {
    // The operator's origin, by name; over a socket where fetches are pinned (requestOrigin says why).
    const answer = await requestOrigin({
      url: originUrl, address: null, overSocket: settings.pinAddresses, method: request.method, headers: proxied.forwarded,
      body: hasBody ? request.body : null, bodyLength: hasBody ? declaredLength(request.headers) : null, signal: controller.signal,
    });
    if (!answer.ok) return { ok: false, response: errorResponse("origin-error", `${target.entry.originHost}: ${answer.message}`) };
    return { ok: true, response: answer.response };
  } catch (error) {
    if (controller.signal.aborted) return { ok: false, response: errorResponse("origin-timeout", `${target.entry.originHost} did not answer within ${settings.fetchTimeoutMs} ms`) };
    const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
    return { ok: false, response: errorResponse("origin-unreachable", `could not reach ${target.entry.originHost}: ${message.slice(0, 200)}`) };
  } finally {
    clearTimeout(timer);
  }
}

/** A request body's declared length (Content-Length, its body not re-encoded on the way), or null. */
function declaredLength(headers: Headers): number | null {
  const value = headers.get("content-length")?.trim() ?? "";
  return /^\d{1,15}$/.test(value) ? Number(value) : null;
}

/** The client's request headers as the origin should see them: the allow-list above, and the service's own. */
async function forwardedHeaders(request: Request, target: ProxyTarget, settings: HttpSettings, version: string, serviceKeys: readonly string[]): Promise<Headers> {
  const headers = new Headers({ accept: ACCEPT_HTML, "user-agent": USER_AGENT });
  const hasBody = request.method !== "GET" && request.method !== "HEAD";
  const allowed = [...PER_CLIENT_HEADERS, ...(hasBody ? PER_CLIENT_BODY_HEADERS : []), ...(target.entry.forwardCredentials ? CREDENTIAL_HEADERS : []), ...REVALIDATION_HEADERS];
  for (const name of allowed) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  const bearer = /^bearer\s+(.+)$/i.exec(headers.get("authorization")?.trim() ?? "");
  if (bearer !== null && (await matchesAny(bearer[1].trim(), serviceKeys))) headers.delete("authorization");
  headers.set(HOP_HEADER, String(settings.outgoingHop));
  const requestUrl = new URL(request.url);
  headers.set("x-forwarded-host", requestUrl.host);
  headers.set("x-forwarded-proto", requestUrl.protocol.replace(":", ""));
  const ifNoneMatch = request.headers.get("if-none-match");
  if (ifNoneMatch !== null) {
    const translated = originIfNoneMatch(ifNoneMatch, version);
    if (translated !== null) headers.set("if-none-match", translated);
    else {
      // Every tag was a cleaned page of another version: the date alone must not make the origin say 304.
      headers.delete("if-none-match");
      headers.delete("if-modified-since");
    }
  }
  return headers;
}

/**
 * Whether the origin's answer to these forwarded headers is the client's own (not another visitor's to share, nor the
 * site's page to learn from): they carry a per-client header, or credentials (shareable only where the entry says
 * `cacheCredentialed`, `credentialsShared`).
 */
function ownedByClient(forwarded: Headers, credentialsShared: boolean): boolean {
  if ([...PER_CLIENT_HEADERS, ...PER_CLIENT_BODY_HEADERS].some((name) => forwarded.has(name))) return true;
  return !credentialsShared && carriesCredentials(forwarded);
}

/** The origin URL without `key` parameters that hold one of the service's keys (a link to the API, pasted onto the proxy). */
async function withoutServiceKey(url: URL, serviceKeys: readonly string[]): Promise<URL> {
  const values = url.searchParams.getAll("key");
  if (values.length === 0) return url;
  const kept: string[] = [];
  for (const value of values) if (!(await matchesAny(value, serviceKeys))) kept.push(value);
  if (kept.length === values.length) return url;
  const stripped = new URL(url.href);
  stripped.searchParams.delete("key");
  for (const value of kept) stripped.searchParams.append("key", value);
  return stripped;
}

/**
 * A 304 from the origin, with the ETag the client knows (the cleaned one when it revalidated a cleaned page) and,
 * for a cleaned page, the Vary: Accept its 200 carried (RFC 9110 15.4.5). A revalidation by date alone may be of a
 * cleaned page too, and varying on Accept is never wrong for a cache, so it gets it as well.
 */
function notModifiedFromOrigin(proxied: ProxyRequest, response: Response): Response {
  const clientTags = proxied.request.headers.get("if-none-match");
  const etag = response.headers.get("etag");
  const headers = new Headers(response.headers);
  const revalidatesCleaned = etag !== null && clientTags !== null && clientTags.includes(cleanedEtag(etag, proxied.version));
  if (revalidatesCleaned) headers.set("etag", cleanedEtag(etag, proxied.version));
  if (revalidatesCleaned || clientTags === null) addVary(headers, "Accept");
  headers.set(CACHE_CONTROL_HEADER, "miss");
  return new Response(null, { status: 304, headers });
}

function redirectThrough(proxied: ProxyRequest, response: Response): Response {
  const location = response.headers.get("location");
  const rewritten = location === null ? null : rewriteLocation(proxied.target.entry, location, proxied.target.targetUrl);
  if (rewritten !== null && !rewritten.ok) {
    void response.body?.cancel();
    return errorResponse("origin-error", `${proxied.target.targetUrl.host} answered ${response.status} with ${rewritten.reason}; not relayed`);
  }
  const redirected = new Response(response.body, response);
  if (rewritten !== null) redirected.headers.set("location", rewritten.location);
  return redirected;
}

/**
 * HEAD of a page that a GET would clean: the headers of the GET's answer that are known without cleaning (the cleaned
 * page's validators, the negotiated format's type, Vary: Accept), no length (it is not the origin's).
 */
function htmlHeadThrough(proxied: ProxyRequest, response: Response): Response {
  const headers = cleanedHeaders(proxied, response.headers);
  headers.set("content-type", CONTENT_TYPES[proxied.format]);
  addVary(headers, "Accept");
  return new Response(null, { status: response.status, headers });
}

async function cleanThrough(proxied: ProxyRequest, response: Response, cacheState: "miss" | "bypass"): Promise<Response> {
  const page: ProxiedPage = await cleanProxiedPage(response, proxied.target.targetUrl, proxied.rules, proxied.settings, proxied.format, proxied.frontMatter);
  if (page.kind === "timeout") return errorResponse("origin-timeout", `${proxied.target.entry.originHost} did not send the whole page in time`);
  if (page.kind === "bailout") {
    const passed = new Response(page.body, response);
    setBailoutHeaders(passed.headers, page.reason, page.content);
    // Markdown and text asked for: the fallback clean() wrote, not the origin's bytes (its length and encoding go with them).
    if (page.contentType !== null) {
      passed.headers.set("content-type", page.contentType);
      passed.headers.delete("content-length");
      passed.headers.delete("content-encoding");
    }
    return passed;
  }
  if (proxied.request.method === "GET") {
    proxied.sample({ html: page.original, url: proxied.target.targetUrl.href, site: proxied.rules.site, rulesMinedAt: proxied.rules.compiled?.minedAt });
  }
  const headers = cleanedHeaders(proxied, response.headers);
  headers.set("content-type", page.contentType);
  headers.set("x-clean-mode", page.mode);
  headers.set("x-clean-site", page.site);
  headers.set("x-clean-rules", proxied.rules.status);
  headers.set(CACHE_CONTROL_HEADER, cacheState);
  // Markdown for Agents: the token estimate agents budget with, and the site's signal of what its content may be used for.
  if (proxied.format === "markdown") headers.set(MARKDOWN_TOKENS_HEADER, String(estimateMarkdownTokens(page.html)));
  const answer = new Response(page.html, { status: response.status, headers });
  // Links stay on the proxy in the page; Markdown and text link to the origin (absolute URLs), as their readers expect.
  const cleaned = proxied.format === "html" ? linkRewriter(proxied.target.entry, proxied.target.targetUrl).transform(answer) : answer;
  if (proxied.request.method === "GET" && !ownedByClient(proxied.forwarded, proxied.target.entry.cacheCredentialed) && isStorable(proxied.forwarded, cleaned, proxied.target.entry.cacheCredentialed)) {
    proxied.waitUntil(caches.default.put(cacheKey(proxied.request.url, proxied.version), cleaned.clone()));
  }
  // After the storability check (which refuses pages that vary) and the copy: the stored page is keyed by format already.
  addVary(cleaned.headers, "Accept");
  return cleaned;
}

const CONTENT_SIGNAL_HEADER = "content-signal";

/** The CONTENT_SIGNAL var: "off" (or empty) for none, else its value; config CONTENT_SIGNAL when unset. */
function contentSignal(value: string | undefined): string | null {
  if (value === undefined) return CONTENT_SIGNAL;
  const trimmed = value.trim();
  return trimmed === "" || trimmed.toLowerCase() === "off" ? null : trimmed;
}

/** The origin's headers for a cleaned page: same caching headers, ETag of the cleaned bytes, no length or encoding. */
function cleanedHeaders(proxied: ProxyRequest, originHeaders: Headers): Headers {
  const headers = new Headers(originHeaders);
  headers.delete("content-length");
  headers.delete("content-encoding");
  const etag = originHeaders.get("etag");
  if (etag !== null) headers.set("etag", cleanedEtag(etag, proxied.version));
  return headers;
}

/** What identifies a site's rules for caching: a republished rule set changes it. */
export function ruleSetVersion(rules: SiteRules): string {
  const compiled = rules.compiled;
  if (compiled === null) return `none:${rules.status}`;
  return `${compiled.site}:${compiled.version}:${compiled.minedAt}:${compiled.rules.length}`;
}
