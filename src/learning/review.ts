/**
 * Learned sets that wait for an admin: a set that would remove much more of the sampled pages' text than the set it
 * replaces (LEARNING_REVIEW_MARGIN) is kept here instead of published. GET /admin/learn/:site shows it, POST
 * /admin/rules/:site/approve publishes it as the next revision, POST /admin/rules/:site/reject drops it. One per
 * site: a newer job's set replaces it, and a newer set within the margin is published and drops it.
 */
import { parseRuleSetText, type RuleSet } from "../rules";
import { publishRuleSet, type PublishResult } from "./publish";
import { reviewKey } from "./storage-keys";

/** What the measurement found, in shares of the sampled pages' text (removed characters / page text characters). */
export interface RemovalMeasure {
  /** The new set alone (mode rules), over all sampled pages. */
  readonly removedShare: number;
  /** What it replaces: the current set (mode rules), or the classifier for a site without one. */
  readonly baselineShare: number;
  /** "revision N", "current set" (one outside the history), or "classifier". */
  readonly baseline: string;
  readonly pages: number;
}

export interface PendingReview {
  readonly site: string;
  readonly jobId: string;
  readonly createdAt: string;
  readonly measure: RemovalMeasure;
  /** The set as it would be published (a RuleSet's JSON). */
  readonly ruleSet: RuleSet;
}

export async function readPendingReview(bucket: R2Bucket, site: string): Promise<PendingReview | null> {
  const object = await bucket.get(reviewKey(site));
  if (object === null) return null;
  try {
    const value = (await object.json()) as PendingReview;
    const parsed = parseRuleSetText(JSON.stringify(value.ruleSet), { checkPatterns: true });
    return parsed.ok ? { ...value, ruleSet: parsed.ruleSet } : null;
  } catch {
    return null; // an unreadable review is none: the next job writes a fresh one
  }
}

export async function writePendingReview(bucket: R2Bucket, review: PendingReview): Promise<void> {
  await bucket.put(reviewKey(review.site), JSON.stringify(review), { httpMetadata: { contentType: "application/json" } });
}

export async function dropPendingReview(bucket: R2Bucket, site: string): Promise<void> {
  await bucket.delete(reviewKey(site));
}

/** Publishes the waiting set as the site's next revision (under its job's id), then drops the review; null when none waits. */
export async function approvePendingReview(kv: KVNamespace, bucket: R2Bucket, site: string, now: Date): Promise<{ review: PendingReview; result: PublishResult } | null> {
  const review = await readPendingReview(bucket, site);
  if (review === null) return null;
  const result = await publishRuleSet(kv, bucket, review.ruleSet, review.jobId, now);
  await dropPendingReview(bucket, site);
  return { review, result };
}
