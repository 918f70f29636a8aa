import { decodeFetchedResponse, FETCH_ACCEPT_ENCODING } from "./body";
import type { ErrorCode } from "./errors";
import { resolveAndCheck } from "./resolve";
import { HOP_HEADER, type HttpSettings } from "./settings";
import { fetchOverSocket } from "./socket-fetch";
import { checkTarget, isAddressLiteral, isExempt } from "./target";

/**
 * Fetching a page for the service: every hop of a redirect chain (the first included) passes the target
 * guard (spelling, then the resolved addresses, then "not this Worker"), the wait for headers is bounded,
 * and failures come back as a typed result with the error code the API answers with, an origin's error
 * status among them. The body of a success is left unread (see readBodyLimited) so a caller can pass an
 * oversize page through whole.
 */
export type OriginFetch =
  | { readonly ok: true; readonly response: Response; readonly url: URL }
  | { readonly ok: false; readonly code: ErrorCode; readonly message: string };

/** What origins see of the service: its User-Agent, and the Accept of a page (the reader API's fetches and the proxy's). */
export const USER_AGENT = "edge-cleaner/0.1 (+https://github.com/edge-cleaner)";
export const ACCEPT_HTML = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5";
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/**
 * Whether this runtime hands us an origin's body raw to decode ourselves (workerd: over a socket, or fetch() with
 * encodeResponseBody "manual"; see decodeFetchedResponse), or decodes it in its fetch (Node's undici, which has no
 * such option and fails a body that does not decode on our read).
 */
const DECODES_FETCHED_BODIES_ITSELF = (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent === "Cloudflare-Workers";
/** workerd's fetch option for a raw body (not in the DOM's RequestInit). */
const RAW_BODY: Record<string, string> = DECODES_FETCHED_BODIES_ITSELF ? { encodeResponseBody: "manual" } : {};

/** One request to an origin: where it connects (an address, or the URL's host), and what it sends. */
export interface OriginRequest {
  readonly url: URL;
  /** The address to connect to (pinned), or null for the URL's host. */
  readonly address: string | null;
  /** Over a socket in workerd where fetches are pinned (PIN_TARGETS), for http URLs: see socket-fetch.ts. */
  readonly overSocket: boolean;
  readonly method: string;
  readonly headers: Headers;
  readonly body: ReadableStream<Uint8Array> | null;
  /** The body's length in bytes where the client declared it, else null. */
  readonly bodyLength?: number | null;
  readonly signal: AbortSignal;
}

/**
 * Sends one request as this runtime should: in workerd over a socket where `overSocket` (where fetches are pinned: a
 * DevTools session may watch fetch(), see socket-fetch.ts), else fetch() raw, and then the body's Content-Encoding
 * undone by us, so that a body that does not decode is an error on our read; in Node, its fetch. Redirects are not
 * followed. Throws as fetch() does; a Content-Encoding we do not read is a refusal (an origin-error).
 */
export async function requestOrigin(request: OriginRequest): Promise<{ readonly ok: true; readonly response: Response } | { readonly ok: false; readonly message: string }> {
  const headers = new Headers(request.headers);
  if (DECODES_FETCHED_BODIES_ITSELF) headers.set("accept-encoding", FETCH_ACCEPT_ENCODING);
  // Plain http only: TLS over a socket to a checked address would name the address, not the host, to the certificate.
  if (DECODES_FETCHED_BODIES_ITSELF && request.overSocket && request.url.protocol === "http:") {
    const response = await fetchOverSocket(request.url, request.address ?? request.url.hostname, { method: request.method, headers, body: request.body, bodyLength: request.bodyLength ?? null }, request.signal);
    return decoded(response);
  }
  if (request.address !== null) headers.set("host", request.url.host);
  const init = { method: request.method, redirect: "manual" as const, signal: request.signal, headers, body: request.body, ...RAW_BODY };
  const response = await fetch(pinnedUrl(request.url, request.address).href, init);
  return DECODES_FETCHED_BODIES_ITSELF ? decoded(response) : { ok: true, response };
}

async function decoded(response: Response): Promise<{ readonly ok: true; readonly response: Response } | { readonly ok: false; readonly message: string }> {
  const result = decodeFetchedResponse(response);
  if (!result.ok) await response.body?.cancel();
  return result;
}

export async function fetchOrigin(target: URL, settings: HttpSettings, headers?: HeadersInit, clientSignal?: AbortSignal): Promise<OriginFetch> {
  let url = target;
  for (let hop = 0; hop <= settings.maxRedirects; hop++) {
    const guard = await guardHop(url, settings);
    if (!guard.ok) return hop === 0 ? guard : { ...guard, message: `redirect to ${url.href}: ${guard.message}` };
    const step = await fetchOnce(url, guard.address, settings, headers, clientSignal);
    if (!step.ok) return step;
    const location = step.response.headers.get("location");
    if (!REDIRECT_STATUSES.has(step.response.status) || location === null) return step.response.ok ? step : originError(step.response, url);
    await step.response.body?.cancel();
    const next = checkTarget(new URL(location, url).href, settings);
    if (!next.ok) return { ok: false, code: next.code, message: `redirect to ${location}: ${next.message}` };
    url = next.url;
  }
  return { ok: false, code: "origin-unreachable", message: `more than ${settings.maxRedirects} redirects from ${target.href}` };
}

type Refusal = Extract<OriginFetch, { ok: false }>;

/** An answer that is not a success (after any redirects), its body let go. */
async function originError(response: Response, url: URL): Promise<Refusal> {
  await response.body?.cancel();
  return { ok: false, code: "origin-error", message: `${url.host} answered ${response.status} for ${url.pathname}` };
}

/** A hop that passed the guard, with the address its name was checked at when it is to be fetched there (pinned). */
type Passed = { readonly ok: true; readonly address: string | null };

/**
 * Checks one hop's URL before it is fetched: its spelling, this Worker's own hosts, and what its name resolves to.
 * Where addresses are pinned (PIN_TARGETS), the checked address is the one fetched, so a name that answers one
 * address to the check and another to the fetch (DNS rebinding) cannot reach what the check refused; an https URL
 * by name cannot be fetched at an address (its certificate names the host), so there it is refused.
 */
export async function guardHop(url: URL, settings: HttpSettings): Promise<Passed | Refusal> {
  const spelled = checkTarget(url.href, settings);
  if (!spelled.ok) return { ok: false, code: spelled.code, message: spelled.message };
  // The service's own address would have it fetch itself, request after request.
  if (settings.ownHosts.has(url.host.toLowerCase())) return { ok: false, code: "forbidden-target", message: `${url.host} is this service itself; not fetched` };
  if (settings.resolver === null || isAddressLiteral(url.hostname) || settings.allowedOrigins.has(url.origin)) return { ok: true, address: null };
  if (settings.pinAddresses && url.protocol === "https:") {
    return { ok: false, code: "forbidden-target", message: `${url.host}: an https URL by name cannot be fetched at its checked address in this mode (PIN_TARGETS); not fetched` };
  }
  const resolved = await resolveAndCheck(url.hostname, settings.resolver);
  if (resolved.ok) return { ok: true, address: settings.pinAddresses ? resolved.addresses[0] : null };
  // Unresolvable names answer as unreachable origins do, so a lookup reveals no more than a connection.
  if (resolved.kind === "unresolved") return unreachable(url);
  if (isExempt(resolved.verdict, url, settings)) return { ok: true, address: settings.pinAddresses ? resolved.address : null };
  return { ok: false, code: "forbidden-target", message: `target ${url.hostname} resolves to ${resolved.verdict.reason}; not fetched` };
}

/** The URL fetched for `url` at a pinned address (its Host header then names the host), or `url` itself. */
function pinnedUrl(url: URL, address: string | null): URL {
  if (address === null) return url;
  const pinned = new URL(url.href);
  pinned.hostname = address.includes(":") ? `[${address}]` : address;
  return pinned;
}

/**
 * One hop's fetch, cut at the fetch timeout or once `clientSignal` aborts (the client hung up: its page is no one's
 * to wait for, and the origin's connection is closed rather than read for nothing).
 */
async function fetchOnce(url: URL, address: string | null, settings: HttpSettings, headers?: HeadersInit, clientSignal?: AbortSignal): Promise<OriginFetch> {
  const left = (): boolean => clientSignal?.aborted === true;
  if (left()) return clientLeft(url);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), settings.fetchTimeoutMs);
  const leave = (): void => controller.abort();
  clientSignal?.addEventListener("abort", leave, { once: true });
  const requestHeaders = new Headers(headers);
  if (!requestHeaders.has("accept")) requestHeaders.set("accept", ACCEPT_HTML);
  if (!requestHeaders.has("user-agent")) requestHeaders.set("user-agent", USER_AGENT);
  requestHeaders.set(HOP_HEADER, String(settings.outgoingHop));
  try {
    const answer = await requestOrigin({ url, address, overSocket: settings.pinAddresses, method: "GET", headers: requestHeaders, body: null, signal: controller.signal });
    if (answer.ok) return { ok: true, response: answer.response, url };
    return { ok: false, code: "origin-error", message: `${url.host}: ${answer.message}` };
  } catch (error) {
    if (left()) return clientLeft(url);
    if (controller.signal.aborted) {
      return { ok: false, code: "origin-timeout", message: `${url.host} did not answer within ${settings.fetchTimeoutMs} ms` };
    }
    // The operator sees the cause (wrangler tail); the client gets one answer for every failure to connect, so
    // that a refused port, a reset and a TLS failure look alike (no port scanning through the service).
    console.warn("fetch failed", url.host, describe(error));
    return unreachable(url);
  } finally {
    clearTimeout(timer);
    clientSignal?.removeEventListener("abort", leave);
  }
}

/** The client left before the origin answered: the fetch was cut (an answer no one reads; a timeout's code). */
function clientLeft(url: URL): Refusal {
  return { ok: false, code: "origin-timeout", message: `the client left before ${url.host} answered` };
}

function unreachable(url: URL): Refusal {
  return { ok: false, code: "origin-unreachable", message: `could not reach ${url.host}` };
}

/** A short, stack-free description of a fetch failure. */
function describe(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split("\n")[0].slice(0, 200);
}
