/**
 * The learning loop's bindings and options, resolved once from the Worker's env into a readonly value.
 * Every number here is an option (a Worker var) with its default and unit.
 */
import { LEARNING_MIN_SPAN_HOURS, LEARNING_REVIEW_MARGIN, LEARNING_SAMPLE_SPACING_MINUTES } from "../config";
import { parseSiteKey } from "../rules";
import type { SampleGateNamespace } from "./sample-gate";

/** What the learning loop reads from the Worker's env (wrangler.toml; vars as decimal strings). */
export interface LearningBindings {
  /** Site rule sets (the current version of each site, under its site key). */
  RULES: KVNamespace;
  /** Sampled pages, job states, earlier rule set versions and the cross-site table. */
  PAGES?: R2Bucket;
  /** The global count of each site's samples a period (sample-gate.ts); without it nothing is sampled. */
  SAMPLE_GATE?: SampleGateNamespace;
  /** Mining jobs: the edge Worker and the cron send them, the control Worker's queue() handler consumes them. */
  MINE_QUEUE?: Queue;
  /** Sites whose pages are sampled: "*" for all, or comma-separated site keys; absent or "": none. */
  LEARN_SITES?: string;
  /** Share of a learning site's cleaned pages that are sampled, 0-1 (default DEFAULT_SAMPLE_RATE). */
  LEARN_SAMPLE_RATE?: string;
  /** Most sampled pages kept per site, newest first (default DEFAULT_MAX_PAGES). */
  LEARN_MAX_PAGES?: string;
  /** Sampled pages a site needs before a job is enqueued for it (default DEFAULT_MIN_PAGES). */
  LEARN_MIN_PAGES?: string;
  /** Hours after which a site's rules are stale and it is mined again (default DEFAULT_STALE_HOURS). */
  LEARN_STALE_HOURS?: string;
  /** First retry delay of a failed job in seconds, doubled at each attempt (default DEFAULT_RETRY_SECONDS). */
  LEARN_RETRY_SECONDS?: string;
  /** Sampled sites the cron looks at per run, going on from where the last run stopped (default DEFAULT_CRON_SITES). */
  LEARN_CRON_SITES?: string;
  /** Least minutes between two sampled pages of a site (default LEARNING_SAMPLE_SPACING_MINUTES in src/config.ts). */
  LEARN_SAMPLE_SPACING_MINUTES?: string;
  /** Least hours the sampled pages of a learned set, and the pages each of its rules removes text on, span (default LEARNING_MIN_SPAN_HOURS). */
  LEARN_MIN_SPAN_HOURS?: string;
  /** Share of the pages' text a learned set may remove beyond the set it replaces before it waits for review, 0-1 (default LEARNING_REVIEW_MARGIN). */
  LEARN_REVIEW_MARGIN?: string;
}

/**
 * Defaults. The rate keeps a busy site's R2 writes to one in twenty cleanings; 50 pages is past the point
 * where the miner's cutoff settles on the dev sets (`npm run mine:eval` mines 10-50 pages a site), and its
 * CPU is measured by `npm run bench:learn`; a week is how long a template usually lasts unchanged. The cron
 * checks 200 sites a run: three reads each (pages, job state, rules) stay well under a run's subrequest limit.
 */
export const DEFAULT_SAMPLE_RATE = 0.05;
export const DEFAULT_MAX_PAGES = 50;
export const DEFAULT_MIN_PAGES = 10;
export const DEFAULT_STALE_HOURS = 7 * 24;
export const DEFAULT_RETRY_SECONDS = 30;
export const DEFAULT_CRON_SITES = 200;
/** The dead-letter queue's name, as wrangler.control.toml calls it: the queue() handler tells its batches apart by it. */
export const DEAD_LETTER_QUEUE = "edge-cleaner-mine-dead";
/** Largest page sampled, in UTF-16 code units of its decoded HTML (bigger pages are rare and cost the most). */
export const MAX_SAMPLED_PAGE_CHARACTERS = 2 * 1024 * 1024;
/** A site whose job is queued, running, failing or dead since less than this gets no new job, in milliseconds (Queues' own retries cover it). */
export const JOB_COOLDOWN_MILLISECONDS = 60 * 60 * 1000;
/**
 * Share of the staleness limit during which a site's rules count as fresh and its pages are not sampled: half,
 * so the second half of each period gathers the pages of the next mining.
 */
export const FRESH_SHARE = 0.5;
/** Longest retry delay in seconds (Queues allows up to 12 hours). */
export const MAX_RETRY_SECONDS = 3600;

export interface LearningSettings {
  /** null: every site ("*"); else the listed site keys. */
  readonly sites: ReadonlySet<string> | null;
  readonly sampleRate: number;
  readonly maxPages: number;
  readonly minPages: number;
  readonly staleMilliseconds: number;
  readonly retrySeconds: number;
  readonly cronSites: number;
  readonly sampleSpacingMilliseconds: number;
  readonly minSpanMilliseconds: number;
  readonly reviewMargin: number;
}

export function resolveLearningSettings(env: LearningBindings): LearningSettings {
  const list = (env.LEARN_SITES ?? "").split(",").map((entry) => entry.trim()).filter((entry) => entry !== "");
  const sites = list.includes("*") ? null : new Set(list.map((entry) => parseSiteKey(entry)).filter((site): site is string => site !== null));
  return {
    sites,
    sampleRate: numberIn(env.LEARN_SAMPLE_RATE, DEFAULT_SAMPLE_RATE, 0, 1),
    maxPages: Math.floor(numberIn(env.LEARN_MAX_PAGES, DEFAULT_MAX_PAGES, 1, 1000)),
    minPages: Math.floor(numberIn(env.LEARN_MIN_PAGES, DEFAULT_MIN_PAGES, 1, 1000)),
    staleMilliseconds: numberIn(env.LEARN_STALE_HOURS, DEFAULT_STALE_HOURS, 0, 24 * 365) * 3600 * 1000,
    retrySeconds: numberIn(env.LEARN_RETRY_SECONDS, DEFAULT_RETRY_SECONDS, 0, MAX_RETRY_SECONDS),
    cronSites: Math.floor(numberIn(env.LEARN_CRON_SITES, DEFAULT_CRON_SITES, 1, 1000)),
    sampleSpacingMilliseconds: numberIn(env.LEARN_SAMPLE_SPACING_MINUTES, LEARNING_SAMPLE_SPACING_MINUTES, 0, 7 * 24 * 60) * 60 * 1000,
    minSpanMilliseconds: numberIn(env.LEARN_MIN_SPAN_HOURS, LEARNING_MIN_SPAN_HOURS, 0, 24 * 365) * 3600 * 1000,
    reviewMargin: numberIn(env.LEARN_REVIEW_MARGIN, LEARNING_REVIEW_MARGIN, 0, 1),
  };
}

/** Whether any site is learned (LEARN_SITES set): otherwise the cron has nothing to do. */
export function learningEnabled(settings: LearningSettings): boolean {
  return settings.sites === null || settings.sites.size > 0;
}

/** Whether a site's pages are sampled. */
export function learnsSite(settings: LearningSettings, site: string): boolean {
  return site !== "" && (settings.sites === null || settings.sites.has(site));
}

/** A var as a number within bounds; absent, empty or malformed: the default (a bad var must not stop cleaning). */
function numberIn(value: string | undefined, fallback: number, minimum: number, maximum: number): number {
  if (value === undefined || value.trim() === "") return fallback;
  const parsed = Number(value);
  return Number.isFinite(parsed) && parsed >= minimum && parsed <= maximum ? parsed : fallback;
}
