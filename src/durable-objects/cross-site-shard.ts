/**
 * One shard of the cross-site table: a SQLite-backed Durable Object holding, for the n-grams whose hash falls in
 * it, how many sites have each among their template candidates, and each site's own n-grams here (its last
 * contribution), so that a contribution is replaced rather than added and can be removed. A call costs rows in
 * the keys it carries, never in the number of sites: a count is one row, a site's contribution one row.
 *
 * Idempotent: a contribution carries a stamp (the job's enqueue time); the same stamp again changes nothing
 * (its keys are already the site's), an older one is ignored (a late redelivery after a re-learn, or the
 * migration from the R2 table after a job), and removal leaves a tombstone with its stamp for the same reason.
 * The object runs one call at a time and each call is one transaction, so concurrent jobs never conflict.
 */
import { DurableObject } from "cloudflare:workers";

/** What a job sends a shard: the site's n-gram hashes in this shard (53-bit integers), all of them each time. */
export interface ShardContribution {
  /** The site's id (hex digest of its key). */
  readonly site: string;
  /** Orders contributions of a site: milliseconds of the job's enqueueing; 0 for one migrated from R2. */
  readonly stamp: number;
  /** Whether this shard is the site's home, where it counts towards the number of sites. */
  readonly home: boolean;
  readonly keys: readonly number[];
}

export interface ShardAnswer {
  /** Sites holding each key sent, in the order sent (after the contribution). */
  readonly counts: number[];
  /** Sites whose home is this shard. */
  readonly homeSites: number;
  /** False when the shard holds a newer contribution of the site (the one sent was ignored). */
  readonly applied: boolean;
  /** SQLite rows read and written by the call (what Durable Objects bill). */
  readonly rowsRead: number;
  readonly rowsWritten: number;
}

/** Bytes per stored key: a contribution is its hashes as float64 (exact for 53-bit integers). */
const KEY_BYTES = 8;
const HOME_SITES = "home_sites";
/** Keys a statement carries, as one JSON value (a bound value stays far below SQLite's size limit here). */
const KEYS_PER_STATEMENT = 1000;

export class CrossSiteShard extends DurableObject {
  private readonly sql: SqlStorage;

  constructor(context: DurableObjectState, env: unknown) {
    super(context, env as never);
    this.sql = context.storage.sql;
    this.sql.exec(`CREATE TABLE IF NOT EXISTS counts (ngram INTEGER PRIMARY KEY, sites INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS contributions (site TEXT PRIMARY KEY, stamp INTEGER NOT NULL, home INTEGER NOT NULL, keys BLOB NOT NULL);
      CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL);`);
  }

  /** Replaces the site's contribution in this shard (unless a newer one is there) and answers the counts of its keys. */
  merge(contribution: ShardContribution): ShardAnswer {
    return this.ctx.storage.transactionSync(() => {
      const rows = { read: 0, written: 0 };
      const deltas: Deltas = { added: [], removed: [] };
      const applied = this.replace(contribution, rows, deltas);
      this.writeDeltas(deltas, rows);
      const counts = this.countsOf(contribution.keys, rows);
      return { counts, homeSites: this.homeSites(rows), applied, rowsRead: rows.read, rowsWritten: rows.written };
    });
  }

  /**
   * Many sites' contributions at once (the migration from R2, and the bench's synthetic sites); how many applied.
   * The same as `merge` site by site, with the count changes of all summed before they are written.
   */
  mergeMany(contributions: readonly ShardContribution[]): { applied: number; rowsRead: number; rowsWritten: number } {
    return this.ctx.storage.transactionSync(() => {
      const rows = { read: 0, written: 0 };
      const deltas: Deltas = { added: [], removed: [] };
      let applied = 0;
      for (const contribution of contributions) if (this.replace(contribution, rows, deltas)) applied += 1;
      this.writeDeltas(deltas, rows);
      return { applied, rowsRead: rows.read, rowsWritten: rows.written };
    });
  }

  /** Removes the site's contribution (a tombstone with the stamp keeps an older one from coming back). */
  remove(site: string, stamp: number): ShardAnswer {
    return this.merge({ site, stamp, home: false, keys: [] });
  }

  /** The counts of the keys, changing nothing. */
  read(keys: readonly number[]): ShardAnswer {
    const rows = { read: 0, written: 0 };
    return { counts: this.countsOf(keys, rows), homeSites: this.homeSites(rows), applied: false, rowsRead: rows.read, rowsWritten: 0 };
  }

  /** Runs a statement, adding the rows it read and wrote to `rows`. */
  private run<T extends Record<string, SqlStorageValue>>(rows: Rows, query: string, ...bindings: unknown[]): T[] {
    const cursor = this.sql.exec<T>(query, ...bindings);
    const result = cursor.toArray();
    rows.read += cursor.rowsRead;
    rows.written += cursor.rowsWritten;
    return result;
  }

  /**
   * Adds each key's delta to its count, in key order (sorted writes keep a large table's B-tree pages in cache):
   * the keys gaining one site (nearly all) as one JSON array of keys a statement, the other changes as [key, delta]
   * pairs (json_each reads either as one bound value, whatever the number of keys); a count that reaches 0 is deleted.
   */
  private writeDeltas(deltas: Deltas, rows: Rows): void {
    const net = netDeltas(deltas);
    const single = net.filter(([, delta]) => delta === 1).map(([key]) => key);
    const added = net.filter(([, delta]) => delta > 1);
    const removed = net.filter(([, delta]) => delta < 0);
    for (let start = 0; start < single.length; start += KEYS_PER_STATEMENT) {
      this.run(rows, `INSERT INTO counts (ngram, sites) SELECT value, 1 FROM json_each(?) WHERE true
        ON CONFLICT (ngram) DO UPDATE SET sites = sites + 1`, JSON.stringify(single.slice(start, start + KEYS_PER_STATEMENT)));
    }
    for (let start = 0; start < added.length; start += KEYS_PER_STATEMENT) {
      this.run(rows, `INSERT INTO counts (ngram, sites) SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?) WHERE true
        ON CONFLICT (ngram) DO UPDATE SET sites = sites + excluded.sites`, JSON.stringify(added.slice(start, start + KEYS_PER_STATEMENT)));
    }
    for (let start = 0; start < removed.length; start += KEYS_PER_STATEMENT) {
      const list = JSON.stringify(removed.slice(start, start + KEYS_PER_STATEMENT));
      this.run(rows, `UPDATE counts SET sites = sites + (SELECT json_extract(value, '$[1]') FROM json_each(?1) WHERE json_extract(value, '$[0]') = counts.ngram)
        WHERE ngram IN (SELECT json_extract(value, '$[0]') FROM json_each(?1))`, list);
      this.run(rows, "DELETE FROM counts WHERE sites <= 0 AND ngram IN (SELECT json_extract(value, '$[0]') FROM json_each(?))", list);
    }
  }

  /** Replaces a site's contribution; its count changes are added to `deltas`, for writeDeltas. */
  private replace(contribution: ShardContribution, rows: Rows, deltas: Deltas): boolean {
    const stored = this.run<{ stamp: number; home: number; keys: ArrayBuffer }>(rows, "SELECT stamp, home, keys FROM contributions WHERE site = ?", contribution.site)[0];
    if (stored !== undefined && stored.stamp > contribution.stamp) return false;
    const before = stored === undefined ? new Set<number>() : new Set(decodeKeys(stored.keys, contribution.site));
    const after = new Set(contribution.keys);
    const home = contribution.home ? 1 : 0;
    const wasHome = stored?.home ?? 0;
    if (stored !== undefined && stored.stamp === contribution.stamp && wasHome === home && sameKeys(before, after)) return true;
    for (const key of after) if (!before.has(key)) deltas.added.push(key);
    for (const key of before) if (!after.has(key)) deltas.removed.push(key);
    if (home !== wasHome) this.run(rows, "INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = value + excluded.value", HOME_SITES, home - wasHome);
    this.run(
      rows,
      "INSERT INTO contributions (site, stamp, home, keys) VALUES (?, ?, ?, ?) ON CONFLICT (site) DO UPDATE SET stamp = excluded.stamp, home = excluded.home, keys = excluded.keys",
      contribution.site, contribution.stamp, home, encodeKeys([...after]),
    );
    return true;
  }

  private countsOf(keys: readonly number[], rows: Rows): number[] {
    if (keys.length === 0) return [];
    const found = new Map<number, number>();
    const query = "SELECT ngram, sites FROM counts WHERE ngram IN (SELECT value FROM json_each(?))";
    for (let start = 0; start < keys.length; start += KEYS_PER_STATEMENT) {
      for (const row of this.run<{ ngram: number; sites: number }>(rows, query, JSON.stringify(keys.slice(start, start + KEYS_PER_STATEMENT)))) found.set(row.ngram, row.sites);
    }
    return keys.map((key) => found.get(key) ?? 0);
  }

  private homeSites(rows: Rows): number {
    return this.run<{ value: number }>(rows, "SELECT value FROM meta WHERE name = ?", HOME_SITES)[0]?.value ?? 0;
  }
}

interface Rows {
  read: number;
  written: number;
}

/**
 * A call's count changes: each key gaining a site once in `added` for each site, each losing one in `removed`.
 * Lists rather than a map of key → delta: a bulk call carries up to 150,000 keys, and a Map of 53-bit numbers
 * (boxed past 31 bits) is slow at that size, where sorting a Float64Array is native. With the lists and the
 * keys gaining one site written as plain arrays, 5,000 synthetic sites took 32 s in the shards' calls instead of
 * 51 s (npm run bench:learn -- --sites 5000, load average 12-14).
 */
interface Deltas {
  readonly added: number[];
  readonly removed: number[];
}

/** The net change of each key, in key order; keys whose changes cancel out left out. */
function netDeltas({ added, removed }: Deltas): [number, number][] {
  const plus = runs(Float64Array.from(added).sort());
  const minus = runs(Float64Array.from(removed).sort());
  const net: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < plus.length || j < minus.length) {
    const key = j >= minus.length || (i < plus.length && plus[i]![0] < minus[j]![0]) ? plus[i]![0] : minus[j]![0];
    let delta = 0;
    if (i < plus.length && plus[i]![0] === key) delta += plus[i++]![1];
    if (j < minus.length && minus[j]![0] === key) delta -= minus[j++]![1];
    if (delta !== 0) net.push([key, delta]);
  }
  return net;
}

/** A sorted list's distinct values with how many times each occurs. */
function runs(sorted: Float64Array): [number, number][] {
  const counted: [number, number][] = [];
  for (const value of sorted) {
    const last = counted.at(-1);
    if (last !== undefined && last[0] === value) last[1] += 1;
    else counted.push([value, 1]);
  }
  return counted;
}

function sameKeys(before: ReadonlySet<number>, after: ReadonlySet<number>): boolean {
  return before.size === after.size && [...after].every((key) => before.has(key));
}

function encodeKeys(keys: readonly number[]): ArrayBuffer {
  return new Float64Array(keys).buffer;
}

function decodeKeys(buffer: ArrayBuffer, site: string): number[] {
  if (buffer.byteLength % KEY_BYTES !== 0) throw new Error(`cross-site table: the stored contribution of site ${site} is corrupt (${buffer.byteLength} bytes)`);
  return [...new Float64Array(buffer)];
}
