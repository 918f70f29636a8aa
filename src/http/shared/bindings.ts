import type { LearningBindings } from "../../learning";

/**
 * The Worker's bindings. What wrangler.toml declares (the KV namespace RULES, the R2 bucket PAGES, the queue
 * MINE_QUEUE, the API_RATE_LIMIT limiter, its [vars] and the required secrets API_KEYS and ADMIN_KEY) is typed
 * by `Cloudflare.Env` in src/worker-configuration.d.ts, which `npm run cf-typegen` generates from wrangler.toml (a
 * test fails while it is out of date). Declared here: the vars the Worker reads with a default when unset, which
 * the config only names in comments (.dev.vars.example explains every one). Each part of the HTTP layer adds
 * the optional vars it reads (GuardBindings, EtiquetteBindings, …); the learning loop's are LearningBindings.
 */
export type Env = Cloudflare.Env & OptionalBindings;

/** The bindings wrangler.toml does not declare, so `wrangler types` cannot: optional vars with defaults. */
export type OptionalBindings = LimitVars & RulesCacheVars & LearningBindings;

/** Overrides of the limits in src/config.ts, as decimal strings: bytes, milliseconds. */
export interface LimitVars {
  MAX_BODY_BYTES?: string;
  FETCH_TIMEOUT_MS?: string;
  FETCH_BODY_TIMEOUT_MS?: string;
}

/** How long an isolate keeps a site's rule set before reading KV again (src/http/shared/rules-store.ts). */
export interface RulesCacheVars {
  /** Seconds (default config RULES_CACHE_TTL_SECONDS); "0": KV is read on every request. */
  RULES_CACHE_TTL?: string;
}
