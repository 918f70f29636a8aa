import type { ErrorCode } from "./errors";
import type { HttpSettings } from "./settings";
import { checkTarget } from "./target";

/**
 * Fetching a page for the service: every hop of a redirect chain passes the target guard, the wait for
 * headers is bounded, and failures come back as a typed result with the error code the API answers with.
 * The body is left unread (see readBodyLimited) so a caller can pass an oversize page through whole.
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
    const step = await fetchOnce(url, settings.fetchTimeoutMs, headers);
    if (!step.ok) return step;
    const location = step.response.headers.get("location");
    if (!REDIRECT_STATUSES.has(step.response.status) || location === null) return step;
    await step.response.body?.cancel();
    const next = checkTarget(new URL(location, url).href, settings);
    if (!next.ok) return { ok: false, code: next.code, message: `redirect to ${location}: ${next.message}` };
    url = next.url;
  }
  return { ok: false, code: "origin-unreachable", message: `more than ${settings.maxRedirects} redirects from ${target.href}` };
}

async function fetchOnce(url: URL, timeoutMs: number, headers?: HeadersInit): Promise<OriginFetch> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const requestHeaders = new Headers(headers);
  if (!requestHeaders.has("accept")) requestHeaders.set("accept", ACCEPT_HTML);
  if (!requestHeaders.has("user-agent")) requestHeaders.set("user-agent", USER_AGENT);
  try {
    const response = await fetch(url.href, { redirect: "manual", signal: controller.signal, headers: requestHeaders });
    return { ok: true, response, url };
  } catch (error) {
    if (controller.signal.aborted) {
      return { ok: false, code: "origin-timeout", message: `${url.host} did not answer within ${timeoutMs} ms` };
    }
    return { ok: false, code: "origin-unreachable", message: `could not reach ${url.host}: ${describe(error)}` };
  } finally {
    clearTimeout(timer);
  }
}

/** A short, stack-free description of a fetch failure. */
function describe(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split("\n")[0].slice(0, 200);
}
