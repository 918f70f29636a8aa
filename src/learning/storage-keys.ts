/**
 * The one layout of the PAGES bucket. A site key may hold "/" and ":" (`bbc.co.uk/news`, `localhost:8787`),
 * so it is written URI-encoded: one path segment, and no site's prefix is another's.
 */
const PAGES_PREFIX = "pages/";
const JOBS_PREFIX = "jobs/";
const HISTORY_PREFIX = "history/";
const CROSS_SITE_PREFIX = "cross-site/";
const POSTING_KEYS_PREFIX = "posting-keys/";
const REVIEW_PREFIX = "review/";
/** Digits of a revision number in its key, so that keys sort as numbers. */
const REVISION_DIGITS = 8;

export function sitePagesPrefix(site: string): string {
  return `${PAGES_PREFIX}${encodeURIComponent(site)}/`;
}

/** One object per URL: the URL's digest names it, so a page sampled again replaces its older copy. */
export function pageKey(site: string, urlDigest: string): string {
  return `${sitePagesPrefix(site)}${urlDigest}`;
}

/** The prefix under which every sampled site has a folder (listed with delimiter "/" by the cron). */
export const ALL_PAGES_PREFIX = PAGES_PREFIX;

/** The site of a folder listed under ALL_PAGES_PREFIX ("pages/bbc.co.uk%2Fnews/" → "bbc.co.uk/news"). */
export function siteOfPagesPrefix(prefix: string): string | null {
  if (!prefix.startsWith(PAGES_PREFIX) || !prefix.endsWith("/")) return null;
  try {
    return decodeURIComponent(prefix.slice(PAGES_PREFIX.length, -1));
  } catch {
    return null;
  }
}

export function jobKey(site: string): string {
  return `${JOBS_PREFIX}${encodeURIComponent(site)}.json`;
}

export function historyPrefix(site: string): string {
  return `${HISTORY_PREFIX}${encodeURIComponent(site)}/`;
}

export function historyKey(site: string, revision: number): string {
  return `${historyPrefix(site)}${String(revision).padStart(REVISION_DIGITS, "0")}.json`;
}

/** The revision number of a history key, or null. */
export function revisionOfHistoryKey(key: string): number | null {
  const match = /\/(\d+)\.json$/.exec(key);
  return match === null ? null : Number(match[1]);
}

/** The sites an API key may post pages of for learning, under the key's id (never the key itself). */
export function postingKeyKey(keyId: string): string {
  return `${POSTING_KEYS_PREFIX}${keyId}.json`;
}

export const ALL_POSTING_KEYS_PREFIX = POSTING_KEYS_PREFIX;

/** A learned set waiting for an admin's approval (one per site: a newer job's set replaces it). */
export function reviewKey(site: string): string {
  return `${REVIEW_PREFIX}${encodeURIComponent(site)}.json`;
}

/**
 * The cross-site table of earlier versions, in R2 (now Durable Objects, src/consumer): its 16 shard objects and
 * each site's last contribution, read once by the migration and then removed.
 */
export const LEGACY_CROSS_SITE_PREFIXES = { shards: `${CROSS_SITE_PREFIX}shard-`, contributions: `${CROSS_SITE_PREFIX}sites/` } as const;

/** Where the cron's walk over the sampled sites stopped (its list cursor). */
export const CRON_CURSOR_KEY = "cron/cursor.json";

/**
 * List options that return each object's customMetadata (honoured since compatibility date 2022-08-04; the
 * project's workers-types predate the field, hence the cast).
 */
export function listWithMetadata(options: R2ListOptions): R2ListOptions {
  return { ...options, include: ["customMetadata"] } as R2ListOptions;
}

/** The key prefixes of what learning stores in R2 for a site, by kind (for reports). */
export function storagePrefixes(site: string): Readonly<Record<"pages" | "history" | "job", string>> {
  return { pages: sitePagesPrefix(site), history: historyPrefix(site), job: jobKey(site) };
}
