import type { MiddlewareHandler } from "hono";
import type { Env } from "../worker";
import { ServiceError } from "./errors";

/**
 * API keys. `/v1/*` takes a key from `authorization: Bearer <key>`, `x-api-key: <key>` or `?key=<key>`,
 * checked against the comma-separated list in the API_KEYS secret (`wrangler secret put API_KEYS`).
 * Admin routes take ADMIN_KEY instead, and never an API key. A deployment with no keys refuses every
 * request (503) rather than running open.
 */

const BEARER = /^bearer\s+(.+)$/i;

/** The key a request carries, or null. */
export function presentedKey(request: Request): string | null {
  const authorization = request.headers.get("authorization");
  const bearer = authorization === null ? null : BEARER.exec(authorization.trim());
  if (bearer !== null) return bearer[1].trim();
  const header = request.headers.get("x-api-key");
  if (header !== null && header.trim() !== "") return header.trim();
  const query = new URL(request.url).searchParams.get("key");
  return query !== null && query !== "" ? query : null;
}

export function configuredKeys(list: string | undefined): string[] {
  return (list ?? "").split(",").map((key) => key.trim()).filter((key) => key !== "");
}

export const requireApiKey: MiddlewareHandler<{ Bindings: Env }> = async (context, next) => {
  await checkKey(context.req.raw, configuredKeys(context.env.API_KEYS), "API");
  await next();
};

export const requireAdminKey: MiddlewareHandler<{ Bindings: Env }> = async (context, next) => {
  await checkKey(context.req.raw, configuredKeys(context.env.ADMIN_KEY), "admin");
  await next();
};

async function checkKey(request: Request, keys: readonly string[], kind: string): Promise<void> {
  if (keys.length === 0) throw new ServiceError("keys-not-configured", `no ${kind} keys are configured on this deployment`);
  const key = presentedKey(request);
  if (key === null) {
    throw new ServiceError("missing-key", `an ${kind} key is required: header "authorization: Bearer <key>" or "x-api-key: <key>", or ?key=<key>`);
  }
  if (!(await matchesAny(key, keys))) throw new ServiceError("invalid-key", `the ${kind} key is not valid`);
}

/** Compares digests, not the keys themselves, so the time taken does not reveal how much of a key matched. */
async function matchesAny(key: string, keys: readonly string[]): Promise<boolean> {
  const presented = await digest(key);
  let matched = false;
  for (const candidate of keys) matched = equalBytes(presented, await digest(candidate)) || matched;
  return matched;
}

async function digest(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  let difference = a.length ^ b.length;
  for (let i = 0; i < a.length && i < b.length; i++) difference |= a[i] ^ b[i];
  return difference === 0;
}
