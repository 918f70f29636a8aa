import type { ErrorCode } from "./errors";
import { resolveAndCheck } from "./resolve";
import { HOP_HEADER, type HttpSettings } from "./settings";
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

const USER_AGENT = "edge-cleaner/0.1 (+https://github.com/edge-cleaner)";
const ACCEPT_HTML = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5";
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export async function fetchOrigin(target: URL, settings: HttpSettings, headers?: HeadersInit): Promise<OriginFetch> {
  let url = target;
  for (let hop = 0; hop <= settings.maxRedirects; hop++) {
    const guard = await guardHop(url, settings);
    if (!guard.ok) return hop === 0 ? guard : { ...guard, message: `redirect to ${url.href}: ${guard.message}` };
    const step = await fetchOnce(url, guard.address, settings, headers);
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

async function fetchOnce(url: URL, address: string | null, settings: HttpSettings, headers?: HeadersInit): Promise<OriginFetch> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), settings.fetchTimeoutMs);
  const requestHeaders = new Headers(headers);
  if (!requestHeaders.has("accept")) requestHeaders.set("accept", ACCEPT_HTML);
  if (!requestHeaders.has("user-agent")) requestHeaders.set("user-agent", USER_AGENT);
  requestHeaders.set(HOP_HEADER, String(settings.outgoingHop));
  if (address !== null) requestHeaders.set("host", url.host);
  try {
    const response = await fetch(pinnedUrl(url, address).href, { redirect: "manual", signal: controller.signal, headers: requestHeaders });
    return { ok: true, response, url };
  } catch (error) {
    if (controller.signal.aborted) {
      return { ok: false, code: "origin-timeout", message: `${url.host} did not answer within ${settings.fetchTimeoutMs} ms` };
    }
    // The operator sees the cause (wrangler tail); the client gets one answer for every failure to connect, so
    // that a refused port, a reset and a TLS failure look alike (no port scanning through the service).
    console.warn("fetch failed", url.host, describe(error));
    return unreachable(url);
  } finally {
    clearTimeout(timer);
  }
}

function unreachable(url: URL): Refusal {
  return { ok: false, code: "origin-unreachable", message: `could not reach ${url.host}` };
}

/** A short, stack-free description of a fetch failure. */
function describe(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split("\n")[0].slice(0, 200);
}
