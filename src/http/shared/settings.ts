import {
  HTTP_FETCH_BODY_TIMEOUT_MS,
  HTTP_FETCH_TIMEOUT_MS,
  HTTP_MAX_BODY_BYTES,
  HTTP_MAX_REDIRECTS,
  HTTP_MAX_URL_LENGTH,
} from "../../config";
import type { Env } from "./bindings";
import { ServiceError } from "./errors";
import { proxyConfigFromVar } from "../proxy/config";
import type { ResolverSettings } from "./resolve";

/** The vars of the fetch guard (see docs/security.md). */
export interface GuardBindings {
  /** Comma-separated origins fetched whatever their address, metadata excepted (`npm start`: its sample site). */
  ALLOWED_TARGET_ORIGINS?: string;
  /** "off" skips resolving names before fetching (relying on Cloudflare's egress); anything else, or absent: on. */
  RESOLVE_TARGETS?: string;
  /** The DNS-over-HTTPS endpoint (RFC 8484) names are resolved with. */
  DNS_RESOLVER_URL?: string;
  /** "off": the runtime's fetch resolves a checked name again (deployed on Cloudflare, whose fetch cannot reach
   * private networks); anything else, or absent: the checked address is the one fetched, and what cannot be pinned
   * (https by name) is refused (local and self-hosted modes: wrangler dev, workerd, Node). */
  PIN_TARGETS?: string;
  /** The proxy's map (proxy/config.ts): its host keys are this Worker's own hosts. */
  PROXY_ORIGINS?: string;
}

/** What the HTTP layer needs from the bindings, resolved once per request and never mutated. */
export interface HttpSettings {
  /** Fetch targets on loopback and private addresses (the Worker tests only); metadata addresses never. */
  readonly allowPrivateTargets: boolean;
  /** Origins fetched whatever their address, metadata excepted: ALLOWED_TARGET_ORIGINS. */
  readonly allowedOrigins: ReadonlySet<string>;
  /** Where names are resolved before each fetch and redirect hop; null: not resolved (RESOLVE_TARGETS=off). */
  readonly resolver: ResolverSettings | null;
  /** One resolution per fetch: a name is fetched at the address its check resolved (PIN_TARGETS, default on). */
  readonly pinAddresses: boolean;
  /** Hosts (with port) of this Worker: never fetched, on any hop. */
  readonly ownHosts: ReadonlySet<string>;
  /** The x-clean-hop value our own fetches send (the request's plus one). */
  readonly outgoingHop: number;
  readonly maxBodyBytes: number;
  readonly fetchTimeoutMs: number;
  readonly fetchBodyTimeoutMs: number;
  readonly maxRedirects: number;
  readonly maxUrlLength: number;
}

/** Request header counting how many of our own fetches a request is nested in. */
export const HOP_HEADER = "x-clean-hop";
/** A request that already went through this many of our fetches is refused: it is a loop through the Worker. */
export const MAX_HOPS = 2;
/** Resolver used when DNS_RESOLVER_URL is not set. */
export const DEFAULT_RESOLVER_URL = "https://cloudflare-dns.com/dns-query";
/** Longest wait for the resolver, in milliseconds. */
const RESOLVER_TIMEOUT_MS = 3_000;

export function resolveSettings(env: Env & GuardBindings, request?: Request): HttpSettings {
  const hop = request === undefined ? 0 : incomingHop(request);
  if (hop >= MAX_HOPS) throw new ServiceError("loop-detected", `the request already went through ${hop} fetches of this service`);
  const fetchTimeoutMs = positiveNumber(env.FETCH_TIMEOUT_MS, HTTP_FETCH_TIMEOUT_MS);
  return Object.freeze({
    allowPrivateTargets: env.ALLOW_PRIVATE_TARGETS === "true",
    allowedOrigins: parseOrigins(env.ALLOWED_TARGET_ORIGINS),
    resolver: env.RESOLVE_TARGETS === "off" ? null : { url: env.DNS_RESOLVER_URL || DEFAULT_RESOLVER_URL, timeoutMs: Math.min(fetchTimeoutMs, RESOLVER_TIMEOUT_MS) },
    pinAddresses: env.PIN_TARGETS !== "off",
    ownHosts: ownHosts(request, env.PROXY_ORIGINS),
    outgoingHop: hop + 1,
    maxBodyBytes: positiveNumber(env.MAX_BODY_BYTES, HTTP_MAX_BODY_BYTES),
    fetchTimeoutMs,
    fetchBodyTimeoutMs: positiveNumber(env.FETCH_BODY_TIMEOUT_MS, HTTP_FETCH_BODY_TIMEOUT_MS),
    maxRedirects: HTTP_MAX_REDIRECTS,
    maxUrlLength: HTTP_MAX_URL_LENGTH,
  });
}

function incomingHop(request: Request): number {
  const value = Number(request.headers.get(HOP_HEADER) ?? "0");
  return Number.isInteger(value) && value > 0 ? value : 0;
}

/** "http://a:1, https://b" → the set of their URL origins; entries that are not http(s) URLs are left out. */
export function parseOrigins(list: string | undefined): ReadonlySet<string> {
  const origins = new Set<string>();
  for (const entry of (list ?? "").split(",")) {
    const text = entry.trim();
    if (text === "") continue;
    try {
      const url = new URL(text);
      if (url.protocol === "http:" || url.protocol === "https:") origins.add(url.origin);
    } catch {
      console.error("ALLOWED_TARGET_ORIGINS: not a URL, ignored:", text.slice(0, 80));
    }
  }
  return origins;
}

/** The request's own host and the proxy's host keys (lower case, with port). */
function ownHosts(request: Request | undefined, proxyOrigins: string | undefined): ReadonlySet<string> {
  const hosts = new Set<string>();
  if (request !== undefined) hosts.add(new URL(request.url).host.toLowerCase());
  for (const key of proxyHostKeys(proxyOrigins)) hosts.add(key);
  return hosts;
}

function proxyHostKeys(raw: string | undefined): string[] {
  const config = proxyConfigFromVar(raw);
  return config.ok ? [...config.config.byHost.keys()] : [];
}

/** A var given as a string (wrangler [vars], --var, secrets); an absent or malformed one keeps the default. */
/** A TTL var in whole seconds ("0" turns the cache off); unset, empty or not a whole number ≥ 0: `fallback`. */
export function ttlSeconds(value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === "") return fallback;
  const seconds = Number(value);
  return Number.isInteger(seconds) && seconds >= 0 ? seconds : fallback;
}

function positiveNumber(value: string | undefined, fallback: number): number {
  if (value === undefined || value === "") return fallback;
  const parsed = Number(value);
  return Number.isFinite(parsed) && parsed > 0 ? parsed : fallback;
}
