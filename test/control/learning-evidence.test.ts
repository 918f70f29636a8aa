// Learning from evidence only the site can give, inside workerd with the real local KV, R2 and Queues of the control
// Worker: pages posted on the word of their `url` teach no site (unless an admin allowed the posting key for it), pages
// the Worker fetched from the site's own origin still do, and a learned set is published only past the evidence gate
// (pages over time, template only, no sudden growth without an admin's approval). The review margin's calibration on
// every dragnet site: learning-margin.test.ts (a gate).
import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import control from "../../src/control";
import { gateLearnedSet } from "../../src/consumer";
import { readJobState, resolveLearningSettings, type JobState } from "../../src/learning";
import { rulesCacheTtlMilliseconds } from "../../src/http";
import { parseRuleSetText, type RuleSet } from "../../src/rules";
import { adminCall, allowPosting, API_KEY, callWorker, dataSites, eventually, learningEnv, readPage, sampledKeys, servedSite, type DataPage } from "../support/learning";

const ORIGIN = inject("originUrl");
const HAS_DATA = (await fetch(`${ORIGIN}/data/README.md`)).ok;
if (!HAS_DATA) console.warn("learning evidence tests on ../shared/data skipped: the data folder is absent beside the repository");
const SITES = HAS_DATA ? await dataSites(ORIGIN, "dragnet", 10) : new Map<string, DataPage[]>();
const NO_AUTO_JOB = { LEARN_MIN_PAGES: "1000" };

async function deliver(site: string, jobId: string, vars: Readonly<Record<string, string>> = {}) {
  const batch = createMessageBatch("edge-cleaner-mine", [{ id: `message-${jobId}`, timestamp: new Date(), attempts: 1, body: { site, jobId, reason: "admin", enqueuedAt: new Date().toISOString() } }]);
  const context = createExecutionContext();
  await control.queue(batch, learningEnv(vars), context);
  return getQueueResult(batch, context);
}

async function finished(site: string, jobId: string): Promise<JobState | null> {
  const state = await readJobState(env.PAGES!, site);
  return state !== null && state.jobId === jobId && (state.status === "done" || state.status === "dead") ? state : null;
}

// A made-up site's hand-written set, old enough that its pages are sampled again.
const VICTIM = "harbour-news.example";
const HAND_SET = JSON.stringify({
  version: 1, site: VICTIM, minedAt: "2026-01-01T00:00:00Z", pages: 12, cutoff: 0.5, mutablePatterns: [], source: "hand",
  rules: [{ pattern: "Subscribe\\s+to\\s+the\\s+Harbour\\s+News", docFreq: 12, count: 12, tokens: 5 }],
});
const SENTENCE = "The harbour board approved the dredging plan on Tuesday after a long debate.";
const WORDS = ["amber", "basil", "cedar", "delta", "ember", "fjord", "grove", "heath", "islet", "jasper", "kelp", "larch"];
/** A forger's page: the site's look, the sentence to remove on every page, words of its own around it. */
const crafted = (n: number) =>
  `<!doctype html><html><head><title>Story ${n}</title></head><body><nav><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></nav>` +
  `<main><h1>${WORDS[n]} story number ${n}</h1><p>${WORDS[n]} ${WORDS[(n + 5) % 12]} paragraph ${n}, written for this page alone and nowhere else.</p>` +
  `<p>${SENTENCE}</p><p>${WORDS[(n + 3) % 12]} closing words of page ${n}.</p></main><footer>Subscribe to the Harbour News</footer></body></html>`;
/** The site's real page that holds the sentence as news. */
const REAL_PAGE = `<!doctype html><html><body><nav><a href="/">Home</a></nav><main><h1>Dredging approved</h1><p>${SENTENCE}</p>` +
  "<p>Work starts in spring, and the channel will be closed to pleasure craft for six weeks while the dredger works.</p></main><footer>Subscribe to the Harbour News</footer></body></html>";

async function postToVictim(html: string, n: number): Promise<Response> {
  const query = new URLSearchParams({ url: `https://${VICTIM}/news/story-${n}`, format: "text" });
  return callWorker(`/v1/clean?${query}`, { method: "POST", body: html, headers: { "x-api-key": API_KEY, "content-type": "text/html; charset=utf-8" } });
}

describe("pages posted on the word of their url", () => {
  it("twelve crafted pages naming a site, then learning, leave that site's rules as they were", async () => {
    await env.RULES.put(VICTIM, HAND_SET);
    for (let n = 0; n < 12; n++) expect((await postToVictim(crafted(n), n)).status).toBe(200);
    // Learning asked for in every way there is: the site alone, the cron's sweep, and a job straight to the consumer.
    await adminCall(`/admin/learn/${VICTIM}`, "POST");
    await adminCall("/admin/learn", "POST", { LEARN_MIN_PAGES: "4" });
    expect((await deliver(VICTIM, "poison-job")).explicitAcks).toHaveLength(1);
    const state = await readJobState(env.PAGES!, VICTIM);
    if (state !== null && state.status !== "done") await eventually("the enqueued job to finish", () => finished(VICTIM, state.jobId));
    expect(await env.RULES.get(VICTIM)).toBe(HAND_SET);
    expect(await sampledKeys(VICTIM)).toEqual([]);
    // The site's real page keeps its news.
    const real = await postToVictim(REAL_PAGE, 99);
    expect(real.headers.get("x-clean-rules")).toBe("applied");
    expect(await real.text()).toContain(SENTENCE);
  });

  it("are learned from for a site the admin allowed the posting key, and only for it", async () => {
    const site = "allowed.harbour.example";
    const keys = (await (await adminCall("/admin/keys", "GET")).json()) as { configured: string[] };
    expect(keys.configured).toHaveLength(1);
    expect((await allowPosting(["not a site!"])).status).toBe(400);
    expect((await callWorker(`/admin/keys/0123456789abcdef/sites`, { method: "PUT", body: '{"sites":[]}', headers: { "x-api-key": "test-admin-key" } })).status).toBe(404);
    expect((await allowPosting([site])).status).toBe(200);
    const post = (n: number, to: string) => callWorker(`/v1/clean?${new URLSearchParams({ url: `https://${to}/news/story-${n}`, format: "text" })}`, {
      method: "POST", body: crafted(n), headers: { "x-api-key": API_KEY, "content-type": "text/html; charset=utf-8" },
    }, NO_AUTO_JOB);
    for (let n = 0; n < 3; n++) await post(n, site);
    await post(0, "elsewhere.harbour.example");
    expect(await sampledKeys(site)).toHaveLength(3);
    expect(await sampledKeys("elsewhere.harbour.example")).toEqual([]);
    // Taken back: the key's next posts teach nothing.
    expect((await adminCall(`/admin/keys/${keys.configured[0]}/sites`, "DELETE")).status).toBe(200);
    await post(5, site);
    expect(await sampledKeys(site)).toHaveLength(3);
  });
});

describe.skipIf(!HAS_DATA)("pages fetched from the site's own origin", () => {
  it("are learned from: GET /v1/clean?url= pages, POST /admin/learn/:site, the set applied after the rules cache's TTL", async () => {
    const name = "fetched.guardian.example";
    const site = servedSite(ORIGIN, name);
    const pages = SITES.get("guardian.co.uk")!;
    for (const page of pages.slice(0, 10)) expect((await readPage(ORIGIN, page, name, NO_AUTO_JOB)).status).toBe(200);
    const cachedUntil = Date.now() + rulesCacheTtlMilliseconds(learningEnv());
    const view = (await (await adminCall(`/admin/learn/${site}`, "GET")).json()) as { pages: number; sampled: { evidence: string }[] };
    expect(view.pages).toBe(10);
    expect(new Set(view.sampled.map((page) => page.evidence))).toEqual(new Set(["fetched"]));
    const enqueued = await adminCall(`/admin/learn/${site}`, "POST");
    expect(enqueued.status).toBe(202);
    const { jobId } = (await enqueued.json()) as { jobId: string };
    const state = await eventually("the job to finish", () => finished(site, jobId));
    expect(state).toMatchObject({ status: "done", pages: 10, revision: 1 });
    expect(state.measure!.baseline).toBe("classifier");
    console.log(`fetched guardian.co.uk pages: ${state.rules} rules, removes ${state.measure!.removedShare} of the text, the classifier ${state.measure!.baselineShare}; dropped ${JSON.stringify(state.dropped)}`);
    await new Promise((done) => setTimeout(done, Math.max(0, cachedUntil - Date.now()) + 100));
    const further = await readPage(ORIGIN, pages[10], name, NO_AUTO_JOB);
    expect(further.headers.get("x-clean-rules")).toBe("applied");
  });

  it("are held while they span less than LEARN_MIN_SPAN_HOURS, and nothing is published", async () => {
    const name = "recent.zillow.example";
    const site = servedSite(ORIGIN, name);
    for (const page of SITES.get("zillow.com")!.slice(0, 6)) await readPage(ORIGIN, page, name, NO_AUTO_JOB);
    await deliver(site, "held-job", { LEARN_MIN_SPAN_HOURS: "24" });
    expect(await readJobState(env.PAGES!, site)).toMatchObject({ status: "done", held: "the 6 sampled pages span 0.0 hours; a learned set needs pages over 24.0 hours" });
    expect(await env.RULES.get(site)).toBeNull();
  });
});

describe.skipIf(!HAS_DATA)("the evidence gate", () => {
  const settings = resolveLearningSettings(learningEnv());
  const gatePages = async (pages: readonly DataPage[]) =>
    Promise.all(pages.map(async (page, index) => ({ html: await (await fetch(`${ORIGIN}${page.path}`)).text(), url: page.url, sampledAt: Date.UTC(2026, 0, 1) + index * 3600_000 })));
  const set = (site: string, patterns: readonly string[]): RuleSet => ({
    version: 1, site, minedAt: "2026-01-02T00:00:00Z", pages: 8, cutoff: 0.5, mutablePatterns: [], source: "learned",
    rules: patterns.map((pattern) => ({ pattern, docFreq: 8, count: 8, tokens: 2 })),
  });

  it("drops a rule that removes text on one page only, and keeps the template", async () => {
    const pages = await gatePages(SITES.get("zillow.com")!.slice(0, 8));
    // The tagline on every zillow.com page (rules/zillow.com.json mines it from all 15).
    const template = "gives\\s+you\\s+an\\s+edge\\s+in\\s+real\\s+estate";
    expect(pages.filter((page) => page.html.includes("gives you an edge in real estate")).length).toBe(8);
    // Words of the first page's own story: on no other page.
    const unique = pages[0].html.replace(/<[^>]+>/g, " ").match(/[A-Z][a-z]{3,} [a-z]{4,} [a-z]{4,}/g)!.find((words) => pages.slice(1).every((page) => !page.html.includes(words)))!;
    expect(unique).toBeDefined();
    const outcome = await gateLearnedSet(pages, set("gate.zillow.example", [template, unique.replace(/ /g, "\\s+")]), null, settings);
    expect(outcome.kind === "publish" || outcome.kind === "review").toBe(true);
    if (outcome.kind !== "publish" && outcome.kind !== "review") return;
    expect(outcome.ruleSet.rules.map((rule) => rule.pattern)).toEqual([template]);
    expect(outcome.dropped).toEqual({ rules: 1, selectors: [] });
  });

  it("keeps a set that removes much more than the current one for review: shown, approved, published", async () => {
    const name = "review.wsj.example";
    const site = servedSite(ORIGIN, name);
    const small = JSON.stringify(set(site, ["Zillow\\s+Blog"]));
    await env.RULES.put(site, small);
    for (const page of SITES.get("online.wsj.com")!.slice(0, 8)) await readPage(ORIGIN, page, name, NO_AUTO_JOB);
    await deliver(site, "review-job", { LEARN_REVIEW_MARGIN: "0.01" });
    const state = (await readJobState(env.PAGES!, site))!;
    expect(state).toMatchObject({ status: "done", review: true, measure: { baseline: "current set", pages: 8 } });
    expect(state.measure!.removedShare - state.measure!.baselineShare).toBeGreaterThan(0.01);
    expect(await env.RULES.get(site)).toBe(small);
    const view = (await (await adminCall(`/admin/learn/${site}`, "GET")).json()) as { review: { jobId: string; ruleSet: RuleSet } | null };
    expect(view.review).toMatchObject({ jobId: "review-job", ruleSet: { site, source: "learned" } });
    const approved = await adminCall(`/admin/rules/${site}/approve`, "POST");
    expect(await approved.json()).toEqual({ site, published: true, revision: 2, jobId: "review-job" }); // the earlier set archived as 1
    const published = parseRuleSetText((await env.RULES.get(site))!);
    expect(published.ok && published.ruleSet.rules).toEqual(view.review!.ruleSet.rules);
    expect((await adminCall(`/admin/rules/${site}/approve`, "POST")).status).toBe(409);
  });
});
