import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";

/**
 * The one error type of the HTTP layer. Every refusal the service gives has one of these codes; only
 * `statusForCode` turns a code into an HTTP status, and only `handleError` writes the response.
 */
export type ErrorCode =
  | "not-found" // no such route
  | "bad-request" // a parameter is missing or malformed
  | "invalid-url" // the target URL does not parse, or its scheme is not http/https
  | "unsupported-media-type" // the body (or fetched page) is not HTML
  | "payload-too-large" // the body is over the size limit
  | "missing-key" // /v1/* without an API key
  | "invalid-key" // an API key that is not one of ours
  | "keys-not-configured" // the deployment has no API keys set: refuse rather than run open
  | "forbidden-target" // loopback, private, link-local or metadata target
  | "origin-unreachable" // no connection to the origin (refused, DNS, TLS, too many redirects)
  | "origin-error" // the origin answered with an error status
  | "origin-timeout" // the origin did not answer in time
  | "loop-detected" // the request came through this service's own fetches too many times
  | "rate-limited" // the API key made more requests than its limit in the current period (with Retry-After)
  | "invalid-rules" // an uploaded rule set fails validation or has unsafe patterns
  | "rules-unavailable" // KV could not be read
  | "learning-unavailable" // the learning bindings (R2 PAGES, queue MINE_QUEUE) are not configured
  | "conflict" // the site's state does not allow it: too few sampled pages to learn, no earlier rule set to restore
  | "internal"; // anything unforeseen (never with a stack in the body)

const STATUS_BY_CODE: Readonly<Record<ErrorCode, 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 500 | 502 | 503 | 504 | 508>> = {
  "not-found": 404,
  "bad-request": 400,
  "invalid-url": 400,
  "unsupported-media-type": 415,
  "payload-too-large": 413,
  "missing-key": 401,
  "invalid-key": 403,
  "keys-not-configured": 503,
  "forbidden-target": 403,
  "origin-unreachable": 502,
  "origin-error": 502,
  "origin-timeout": 504,
  "loop-detected": 508,
  "rate-limited": 429,
  "invalid-rules": 422,
  "rules-unavailable": 503,
  "learning-unavailable": 503,
  conflict: 409,
  internal: 500,
};

export class ServiceError extends Error {
  override readonly name = "ServiceError";
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** How many characters of a client's value an error message repeats. */
const ECHO_LIMIT = 80;

/** A client's value for an error message: quoted, and cut short if long. */
export function quoteValue(value: string): string {
  return JSON.stringify(value.length > ECHO_LIMIT ? `${value.slice(0, ECHO_LIMIT)}…` : value);
}

/**
 * A 400 for a query parameter the route does not read, naming the ones it does (and the nearest, for a typo):
 * an unread parameter would otherwise be ignored, and the answer quietly not the one asked for.
 */
export function requireKnownParameters(query: URLSearchParams, known: readonly string[]): void {
  for (const name of query.keys()) {
    if (known.includes(name)) continue;
    const nearest = known.find((candidate) => editDistanceAtMost(name.toLowerCase(), candidate.toLowerCase(), 2));
    const hint = nearest === undefined ? "" : ` (did you mean ${nearest}?)`;
    throw new ServiceError("bad-request", `unknown query parameter ${quoteValue(name)}${hint}: this route reads ${known.join(", ")}`);
  }
}

/** Whether two short names are at most `limit` single-character edits apart (a transposition counts as one). */
function editDistanceAtMost(a: string, b: string, limit: number): boolean {
  if (Math.abs(a.length - b.length) > limit || a.length > ECHO_LIMIT) return false;
  let before = Array.from({ length: b.length + 1 }, (_, index) => index);
  let previous = before;
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1);
      let best = Math.min(previous[j] + 1, row[j - 1] + 1, substitution);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, before[j - 2] + 1);
      row.push(best);
    }
    before = previous;
    previous = row;
  }
  return previous[b.length] <= limit;
}

export function statusForCode(code: ErrorCode): number {
  return STATUS_BY_CODE[code];
}

export interface ErrorBody {
  readonly error: { readonly code: ErrorCode; readonly message: string };
}

/**
 * Jina Reader's error fields (`{data: null, code, name, status, message, readableMessage}`: code the HTTP status,
 * status five digits that start with it), written beside ours on /v1/read so that its clients read them unchanged.
 */
export function jinaErrorFields(code: ErrorCode, message: string): Record<string, unknown> {
  const status = statusForCode(code);
  return { data: null, code: status, name: code, status: status * 100, message, readableMessage: `${code}: ${message}` };
}

/** Paths whose errors carry Jina's fields too. */
const JINA_ERROR_PATH = /^\/v1\/read(?:\/|$)/;

/** The JSON error response for a code; extra headers (e.g. www-authenticate) are added by the caller. */
export function errorResponse(code: ErrorCode, message: string, headers?: HeadersInit, jina = false): Response {
  const body: ErrorBody = { error: { code, message } };
  const response = Response.json(jina ? { ...jinaErrorFields(code, message), ...body } : body, { status: statusForCode(code), headers });
  response.headers.set("cache-control", "no-store");
  return response;
}

/** The app's one onError: known errors get their status; anything else a plain 500 with no detail. */
export function handleError(error: unknown, context: Context): Response {
  const jina = JINA_ERROR_PATH.test(new URL(context.req.url).pathname);
  if (error instanceof ServiceError) {
    const headers = error.code === "missing-key" ? { "www-authenticate": 'Bearer realm="edge-cleaner"' } : undefined;
    return errorResponse(error.code, error.message, headers, jina);
  }
  if (error instanceof HTTPException) {
    // Thrown by Hono itself (e.g. a malformed request); keep its status family, not its text.
    return errorResponse(error.status >= 500 ? "internal" : "bad-request", error.status >= 500 ? "internal error" : error.message || "bad request");
  }
  // Logged for the operator (wrangler tail); the client sees no stack and no internals.
  console.error("unhandled error", context.req.method, new URL(context.req.url).pathname, error);
  return errorResponse("internal", "internal error");
}

export function handleNotFound(context: Context): Response {
  return errorResponse("not-found", `no route for ${context.req.method} ${new URL(context.req.url).pathname}`);
}
