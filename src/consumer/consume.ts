/**
 * The queue() side: a mining job reads the site's sampled pages from R2, mines them (mine-sampled.ts),
 * merges the site's phrases into the cross-site table and publishes the set as the site's next revision.
 *
 * Redelivery is harmless: a job already done is acknowledged without work, the cross-site table replaces a
 * site's contribution (the same job's twice changes nothing, an older job's after a newer one is ignored), and
 * the publisher skips a job that published already.
 * A job that throws is retried after a doubling delay; past max_retries (wrangler.toml) Queues moves it to
 * the dead-letter queue, whose batches this module records as "dead" in the site's job state.
 */
import { MINING_MIN_PAGES_PER_SITE } from "../config";
import { mergeContribution, type CrossSiteNamespace } from "./cross-site-table";
import { migrateLegacyTable } from "./legacy-table";
import {
  DEAD_LETTER_QUEUE, dropPendingReview, listSampledPages, MAX_RETRY_SECONDS, parseMineJob, publishRuleSet, readJobState, requireBindings, resolveLearningSettings, writeJobState,
  writePendingReview, type JobState, type LearningBindings, type LearningSettings, type MineJob, type SampledPage,
} from "../learning";
import { parseRuleSetText, type RuleSet } from "../rules";
import { gateLearnedSet, type GatePage } from "./evidence-gate";
import { mineSampledSite } from "./mine-sampled";

/** Longest error text kept in a job state. */
const MAX_ERROR_CHARACTERS = 500;

/** The control Worker's bindings: the learning loop's, and the cross-site table's shards. */
export interface ConsumerBindings extends LearningBindings {
  /** wrangler.control.toml [[durable_objects.bindings]]. */
  CROSS_SITE?: CrossSiteNamespace;
}

/** Whether this isolate has seen that no R2 table of an earlier version is left (checked once an isolate). */
let legacyTableGone = false;

/**
 * Moves an earlier version's R2 cross-site table into the shards, if one is left: the cron runs it, and the
 * first batch an isolate takes, so that jobs after an upgrade filter with the learned sites' counts.
 */
export async function migrateCrossSiteTable(env: ConsumerBindings): Promise<void> {
  if (legacyTableGone || env.PAGES === undefined || env.CROSS_SITE === undefined) return;
  const moved = await migrateLegacyTable(env.PAGES, env.CROSS_SITE);
  if (moved !== null) console.log(`cross-site table: ${moved.sites} sites (${moved.pairs} n-gram pairs) moved from R2 to the shards`);
  legacyTableGone = true;
}

/** The queue() handler's work: jobs from MINE_QUEUE, dead jobs from the dead-letter queue. */
export async function consumeBatch(batch: MessageBatch<unknown>, env: ConsumerBindings, now: () => Date = () => new Date()): Promise<void> {
  const settings = resolveLearningSettings(env);
  if (batch.queue === DEAD_LETTER_QUEUE) {
    for (const message of batch.messages) {
      await recordDead(env, message.body, now());
      message.ack();
    }
    return;
  }
  await migrateCrossSiteTable(env);
  // One job at a time: each is CPU-bound, and running them side by side would only share one isolate's CPU.
  for (const message of batch.messages) {
    const job = parseMineJob(message.body);
    if (job === null) {
      console.error("not a mining job; retried until it reaches the dead-letter queue", JSON.stringify(message.body)?.slice(0, 200));
      message.retry({ delaySeconds: retryDelay(settings, message.attempts) });
      continue;
    }
    try {
      await runMineJob(env, settings, job, message.attempts, now);
      message.ack();
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      console.error("mining job failed", job.site, job.jobId, `attempt ${message.attempts}`, text);
      await writeJobState(requireBindings(env).bucket, { ...job, status: "failed", updatedAt: now().toISOString(), attempts: message.attempts, error: text.slice(0, MAX_ERROR_CHARACTERS) }).catch(() => {});
      message.retry({ delaySeconds: retryDelay(settings, message.attempts) });
    }
  }
}

/**
 * Runs one job to its end and returns the state written. A job already done, or one that a newer job of
 * the same site has replaced, returns the state as it is without mining.
 */
export async function runMineJob(
  env: ConsumerBindings,
  settings: LearningSettings,
  job: MineJob,
  attempts: number,
  now: () => Date = () => new Date(),
): Promise<JobState> {
  const { bucket } = requireBindings(env);
  const table = env.CROSS_SITE;
  if (table === undefined) throw new Error("mining needs the cross-site table's Durable Objects CROSS_SITE (wrangler.control.toml)");
  const previous = await readJobState(bucket, job.site);
  if (previous !== null && previous.jobId === job.jobId && previous.status === "done") return previous;
  if (previous !== null && previous.jobId !== job.jobId && Date.parse(previous.enqueuedAt) > Date.parse(job.enqueuedAt)) return previous;
  const running: JobState = { ...job, status: "running", updatedAt: now().toISOString(), attempts };
  await writeJobState(bucket, running);
  const listed = (await listSampledPages(bucket, job.site)).slice(0, settings.maxPages);
  const sampled = await readPages(bucket, listed);
  const pages = sampled.map((page) => page.html);
  if (pages.length < MINING_MIN_PAGES_PER_SITE) {
    const state: JobState = { ...running, status: "done", updatedAt: now().toISOString(), pages: pages.length, rules: 0, error: `${pages.length} sampled pages; mining needs ${MINING_MIN_PAGES_PER_SITE}` };
    await writeJobState(bucket, state);
    return state;
  }
  const minedAt = now().toISOString();
  const mining = await mineSampledSite(job.site, pages, (keys) => mergeContribution(table, job.site, keys, Date.parse(job.enqueuedAt)), minedAt);
  if (mining.ruleSet === null) throw new Error(`the mined rule set fails validation: ${mining.problems.slice(0, 5).join("; ")}`);
  const miningMilliseconds = Math.round(mining.milliseconds.analyse + mining.milliseconds.mine + mining.milliseconds.rules);
  const summary = { pages: mining.pages, rules: mining.ruleSet.rules.length, droppedAcrossSites: mining.droppedAcrossSites, miningMilliseconds };
  // A site where mining finds no template keeps what it has (an empty set would only hide the classifier's view).
  const gate = mining.ruleSet.rules.length === 0 ? null : await gateLearnedSet(sampled, mining.ruleSet, await currentRuleSet(env.RULES, job.site), settings);
  const done: JobState = { ...running, status: "done", updatedAt: now().toISOString(), ...summary };
  let state: JobState = done;
  if (gate?.kind === "held") state = { ...done, held: gate.reason };
  else if (gate?.kind === "empty") state = { ...done, rules: 0, dropped: gate.dropped };
  else if (gate?.kind === "review") {
    await writePendingReview(bucket, { site: job.site, jobId: job.jobId, createdAt: now().toISOString(), measure: gate.measure, ruleSet: gate.ruleSet });
    state = { ...done, rules: gate.ruleSet.rules.length, review: true, measure: gate.measure, dropped: gate.dropped };
  } else if (gate?.kind === "publish") {
    const published = await publishRuleSet(env.RULES, bucket, gate.ruleSet, job.jobId, now());
    // A set that waited for review is older than this one, which is within the margin: it is dropped.
    await dropPendingReview(bucket, job.site);
    state = { ...done, rules: gate.ruleSet.rules.length, revision: published.revision, measure: gate.measure, dropped: gate.dropped };
  }
  await writeJobState(bucket, state);
  return state;
}

/** The sampled pages' HTML with when they were sampled (a page deleted since it was listed is left out). */
async function readPages(bucket: R2Bucket, listed: readonly SampledPage[]): Promise<GatePage[]> {
  const bodies = await Promise.all(listed.map(async (page) => (await bucket.get(page.key))?.text() ?? null));
  return listed.flatMap((page, index) => (bodies[index] === null ? [] : [{ html: bodies[index]!, url: page.url, sampledAt: Date.parse(page.sampledAt) }]));
}

/** The site's set in KV (what a new set replaces), or null when it has none or it does not parse. */
async function currentRuleSet(kv: KVNamespace, site: string): Promise<RuleSet | null> {
  const text = await kv.get(site, "text");
  const parsed = text === null ? null : parseRuleSetText(text);
  return parsed !== null && parsed.ok ? parsed.ruleSet : null;
}

/** A job that used up its retries: its state says "dead" (keeping the last error), unless a newer job replaced it. */
async function recordDead(env: LearningBindings, body: unknown, now: Date): Promise<void> {
  const job = parseMineJob(body);
  if (job === null) {
    console.error("dead-letter queue: not a mining job", JSON.stringify(body)?.slice(0, 200));
    return;
  }
  const { bucket } = requireBindings(env);
  const previous = await readJobState(bucket, job.site);
  if (previous !== null && previous.jobId !== job.jobId) return;
  await writeJobState(bucket, { ...job, status: "dead", updatedAt: now.toISOString(), attempts: previous?.attempts ?? 0, ...(previous?.error === undefined ? {} : { error: previous.error }) });
}

/** Seconds before the next delivery: the first retry delay, doubled per attempt, at most MAX_RETRY_SECONDS. */
export function retryDelay(settings: LearningSettings, attempts: number): number {
  return Math.min(MAX_RETRY_SECONDS, Math.round(settings.retrySeconds * 2 ** Math.max(0, attempts - 1)));
}
