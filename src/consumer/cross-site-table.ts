/**
 * The cross-site filter at scale (paper 002, 3.3): a global table of n-gram → the number of sites whose template
 * candidates hold it, merged one site at a time as jobs finish (the reduce step of mining many sites), and read
 * by the filter. `npm run mine` counts the same keys over one machine's sites at once.
 *
 * Layout: CROSS_SITE_SHARDS Durable Objects (src/durable-objects/cross-site-shard.ts), an n-gram in the shard of its hash. A job
 * sends each shard, in one call, the site's n-grams that fall in it (every shard, so that a key the site no
 * longer has is removed, and so that each shard's count of its home sites adds up to the number of sites), and
 * gets back the counts of those keys. What a job reads and writes is its own keys, whatever the number of sites.
 */
import { CROSS_SITE_MAX_ATTEMPTS, CROSS_SITE_SHARDS } from "../config";
import { hexDigest, sha256 } from "../digest";
import type { CrossSiteShard, ShardAnswer, ShardContribution } from "../durable-objects";

/** Hex digits of a site id (48 bits: collisions stay unlikely up to tens of millions of sites). */
const SITE_ID_DIGITS = 12;

/** The table's binding (wrangler.control.toml [[durable_objects.bindings]] CROSS_SITE). */
export type CrossSiteNamespace = DurableObjectNamespace<CrossSiteShard>;

export interface CrossSiteCounts {
  /** Sites holding an n-gram (of those sent). */
  countOf(key: string): number;
  /** Sites that have contributed. */
  readonly siteTotal: number;
  /** What the call cost. */
  readonly cost: TableCost;
}

/** The cost of one job's call to the table, summed over the shards. */
export interface TableCost {
  readonly keys: number;
  readonly shards: number;
  readonly rowsRead: number;
  readonly rowsWritten: number;
  /** Shard calls made again after a retryable failure. */
  readonly retries: number;
}

/** The site's id in the table: as the R2 table had it, so that a migrated site is the same site. */
export function crossSiteSiteId(site: string): Promise<string> {
  return hexDigest(site, SITE_ID_DIGITS);
}

/** An n-gram's 53-bit hash (SHA-256's first bits: no one picks a key that lands on another's count). */
export async function ngramHash(key: string): Promise<number> {
  const digest = await sha256(key);
  return ((digest[0]! << 13) | (digest[1]! << 5) | (digest[2]! >>> 3)) * 2 ** 32 + ((digest[3]! << 24) >>> 0) + (digest[4]! << 16) + (digest[5]! << 8) + digest[6]!;
}

/** The shard of a hash (and of a site id's home). */
export function shardOfHash(hash: number): number {
  return hash % CROSS_SITE_SHARDS;
}

export function homeShard(siteId: string): number {
  return Number.parseInt(siteId.slice(0, 8), 16) % CROSS_SITE_SHARDS;
}

export function shardStub(namespace: CrossSiteNamespace, shard: number): DurableObjectStub<CrossSiteShard> {
  return namespace.get(namespace.idFromName(`shard-${shard}`));
}

/**
 * Replaces the site's contribution with `keys` (stamp: the job's enqueue time, so that an older job's late
 * delivery cannot undo a newer one) and returns the merged counts of those keys.
 */
export async function mergeContribution(namespace: CrossSiteNamespace, site: string, keys: ReadonlySet<string>, stamp: number): Promise<CrossSiteCounts> {
  const siteId = await crossSiteSiteId(site);
  const listed = [...keys];
  const hashes = await Promise.all(listed.map(ngramHash));
  const byShard = partition(hashes);
  const home = homeShard(siteId);
  const calls = byShard.map((shardKeys, shard) => {
    const contribution: ShardContribution = { site: siteId, stamp, home: shard === home, keys: shardKeys };
    return withRetries(() => shardStub(namespace, shard).merge(contribution));
  });
  return countsFrom(listed, hashes, byShard, await Promise.all(calls));
}

/**
 * Keys a bulk call carries, at most: about 1.4 MB as an RPC's arguments (9 bytes a number), far below its 32 MiB
 * limit, and large enough that one call's sorted writes share the B-tree pages of a large shard (the bench seeds
 * 100,000 sites' 3 M keys a shard in calls of this size).
 */
const KEYS_PER_BULK_CALL = 150_000;

/**
 * Many sites' contributions at once (site id → its n-gram hashes), a few calls a shard: the migration from R2,
 * and the bench's synthetic sites. Returns the rows written.
 */
export async function applyContributions(namespace: CrossSiteNamespace, sites: ReadonlyMap<string, readonly number[]>, stamp: number): Promise<number> {
  const byShard = Array.from({ length: CROSS_SITE_SHARDS }, () => [] as ShardContribution[]);
  for (const [site, hashes] of sites) {
    const home = homeShard(site);
    partition(hashes).forEach((keys, shard) => {
      if (keys.length > 0 || shard === home) byShard[shard]!.push({ site, stamp, home: shard === home, keys });
    });
  }
  const written = await Promise.all(byShard.map(async (contributions, shard) => {
    let rows = 0;
    for (const batch of bulkCalls(contributions)) rows += (await withRetries(() => shardStub(namespace, shard).mergeMany(batch))).answer.rowsWritten;
    return rows;
  }));
  return written.reduce((sum, rows) => sum + rows, 0);
}

/** Contributions in runs of at most KEYS_PER_BULK_CALL keys (a larger contribution alone). */
function bulkCalls(contributions: readonly ShardContribution[]): ShardContribution[][] {
  const calls: ShardContribution[][] = [];
  let keys = 0;
  for (const contribution of contributions) {
    if (calls.length === 0 || keys + contribution.keys.length > KEYS_PER_BULK_CALL) {
      calls.push([]);
      keys = 0;
    }
    calls.at(-1)!.push(contribution);
    keys += contribution.keys.length;
  }
  return calls;
}

/** Removes a site's contribution from the table (a site no longer learned). */
export async function removeContribution(namespace: CrossSiteNamespace, site: string, stamp: number): Promise<void> {
  const siteId = await crossSiteSiteId(site);
  await Promise.all(Array.from({ length: CROSS_SITE_SHARDS }, (_unused, shard) => withRetries(() => shardStub(namespace, shard).remove(siteId, stamp))));
}

/** The counts of `keys` and the number of sites as the table stands, changing nothing. */
export async function readCounts(namespace: CrossSiteNamespace, keys: Iterable<string> = []): Promise<CrossSiteCounts> {
  const listed = [...new Set(keys)];
  const hashes = await Promise.all(listed.map(ngramHash));
  const byShard = partition(hashes);
  const answers = await Promise.all(byShard.map((shardKeys, shard) => withRetries(() => shardStub(namespace, shard).read(shardKeys))));
  return countsFrom(listed, hashes, byShard, answers);
}

/** Shard → the distinct hashes that fall in it, in the order first met. */
export function partition(hashes: readonly number[]): number[][] {
  const byShard = Array.from({ length: CROSS_SITE_SHARDS }, () => new Set<number>());
  for (const hash of hashes) byShard[shardOfHash(hash)]!.add(hash);
  return byShard.map((shardKeys) => [...shardKeys]);
}

function countsFrom(listed: readonly string[], hashes: readonly number[], byShard: readonly number[][], answers: readonly { answer: ShardAnswer; retries: number }[]): CrossSiteCounts {
  // Each shard answers the counts of its keys in the order they were sent.
  const countOfHash = new Map<number, number>();
  byShard.forEach((shardKeys, shard) => shardKeys.forEach((hash, index) => countOfHash.set(hash, answers[shard]!.answer.counts[index] ?? 0)));
  const countOfKey = new Map(listed.map((key, index) => [key, countOfHash.get(hashes[index]!) ?? 0]));
  const sum = (value: (entry: { answer: ShardAnswer; retries: number }) => number) => answers.reduce((total, entry) => total + value(entry), 0);
  return {
    countOf: (key) => countOfKey.get(key) ?? 0,
    siteTotal: sum((entry) => entry.answer.homeSites),
    cost: { keys: listed.length, shards: answers.length, rowsRead: sum((entry) => entry.answer.rowsRead), rowsWritten: sum((entry) => entry.answer.rowsWritten), retries: sum((entry) => entry.retries) },
  };
}

/** A shard call, made again (up to CROSS_SITE_MAX_ATTEMPTS) when the runtime says the failure is retryable. */
export async function withRetries<T>(call: () => Promise<T>): Promise<{ answer: T; retries: number }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return { answer: await call(), retries: attempt - 1 };
    } catch (error) {
      const retryable = (error as { retryable?: boolean } | null)?.retryable === true;
      if (!retryable || attempt >= CROSS_SITE_MAX_ATTEMPTS) throw error;
    }
  }
}
