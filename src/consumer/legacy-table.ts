/**
 * The migration from the cross-site table of earlier versions: 16 JSON objects in R2 (cross-site/shard-NNN.json,
 * each `{version: 1, sites: [site ids whose home it was], keys: {n-gram: [site ids]}}`) and each site's last
 * contribution (cross-site/sites/<site>.json). Their counts move into the Durable Object shards, each site with
 * the stamp 0, older than any job's, so that a site a job has merged since keeps that job's keys; then the R2
 * objects go. Safe to run again or at the same time elsewhere (the shards apply a stamp-0 contribution at most
 * once over the same keys). It reads the whole R2 table once, as every job of the earlier versions did.
 */
import { LEGACY_CROSS_SITE_PREFIXES } from "../learning";
import { applyContributions, ngramHash, type CrossSiteNamespace } from "./cross-site-table";

/** Most keys an R2 delete takes. */
const DELETE_BATCH = 1000;

interface LegacyShard {
  readonly sites?: unknown;
  readonly keys?: unknown;
}

export interface MigrationResult {
  /** Sites moved (those the R2 table counted). */
  readonly sites: number;
  /** (n-gram, site) pairs moved. */
  readonly pairs: number;
  /** R2 objects removed (the shards and the sites' contributions). */
  readonly removed: number;
}

/** Moves an R2 table into the shards, or returns null when there is none (the usual case, one R2 list). */
export async function migrateLegacyTable(bucket: R2Bucket, namespace: CrossSiteNamespace): Promise<MigrationResult | null> {
  const shardKeys = await listAll(bucket, LEGACY_CROSS_SITE_PREFIXES.shards);
  if (shardKeys.length === 0) return null;
  // Site id → the hashes of its n-grams; every site the old table counted, those without n-grams too.
  const bySite = new Map<string, number[]>();
  let pairs = 0;
  for (const key of shardKeys) {
    const object = await bucket.get(key);
    if (object === null) continue;
    const data = (await object.json()) as LegacyShard;
    for (const site of Array.isArray(data.sites) ? data.sites : []) if (typeof site === "string" && !bySite.has(site)) bySite.set(site, []);
    const entries = typeof data.keys === "object" && data.keys !== null ? Object.entries(data.keys as Record<string, unknown>) : [];
    for (const [ngram, sites] of entries) {
      if (!Array.isArray(sites)) continue;
      const hash = await ngramHash(ngram);
      for (const site of sites) {
        if (typeof site !== "string") continue;
        const hashes = bySite.get(site) ?? [];
        hashes.push(hash);
        bySite.set(site, hashes);
        pairs += 1;
      }
    }
  }
  await applyContributions(namespace, bySite, 0);
  // The contributions first, then the shards: a run stopped between them finds the shards and runs again.
  const removable = [...(await listAll(bucket, LEGACY_CROSS_SITE_PREFIXES.contributions)), ...shardKeys];
  for (let start = 0; start < removable.length; start += DELETE_BATCH) await bucket.delete(removable.slice(start, start + DELETE_BATCH));
  return { sites: bySite.size, pairs, removed: removable.length };
}

async function listAll(bucket: R2Bucket, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const listed = await bucket.list({ prefix, cursor });
    keys.push(...listed.objects.map((object) => object.key));
    cursor = listed.truncated ? listed.cursor : undefined;
  } while (cursor !== undefined);
  return keys;
}
