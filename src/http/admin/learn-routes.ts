import { Hono } from "hono/tiny";
import { MINING_MIN_PAGES_PER_SITE } from "../../config";
import {
  approvePendingReview, dropPendingReview, enqueueJob, enqueueStaleSites, learnsSite, listRevisions, listSampledPages, readJobState, readPendingReview, requireBindings,
  resolveLearningSettings, rollbackRuleSet,
} from "../../learning";
import { parseRuleSetText } from "../../rules";
import type { Env } from "../shared/bindings";
import { ServiceError } from "../shared/errors";
import { refreshSiteRules } from "../shared/rules-store";
import { requireSiteParam as requireSite } from "../shared/site";

/**
 * The learning loop's admin routes (mounted under /admin, behind ADMIN_KEY like the others):
 *   POST /admin/learn                  the cron's step now: enqueue every sampled site whose rules are missing or stale (202)
 *   POST /admin/learn/:site            enqueue a mining job for the site now (202), if it has enough sampled pages
 *   GET  /admin/learn/:site            its sampled pages (with the evidence each rests on), last job, kept rule set revisions,
 *                                      current set, and a learned set waiting for review
 *   POST /admin/rules/:site/approve    publish the set waiting for review as the next revision
 *   POST /admin/rules/:site/reject     drop the set waiting for review
 *   POST /admin/rules/:site/rollback   put the revision before the current one back into KV
 */
export const learnRoutes = new Hono<{ Bindings: Env }>();

/** Sampled pages listed by GET /admin/learn/:site (the count covers all of them). */
const LISTED_PAGES = 100;

// The cron runs in the control Worker; this runs its step from the edge, where wrangler dev serves requests.
learnRoutes.post("/learn", async (context) => {
  requireLearning(context.env);
  const enqueued = await enqueueStaleSites(context.env, resolveLearningSettings(context.env), new Date(), "admin");
  return context.json({ enqueued }, 202);
});

learnRoutes.post("/learn/:site{.+}", async (context) => {
  const site = requireSite(context.req.param("site"));
  const { bucket } = requireLearning(context.env);
  const pages = (await listSampledPages(bucket, site)).length;
  if (pages < MINING_MIN_PAGES_PER_SITE) {
    throw new ServiceError("conflict", `${site} has ${pages} sampled pages; learning needs at least ${MINING_MIN_PAGES_PER_SITE}`);
  }
  const job = await enqueueJob(context.env, site, "admin", new Date());
  return context.json({ site, enqueued: true, jobId: job.jobId, pages }, 202);
});

learnRoutes.get("/learn/:site{.+}", async (context) => {
  const site = requireSite(context.req.param("site"));
  const { bucket } = requireLearning(context.env);
  const [pages, job, revisions, current, review] = await Promise.all([
    listSampledPages(bucket, site),
    readJobState(bucket, site),
    listRevisions(bucket, site),
    context.env.RULES.get(site, "text"),
    readPendingReview(bucket, site),
  ]);
  const parsed = current === null ? null : parseRuleSetText(current);
  const ruleSet = parsed !== null && parsed.ok ? parsed.ruleSet : null;
  return context.json({
    site,
    learning: learnsSite(resolveLearningSettings(context.env), site),
    pages: pages.length,
    sampled: pages.slice(0, LISTED_PAGES),
    job,
    revisions,
    current: ruleSet === null ? null : { source: ruleSet.source ?? null, revision: ruleSet.revision ?? null, minedAt: ruleSet.minedAt, pages: ruleSet.pages, rules: ruleSet.rules.length },
    // The whole set, so that what it would remove can be read (or tried: npm run rules:test) before approving it.
    review,
  });
});

learnRoutes.post("/rules/:site{.+}/approve", async (context) => {
  const site = requireSite(context.req.param("site"));
  const { bucket } = requireLearning(context.env);
  const approved = await approvePendingReview(context.env.RULES, bucket, site, new Date());
  if (approved === null) throw new ServiceError("conflict", `${site} has no learned rule set waiting for review`);
  if (approved.result.published) refreshSiteRules(site, approved.result.text);
  return context.json({ site, published: approved.result.published, revision: approved.result.revision, jobId: approved.review.jobId });
});

learnRoutes.post("/rules/:site{.+}/reject", async (context) => {
  const site = requireSite(context.req.param("site"));
  const { bucket } = requireLearning(context.env);
  const review = await readPendingReview(bucket, site);
  if (review === null) throw new ServiceError("conflict", `${site} has no learned rule set waiting for review`);
  await dropPendingReview(bucket, site);
  return context.json({ site, rejected: true, jobId: review.jobId });
});

learnRoutes.post("/rules/:site{.+}/rollback", async (context) => {
  const site = requireSite(context.req.param("site"));
  const { bucket } = requireLearning(context.env);
  const result = await rollbackRuleSet(context.env.RULES, bucket, site);
  if (!result.ok) throw new ServiceError("conflict", result.message);
  refreshSiteRules(site, result.text);
  return context.json({ site, restored: true, from: result.from, to: result.to });
});

/** The learning bindings, or a 503 with the learning module's own words for what is missing. */
function requireLearning(env: Env): { bucket: R2Bucket; queue: Queue } {
  try {
    return requireBindings(env);
  } catch (error) {
    throw new ServiceError("learning-unavailable", (error as Error).message);
  }
}
