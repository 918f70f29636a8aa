/**
 * Versioned publishing: the current rule set of a site is its KV value (what the Worker cleans with);
 * every published version is also kept in R2 (history/<site>/<revision>.json), numbered 1, 2, …, so that
 * a rollback can put the previous one back. A set that was in KV before (published by hand or by
 * `npm run rules:publish`) is archived under the next number before it is replaced. The newest
 * KEPT_REVISIONS are kept; older ones are deleted as new ones come.
 */
import { parseRuleSetText, type RuleSet } from "../rules";
import { historyKey, historyPrefix, listWithMetadata, revisionOfHistoryKey } from "./storage-keys";

/** Revisions kept per site: ten weekly re-learnings back, about 100 KB a site (`npm run bench:learn`: 10 KB a set). */
export const KEPT_REVISIONS = 10;

export interface Revision {
  readonly revision: number;
  /** The job that published it ("" for an archived earlier set). */
  readonly jobId: string;
  readonly publishedAt: string;
}

/** `text`: the value now in KV (a new publish only). */
export type PublishResult = { readonly published: true; readonly revision: number; readonly text: string } | { readonly published: false; readonly revision: number; readonly reason: "already-published" };

/**
 * Publishes a learned set as the site's next revision. Idempotent per job: a job that has published a
 * revision already (a redelivery after the publish) publishes nothing. R2 (strongly consistent) holds the
 * history, so the check sees every earlier publish at once, which KV's eventually consistent reads would not.
 * Operations: 1 R2 list, 1 KV get, 1 or 2 R2 puts, 1 KV put, and 1 R2 delete once KEPT_REVISIONS are kept.
 */
export async function publishRuleSet(kv: KVNamespace, bucket: R2Bucket, ruleSet: RuleSet, jobId: string, now: Date): Promise<PublishResult> {
  const { site } = ruleSet;
  const revisions = await listRevisions(bucket, site);
  const done = revisions.find((entry) => entry.jobId === jobId && jobId !== "");
  if (done !== undefined) return { published: false, revision: done.revision, reason: "already-published" };
  const latest = revisions.at(-1);
  let next = (latest?.revision ?? 0) + 1;
  const current = await kv.get(site, "text");
  if (current !== null && !isArchived(current, revisions)) {
    await putRevision(bucket, site, next, withRevision(current, next), "", now);
    next += 1;
  }
  const text = JSON.stringify({ ...ruleSet, revision: next });
  await putRevision(bucket, site, next, text, jobId, now);
  await kv.put(site, text, { metadata: currentMetadata(ruleSet.source, next) });
  // Revisions now kept: the listed ones and those numbered up to `next`; the oldest past the limit go.
  const kept = revisions.length + (next - (latest?.revision ?? 0));
  if (kept > KEPT_REVISIONS) await bucket.delete(revisions.slice(0, kept - KEPT_REVISIONS).map((entry) => historyKey(site, entry.revision)));
  return { published: true, revision: next, text };
}

/** `text`: the restored value, now in KV. */
export type RollbackResult = { readonly ok: true; readonly from: number | null; readonly to: number; readonly text: string } | { readonly ok: false; readonly message: string };

/** Puts the revision before the current one back into KV. */
export async function rollbackRuleSet(kv: KVNamespace, bucket: R2Bucket, site: string): Promise<RollbackResult> {
  const revisions = await listRevisions(bucket, site);
  const current = await kv.get(site, "text");
  const parsed = current === null ? null : parseRuleSetText(current);
  const currentRevision = parsed !== null && parsed.ok ? (parsed.ruleSet.revision ?? null) : null;
  // A current set outside the history (put by hand since) goes back to the latest kept revision.
  const earlier = revisions.filter((entry) => currentRevision === null || entry.revision < currentRevision);
  const target = earlier.at(-1);
  if (target === undefined) return { ok: false, message: `${site} has no earlier rule set version to restore` };
  const object = await bucket.get(historyKey(site, target.revision));
  if (object === null) return { ok: false, message: `revision ${target.revision} of ${site} is missing from the history` };
  const restored = await object.text();
  const parsedRestored = parseRuleSetText(restored);
  await kv.put(site, restored, { metadata: currentMetadata(parsedRestored.ok ? parsedRestored.ruleSet.source : undefined, target.revision) });
  return { ok: true, from: currentRevision, to: target.revision, text: restored };
}

/** A site's kept revisions, oldest first. */
export async function listRevisions(bucket: R2Bucket, site: string): Promise<Revision[]> {
  const revisions: Revision[] = [];
  let cursor: string | undefined;
  do {
    const listed = await bucket.list(listWithMetadata({ prefix: historyPrefix(site), cursor }));
    for (const object of listed.objects) {
      const revision = revisionOfHistoryKey(object.key);
      if (revision !== null) revisions.push({ revision, jobId: object.customMetadata?.job ?? "", publishedAt: object.customMetadata?.publishedAt ?? object.uploaded.toISOString() });
    }
    cursor = listed.truncated ? listed.cursor : undefined;
  } while (cursor !== undefined);
  return revisions.sort((a, b) => a.revision - b.revision);
}

async function putRevision(bucket: R2Bucket, site: string, revision: number, text: string, jobId: string, now: Date): Promise<void> {
  await bucket.put(historyKey(site, revision), text, {
    httpMetadata: { contentType: "application/json" },
    customMetadata: { job: jobId, publishedAt: now.toISOString() },
  });
}

/** Whether the KV value is one of the kept revisions (it carries a revision number that the history holds). */
function isArchived(text: string, revisions: readonly Revision[]): boolean {
  const parsed = parseRuleSetText(text);
  return parsed.ok && parsed.ruleSet.revision !== undefined && revisions.some((entry) => entry.revision === parsed.ruleSet.revision);
}

/** An earlier set archived under a number: its text with the revision set, or as it was when it is not a valid set. */
function withRevision(text: string, revision: number): string {
  const parsed = parseRuleSetText(text);
  return parsed.ok ? JSON.stringify({ ...parsed.ruleSet, revision }) : text;
}

/** KV metadata of the current value: which revision it is and how it was made, readable from a key listing. */
function currentMetadata(source: RuleSet["source"], revision: number): { revision: number; source: string } {
  return { revision, source: source ?? "unknown" };
}
