import { Hono } from "hono";
import { apiSecurityHeaders, corsHeaders, demoRoutes, feedRoutes, proxyRoutes, rateLimit } from "./http";
import { adminRoutes, cleanRoutes, handleError, handleNotFound, healthRoutes, readRoutes, requireApiKey, rulesRoutes } from "./http";

/** The Worker's bindings (wrangler.toml, `wrangler dev --var`, secrets). Read only in src/http. */
export interface Env {
  /** Site rule sets, one JSON value per site (host without "www."). */
  RULES: KVNamespace;
  /** "true" lets the Worker fetch loopback and private addresses: local development only. */
  ALLOW_PRIVATE_TARGETS?: string;
  /** Comma-separated API keys for /v1/* (a secret: `wrangler secret put API_KEYS`). */
  API_KEYS?: string;
  /** The key for admin routes (a secret), never accepted on /v1/*. */
  ADMIN_KEY?: string;
  /** Overrides of the limits in src/config.ts, as decimal strings: bytes, milliseconds. */
  MAX_BODY_BYTES?: string;
  FETCH_TIMEOUT_MS?: string;
  FETCH_BODY_TIMEOUT_MS?: string;
}

const app = new Hono<{ Bindings: Env }>();

app.onError(handleError);
app.notFound(handleNotFound);
// First: a proxied host or path prefix (PROXY_ORIGINS) is the origin's, whole, before any other route or key check.
app.route("/", proxyRoutes);
// Before the key check, so that refusals carry them too: fetched markup must stay inert on this origin.
app.use("/v1/*", apiSecurityHeaders);
app.use("/admin/*", apiSecurityHeaders);
// CORS before the key check: a browser's preflight carries no key, and refusals must be readable by the app.
app.use("/v1/*", corsHeaders);
app.use("/v1/*", requireApiKey);
app.use("/v1/*", rateLimit);

app.route("/", healthRoutes);
app.route("/", demoRoutes);
app.route("/admin", adminRoutes);
app.route("/v1/clean", cleanRoutes);
app.route("/v1/read", readRoutes);
app.route("/v1/rules", rulesRoutes);
app.route("/v1/feed", feedRoutes);

export default app;
