import { consumeBatch, migrateCrossSiteTable, type ConsumerBindings } from "./consumer";
import { enqueueStaleSites, resolveLearningSettings } from "./learning";

/**
 * The control Worker (wrangler.control.toml): the learning loop's consumer and cron, apart from the edge Worker
 * (src/worker.ts) so that the miner stays out of the script every request starts. Its bindings are some of the
 * edge's, the same names and types (test/node/cf-typegen.test.ts checks wrangler.control.toml against this
 * list and the edge's generated types), plus the optional LEARN_* vars and its own Durable Objects: the
 * cross-site table's shards (CROSS_SITE), and a sample gate (SAMPLE_GATE) for the edge code its tests run.
 */
export type ControlEnv = Pick<Cloudflare.Env, "RULES" | "PAGES" | "MINE_QUEUE" | "LEARN_SITES"> & ConsumerBindings;

/** Mining jobs from MINE_QUEUE, and dead jobs from its dead-letter queue (wrangler.control.toml [[queues.consumers]]). */
async function queue(batch: MessageBatch<unknown>, env: ControlEnv, _context: ExecutionContext): Promise<void> {
  // Edge isolates read a published set within their rule cache's TTL (src/http/shared/rules-store.ts).
  await consumeBatch(batch, env);
}

/** The cron trigger: moves an earlier version's cross-site table if one is left, then enqueues the sampled sites whose rules are missing or stale. */
async function scheduled(_controller: ScheduledController, env: ControlEnv, context: ExecutionContext): Promise<void> {
  context.waitUntil(migrateCrossSiteTable(env).then(() => enqueueStaleSites(env, resolveLearningSettings(env), new Date())).then((sites) => {
    if (sites.length > 0) console.log(`cron: ${sites.length} sites enqueued for mining`);
  }));
}

export default { queue, scheduled } satisfies ExportedHandler<ControlEnv>;
/** The cross-site table's shards (CROSS_SITE); the sample gate's class is bound here only for the tests' edge code. */
export { CrossSiteShard, SampleGate } from "./durable-objects";
