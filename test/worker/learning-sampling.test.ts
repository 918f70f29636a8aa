// Sampling for the learning loop inside workerd, with the real local R2 bucket: which cleaned pages are kept
// (proxy, GET /v1/clean under the URL's own site, POST /v1/clean only from a key allowed for the site; never one
// sent or fetched with credentials), that the answer never waits for the write, and that a site's sample stays
// bounded (newest kept, one object per URL, one page per spacing),
// and its samples a period too, across isolates (the SAMPLE_GATE Durable Object).
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { refreshSiteRules } from "../../src/http";
import { admitSample, listSampledPages, resolveLearningSettings, samplePage, samplePeriod } from "../../src/learning";
import worker from "../../src/worker";
import { allowPosting, API_KEY, callWorker, dataSites, learningEnv, postPage, readPage, sampledKeys, servedSite, type DataPage } from "../support/learning";

const ORIGIN = inject("originUrl");
const HAS_DATA = (await fetch(`${ORIGIN}/data/README.md`)).ok;
if (!HAS_DATA) console.warn("learning sampling tests on ../shared/data skipped: the data folder is absent beside the repository");
const PAGES: DataPage[] = HAS_DATA ? [...(await dataSites(ORIGIN, "dragnet", 10)).get("zillow.com")!] : [];

describe.skipIf(!HAS_DATA)("which cleaned pages are sampled", () => {
  it("keeps a page posted with a url only once the admin has allowed the posting key for the site", async () => {
    const site = "post.sampling.example";
    const unallowed = await postPage(ORIGIN, PAGES[0], site);
    expect(unallowed.status).toBe(200);
    expect(unallowed.headers.get("x-clean-site")).toBe(site);
    expect(await sampledKeys(site)).toEqual([]);
    expect((await allowPosting(["other.example", site])).status).toBe(200);
    const response = await postPage(ORIGIN, PAGES[0], site);
    expect(response.status).toBe(200);
    const sampled = await listSampledPages(env.PAGES!, site);
    expect(sampled).toHaveLength(1);
    expect(sampled[0].url).toBe(PAGES[0].url);
    const stored = await (await env.PAGES!.get(sampled[0].key))!.text();
    expect(stored).toContain("<html"); // the decoded page as it came, not the cleaned text
    expect(sampled[0]).toMatchObject({ evidence: "posted", keyId: expect.stringMatching(/^[0-9a-f]{16}$/) });
  });

  it("keeps a fetched page only under the URL's own site, never under a ?site= naming another", async () => {
    const named = "named.sampling.example";
    const query = new URLSearchParams({ url: `${ORIGIN}${PAGES[7].path}?sampling=named`, site: named, format: "text" });
    const response = await callWorker(`/v1/clean?${query}`, { headers: { "x-api-key": API_KEY, "cache-control": "no-cache" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-clean-site")).toBe(named); // cleaned with the named site's rules, as asked
    await response.arrayBuffer();
    expect(await sampledKeys(named)).toEqual([]);
    // A path key of the URL's own host is its own site.
    expect((await readPage(ORIGIN, PAGES[7], "own.sampling.example")).status).toBe(200);
    expect((await listSampledPages(env.PAGES!, servedSite(ORIGIN, "own.sampling.example")))[0]).toMatchObject({ evidence: "fetched" });
  });

  it("keeps the articles a full-text feed fetched, under their own site", async () => {
    const feedUrl = `${ORIGIN}/fixtures/feeds/atom.xml`;
    const response = await callWorker(`/v1/feed?url=${encodeURIComponent(feedUrl)}&fulltext=1`, { headers: { "x-api-key": API_KEY, "cache-control": "no-cache" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-feed-items")).toMatch(/fulltext=2;/);
    await response.arrayBuffer();
    const sampled = await listSampledPages(env.PAGES!, new URL(ORIGIN).hostname);
    expect(sampled.filter((page) => page.url.endsWith("/data/dragnet/pages/R824.html") || page.url.endsWith("/data/dragnet/pages/R19.html"))).toHaveLength(2);
    expect(await sampledKeys("allotment.example")).toEqual([]); // the feed's own site: its items' HTML came from the feed, not fetched pages
  });

  it("keeps one page of a site per LEARN_SAMPLE_SPACING_MINUTES, however many are read", async () => {
    const vars = { LEARN_SAMPLE_SPACING_MINUTES: "60" };
    for (const page of PAGES.slice(0, 4)) expect((await readPage(ORIGIN, page, "spaced.sampling.example", vars)).status).toBe(200);
    expect(await sampledKeys(servedSite(ORIGIN, "spaced.sampling.example"))).toHaveLength(1);
  });

  it("never keeps a page posted with a cookie or a login of its own, nor one posted without a url", async () => {
    const site = "credentials.sampling.example";
    await allowPosting([site]);
    expect((await postPage(ORIGIN, PAGES[0], site, {}, { cookie: "session=abc" })).status).toBe(200);
    expect((await postPage(ORIGIN, PAGES[1], site, {}, { authorization: "Basic dXNlcjpwYXNz" })).status).toBe(200);
    const body = await (await fetch(`${ORIGIN}${PAGES[2].path}`)).arrayBuffer();
    const noUrl = await callWorker(`/v1/clean?site=${site}&format=text`, { method: "POST", body, headers: { "x-api-key": API_KEY, "content-type": "text/html" } });
    expect(noUrl.status).toBe(200);
    expect(await sampledKeys(site)).toEqual([]);
    // The service's own key as a Bearer is no credential of the page's.
    expect((await postPage(ORIGIN, PAGES[3], site, {}, { authorization: `Bearer ${API_KEY}` })).status).toBe(200);
    expect(await sampledKeys(site)).toHaveLength(1);
  });

  it("keeps a page fetched by GET /v1/clean?url= under the URL's host name", async () => {
    const url = `${ORIGIN}${PAGES[4].path}?sampling=get`;
    const response = await callWorker(`/v1/clean?url=${encodeURIComponent(url)}&format=text`, { headers: { "x-api-key": API_KEY, "cache-control": "no-cache" } });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    const sampled = await listSampledPages(env.PAGES!, new URL(ORIGIN).hostname);
    expect(sampled.map((page) => page.url)).toContain(url);
  });

  it("keeps a proxied page, but not one whose request took the client's cookie to the origin", async () => {
    const proxies = JSON.stringify({
      "/learn-proxy": { origin: ORIGIN, site: "proxy.sampling.example" },
      "/learn-private": { origin: ORIGIN, site: "private.sampling.example", forwardCredentials: true },
    });
    const open = await callWorker(`/learn-proxy${PAGES[5].path}`, {}, { PROXY_ORIGINS: proxies });
    expect(open.status).toBe(200);
    expect(open.headers.get("x-clean-site")).toBe("proxy.sampling.example");
    await open.arrayBuffer();
    const privateAnswer = await callWorker(`/learn-private${PAGES[5].path}`, { headers: { cookie: "session=abc" } }, { PROXY_ORIGINS: proxies });
    expect(privateAnswer.status).toBe(200);
    await privateAnswer.arrayBuffer();
    expect((await listSampledPages(env.PAGES!, "proxy.sampling.example")).map((page) => page.url)).toEqual([`${ORIGIN}${PAGES[5].path}`]);
    expect(await sampledKeys("private.sampling.example")).toEqual([]);
  });

  it("keeps no proxied page fetched with a header of the client's own (Range, If-Match, …), which may make it theirs", async () => {
    const proxies = JSON.stringify({ "/learn-own": { origin: ORIGIN, site: "own-headers.sampling.example" } });
    for (const own of [{ range: "bytes=0-" }, { "if-match": '"any"' }] as Record<string, string>[]) {
      const answer = await callWorker(`/learn-own${PAGES[6].path}`, { headers: own }, { PROXY_ORIGINS: proxies });
      expect(answer.status, JSON.stringify(own)).toBe(200);
      await answer.arrayBuffer();
    }
    expect(await sampledKeys("own-headers.sampling.example")).toEqual([]);
    // The same page without them is the site's.
    await (await callWorker(`/learn-own${PAGES[6].path}`, {}, { PROXY_ORIGINS: proxies })).arrayBuffer();
    expect(await sampledKeys("own-headers.sampling.example")).toHaveLength(1);
  });

  it("skips a site whose rules are younger than half the staleness limit, and samples it again after", async () => {
    const ruled = (site: string, hoursOld: number) => JSON.stringify({
      version: 1, site, minedAt: new Date(Date.now() - hoursOld * 3600_000).toISOString(), pages: 10, cutoff: 0.5, mutablePatterns: [],
      rules: [{ pattern: "Zillow\\s+Blog", docFreq: 10, count: 10, tokens: 2 }], source: "learned",
    });
    await allowPosting(["fresh.sampling.example", "aging.sampling.example"]);
    await env.RULES.put("fresh.sampling.example", ruled("fresh.sampling.example", 1));
    await env.RULES.put("aging.sampling.example", ruled("aging.sampling.example", 100)); // past half of LEARN_STALE_HOURS' 168
    expect((await postPage(ORIGIN, PAGES[0], "fresh.sampling.example")).headers.get("x-clean-rules")).toBe("applied");
    expect((await postPage(ORIGIN, PAGES[0], "aging.sampling.example")).headers.get("x-clean-rules")).toBe("applied");
    expect(await sampledKeys("fresh.sampling.example")).toEqual([]);
    expect(await sampledKeys("aging.sampling.example")).toHaveLength(1);
    await postPage(ORIGIN, PAGES[1], "fresh.sampling.example", { LEARN_STALE_HOURS: "1" });
    expect(await sampledKeys("fresh.sampling.example")).toHaveLength(1);
  });

  it("stops sampling a site once its period's samples are in, until the rules change", async () => {
    const site = "full.sampling.example";
    await allowPosting([site]);
    const vars = { LEARN_MAX_PAGES: "2" };
    const urls = async () => (await listSampledPages(env.PAGES!, site)).map((entry) => entry.url).sort();
    for (const page of PAGES.slice(0, 3)) await postPage(ORIGIN, page, site, vars);
    expect(await urls()).toEqual([PAGES[0].url, PAGES[1].url].sort()); // the third page came after the sample was full
    // New rules (mined long enough ago not to be fresh): the site is sampled again, until full again.
    const minedAt = new Date(Date.now() - 200 * 3600_000).toISOString();
    const text = JSON.stringify({ version: 1, site, minedAt, pages: 2, cutoff: 0.5, mutablePatterns: [], rules: [{ pattern: "Zillow\\s+Blog", docFreq: 2, count: 2, tokens: 2 }] });
    await env.RULES.put(site, text);
    refreshSiteRules(site, text);
    await postPage(ORIGIN, PAGES[3], site, vars);
    expect(await urls()).toContain(PAGES[3].url);
    await postPage(ORIGIN, PAGES[4], site, vars);
    expect(await urls()).toEqual([PAGES[3].url, PAGES[4].url].sort());
    await postPage(ORIGIN, PAGES[5], site, vars);
    expect(await urls()).toEqual([PAGES[3].url, PAGES[4].url].sort());
  });

  it("counts a site's samples across isolates: once other isolates have taken the period's, this one writes none", async () => {
    const site = "busy.sampling.example";
    await allowPosting([site]);
    const vars = { LEARN_MAX_PAGES: "3" };
    const gate = env.SAMPLE_GATE;
    // Other isolates served the site first and took this period's three samples, which the site's gate counted.
    const period = samplePeriod(undefined, resolveLearningSettings(learningEnv(vars)).staleMilliseconds, Date.now());
    for (let taken = 1; taken <= 3; taken++) expect(await admitSample(gate, site, period, 3)).toEqual({ admitted: true, count: taken });
    // This isolate has not seen the site before: it asks the gate, which lets nothing more through.
    let puts = 0;
    const bucket = env.PAGES!;
    const counting = new Proxy(bucket, {
      get(target, name) {
        if (name === "put") return (...args: Parameters<R2Bucket["put"]>) => ((puts += 1), target.put(...args));
        const value = Reflect.get(target, name) as unknown;
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    for (const page of PAGES.slice(0, 4)) {
      const body = await (await fetch(`${ORIGIN}${page.path}`)).arrayBuffer();
      const context = createExecutionContext();
      const request = new Request(`https://cleaner.test/v1/clean?${new URLSearchParams({ url: page.url, site, format: "text" })}`, {
        method: "POST", body, headers: { "x-api-key": API_KEY, "content-type": "text/html" },
      });
      expect((await worker.fetch(request, { ...learningEnv(vars), PAGES: counting }, context)).status).toBe(200);
      await waitOnExecutionContext(context);
    }
    expect(puts).toBe(0);
    expect(await sampledKeys(site)).toEqual([]);
    expect(await admitSample(gate, site, period, 3)).toEqual({ admitted: false, count: 3 });
  });

  it("samples only the sites in LEARN_SITES, and none at a rate of 0", async () => {
    await allowPosting(["listed.sampling.example", "unlisted.sampling.example", "off.sampling.example", "rate.sampling.example"]);
    await postPage(ORIGIN, PAGES[0], "listed.sampling.example", { LEARN_SITES: "listed.sampling.example, other.example" });
    await postPage(ORIGIN, PAGES[0], "unlisted.sampling.example", { LEARN_SITES: "listed.sampling.example" });
    await postPage(ORIGIN, PAGES[0], "off.sampling.example", { LEARN_SITES: "" });
    await postPage(ORIGIN, PAGES[0], "rate.sampling.example", { LEARN_SAMPLE_RATE: "0" });
    expect(await sampledKeys("listed.sampling.example")).toHaveLength(1);
    expect(await sampledKeys("unlisted.sampling.example")).toEqual([]);
    expect(await sampledKeys("off.sampling.example")).toEqual([]);
    expect(await sampledKeys("rate.sampling.example")).toEqual([]);
  });
});

describe.skipIf(!HAS_DATA)("the answer never waits for the sample", () => {
  it("answers while the R2 write is held, and the page is stored once it is let go", async () => {
    const site = "held.sampling.example";
    await allowPosting([site]);
    let release: () => void = () => {};
    const held = new Promise<void>((done) => (release = done));
    const bucket = env.PAGES!;
    // The real bucket, with every put held until the test lets it go.
    const holding = new Proxy(bucket, {
      get(target, name) {
        if (name === "put") return async (...args: Parameters<R2Bucket["put"]>) => (await held, target.put(...args));
        const value = Reflect.get(target, name) as unknown;
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const body = await (await fetch(`${ORIGIN}${PAGES[6].path}`)).arrayBuffer();
    const context = createExecutionContext();
    const request = new Request(`https://cleaner.test/v1/clean?${new URLSearchParams({ url: PAGES[6].url, site, format: "text" })}`, {
      method: "POST", body, headers: { "x-api-key": API_KEY, "content-type": "text/html" },
    });
    const response = await worker.fetch(request, { ...learningEnv(), PAGES: holding }, context);
    expect(response.status).toBe(200);
    expect((await response.text()).length).toBeGreaterThan(0);
    expect(await sampledKeys(site)).toEqual([]);
    release();
    await waitOnExecutionContext(context);
    expect(await sampledKeys(site)).toHaveLength(1);
  });
});

describe("a site's sample is bounded", () => {
  const settings = resolveLearningSettings(learningEnv({ LEARN_MAX_PAGES: "4", LEARN_MIN_PAGES: "1000" }));
  const page = (n: number) => ({ html: `<html><body><p>Page ${n} of the bounded site.</p></body></html>`, url: `https://bounded.example/story-${n}`, site: "bounded.sampling.example", evidence: { kind: "fetched" } as const });
  const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));

  it("keeps the newest LEARN_MAX_PAGES pages, and one object per URL with its latest copy", async () => {
    for (let n = 1; n <= 6; n++) expect(await samplePage(learningEnv(), settings, page(n), at(n))).toBe(Math.min(n, 4));
    let sampled = await listSampledPages(env.PAGES!, "bounded.sampling.example");
    expect(sampled.map((entry) => entry.url)).toEqual([6, 5, 4, 3].map((n) => `https://bounded.example/story-${n}`));
    // Story 4 again, later: still four objects, story 4 now the newest, its copy the new one.
    await samplePage(learningEnv(), settings, { ...page(4), html: "<html><body><p>Story 4, updated.</p></body></html>" }, at(10));
    sampled = await listSampledPages(env.PAGES!, "bounded.sampling.example");
    expect(sampled.map((entry) => entry.url)).toEqual([4, 6, 5, 3].map((n) => `https://bounded.example/story-${n}`));
    expect(await (await env.PAGES!.get(sampled[0].key))!.text()).toContain("Story 4, updated.");
  });
});
