// The learning loop's jobs inside workerd, with the real local R2 bucket, KV namespace and Queues of the control
// Worker (wrangler.control.toml): pages of real sites (../shared/data) are sampled through the edge Worker's
// POST /v1/clean (by a key the admin allowed for the site: test/control/learning-evidence.test.ts covers the
// evidence itself), a job goes through MINE_QUEUE to the control Worker's queue() handler (this project's main),
// which mines the site and publishes a versioned rule set to KV, read back through the edge's routes.
import { createExecutionContext, createMessageBatch, createScheduledController, env, getQueueResult, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import control from "../../src/control";
import { crossSiteSiteId, readCounts, retryDelay } from "../../src/consumer";
import { KEPT_REVISIONS, listRevisions, publishRuleSet, readJobState, resolveLearningSettings, type JobState, type MineJob } from "../../src/learning";
import { rulesCacheTtlMilliseconds } from "../../src/http";
import { parseRuleSetText, type RuleSet } from "../../src/rules";
import worker from "../../src/worker";
import { corruptContribution, crossSite, tableSnapshot } from "../support/cross-site";
import { adminCall, allowPosting, callWorker, dataSites, eventually, learningEnv, postPage, sampledKeys, API_KEY, type DataPage } from "../support/learning";

const ORIGIN = inject("originUrl");
const HAS_DATA = (await fetch(`${ORIGIN}/data/README.md`)).ok;
if (!HAS_DATA) console.warn("learning job tests skipped: ../shared/data is absent beside the repository");
const SITES = HAS_DATA ? await dataSites(ORIGIN, "dragnet", 10) : new Map<string, DataPage[]>();
/** Sampling without a job of its own (LEARN_MIN_PAGES out of reach), so each test starts its jobs itself. */
const NO_AUTO_JOB = { LEARN_MIN_PAGES: "1000" };

async function finished(site: string, jobId: string): Promise<JobState | null> {
  const state = await readJobState(env.PAGES!, site);
  return state !== null && state.jobId === jobId && (state.status === "done" || state.status === "dead") ? state : null;
}

async function sample(site: string, pages: readonly DataPage[], vars: Readonly<Record<string, string>> = {}): Promise<void> {
  expect((await allowPosting([site])).status).toBe(200);
  for (const page of pages) expect((await postPage(ORIGIN, page, site, { ...NO_AUTO_JOB, ...vars })).status).toBe(200);
}

function job(site: string, jobId: string): MineJob {
  return { site, jobId, reason: "admin", enqueuedAt: new Date().toISOString() };
}

/** One delivery of `body` to the control Worker's queue() handler; the ack/retry result. */
async function deliver(body: unknown, attempts = 1, vars: Readonly<Record<string, string>> = {}, queue = "edge-cleaner-mine") {
  const batch = createMessageBatch(queue, [{ id: `message-${crypto.randomUUID()}`, timestamp: new Date(), attempts, body }]);
  const context = createExecutionContext();
  await control.queue(batch, learningEnv(vars), context);
  return getQueueResult(batch, context);
}

async function currentSet(site: string): Promise<{ text: string; ruleSet: RuleSet }> {
  const text = (await env.RULES.get(site, "text"))!;
  const parsed = parseRuleSetText(text);
  if (!parsed.ok) throw new Error(parsed.problems.join("; "));
  return { text, ruleSet: parsed.ruleSet };
}

describe.skipIf(!HAS_DATA)("a mining job through the real queue", () => {
  it("mines the sampled pages of a site and publishes a learned rule set, revision 1", async () => {
    const site = "queue.guardian.example";
    await sample(site, SITES.get("guardian.co.uk")!.slice(0, 10));
    // The edge isolate has cached "no rules" for the site since its last page; it reads KV again after the TTL.
    const cachedUntil = Date.now() + rulesCacheTtlMilliseconds(learningEnv());
    expect(await sampledKeys(site)).toHaveLength(10);
    const enqueued = await adminCall(`/admin/learn/${site}`, "POST");
    expect(enqueued.status).toBe(202);
    const { jobId } = (await enqueued.json()) as { jobId: string };
    const state = await eventually("the job to finish", () => finished(site, jobId));
    expect(state).toMatchObject({ status: "done", pages: 10, revision: 1 });
    expect(state.rules).toBeGreaterThan(0);
    const rules = (await (await callWorker(`/v1/rules/${site}`, { headers: { "x-api-key": API_KEY } })).json()) as Record<string, unknown>;
    expect(rules).toMatchObject({ site, status: "applied", source: "learned", revision: 1, pages: 10 });
    expect(Date.parse(rules.minedAt as string)).toBeLessThanOrEqual(Date.parse(state.updatedAt));
    // What the admin sees of the site.
    const view = (await (await adminCall(`/admin/learn/${site}`, "GET")).json()) as Record<string, unknown>;
    expect(view).toMatchObject({ site, learning: true, pages: 10, job: { jobId, status: "done" }, current: { source: "learned", revision: 1 } });
    expect(view.revisions).toHaveLength(1);
    // Once the edge's cached "no rules" has expired, a further page of the site is cleaned with the set the control
    // Worker published (and not sampled: the rules are fresh).
    await new Promise((done) => setTimeout(done, Math.max(0, cachedUntil - Date.now()) + 100));
    const further = await postPage(ORIGIN, SITES.get("guardian.co.uk")![10], site, NO_AUTO_JOB);
    expect(further.headers.get("x-clean-rules")).toBe("applied");
    expect(await sampledKeys(site)).toHaveLength(10);
  });

  it("records a job that keeps failing as dead, once Queues has moved it to the dead-letter queue", async () => {
    // A site whose pages no other test's site shares: the shards this failing job does reach keep its keys.
    const site = "dead.bigthink.example";
    await sample(site, SITES.get("bigthink.com")!.slice(0, 6));
    // The site's contribution in a shard of the cross-site table, unreadable: every attempt fails while merging.
    await corruptContribution(await crossSiteSiteId(site));
    const enqueued = await adminCall(`/admin/learn/${site}`, "POST");
    const { jobId } = (await enqueued.json()) as { jobId: string };
    const state = await eventually("the job to reach the dead-letter queue", () => finished(site, jobId));
    expect(state.status).toBe("dead");
    expect(state.attempts).toBe(4); // the first delivery and max_retries = 3 (wrangler.toml)
    expect(state.error).toMatch(/corrupt/);
    expect(await env.RULES.get(site)).toBeNull();
    // More sampled pages do not give the dead site a new job at once (an hour's cooldown).
    await sample(site, SITES.get("bigthink.com")!.slice(6, 8), { LEARN_MIN_PAGES: "4" });
    expect(await readJobState(env.PAGES!, site)).toMatchObject({ jobId, status: "dead" });
  });
});

describe.skipIf(!HAS_DATA)("the queue() handler", () => {
  it("is idempotent: a redelivered job publishes nothing more and leaves the cross-site table as it was", async () => {
    const site = "redelivery.wsj.example";
    await sample(site, SITES.get("online.wsj.com")!.slice(0, 10));
    const message = job(site, "job-redelivered");
    const first = await deliver(message);
    expect(first.explicitAcks).toHaveLength(1);
    const published = await currentSet(site);
    expect(published.ruleSet).toMatchObject({ source: "learned", revision: 1, pages: 10 });
    const table = await tableSnapshot();
    const again = await deliver(message, 2);
    expect(again.explicitAcks).toHaveLength(1);
    expect(again.retryMessages).toEqual([]);
    expect((await currentSet(site)).text).toBe(published.text);
    expect(await listRevisions(env.PAGES!, site)).toHaveLength(1);
    expect(await tableSnapshot()).toEqual(table);
  });

  it("retries a failed job with a doubling delay, and a message that is not a job too", async () => {
    const site = "retry.nfl.example";
    await sample(site, SITES.get("blogs.nfl.com")!.slice(0, 5));
    await corruptContribution(await crossSiteSiteId(site), 5);
    expect((await deliver(job(site, "job-retried"), 1)).retryMessages).toHaveLength(1);
    expect((await deliver(job(site, "job-retried"), 3)).retryMessages).toHaveLength(1);
    expect(await readJobState(env.PAGES!, site)).toMatchObject({ status: "failed", attempts: 3, error: expect.stringMatching(/corrupt/) });
    expect((await deliver({ site: "Not a site!" }, 1)).retryMessages).toHaveLength(1);
    // The delay each retry asks for (the test pool's batch does not record it): doubled per attempt, capped.
    const settings = resolveLearningSettings(learningEnv({ LEARN_RETRY_SECONDS: "30" }));
    expect([1, 2, 3, 10].map((attempts) => retryDelay(settings, attempts))).toEqual([30, 60, 120, 3600]);
  });

  it("rolls back to the previous version, a hand-written set put before learning included", async () => {
    const site = "rollback.zillow.example";
    const hand = JSON.stringify({ version: 1, site, minedAt: "2026-01-01T00:00:00Z", pages: 3, cutoff: 0.5, mutablePatterns: [], rules: [{ pattern: "Zillow\\s+Blog", docFreq: 3, count: 3, tokens: 2 }], source: "hand" });
    expect((await callWorker(`/admin/rules/${site}`, { method: "PUT", body: hand, headers: { "x-api-key": "test-admin-key" } })).status).toBe(200);
    const pages = SITES.get("zillow.com")!;
    await sample(site, pages.slice(0, 8));
    // The learned set removes far more than the hand set's one rule: past the review margin, which this test turns off.
    const noReview = { LEARN_REVIEW_MARGIN: "1" };
    expect((await deliver(job(site, "job-rollback-1"), 1, noReview)).explicitAcks).toHaveLength(1);
    const second = await currentSet(site);
    expect(second.ruleSet).toMatchObject({ source: "learned", revision: 2 }); // the hand set was archived as revision 1
    // Sampled although the site's rules are fresh (a staleness limit of 0 makes them stale at once).
    await sample(site, pages.slice(8, 14), { LEARN_STALE_HOURS: "0" });
    expect((await deliver(job(site, "job-rollback-2"), 1, noReview)).explicitAcks).toHaveLength(1);
    expect((await currentSet(site)).ruleSet).toMatchObject({ source: "learned", revision: 3, pages: 14 });

    const back = await adminCall(`/admin/rules/${site}/rollback`, "POST");
    expect(back.status).toBe(200);
    expect(await back.json()).toEqual({ site, restored: true, from: 3, to: 2 });
    expect((await currentSet(site)).text).toBe(second.text);
    await adminCall(`/admin/rules/${site}/rollback`, "POST");
    expect((await currentSet(site)).ruleSet).toMatchObject({ source: "hand", revision: 1, rules: JSON.parse(hand).rules });
    const none = await adminCall(`/admin/rules/${site}/rollback`, "POST");
    expect(none.status).toBe(409);
    expect(((await none.json()) as { error: { code: string } }).error.code).toBe("conflict");
  });
});

describe("the rule set history", () => {
  it(`keeps the newest ${KEPT_REVISIONS} revisions, publishes each job once, and rolls back within them`, async () => {
    const site = "history.versions.example";
    const learned = (n: number): RuleSet => ({
      version: 1, site, minedAt: `2026-02-${String(n).padStart(2, "0")}T00:00:00.000Z`, pages: 10, cutoff: 0.5, mutablePatterns: [],
      rules: [{ pattern: `Edition\\s+${n}`, docFreq: 10, count: 10, tokens: 2 }], source: "learned",
    });
    for (let n = 1; n <= 12; n++) expect(await publishRuleSet(env.RULES, env.PAGES!, learned(n), `job-${n}`, new Date())).toMatchObject({ published: true, revision: n });
    expect(await publishRuleSet(env.RULES, env.PAGES!, learned(12), "job-12", new Date())).toMatchObject({ published: false, revision: 12 });
    expect((await listRevisions(env.PAGES!, site)).map((entry) => entry.revision)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(await (await adminCall(`/admin/rules/${site}/rollback`, "POST")).json()).toMatchObject({ from: 12, to: 11 });
    expect((await currentSet(site)).ruleSet.rules[0].pattern).toBe("Edition\\s+11");
  });

  it("serves the learn and rollback routes for a site key that names a path", async () => {
    const site = "paths.versions.example/news";
    const set = (n: number): RuleSet => ({
      version: 1, site, minedAt: `2026-03-0${n}T00:00:00.000Z`, pages: 10, cutoff: 0.5, mutablePatterns: [],
      rules: [{ pattern: `Section\\s+${n}`, docFreq: 10, count: 10, tokens: 2 }], source: "learned",
    });
    for (const n of [1, 2]) await publishRuleSet(env.RULES, env.PAGES!, set(n), `paths-${n}`, new Date());
    expect(await (await adminCall(`/admin/learn/${site}`, "GET")).json()).toMatchObject({ site, pages: 0, current: { revision: 2 }, revisions: [{ revision: 1 }, { revision: 2 }] });
    expect(await (await adminCall(`/admin/rules/${site}/rollback`, "POST")).json()).toEqual({ site, restored: true, from: 2, to: 1 });
    expect((await (await adminCall(`/admin/learn/${site}`, "POST")).json()) as unknown).toMatchObject({ error: { code: "conflict" } });
  });
});

describe.skipIf(!HAS_DATA)("the cross-site reduce", () => {
  // A promotion planted on every page of five real sites, between words unique to each page, so that it is a
  // template candidate of its own on each site.
  const PLANTED = "Join the Lantern Club for weekend puzzles delivered free";
  const UNIQUE = ["amber", "basil", "cedar", "delta", "ember", "fjord", "grove", "heath", "islet", "jasper"];
  const planted = (html: string, index: number) =>
    html.replace(/<body[^>]*>/i, (tag) => `${tag}<p>${UNIQUE[index]} ${UNIQUE[(index + 3) % 10]}</p><p>${PLANTED}</p><p>${UNIQUE[(index + 7) % 10]}</p>`);
  const hasPlanted = (ruleSet: RuleSet) => ruleSet.rules.some((rule) => new RegExp(rule.pattern).test(PLANTED));

  it("drops a phrase once it is among the candidates of enough sites, for every site mined after, and for the first ones when re-mined", async () => {
    const names = ["washingtonpost.com", "adwords.blogspot.com", "guardian.co.uk", "online.wsj.com", "zillow.com"];
    const sites = names.map((name) => `planted.${name}`);
    await allowPosting(sites);
    for (const [n, name] of names.entries()) {
      for (const [index, page] of SITES.get(name)!.slice(0, 10).entries()) {
        const html = planted(new TextDecoder().decode(await (await fetch(`${ORIGIN}${page.path}`)).arrayBuffer()), index);
        const query = new URLSearchParams({ url: page.url, site: sites[n], format: "text" });
        const response = await callWorker(`/v1/clean?${query}`, { method: "POST", body: html, headers: { "x-api-key": API_KEY, "content-type": "text/html; charset=utf-8" } }, NO_AUTO_JOB);
        expect(response.status).toBe(200);
      }
    }
    const kept: boolean[] = [];
    for (const site of sites) {
      await deliver(job(site, `job-${site}`));
      kept.push(hasPlanted((await currentSet(site)).ruleSet));
    }
    const { siteTotal } = await readCounts(crossSite());
    // Shared at max(3, 25 % of the table's sites) sites (MINING_CROSS_SITE_*), the sites mined here among them.
    const threshold = Math.max(3, Math.ceil(0.25 * siteTotal));
    expect(threshold).toBeLessThanOrEqual(3);
    expect(kept).toEqual([true, true, false, false, false]);
    await deliver(job(sites[0], `job-again-${sites[0]}`));
    const remined = (await currentSet(sites[0])).ruleSet;
    expect(remined.revision).toBe(2);
    expect(hasPlanted(remined)).toBe(false);
  });
});

describe.skipIf(!HAS_DATA)("the cron and the admin routes", () => {
  it("the cron enqueues a sampled site without rules, and the real queue mines it", async () => {
    const site = "cron.nfl.example";
    await sample(site, SITES.get("blogs.nfl.com")!.slice(0, 6));
    const context = createExecutionContext();
    await control.scheduled(createScheduledController({ cron: "*/10 * * * *", scheduledTime: new Date() }), learningEnv({ LEARN_MIN_PAGES: "6", LEARN_CRON_SITES: "1000" }), context);
    await waitOnExecutionContext(context);
    const queued = await readJobState(env.PAGES!, site);
    expect(queued).toMatchObject({ reason: "cron" });
    const state = await eventually("the cron's job to finish", () => finished(site, queued!.jobId));
    expect(state).toMatchObject({ status: "done", pages: 6, revision: 1 });
  });

  it("POST /admin/learn runs the cron's step at once, from the edge", async () => {
    const site = "sweep.bigthink.example";
    await sample(site, SITES.get("bigthink.com")!.slice(0, 6));
    const vars = { LEARN_MIN_PAGES: "6", LEARN_CRON_SITES: "1000" };
    const swept = await adminCall("/admin/learn", "POST", vars);
    expect(swept.status).toBe(202);
    expect(((await swept.json()) as { enqueued: string[] }).enqueued).toContain(site);
    const queued = await readJobState(env.PAGES!, site);
    expect(queued).toMatchObject({ reason: "admin" });
    expect(await eventually("the swept site's job to finish", () => finished(site, queued!.jobId))).toMatchObject({ status: "done", pages: 6 });
    // Its rules are fresh now: a second sweep leaves it alone.
    expect(((await (await adminCall("/admin/learn", "POST", vars)).json()) as { enqueued: string[] }).enqueued).not.toContain(site);
  });

  it("refuses learning without the admin key, with too few pages, or without the bindings", async () => {
    const site = "few.pages.example";
    expect((await callWorker(`/admin/learn/${site}`, { method: "POST", headers: { "x-api-key": API_KEY } })).status).toBe(403);
    expect((await callWorker(`/admin/learn/${site}`, { method: "POST" })).status).toBe(401);
    const few = await callWorker(`/admin/learn/${site}`, { method: "POST", headers: { authorization: "Bearer test-admin-key" } });
    expect(few.status).toBe(409);
    expect(((await few.json()) as { error: { message: string } }).error.message).toBe(`${site} has 0 sampled pages; learning needs at least 4`);
    const unbound = await worker.fetch(new Request(`https://cleaner.test/admin/learn/${site}`, { headers: { "x-api-key": "test-admin-key" } }), { ...learningEnv(), PAGES: undefined }, createExecutionContext());
    expect(unbound.status).toBe(503);
  });
});
