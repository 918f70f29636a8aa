/**
 * Proxy configuration: which requests the proxy serves, and from which origin.
 *
 * `PROXY_ORIGINS` (a Worker var) is a JSON object. A key is either a host the Worker answers on
 * ("news.example.net", host mode: the whole host is the proxied site) or a path prefix starting with "/"
 * ("/proxy/news", prefix mode: that prefix on any host the Worker answers on). A value is the origin it
 * serves, an http(s) URL with no path ("https://www.example.com"), or `{"origin": "…", "site": "…"}` to clean
 * with the rules of a named site (an origin reached by an internal address or another host name). The
 * object form also takes `"forwardCredentials": true` (the client's Cookie and Authorization go to the
 * origin and its Set-Cookie comes back; off by default, so one visitor's session never reaches the origin
 * through a shared proxy) and `"cacheCredentialed": true` (pages fetched with those credentials may still be
 * stored and served to others: only for origins whose public pages do not change with a session), and
 * `"redirectHosts": ["login.example.com"]` (hosts besides the origin's that its redirects may send a client to;
 * any other, and any scheme but http(s), is refused with a 502, so the proxy never relays an origin's Location to
 * a host its operator did not name, nor a javascript: one). Nothing
 * else is ever fetched by the proxy: a request whose host and path match no key is not the proxy's, so it is
 * never an open proxy.
 */
import * as v from "../../validation";
import { parseUrl } from "../shared/url";
import { parseSite, siteOfHost } from "../shared/site";

export interface ProxyEntry {
  /** "host" when the key is a host, "prefix" when it is a path prefix. */
  readonly kind: "host" | "prefix";
  /** Lower-case host (with port if given) for host mode; the prefix without a trailing "/" for prefix mode. */
  readonly key: string;
  /** The origin served, as `URL.origin` ("https://www.example.com"). */
  readonly origin: string;
  /** Lower-case host name of the origin, without port: links to it (any scheme) are kept on the proxy. */
  readonly originHostname: string;
  /** Host of the origin with port when it is not the default one (what appears in absolute links). */
  readonly originHost: string;
  /** The site whose rules clean its pages: given, or the origin's host without "www.". */
  readonly site: string;
  /** Cookie and Authorization forwarded to the origin, Set-Cookie passed back (off unless configured). */
  readonly forwardCredentials: boolean;
  /** Pages fetched with forwarded credentials may be stored in the shared cache (off unless configured). */
  readonly cacheCredentialed: boolean;
  /** Hosts (lower case, a port where given) besides the origin's that a redirect may point at. */
  readonly redirectHosts: ReadonlySet<string>;
}

export interface ProxyConfig {
  /** Host-mode entries by lower-case host. */
  readonly byHost: ReadonlyMap<string, ProxyEntry>;
  /** Prefix-mode entries, longest prefix first so that the most specific one wins. */
  readonly prefixes: readonly ProxyEntry[];
}

export type ProxyConfigResult =
  | { readonly ok: true; readonly config: ProxyConfig }
  | { readonly ok: false; readonly problems: readonly string[] };

/** A proxied request: its entry and the URL it maps to on the origin. */
export interface ProxyTarget {
  readonly entry: ProxyEntry;
  readonly targetUrl: URL;
}

const EMPTY_CONFIG: ProxyConfig = Object.freeze({ byHost: new Map(), prefixes: [] });

const nonEmpty = v.string({ nonEmpty: true });
const ORIGIN_VALUE_SCHEMA = v.union([
  nonEmpty,
  v.strictObject({
    origin: nonEmpty,
    site: v.optional(nonEmpty),
    forwardCredentials: v.optional(v.boolean()),
    cacheCredentialed: v.optional(v.boolean()),
    redirectHosts: v.optional(v.array(nonEmpty)),
  }),
]);
const ORIGIN_MAP_SCHEMA = v.record(nonEmpty, ORIGIN_VALUE_SCHEMA);

/** Host names: letters, digits, dots and dashes, optionally a port. */
const HOST_KEY = /^[a-z0-9.-]+(?::[0-9]{1,5})?$/;
/** Path prefixes: "/" followed by path characters; no query, fragment or dot segments. */
const PREFIX_KEY = /^\/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*$/;

export function parseProxyConfig(raw: string | undefined): ProxyConfigResult {
  if (raw === undefined || raw.trim() === "") return { ok: true, config: EMPTY_CONFIG };
  const json = parseJson(raw);
  if (json === undefined) return { ok: false, problems: ["PROXY_ORIGINS is not valid JSON"] };
  const parsed = v.parse(ORIGIN_MAP_SCHEMA, json);
  if (!parsed.ok) return { ok: false, problems: ["PROXY_ORIGINS must be an object of key → origin URL (or {origin, site, forwardCredentials, cacheCredentialed, redirectHosts})"] };
  const problems: string[] = [];
  const byHost = new Map<string, ProxyEntry>();
  const prefixes: ProxyEntry[] = [];
  for (const [key, value] of Object.entries(parsed.value)) {
    const entry = parseEntry(key, value, problems);
    if (entry === null) continue;
    if (entry.kind === "host") byHost.set(entry.key, entry);
    else prefixes.push(entry);
  }
  if (problems.length > 0) return { ok: false, problems };
  prefixes.sort((a, b) => b.key.length - a.key.length);
  return { ok: true, config: Object.freeze({ byHost, prefixes: Object.freeze(prefixes) }) };
}

function parseEntry(key: string, value: v.Infer<typeof ORIGIN_VALUE_SCHEMA>, problems: string[]): ProxyEntry | null {
  const { origin: originValue, site: siteValue, forwardCredentials = false, cacheCredentialed = false, redirectHosts = [] } = typeof value === "string" ? { origin: value } : value;
  const origin = parseUrl(originValue);
  if (origin === null) {
    problems.push(`${key}: origin ${JSON.stringify(originValue)} is not a URL`);
    return null;
  }
  if ((origin.protocol !== "http:" && origin.protocol !== "https:") || (origin.pathname !== "/" && origin.pathname !== "") || origin.search !== "") {
    problems.push(`${key}: origin must be an http(s) URL with no path or query`);
    return null;
  }
  const site = siteValue === undefined ? siteOfHost(origin.hostname) : parseSite(siteValue);
  if (site === null) {
    problems.push(`${key}: site ${JSON.stringify(siteValue)} is not a host name`);
    return null;
  }
  const hosts = redirectHosts.map((host) => host.toLowerCase());
  const badHost = hosts.find((host) => !HOST_KEY.test(host));
  if (badHost !== undefined) {
    problems.push(`${key}: redirectHosts entry ${JSON.stringify(badHost)} is not a host name`);
    return null;
  }
  const base = {
    origin: origin.origin, originHostname: origin.hostname.toLowerCase(), originHost: origin.host.toLowerCase(), site, forwardCredentials, cacheCredentialed,
    redirectHosts: new Set(hosts) as ReadonlySet<string>,
  };
  if (key.startsWith("/")) {
    const prefix = key.replace(/\/+$/, "");
    if (!PREFIX_KEY.test(key) || prefix === "" || key.includes("/../") || key.includes("/./")) {
      problems.push(`${key}: a path prefix must be like "/proxy/site"`);
      return null;
    }
    return Object.freeze({ kind: "prefix", key: prefix, ...base });
  }
  const host = key.toLowerCase();
  if (!HOST_KEY.test(host)) {
    problems.push(`${key}: not a host name or a path prefix`);
    return null;
  }
  if (host === base.originHost) {
    // Serving a host from itself would loop forever through the Worker.
    problems.push(`${key}: the origin cannot be the proxy host itself`);
    return null;
  }
  return Object.freeze({ kind: "host", key: host, ...base });
}

function parseJson(raw: string): unknown {
  // JSON.parse has no non-throwing form; a malformed var is reported, not thrown.
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

/** The proxy entry and origin URL for a request URL, or null when the request is not the proxy's. */
export function resolveProxyTarget(config: ProxyConfig, requestUrl: URL): ProxyTarget | null {
  const hostEntry = config.byHost.get(requestUrl.host.toLowerCase());
  if (hostEntry !== undefined) return { entry: hostEntry, targetUrl: originUrl(hostEntry, requestUrl.pathname, requestUrl.search) };
  const path = requestUrl.pathname;
  for (const entry of config.prefixes) {
    if (path === entry.key || path.startsWith(entry.key + "/")) {
      return { entry, targetUrl: originUrl(entry, path.slice(entry.key.length) || "/", requestUrl.search) };
    }
  }
  return null;
}

/**
 * The origin URL for a path. Set field by field, never parsed from a string: a path such as "//other.host/x"
 * must stay a path on the origin, not become a protocol-relative URL to another host.
 */
function originUrl(entry: ProxyEntry, path: string, search: string): URL {
  const url = new URL(entry.origin);
  url.pathname = path;
  url.search = search;
  return url;
}

/** Isolate memo: the var is parsed once per distinct value, not per request. */
let memoRaw: string | undefined;
let memoResult: ProxyConfigResult = { ok: true, config: EMPTY_CONFIG };

export function proxyConfigFromVar(raw: string | undefined): ProxyConfigResult {
  if (raw !== memoRaw) {
    memoResult = parseProxyConfig(raw);
    memoRaw = raw;
    // Said once per value, for the operator (wrangler tail); requests then go to the other routes.
    if (!memoResult.ok) console.error("PROXY_ORIGINS ignored:", memoResult.problems.join("; "));
  }
  return memoResult;
}
