import { Hono } from "hono/tiny";
import { deletePostingKey, isKeyId, keyIdOf, KEY_ID_DIGITS, listPostingKeys, MAX_POSTING_SITES, requireBindings, writePostingKey } from "../../learning";
import type { Env } from "../shared/bindings";
import { ServiceError } from "../shared/errors";
import { readRequestText } from "../shared/body";
import { configuredKeys } from "../shared/keys";
import { resolveSettings } from "../shared/settings";

/**
 * Which API keys' posted pages are learned from, and for which sites (src/learning/posting-keys.ts; mounted under
 * /admin, behind ADMIN_KEY). A key is named by its id, the first 16 hex digits of its SHA-256
 * (`printf %s "$KEY" | sha256sum | cut -c1-16`), never by the key itself:
 *   GET    /admin/keys                the ids of the configured API keys, and every key's sites
 *   PUT    /admin/keys/:keyId/sites   body {"sites": ["news.example", …]}: the key's posts teach those sites (replaces its list)
 *   DELETE /admin/keys/:keyId/sites   the key's posts teach no site again
 */
export const postingKeyRoutes = new Hono<{ Bindings: Env }>();

postingKeyRoutes.get("/keys", async (context) => {
  const bucket = requireBucket(context.env);
  const configured = await Promise.all(configuredKeys(context.env.API_KEYS).map((key) => keyIdOf(key)));
  const keys = await listPostingKeys(bucket);
  return context.json({ configured, keys: keys.map((entry) => ({ ...entry, configured: configured.includes(entry.keyId) })) });
});

postingKeyRoutes.put("/keys/:keyId/sites", async (context) => {
  const keyId = await requireConfiguredKeyId(context.env, context.req.param("keyId"));
  const sites = await requireSitesBody(context.req.raw, resolveSettings(context.env, context.req.raw).fetchBodyTimeoutMs);
  const written = await writePostingKey(requireBucket(context.env), keyId, sites, new Date());
  if (!written.ok) throw new ServiceError("bad-request", written.problems.slice(0, 20).join("; "));
  return context.json(written.entry);
});

postingKeyRoutes.delete("/keys/:keyId/sites", async (context) => {
  const keyId = requireKeyId(context.req.param("keyId"));
  await deletePostingKey(requireBucket(context.env), keyId);
  return context.json({ keyId, sites: [] });
});

const SITES_BODY_SHAPE = 'the body must be JSON: {"sites": ["news.example", …]}';
/**
 * The largest body of PUT /admin/keys/:keyId/sites, in bytes: MAX_POSTING_SITES site keys of at most 387 characters
 * (rules/site-key.ts), quoted and separated, take under 512 bytes each.
 */
const SITES_BODY_MAX_BYTES = MAX_POSTING_SITES * 512;

/** The body {"sites": [strings]}, and nothing else: an unknown field is a mistake (a misspelt one would be ignored). */
async function requireSitesBody(request: Request, timeoutMs: number): Promise<string[]> {
  const body = await readRequestText(request, SITES_BODY_MAX_BYTES, timeoutMs);
  if (!body.ok) throw new ServiceError(body.code, body.message);
  let value: unknown;
  try {
    value = JSON.parse(body.text);
  } catch {
    throw new ServiceError("bad-request", SITES_BODY_SHAPE);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new ServiceError("bad-request", SITES_BODY_SHAPE);
  const unknown = Object.keys(value).filter((field) => field !== "sites");
  if (unknown.length > 0) throw new ServiceError("bad-request", `unknown field${unknown.length > 1 ? "s" : ""} ${unknown.slice(0, 5).map((field) => JSON.stringify(field.slice(0, 40))).join(", ")}: ${SITES_BODY_SHAPE}`);
  const sites = (value as { sites?: unknown }).sites;
  if (!Array.isArray(sites) || !sites.every((site) => typeof site === "string")) throw new ServiceError("bad-request", SITES_BODY_SHAPE);
  return sites;
}

function requireKeyId(value: string): string {
  if (!isKeyId(value)) throw new ServiceError("bad-request", `a key id is the first ${KEY_ID_DIGITS} hex digits of the key's SHA-256 (printf %s "$KEY" | sha256sum | cut -c1-${KEY_ID_DIGITS})`);
  return value;
}

/** A list is only set for a key the deployment has (a mistyped id would otherwise allow nobody, silently). */
async function requireConfiguredKeyId(env: Env, value: string): Promise<string> {
  const keyId = requireKeyId(value);
  const configured = await Promise.all(configuredKeys(env.API_KEYS).map((key) => keyIdOf(key)));
  if (!configured.includes(keyId)) throw new ServiceError("not-found", `no key in API_KEYS has the id ${keyId} (GET /admin/keys lists theirs)`);
  return keyId;
}

function requireBucket(env: Env): R2Bucket {
  try {
    return requireBindings(env).bucket;
  } catch (error) {
    throw new ServiceError("learning-unavailable", (error as Error).message);
  }
}
