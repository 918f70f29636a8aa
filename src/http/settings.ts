import {
  HTTP_FETCH_BODY_TIMEOUT_MS,
  HTTP_FETCH_TIMEOUT_MS,
  HTTP_MAX_BODY_BYTES,
  HTTP_MAX_REDIRECTS,
  HTTP_MAX_URL_LENGTH,
} from "../config";
import type { Env } from "../worker";

/** What the HTTP layer needs from the bindings, resolved once per request and never mutated. */
export interface HttpSettings {
  /** Fetch targets on loopback, private and link-local addresses (local development only). */
  readonly allowPrivateTargets: boolean;
  readonly maxBodyBytes: number;
  readonly fetchTimeoutMs: number;
  readonly fetchBodyTimeoutMs: number;
  readonly maxRedirects: number;
  readonly maxUrlLength: number;
}

export function resolveSettings(env: Env): HttpSettings {
  return Object.freeze({
    allowPrivateTargets: env.ALLOW_PRIVATE_TARGETS === "true",
    maxBodyBytes: positiveNumber(env.MAX_BODY_BYTES, HTTP_MAX_BODY_BYTES),
    fetchTimeoutMs: positiveNumber(env.FETCH_TIMEOUT_MS, HTTP_FETCH_TIMEOUT_MS),
    fetchBodyTimeoutMs: positiveNumber(env.FETCH_BODY_TIMEOUT_MS, HTTP_FETCH_BODY_TIMEOUT_MS),
    maxRedirects: HTTP_MAX_REDIRECTS,
    maxUrlLength: HTTP_MAX_URL_LENGTH,
  });
}

/** A var given as a string (wrangler [vars], --var, secrets); an absent or malformed one keeps the default. */
function positiveNumber(value: string | undefined, fallback: number): number {
  if (value === undefined || value === "") return fallback;
  const parsed = Number(value);
  return Number.isFinite(parsed) && parsed > 0 ? parsed : fallback;
}
