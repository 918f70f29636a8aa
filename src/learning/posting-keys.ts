/**
 * Which API keys may have the pages they post learned from, and for which sites. A posted page only names its URL,
 * so by default it is cleaned and never sampled (anyone with a key could otherwise teach any site's rules); an admin
 * may list sites for a key whose holder is trusted for them (the site's own publisher, its CMS). The list lives in
 * R2 under the key's id, the first KEY_ID_DIGITS hex digits of the key's SHA-256 (`printf %s "$KEY" | sha256sum`),
 * so the bucket never holds a key; R2 is strongly consistent, so a removal holds from the next post on.
 */
import { hexDigest } from "../digest";
import { parseSiteKey } from "../rules";
import { ALL_POSTING_KEYS_PREFIX, postingKeyKey } from "./storage-keys";

/** Hex digits of a key id: 64 bits, with no practical chance that two keys of one deployment share one. */
export const KEY_ID_DIGITS = 16;
/** Most sites listed for one key (a list is read at every sampled post). */
export const MAX_POSTING_SITES = 1000;

export interface PostingKey {
  readonly keyId: string;
  /** Site keys; a listed host also covers its path keys (bbc.co.uk covers bbc.co.uk/news). */
  readonly sites: readonly string[];
  readonly updatedAt: string;
}

export function keyIdOf(key: string): Promise<string> {
  return hexDigest(key, KEY_ID_DIGITS);
}

export function isKeyId(value: string): boolean {
  return value.length === KEY_ID_DIGITS && /^[0-9a-f]+$/.test(value);
}

export async function readPostingKey(bucket: R2Bucket, keyId: string): Promise<PostingKey | null> {
  const object = await bucket.get(postingKeyKey(keyId));
  if (object === null) return null;
  try {
    const value = (await object.json()) as PostingKey;
    return Array.isArray(value.sites) ? value : null;
  } catch {
    return null; // an unreadable entry allows nothing
  }
}

/** Stores a key's sites (replacing its list). Returns the problems instead when a site is not a site key. */
export async function writePostingKey(bucket: R2Bucket, keyId: string, sites: readonly string[], now: Date): Promise<{ ok: true; entry: PostingKey } | { ok: false; problems: string[] }> {
  const problems: string[] = [];
  const parsed: string[] = [];
  if (sites.length > MAX_POSTING_SITES) problems.push(`at most ${MAX_POSTING_SITES} sites a key`);
  for (const site of sites) {
    const key = typeof site === "string" ? parseSiteKey(site) : null;
    if (key === null) problems.push(`${JSON.stringify(site)} is not a site key`);
    else if (!parsed.includes(key)) parsed.push(key);
  }
  if (problems.length > 0) return { ok: false, problems };
  const entry: PostingKey = { keyId, sites: parsed.sort(), updatedAt: now.toISOString() };
  await bucket.put(postingKeyKey(keyId), JSON.stringify(entry), { httpMetadata: { contentType: "application/json" } });
  return { ok: true, entry };
}

export async function deletePostingKey(bucket: R2Bucket, keyId: string): Promise<void> {
  await bucket.delete(postingKeyKey(keyId));
}

/** Every key with a list (a deployment has a handful). */
export async function listPostingKeys(bucket: R2Bucket): Promise<PostingKey[]> {
  const keys: PostingKey[] = [];
  let cursor: string | undefined;
  do {
    const listed = await bucket.list({ prefix: ALL_POSTING_KEYS_PREFIX, cursor });
    for (const object of listed.objects) {
      const entry = await readPostingKey(bucket, object.key.slice(ALL_POSTING_KEYS_PREFIX.length, -".json".length));
      if (entry !== null) keys.push(entry);
    }
    cursor = listed.truncated ? listed.cursor : undefined;
  } while (cursor !== undefined);
  return keys;
}

/** Whether a listed site covers `site`: the same key, or a host whose path key `site` is. */
export function coversSite(sites: readonly string[], site: string): boolean {
  return sites.some((listed) => listed === site || (!listed.includes("/") && site.startsWith(`${listed}/`)));
}
