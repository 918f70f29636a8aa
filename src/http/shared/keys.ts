import type { MiddlewareHandler } from "hono";
import { sha256 } from "../../digest";
import type { Env } from "./bindings";
import { ServiceError } from "./errors";

/**
 * API keys. `/v1/*` takes a key from `authorization: Bearer <key>`, `x-api-key: <key>` or `?key=<key>`,
 * checked against the comma-separated list in the API_KEYS secret (`wrangler secret put API_KEYS`).
 * Admin routes take ADMIN_KEY instead (in a header only: a URL ends up in logs and Referers), and never an
 * API key. A deployment with no keys refuses every request (503) rather than running open.
 */

const BEARER = /^bearer\s+(.+)$/i;

/** The key a request carries, or null; `fromQuery` false for the admin key, which never rides in a link. */
export function presentedKey(request: Request, fromQuery = true): string | null {
  const authorization = request.headers.get("authorization");
  const bearer = authorization === null ? null : BEARER.exec(authorization.trim());
  if (bearer !== null) return bearer[1].trim();
  const header = request.headers.get("x-api-key");
  if (header !== null && header.trim() !== "") return header.trim();
  if (!fromQuery) return null;
  const query = new URL(request.url).searchParams.get("key");
  return query !== null && query !== "" ? query : null;
}

export function configuredKeys(list: string | undefined): string[] {
  return (list ?? "").split(",").map((key) => key.trim()).filter((key) => key !== "");
}

export const requireApiKey: MiddlewareHandler<{ Bindings: Env }> = async (context, next) => {
  await checkKey(context.req.raw, configuredKeys(context.env.API_KEYS), "API", "API_KEYS", true);
  await next();
};

export const requireAdminKey: MiddlewareHandler<{ Bindings: Env }> = async (context, next) => {
  await checkKey(context.req.raw, configuredKeys(context.env.ADMIN_KEY), "admin", "ADMIN_KEY", false);
  await next();
};

async function checkKey(request: Request, keys: readonly string[], kind: string, secret: string, fromQuery: boolean): Promise<void> {
  // Says how to set them: a first `wrangler dev` or deploy lands here.
  if (keys.length === 0) {
    throw new ServiceError("keys-not-configured",
      `no ${kind} keys are configured on this deployment: set the ${secret} secret (wrangler secret put ${secret}; for wrangler dev, ${secret}=… in .dev.vars, see .dev.vars.example)`);
  }
  const key = presentedKey(request, fromQuery);
  if (key === null) {
    const ways = `header "authorization: Bearer <key>" or "x-api-key: <key>"${fromQuery ? ", or ?key=<key>" : " (never in the URL)"}`;
    throw new ServiceError("missing-key", `an ${kind} key is required: ${ways}`);
  }
  if (!(await matchesAny(key, keys))) throw new ServiceError("invalid-key", `the ${kind} key is not valid`);
}

/** Compares digests, not the keys themselves, so the time taken does not reveal how much of a key matched. */
export async function matchesAny(key: string, keys: readonly string[]): Promise<boolean> {
  const presented = await sha256(key);
  let matched = false;
  for (const candidate of keys) matched = equalBytes(presented, await sha256(candidate)) || matched;
  return matched;
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  let difference = a.length ^ b.length;
  for (let i = 0; i < a.length && i < b.length; i++) difference |= a[i] ^ b[i];
  return difference === 0;
}
