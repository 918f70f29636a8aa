/**
 * Mining jobs: a message per site on MINE_QUEUE, and the site's last job state in R2 (what GET
 * /admin/learn/:site shows, and what keeps a site from being enqueued twice while a job is under way).
 */
import { parseRuleSetText, parseSiteKey } from "../rules";
import { ALL_PAGES_PREFIX, CRON_CURSOR_KEY, jobKey, siteOfPagesPrefix, sitePagesPrefix } from "./storage-keys";
import type { RemovalMeasure } from "./review";
import { JOB_COOLDOWN_MILLISECONDS, learningEnabled, type LearningBindings, type LearningSettings } from "./settings";

export type JobReason = "sampled" | "cron" | "admin";

/** The message body on MINE_QUEUE. */
export interface MineJob {
  readonly site: string;
  /** Unique per enqueueing: a redelivered message carries the same id, and is not run twice. */
  readonly jobId: string;
  readonly reason: JobReason;
  readonly enqueuedAt: string;
}

export type JobStatus = "queued" | "running" | "done" | "failed" | "dead";

/** The last job of a site (R2 jobs/<site>.json). */
export interface JobState extends MineJob {
  readonly status: JobStatus;
  readonly updatedAt: string;
  /** Deliveries so far (Queues' attempts count). */
  readonly attempts: number;
  readonly pages?: number;
  readonly rules?: number;
  readonly droppedAcrossSites?: number;
  /** Revision published; absent when nothing was published (no rules found, or a redelivery). */
  readonly revision?: number;
  /** Milliseconds of mining (page analysis and the miner's stages). */
  readonly miningMilliseconds?: number;
  readonly error?: string;
  /** Why the set was not published (the evidence fell short: pages too close in time); the site gets a new job after the cooldown. */
  readonly held?: string;
  /** What the published or waiting set removes from the sampled pages, beside what it replaces. */
  readonly measure?: RemovalMeasure;
  /** The set waits for an admin (POST /admin/rules/:site/approve): it removes more than the margin allows. */
  readonly review?: boolean;
  /** Rules and selector paths the template check left out (they removed text on too few pages). */
  readonly dropped?: { readonly rules: number; readonly selectors: readonly string[] };
}

/** Most messages in one sendBatch call (the Queues limit). */
const SEND_BATCH_LIMIT = 100;
const JOB_REASONS: readonly JobReason[] = ["sampled", "cron", "admin"];

/** A message body as a job, or null when it is not one (such a message ends in the dead-letter queue). */
export function parseMineJob(body: unknown): MineJob | null {
  if (typeof body !== "object" || body === null) return null;
  const { site, jobId, reason, enqueuedAt } = body as Record<string, unknown>;
  if (typeof site !== "string" || parseSiteKey(site) !== site) return null;
  if (typeof jobId !== "string" || jobId === "" || typeof enqueuedAt !== "string" || Number.isNaN(Date.parse(enqueuedAt))) return null;
  if (!JOB_REASONS.includes(reason as JobReason)) return null;
  return { site, jobId, reason: reason as JobReason, enqueuedAt };
}

export function newJob(site: string, reason: JobReason, now: Date): MineJob {
  return { site, jobId: crypto.randomUUID(), reason, enqueuedAt: now.toISOString() };
}

export async function readJobState(bucket: R2Bucket, site: string): Promise<JobState | null> {
  const object = await bucket.get(jobKey(site));
  if (object === null) return null;
  try {
    return (await object.json()) as JobState;
  } catch {
    return null; // an unreadable state is as good as none: the next job writes a fresh one
  }
}

export async function writeJobState(bucket: R2Bucket, state: JobState): Promise<void> {
  await bucket.put(jobKey(state.site), JSON.stringify(state), { httpMetadata: { contentType: "application/json" } });
}

/** Puts a job on the queue and records it as queued. */
export async function enqueueJob(env: LearningBindings, site: string, reason: JobReason, now: Date): Promise<MineJob> {
  const { bucket, queue } = requireBindings(env);
  const job = newJob(site, reason, now);
  await writeJobState(bucket, { ...job, status: "queued", updatedAt: job.enqueuedAt, attempts: 0 });
  await queue.send(job);
  return job;
}

/**
 * Enqueues the site unless it needs no job: one queued, running, failing (Queues retries it) or dead within the
 * cooldown (a site whose jobs fail is not given a new job at every sampled page), rules newer than the
 * staleness limit, or a finished job newer than it (a site where mining found nothing is not mined at every page).
 */
export async function considerJob(env: LearningBindings, settings: LearningSettings, site: string, now: Date, reason: JobReason): Promise<boolean> {
  const due = await jobDue(env, settings, site, now);
  if (due) await enqueueJob(env, site, reason, now);
  return due;
}

async function jobDue(env: LearningBindings, settings: LearningSettings, site: string, now: Date): Promise<boolean> {
  const { bucket } = requireBindings(env);
  const state = await readJobState(bucket, site);
  if (state !== null) {
    const age = now.getTime() - Date.parse(state.updatedAt);
    if ((state.status !== "done" || state.held !== undefined) && age < JOB_COOLDOWN_MILLISECONDS) return false;
    if (state.status === "done" && state.held === undefined && age < settings.staleMilliseconds) return false;
  }
  const current = await env.RULES.get(site, "text");
  if (current === null) return true;
  const parsed = parseRuleSetText(current);
  return !parsed.ok || now.getTime() - Date.parse(parsed.ruleSet.minedAt) >= settings.staleMilliseconds;
}

/**
 * The cron's step: walks the sampled sites (settings.cronSites per run, from where the last run stopped),
 * and enqueues those with enough pages whose rules are missing or stale. Returns the sites enqueued.
 * `reason` is the cron's, or "admin" when POST /admin/learn runs the step at once.
 */
export async function enqueueStaleSites(env: LearningBindings, settings: LearningSettings, now: Date, reason: JobReason = "cron"): Promise<string[]> {
  if (!learningEnabled(settings) || env.PAGES === undefined || env.MINE_QUEUE === undefined) return [];
  const { bucket, queue } = requireBindings(env);
  const saved = await bucket.get(CRON_CURSOR_KEY);
  const cursor = saved === null ? undefined : ((await saved.json()) as { cursor?: string }).cursor;
  const listed = await bucket.list({ prefix: ALL_PAGES_PREFIX, delimiter: "/", cursor, limit: settings.cronSites });
  const jobs: MineJob[] = [];
  for (const prefix of listed.delimitedPrefixes) {
    const site = siteOfPagesPrefix(prefix);
    if (site === null) continue;
    const pages = await bucket.list({ prefix: sitePagesPrefix(site), limit: settings.minPages });
    if (pages.objects.length < settings.minPages || !(await jobDue(env, settings, site, now))) continue;
    const job = newJob(site, reason, now);
    await writeJobState(bucket, { ...job, status: "queued", updatedAt: job.enqueuedAt, attempts: 0 });
    jobs.push(job);
  }
  for (let start = 0; start < jobs.length; start += SEND_BATCH_LIMIT) {
    await queue.sendBatch(jobs.slice(start, start + SEND_BATCH_LIMIT).map((job) => ({ body: job })));
  }
  if (listed.truncated) await bucket.put(CRON_CURSOR_KEY, JSON.stringify({ cursor: listed.cursor }));
  else await bucket.delete(CRON_CURSOR_KEY);
  return jobs.map((job) => job.site);
}

export function requireBindings(env: LearningBindings): { bucket: R2Bucket; queue: Queue } {
  if (env.PAGES === undefined || env.MINE_QUEUE === undefined) {
    throw new Error("learning needs the R2 bucket PAGES and the queue MINE_QUEUE (wrangler.toml)");
  }
  return { bucket: env.PAGES, queue: env.MINE_QUEUE };
}
