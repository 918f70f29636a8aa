/**
 * Today's cross-site table before the Durable Objects (src/consumer/cross-site-table.ts as it was): 16 JSON shards
 * in R2 with the site ids of each n-gram, every job reading all of them. Kept for the tests only, as the reference
 * the new table's decisions are compared with, and to make the R2 table of an earlier deployment that the
 * migration (src/consumer/legacy-table.ts) moves. Unchanged but for its imports.
 */
import { hexDigest } from "../../src/digest";
import { LEGACY_CROSS_SITE_PREFIXES } from "../../src/learning";

const crossSiteShardKey = (shard: number) => `${LEGACY_CROSS_SITE_PREFIXES.shards}${String(shard).padStart(3, "0")}.json`;
const contributionKey = (site: string) => `${LEGACY_CROSS_SITE_PREFIXES.contributions}${encodeURIComponent(site)}.json`;

/** Shards of the table: each job reads all of them and writes those its change touches. */
export const SHARD_COUNT = 16;
/** Hex digits of a site id (48 bits: collisions stay unlikely up to tens of millions of sites). */
const SITE_ID_DIGITS = 12;
/** Attempts of one shard update against concurrent writers. */
const MAX_SHARD_ATTEMPTS = 8;

interface ShardData {
  readonly version: 1;
  /** Ids of the sites whose home is this shard. */
  sites: string[];
  /** n-gram key → ids of the sites that have it among their candidates. */
  keys: Record<string, string[]>;
}

export interface CrossSiteCounts {
  /** Sites holding an n-gram. */
  countOf(key: string): number;
  /** Sites that have contributed. */
  readonly siteTotal: number;
}

/** Replaces the site's contribution with `keys` and returns the merged counts. */
export async function mergeContribution(bucket: R2Bucket, site: string, keys: ReadonlySet<string>): Promise<CrossSiteCounts> {
  const siteId = await hexDigest(site, SITE_ID_DIGITS);
  const previous = await readContribution(bucket, site);
  const home = shardOf(siteId);
  const added = new Map<number, string[]>();
  const removed = new Map<number, string[]>();
  for (const key of keys) if (!previous.has(key)) push(added, shardOf(key), key);
  for (const key of previous) if (!keys.has(key)) push(removed, shardOf(key), key);
  // Recorded first as the union: if this job stops half-way, the next one still removes what it added.
  if (added.size > 0 && previous.size > 0) await writeContribution(bucket, site, new Set([...previous, ...keys]));
  const shards = await Promise.all(
    Array.from({ length: SHARD_COUNT }, (_unused, shard) =>
      updateShard(bucket, shard, (data) => {
        let changed = false;
        if (shard === home && !data.sites.includes(siteId)) {
          data.sites.push(siteId);
          changed = true;
        }
        for (const key of added.get(shard) ?? []) changed = addSite(data, key, siteId) || changed;
        for (const key of removed.get(shard) ?? []) changed = removeSite(data, key, siteId) || changed;
        return changed;
      }),
    ),
  );
  await writeContribution(bucket, site, keys);
  const siteTotal = shards.reduce((sum, data) => sum + data.sites.length, 0);
  return { countOf: (key) => shards[shardOf(key)]!.keys[key]?.length ?? 0, siteTotal };
}

/** The table as it stands, without changing it (for reading the counts of a site's keys). */
export async function readCounts(bucket: R2Bucket): Promise<CrossSiteCounts> {
  const shards = await Promise.all(Array.from({ length: SHARD_COUNT }, async (_unused, shard) => (await readShard(bucket, shard)).data));
  return { countOf: (key) => shards[shardOf(key)]!.keys[key]?.length ?? 0, siteTotal: shards.reduce((sum, data) => sum + data.sites.length, 0) };
}

async function readContribution(bucket: R2Bucket, site: string): Promise<Set<string>> {
  const object = await bucket.get(contributionKey(site));
  if (object === null) return new Set();
  const value = (await object.json()) as { keys?: unknown };
  return new Set(Array.isArray(value.keys) ? value.keys.filter((key): key is string => typeof key === "string") : []);
}

async function writeContribution(bucket: R2Bucket, site: string, keys: ReadonlySet<string>): Promise<void> {
  await bucket.put(contributionKey(site), JSON.stringify({ site, keys: [...keys] }), { httpMetadata: { contentType: "application/json" } });
}

/** Applies `change` to a shard and writes it if it changed, retrying when another job wrote it in between. */
async function updateShard(bucket: R2Bucket, shard: number, change: (data: ShardData) => boolean): Promise<ShardData> {
  for (let attempt = 1; attempt <= MAX_SHARD_ATTEMPTS; attempt++) {
    const { data, etag } = await readShard(bucket, shard);
    if (!change(data)) return data;
    const written = await bucket.put(crossSiteShardKey(shard), JSON.stringify(data), {
      httpMetadata: { contentType: "application/json" },
      // Written only if nobody wrote it since it was read (a new shard: only if it still does not exist).
      onlyIf: etag === null ? { etagDoesNotMatch: "*" } : { etagMatches: etag },
    });
    if (written !== null) return data;
  }
  throw new Error(`cross-site shard ${shard}: still changing after ${MAX_SHARD_ATTEMPTS} attempts`);
}

async function readShard(bucket: R2Bucket, shard: number): Promise<{ data: ShardData; etag: string | null }> {
  const object = await bucket.get(crossSiteShardKey(shard));
  if (object === null) return { data: { version: 1, sites: [], keys: {} }, etag: null };
  return { data: (await object.json()) as ShardData, etag: object.etag };
}

function addSite(data: ShardData, key: string, siteId: string): boolean {
  const sites = data.keys[key];
  if (sites === undefined) {
    data.keys[key] = [siteId];
    return true;
  }
  if (sites.includes(siteId)) return false;
  sites.push(siteId);
  return true;
}

function removeSite(data: ShardData, key: string, siteId: string): boolean {
  const sites = data.keys[key];
  const index = sites === undefined ? -1 : sites.indexOf(siteId);
  if (index < 0) return false;
  sites!.splice(index, 1);
  if (sites!.length === 0) delete data.keys[key];
  return true;
}

function push(map: Map<number, string[]>, shard: number, key: string): void {
  const list = map.get(shard);
  if (list === undefined) map.set(shard, [key]);
  else list.push(key);
}

/** FNV-1a of the key's UTF-16 units, mod SHARD_COUNT. */
function shardOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < key.length; index++) {
    hash ^= key.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % SHARD_COUNT;
}
