import { Hono } from "hono/tiny";
import { apiSecurityHeaders, corsHeaders, demoRoutes, feedRoutes, proxyRoutes, rateLimit } from "./http";
import { adminRoutes, cleanRoutes, handleError, handleNotFound, healthRoutes, readRoutes, refreshSiteRules, requireApiKey, rulesRoutes, type Env } from "./http";
import { consumeBatch, enqueueStaleSites, resolveLearningSettings } from "./learning";

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

/** Mining jobs from MINE_QUEUE, and dead jobs from its dead-letter queue (wrangler.toml [[queues.consumers]]). */
async function queue(batch: MessageBatch<unknown>, env: Env, _context: ExecutionContext): Promise<void> {
  // A set published here is used by this isolate's next page at once; others follow within the rule cache's TTL.
  await consumeBatch(batch, env, refreshSiteRules);
}

/** The cron trigger: enqueues the sampled sites whose rules are missing or stale. */
async function scheduled(_controller: ScheduledController, env: Env, context: ExecutionContext): Promise<void> {
  context.waitUntil(enqueueStaleSites(env, resolveLearningSettings(env), new Date()).then((sites) => {
    if (sites.length > 0) console.log(`cron: ${sites.length} sites enqueued for mining`);
  }));
}

// The Hono app stays the default export (tests call app.request()); the queue and cron handlers sit beside its fetch.
export default Object.assign(app, { queue, scheduled }) satisfies ExportedHandler<Env>;
