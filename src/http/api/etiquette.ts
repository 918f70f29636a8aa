/**
 * What a public fetch API owes its clients and the sites it fetches:
 * - CORS for browser apps: origins listed in CORS_ALLOWED_ORIGINS (comma-separated, or "*") get
 *   Access-Control-Allow-Origin on every /v1 answer, errors included, and a preflight (OPTIONS) is answered
 *   204 before any key check (a browser sends no key with it). No list: no CORS headers, preflights 204 bare.
 *   No credentials are allowed: the API takes its key in a header, never a cookie.
 * - A per-key rate limit with the Workers Rate Limiting binding API_RATE_LIMIT (wrangler.toml [[ratelimits]]:
 *   its `simple.limit` and `simple.period` are the options); past it, 429 `rate-limited` with Retry-After
 *   (the period, RATE_LIMIT_PERIOD seconds, as the binding does not say when its window ends). Keyed by a
 *   digest of the API key, so the key itself is never handed to the limiter. No binding, or RATE_LIMIT "off"
 *   (a private deployment, or a load test of the Worker itself): no limit.
 * - What the origin sees of the client (originHeaders): its Accept-Language, unless FORWARD_ACCEPT_LANGUAGE
 *   is "false"; a User-Agent of its choosing (X-User-Agent) only where FORWARD_USER_AGENT is "true" (a
 *   deployment that lets clients pose as any browser or crawler chooses so); else FETCH_USER_AGENT, else
 *   the service's own.
 */
import type { MiddlewareHandler } from "hono";
import { hexDigest } from "../../digest";
import type { Env } from "../shared/bindings";
import { errorResponse } from "../shared/errors";
import { presentedKey } from "../shared/keys";
import { FRONT_MATTER_HEADER, RETURN_FORMAT_HEADER } from "./negotiate";
import { READER_OPTION_HEADERS } from "./reader-options";

export interface EtiquetteBindings {
  /** Comma-separated origins (https://app.example) allowed to call /v1 from a browser, or "*". */
  CORS_ALLOWED_ORIGINS?: string;
  /** The Workers Rate Limiting binding; absent, requests are not limited. */
  API_RATE_LIMIT?: { limit(options: { key: string }): Promise<{ success: boolean }> };
  /** "off": the binding is not consulted (a private deployment, a load test); default on. */
  RATE_LIMIT?: string;
  /** Seconds of the rate limit's period, sent as Retry-After (must match the binding's simple.period; default 60). */
  RATE_LIMIT_PERIOD?: string;
  /** "false": the client's Accept-Language is not passed to origins (default: passed). */
  FORWARD_ACCEPT_LANGUAGE?: string;
  /** "true": a client's X-User-Agent is the User-Agent origins see (default: not). */
  FORWARD_USER_AGENT?: string;
  /** The User-Agent origins see (default: the service's own, in shared/origin-fetch.ts). */
  FETCH_USER_AGENT?: string;
}

/** Request header with the User-Agent a client wants origins to see (honoured only with FORWARD_USER_AGENT = "true"). */
export const CLIENT_USER_AGENT_HEADER = "x-user-agent";
/** Longest header value passed on to an origin, in characters. */
const MAX_FORWARDED_HEADER_CHARS = 512;

/** Headers for the origin fetch from the client's request and the deployment's options (part of the cache key too). */
export function originHeaders(request: Request, env: EtiquetteBindings): Record<string, string> {
  const headers: Record<string, string> = {};
  const language = request.headers.get("accept-language");
  if (env.FORWARD_ACCEPT_LANGUAGE !== "false" && language !== null && usableValue(language)) headers["accept-language"] = language.trim();
  const clientAgent = request.headers.get(CLIENT_USER_AGENT_HEADER);
  const agent = env.FORWARD_USER_AGENT === "true" && clientAgent !== null && usableValue(clientAgent) ? clientAgent : env.FETCH_USER_AGENT;
  if (agent !== undefined && usableValue(agent)) headers["user-agent"] = agent.trim();
  return headers;
}

function usableValue(value: string): boolean {
  return value.trim() !== "" && value.length <= MAX_FORWARDED_HEADER_CHARS && !/[\u0000-\u001f\u007f]/.test(value);
}

/** The MCP transport's request headers (Streamable HTTP): the revision a client speaks, and what a client resuming a stream sends. */
export const MCP_PROTOCOL_VERSION_HEADER = "mcp-protocol-version";
export const MCP_SESSION_ID_HEADER = "mcp-session-id";
const MCP_LAST_EVENT_ID_HEADER = "last-event-id";
/**
 * Jina Reader's request headers this service documents but does not act on (docs/agents.md's table): a Jina client
 * sends them, so a preflight allows them and the answer says what was done, instead of the browser refusing the call.
 */
const JINA_IGNORED_HEADERS = [
  "x-respond-with", "x-engine", "x-wait-for-selector", "x-retain-links", "x-with-generated-alt", "x-token-budget", "x-set-cookie",
  "x-proxy-url", "x-proxy", "x-respond-timing", "x-locale", "x-with-iframe", "x-with-shadow-dom", "x-robots-txt", "x-dnt", "x-referer",
];
/**
 * Request headers a browser app may send: the key, the body's type and encoding, negotiation, the reader's options
 * (api/reader-options.ts), Jina's headers, the MCP transport's, validators. Every header docs/api.md and docs/agents.md name.
 */
const ALLOWED_HEADERS = [
  "authorization", "x-api-key", "content-type", "content-encoding", "accept", "accept-language", "cache-control", "if-none-match", "if-modified-since",
  RETURN_FORMAT_HEADER, FRONT_MATTER_HEADER, ...READER_OPTION_HEADERS, CLIENT_USER_AGENT_HEADER,
  MCP_PROTOCOL_VERSION_HEADER, MCP_SESSION_ID_HEADER, MCP_LAST_EVENT_ID_HEADER, ...JINA_IGNORED_HEADERS,
].join(", ");
/** Response headers a browser app may read besides the CORS-safelisted ones: every header the API sets for its clients. */
const EXPOSED_HEADERS = [
  "etag", "last-modified", "vary", "retry-after", "server-timing", "x-clean-mode", "x-clean-kind", "x-clean-site", "x-clean-rules", "x-clean-bailout", "x-clean-warning",
  "x-clean-charset", "x-clean-removed", "x-clean-cache", "x-clean-selectors", "x-feed-kind", "x-feed-items", "x-markdown-tokens", "content-signal",
  MCP_SESSION_ID_HEADER, MCP_PROTOCOL_VERSION_HEADER,
].join(", ");
/** Methods of /v1: GET and HEAD (read, clean by URL, feed), POST (clean HTML, read, MCP), DELETE (an MCP client ending its session: 405). */
const ALLOWED_METHODS = "GET, HEAD, POST, DELETE, OPTIONS";
/** Seconds a browser may keep a preflight's answer. */
const PREFLIGHT_MAX_AGE_SECONDS = "600";
const DEFAULT_RATE_LIMIT_PERIOD_SECONDS = 60;

/** The allowed origin for a request's Origin, or null: "*" when every origin is allowed, else the origin itself when listed. */
export function allowedOrigin(list: string | undefined, origin: string | null): string | null {
  if (origin === null || list === undefined) return null;
  const entries = list.split(",").map((entry) => entry.trim().replace(/\/+$/, "")).filter((entry) => entry !== "");
  if (entries.includes("*")) return "*";
  return entries.some((entry) => entry.toLowerCase() === origin.toLowerCase()) ? origin : null;
}

export const corsHeaders: MiddlewareHandler<{ Bindings: Env & EtiquetteBindings }> = async (context, next) => {
  const request = context.req.raw;
  const allowed = allowedOrigin(context.env.CORS_ALLOWED_ORIGINS, request.headers.get("origin"));
  if (request.method === "OPTIONS") {
    const headers = new Headers({ vary: "Origin" });
    if (allowed !== null) {
      headers.set("access-control-allow-origin", allowed);
      headers.set("access-control-allow-methods", ALLOWED_METHODS);
      headers.set("access-control-allow-headers", ALLOWED_HEADERS);
      headers.set("access-control-max-age", PREFLIGHT_MAX_AGE_SECONDS);
    }
    return new Response(null, { status: 204, headers });
  }
  await next();
  if (context.env.CORS_ALLOWED_ORIGINS === undefined) return;
  const headers = context.res.headers;
  const vary = headers.get("vary");
  if (!(vary ?? "").toLowerCase().includes("origin")) headers.set("vary", vary === null || vary === "" ? "Origin" : `${vary}, Origin`);
  if (allowed === null) return;
  headers.set("access-control-allow-origin", allowed);
  headers.set("access-control-expose-headers", EXPOSED_HEADERS);
};

/** After the key check: counts the request against its key's limit. */
export const rateLimit: MiddlewareHandler<{ Bindings: Env & EtiquetteBindings }> = async (context, next) => {
  const limiter = context.env.API_RATE_LIMIT;
  const key = presentedKey(context.req.raw);
  if (limiter === undefined || key === null || context.env.RATE_LIMIT === "off") return next();
  const outcome = await limiter.limit({ key: await hexDigest(`rate-limit:${key}`, 32) });
  if (outcome.success) return next();
  const period = periodSeconds(context.env.RATE_LIMIT_PERIOD);
  const response = errorResponse("rate-limited", `this key made more requests than its limit; retry after ${period} s`);
  response.headers.set("retry-after", String(period));
  return response;
};

function periodSeconds(value: string | undefined): number {
  const seconds = Number(value);
  return Number.isInteger(seconds) && seconds > 0 ? seconds : DEFAULT_RATE_LIMIT_PERIOD_SECONDS;
}
