// What agents' clients send, replayed against the Worker in workerd (real local KV and Cache API) with the test
// origin on loopback: a Jina Reader client (its headers, JSON, POST, errors), a Markdown-for-Agents client (Accept:
// text/markdown on the API and on the proxy), and a Readability consumer (?shape=readability). Shapes are checked
// field by field, values against the page the origin serves (test/support/reader-origin-routes.ts).
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import worker from "../../src/worker";

const ORIGIN = inject("originUrl");
const BEARER = { authorization: "Bearer test-key" };
const PROXY_ORIGINS = JSON.stringify({ "/proxy/origin": ORIGIN });
let serial = 0;

/** The agents' page, with a fresh id (its own cache entries and fetch count). */
function page(): { url: string; id: string } {
  const id = `agents-${Date.now()}-${serial++}`;
  return { url: `${ORIGIN}/reader/agents.html?id=${id.slice("agents-".length)}`, id };
}

async function call(path: string, init: RequestInit = {}, vars: Readonly<Record<string, string>> = {}): Promise<Response> {
  const context = createExecutionContext();
  const response = await worker.fetch(new Request(`https://cleaner.test${path}`, init), { ...env, PROXY_ORIGINS, ...vars }, context);
  await waitOnExecutionContext(context);
  return response;
}

async function fetchCount(id: string): Promise<number> {
  return ((await (await fetch(`${ORIGIN}/reader/count?id=${id}`)).json()) as { count: number }).count;
}

const ARTICLE_SENTENCE = "two fewer crossings on Sundays";
const TEMPLATE = "All rights reserved";

describe("a Jina Reader client", () => {
  it("gets the text envelope when it states no preference (curl's */*, or no Accept), and with X-Return-Format: content", async () => {
    const { url } = page();
    for (const headers of [{ ...BEARER }, { ...BEARER, accept: "*/*" }, { ...BEARER, accept: "text/html", "x-return-format": "content" }]) {
      const response = await call(`/v1/read/${url}`, { headers });
      const body = await response.text();
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(body).toMatch(/^Title: Ferry timetable changes for the winter\n\nURL Source: http:\/\/127\.0\.0\.1:\d+\/reader\/agents\.html\?id=[\w-]+\n\nPublished Time: 2026-11-02T08:30:00(?:\.000)?Z\n\nMarkdown Content:\n/);
      expect(body).toContain(ARTICLE_SENTENCE);
      expect(body).not.toContain(TEMPLATE);
      expect(Number(response.headers.get("x-markdown-tokens"))).toBeGreaterThan(20);
      expect(response.headers.get("vary")).toContain("Accept");
    }
  });

  it("gets Jina's JSON under Accept: application/json, with links and images as asked", async () => {
    const { url } = page();
    const response = await call(`/v1/read/${url}`, { headers: { ...BEARER, accept: "application/json", "x-with-links-summary": "true", "x-with-images-summary": "true" } });
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const json = (await response.json()) as { code: number; status: number; data: Record<string, unknown> };
    expect(json.code).toBe(200);
    expect(json.status).toBe(20000);
    expect(Object.keys(json.data).sort()).toEqual(["content", "description", "images", "links", "publishedTime", "title", "url", "usage"]);
    expect(json.data.title).toBe("Ferry timetable changes for the winter");
    expect(json.data.description).toBe("The winter ferry timetable starts next week with fewer crossings on Sundays.");
    expect(json.data.url).toBe(url);
    expect(json.data.publishedTime).toMatch(/^2026-11-02T08:30/);
    expect(json.data.content).toContain(ARTICLE_SENTENCE);
    expect((json.data.usage as { tokens: number }).tokens).toBeGreaterThan(20);
    const host = new URL(ORIGIN).host;
    expect(json.data.links).toEqual({ "full winter timetable": `http://${host}/timetables/winter`, "summer timetable": `http://${host}/timetables/summer` });
    expect(json.data.images).toEqual({ "Image 1: The ferry at the pier": `http://${host}/images/ferry.png` });
  });

  it("appends Links/Buttons and Images sections to the envelope, and leaves images out with X-Retain-Images: none", async () => {
    const { url } = page();
    const summary = await (await call(`/v1/read/${url}`, { headers: { ...BEARER, "x-with-links-summary": "all", "x-with-images-summary": "true" } })).text();
    expect(summary).toMatch(/\n\nImages:\n- !\[Image 1: The ferry at the pier\]\(http:\/\/[^)]+\/images\/ferry\.png\)\n\nLinks\/Buttons:\n- \[full winter timetable\]\([^)]+\/timetables\/winter\)\n- \[summer timetable\]/);
    const withImages = await (await call(`/v1/read/${url}`, { headers: BEARER })).text();
    expect(withImages).toContain("![The ferry at the pier](");
    const without = await (await call(`/v1/read/${url}`, { headers: { ...BEARER, "x-retain-images": "none" } })).text();
    expect(without).not.toContain("![");
    expect(without).toContain(ARTICLE_SENTENCE);
  });

  it("bypasses the cache with X-No-Cache: true (the origin is fetched again), and hits it without", async () => {
    const { url, id } = page();
    await call(`/v1/read/${url}`, { headers: BEARER });
    const hit = await call(`/v1/read/${url}`, { headers: BEARER });
    expect(hit.headers.get("x-clean-cache")).toBe("hit");
    expect(await fetchCount(id)).toBe(1);
    const fresh = await call(`/v1/read/${url}`, { headers: { ...BEARER, "x-no-cache": "true" } });
    expect(fresh.headers.get("x-clean-cache")).toBe("bypass");
    expect(await fetchCount(id)).toBe(2);
  });

  it("reads the camelCase query forms targetSelector= and removeSelector= (the encoded form, whose query is the API's)", async () => {
    const { url } = page();
    const response = await call(`/v1/read/${encodeURIComponent(url)}?targetSelector=article&removeSelector=img`, { headers: BEARER });
    expect(response.headers.get("x-clean-selectors")).toBe("target=1; remove=1");
    const body = await response.text();
    expect(body).toContain(ARTICLE_SENTENCE);
    expect(body).not.toContain("![");
  });

  it("takes POST /v1/read with {url} as JSON and as a form", async () => {
    const { url } = page();
    const json = await call("/v1/read", { method: "POST", headers: { ...BEARER, "content-type": "application/json", accept: "application/json" }, body: JSON.stringify({ url }) });
    expect(json.status).toBe(200);
    expect(((await json.json()) as { data: { url: string } }).data.url).toBe(url);
    const form = await call("/v1/read", { method: "POST", headers: { ...BEARER, "content-type": "application/x-www-form-urlencoded" }, body: `url=${encodeURIComponent(url)}&targetSelector=article` });
    expect(form.headers.get("x-clean-selectors")).toBe("target=1");
    expect(await form.text()).toMatch(/^Title: Ferry timetable/);
  });

  it("takes X-Timeout in seconds and refuses a malformed one in Jina's error shape (beside ours)", async () => {
    const { url } = page();
    expect((await call(`/v1/read/${url}`, { headers: { ...BEARER, "x-timeout": "5" } })).status).toBe(200);
    const refused = await call(`/v1/read/${url}`, { headers: { ...BEARER, "x-timeout": "soon" } });
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ data: null, code: 400, name: "bad-request", status: 40000, error: { code: "bad-request" } });
    expect(body.message).toMatch(/X-Timeout/);
    expect(body.readableMessage).toBe(`bad-request: ${body.message as string}`);
  });

  it("gets Jina's error fields for a missing key and a bad URL; /v1/clean keeps our shape alone", async () => {
    const missing = (await (await call("/v1/read/https://example.com/")).json()) as Record<string, unknown>;
    expect(missing).toMatchObject({ code: 401, name: "missing-key", status: 40100, error: { code: "missing-key" } });
    const bad = (await (await call("/v1/read/ftp://example.com/", { headers: BEARER })).json()) as Record<string, unknown>;
    expect(bad).toMatchObject({ data: null, code: 400, name: "invalid-url", error: { code: "invalid-url" } });
    const clean = (await (await call("/v1/clean?url=ftp://example.com/", { headers: BEARER })).json()) as Record<string, unknown>;
    expect(Object.keys(clean)).toEqual(["error"]);
  });

  it("keeps /v1/clean's documented default (html) when no preference is stated", async () => {
    const { url } = page();
    const response = await call(`/v1/clean?url=${encodeURIComponent(url)}`, { headers: BEARER });
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
  });
});

describe("a Markdown-for-Agents client", () => {
  it("gets Markdown with an x-markdown-tokens estimate and Vary from the API", async () => {
    const { url } = page();
    const response = await call(`/v1/read/${url}`, { headers: { ...BEARER, accept: "text/markdown, text/html;q=0.9" } });
    const body = await response.text();
    expect(response.headers.get("content-type")).toMatch(/^text\/markdown/);
    expect(response.headers.get("vary")).toContain("Accept");
    const tokens = Number(response.headers.get("x-markdown-tokens"));
    // The estimate within a third of characters / 4 (npm run eval:tokens measures it against a real tokenizer).
    expect(tokens).toBeGreaterThan(body.length / 4 / 1.33);
    expect(tokens).toBeLessThan((body.length / 4) * 1.33);
    expect(response.headers.get("content-signal")).toBeNull(); // another site's page: no signal spoken for it
  });

  it("gets the proxied site's Markdown with tokens and its Content-Signal (configurable, off), and front matter when Accept asks", async () => {
    const path = `/proxy/origin/fixtures/proxy/page.html?agents=${serial++}`;
    const markdown = await call(path, { headers: { accept: "text/markdown" } });
    const body = await markdown.text();
    expect(markdown.headers.get("content-type")).toMatch(/^text\/markdown/);
    expect(body).toMatch(/^# Harbour lights return to the old quay/);
    expect(Number(markdown.headers.get("x-markdown-tokens"))).toBeGreaterThan(10);
    expect(markdown.headers.get("content-signal")).toBe("ai-train=yes, search=yes, ai-input=yes");
    const configured = await call(path, { headers: { accept: "text/markdown" } }, { CONTENT_SIGNAL: "ai-train=no, search=yes, ai-input=yes" });
    expect(configured.headers.get("content-signal")).toBe("ai-train=no, search=yes, ai-input=yes");
    expect((await call(path, { headers: { accept: "text/markdown" } }, { CONTENT_SIGNAL: "off" })).headers.get("content-signal")).toBeNull();
    const html = await call(path, { headers: { accept: "text/html" } });
    expect(html.headers.get("content-signal")).toBeNull();
    expect(html.headers.get("x-markdown-tokens")).toBeNull();
    const front = await (await call(path, { headers: { accept: "text/markdown; frontmatter=true" } })).text();
    expect(front).toMatch(/^---\ntitle: "Harbour lights return to the old quay"\nurl: "[^"]+\/fixtures\/proxy\/page\.html\?agents=\d+"\n---\n\n# Harbour lights/);
  });
});

describe("a Readability consumer", () => {
  it("gets Readability's article fields with ?shape=readability, length in characters", async () => {
    const { url } = page();
    const html = await (await fetch(url)).text();
    const response = await call(`/v1/clean?shape=readability&url=${encodeURIComponent(url)}`, {
      method: "POST", headers: { ...BEARER, "content-type": "text/html; charset=utf-8" }, body: html,
    });
    const article = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(article).sort()).toEqual(["byline", "content", "dir", "excerpt", "lang", "length", "publishedTime", "siteName", "textContent", "title"]);
    expect(article).toMatchObject({ title: "Ferry timetable changes for the winter", byline: "Mara Quill", dir: "rtl", lang: "en", siteName: "Test Gazette" });
    expect(article.publishedTime).toMatch(/^2026-11-02T08:30/);
    expect(article.textContent).toContain(ARTICLE_SENTENCE);
    expect(article.length).toBe((article.textContent as string).length);
    expect(article.content).toMatch(/^<[a-z]/);
    expect(article.content).toContain(ARTICLE_SENTENCE);
    expect(article.excerpt).toBe("The winter ferry timetable starts next week with fewer crossings on Sundays.");
    expect((await call(`/v1/clean?shape=jina&url=${encodeURIComponent(url)}`, { headers: BEARER })).status).toBe(400);
  });
});
