import { Hono } from "hono/tiny";
import { apiSecurityHeaders, corsHeaders, demoRoutes, feedRoutes, mcpRoutes, proxyRoutes, rateLimit } from "./http";
import { adminRoutes, cleanRoutes, handleError, handleNotFound, healthRoutes, readRoutes, requireApiKey, rulesRoutes, type Env } from "./http";

/** The Worker's bindings: typed from wrangler.toml (`npm run cf-typegen`) plus the optional vars (src/http/shared/bindings.ts). */
export type { Env } from "./http";

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
// The MCP server for agents (Streamable HTTP): behind the same key, CORS and rate limit as the rest of /v1/.
app.route("/v1/mcp", mcpRoutes);

// The Hono app is the default export (tests call app.request()). Mining jobs and the cron are the control
// Worker's (src/control.ts, wrangler.control.toml): this Worker only samples pages and enqueues jobs.
export default app satisfies ExportedHandler<Env>;
/** The Durable Object that bounds each site's samples a period, across isolates (wrangler.toml SAMPLE_GATE). */
export { SampleGate } from "./durable-objects";
