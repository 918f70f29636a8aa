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
