/**
 * Tuned numbers and limits, in one place. Each constant says its unit and where its value came from.
 * After changing a calibrated value, re-run `npm run eval` (and `npm run bench` for limits).
 * Each module keeps its constants in its own section below.
 */

// ── page analysis (src/page) ───────────────────────────────────────────────────────────────────────

// ── site rules (src/rules) ─────────────────────────────────────────────────────────────────────────

// ── classifier and smoothing (src/classify, src/training) ─────────────────────────────────────────

// ── rewrite and formats (src/rewrite) ──────────────────────────────────────────────────────────────

// ── pipeline limits (src/clean.ts) ─────────────────────────────────────────────────────────────────

// ── mining (src/mining) ─────────────────────────────────────────────────────────────────────────────

// ── HTTP (src/http) ─────────────────────────────────────────────────────────────────────────────────

/** Largest request body or fetched page the API accepts, in bytes. Origin: the largest dev page is ~630 KB;
 * 5 MiB leaves room for pages heavy with inline scripts while staying far below the Worker's 128 MB memory. */
export const HTTP_MAX_BODY_BYTES = 5 * 1024 * 1024;
/** Time to wait for an origin's response headers, in milliseconds (env FETCH_TIMEOUT_MS overrides). */
export const HTTP_FETCH_TIMEOUT_MS = 10_000;
/** Time to wait for a fetched page's whole body once the headers arrived, in milliseconds (env FETCH_BODY_TIMEOUT_MS overrides). */
export const HTTP_FETCH_BODY_TIMEOUT_MS = 15_000;
/** Redirects followed when fetching a page; each hop is checked against the target guard. Browsers allow 20; pages need 1-3. */
export const HTTP_MAX_REDIRECTS = 5;
/** Longest URL accepted as a target, in characters (beyond common browser and CDN limits of 2-8 KB). */
export const HTTP_MAX_URL_LENGTH = 8192;
/** How long a site's compiled rule set stays cached in an isolate, in milliseconds (a KV write shows after at most this long, plus KV's own propagation). */
export const HTTP_RULES_CACHE_TTL_MS = 60_000;
/** Most site rule sets kept compiled in one isolate; the least recently loaded goes first. */
export const HTTP_RULES_CACHE_ENTRIES = 256;
