import { env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import app from "../../src/worker";

// The list of ruled sites, keys that name a path, and `?site=` with a port, in workerd with a real local KV.
const origin = inject("originUrl");
const KEY = { "x-api-key": "test-key" };
const hasData = (await fetch(`${origin}/data/README.md`)).ok;

async function call(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  for (const [name, value] of Object.entries(KEY)) headers.set(name, value);
  return app.request(`https://cleaner.test${path}`, { ...init, headers }, env);
}

function ruleSet(site: string, patterns: readonly string[]): string {
  return JSON.stringify({
    version: 1, site, minedAt: "2026-03-01T00:00:00Z", pages: 10, cutoff: 0.6, mutablePatterns: [],
    rules: patterns.map((pattern) => ({ pattern, docFreq: 10, count: 10, tokens: 2 })),
  });
}

describe("GET /v1/rules", () => {
  it("lists the ruled sites a page at a time, with a cursor until the last page", async () => {
    const sites = ["a.list.example", "b.list.example", "c.list.example/news", "localhost:8787"];
    for (const site of sites) await env.RULES.put(site, ruleSet(site, ["Skip\\s+navigation"]));
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response = await call(`/v1/rules?limit=3${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`);
      expect(response.status).toBe(200);
      const body = (await response.json()) as { sites: string[]; cursor: string | null };
      expect(body.sites.length).toBeLessThanOrEqual(3);
      seen.push(...body.sites);
      cursor = body.cursor;
      pages += 1;
    } while (cursor !== null && pages < 10);
    expect(pages).toBeGreaterThanOrEqual(2);
    for (const site of sites) expect(seen).toContain(site);
  });

  it("refuses a bad limit", async () => {
    expect((await call("/v1/rules?limit=0")).status).toBe(400);
    expect((await call("/v1/rules?limit=5000")).status).toBe(400);
    expect((await call("/v1/rules?limit=ten")).status).toBe(400);
  });

  it("reads a path key and a key with a port", async () => {
    await env.RULES.put("path.rules.example/news", ruleSet("path.rules.example/news", ["Skip\\s+navigation"]));
    const path = (await (await call("/v1/rules/path.rules.example/news")).json()) as { site: string; status: string };
    expect(path).toMatchObject({ site: "path.rules.example/news", status: "applied" });
    await env.RULES.put("localhost:8787", ruleSet("localhost:8787", ["Skip\\s+navigation"]));
    const port = await call("/v1/clean?site=localhost:8787&format=text", { method: "POST", headers: { "content-type": "text/html" }, body: "<p>Skip navigation</p><p>The council met on Monday.</p>" });
    expect(port.status).toBe(200);
    expect(port.headers.get("x-clean-rules")).toBe("applied");
    expect(await port.text()).not.toContain("Skip navigation");
  });
});

describe("admin routes with a path key", () => {
  it("stores and deletes bbc.co.uk/news, refusing a set for another key", async () => {
    const admin = (path: string, init: RequestInit = {}) =>
      app.request(`https://cleaner.test${path}`, { ...init, headers: { "x-api-key": "admin-secret" } }, { ...env, ADMIN_KEY: "admin-secret" });
    const stored = await admin("/admin/rules/bbc.co.uk/news", { method: "PUT", body: ruleSet("bbc.co.uk/news", ["Skip\\s+navigation"]) });
    expect(stored.status).toBe(200);
    expect(await env.RULES.get("bbc.co.uk/news")).not.toBeNull();
    expect((await admin("/admin/rules/bbc.co.uk/sport", { method: "PUT", body: ruleSet("bbc.co.uk/news", ["Skip\\s+navigation"]) })).status).toBe(422);
    expect((await admin("/admin/rules/bbc.co.uk/news", { method: "DELETE" })).status).toBe(200);
    expect(await env.RULES.get("bbc.co.uk/news")).toBeNull();
  });

  it("refuses a set with an unsafe mutable pattern or a field it does not know, naming it, and stores nothing", async () => {
    const admin = (path: string, init: RequestInit = {}) =>
      app.request(`https://cleaner.test${path}`, { ...init, headers: { "x-api-key": "admin-secret" } }, { ...env, ADMIN_KEY: "admin-secret" });
    const site = "refused.rules.example";
    const base = JSON.parse(ruleSet(site, ["Skip\\s+navigation"])) as Record<string, unknown>;
    const nested = await admin(`/admin/rules/${site}`, { method: "PUT", body: JSON.stringify({ ...base, mutablePatterns: [{ name: "evil", pattern: "(?:a+)+b" }] }) });
    expect(nested.status).toBe(422);
    expect(((await nested.json()) as { error: { message: string } }).error.message).toMatch(/^mutablePatterns\.0\.pattern: unsafe/);
    const misspelt = await admin(`/admin/rules/${site}`, { method: "PUT", body: JSON.stringify({ ...base, version: 2, strp: [".share"] }) });
    expect(misspelt.status).toBe(422);
    expect(((await misspelt.json()) as { error: { message: string } }).error.message).toMatch(/^strp: unknown field/);
    expect(await env.RULES.get(site)).toBeNull();
  });
});

describe.skipIf(!hasData)("keys that name a path match URLs by longest prefix", () => {
  it("a page takes the rules of the longest key over its path: 127.0.0.1/data/dragnet, else 127.0.0.1/data", async () => {
    await env.RULES.put("127.0.0.1", ruleSet("127.0.0.1", ["Accessibility\\s+links"]));
    await env.RULES.put("127.0.0.1/data", ruleSet("127.0.0.1/data", ["Skip\\s+to\\s+local\\s+navigation"]));
    await env.RULES.put("127.0.0.1/data/dragnet", ruleSet("127.0.0.1/data/dragnet", ["Accessibility\\s+links\\s+Skip\\s+to\\s+content"]));
    const clean = async (path: string) => {
      const response = await call(`/v1/clean?url=${encodeURIComponent(origin + path)}&format=text&mode=rules`);
      expect(response.status).toBe(200);
      expect(response.headers.get("x-clean-rules")).toBe("applied");
      return response.text();
    };
    const dragnet = await clean("/data/dragnet/pages/117.html");
    expect(dragnet).not.toContain("Skip to content");
    expect(dragnet).toContain("Skip to local navigation");
    const other = await clean("/data/cleanportaleval/pages/bbc.co.uk_news_01.html");
    expect(other).toContain("Accessibility links");
    expect(other).toContain("Skip to content");
    expect(other).not.toContain("Skip to local navigation");
  });
});
