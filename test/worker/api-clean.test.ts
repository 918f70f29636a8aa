import { env } from "cloudflare:test";
import { beforeAll, describe, expect, inject, it } from "vitest";
import app from "../../src/worker";

// The reader API on real pages (../shared/data, served by the test origin), in workerd with a real local KV.
const origin = inject("originUrl");
const KEY = { "x-api-key": "test-key" };
const hasData = (await fetch(`${origin}/data/README.md`)).ok;
if (!hasData) console.warn("api-clean tests skipped: ../shared/data is absent");

async function call(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  for (const [name, value] of Object.entries(KEY)) headers.set(name, value);
  return app.request(`https://cleaner.test${path}`, { ...init, headers }, env);
}

// dragnet page 117 (bbc.co.uk): a football story under the BBC's 2012 template.
const PAGE = "/data/dragnet/pages/117.html";
const GOLD = "/data/dragnet/gold/117.txt";
const ARTICLE_SENTENCE = "QPR are considering loaning Joey Barton to a Football League club to speed up the serving of his 12-match ban.";
const TEMPLATE_RULES = ["Accessibility\\s+links\\s+Skip\\s+to\\s+content", "Skip\\s+to\\s+local\\s+navigation"];

function ruleSet(site: string, patterns: readonly string[]): string {
  return JSON.stringify({
    version: 1,
    site,
    minedAt: "2026-03-01T00:00:00Z",
    pages: 10,
    cutoff: 0.6,
    mutablePatterns: [],
    rules: patterns.map((pattern) => ({ pattern, docFreq: 10, count: 10, tokens: 4 })),
  });
}

describe.skipIf(!hasData)("/v1/clean on a real page", () => {
  let pageBytes: Uint8Array;
  let gold: string;
  beforeAll(async () => {
    pageBytes = new Uint8Array(await (await fetch(`${origin}${PAGE}`)).arrayBuffer());
    gold = await (await fetch(`${origin}${GOLD}`)).text();
    expect(gold).toContain(ARTICLE_SENTENCE);
  });

  it("GET fetches the page and says which site and mode cleaned it", async () => {
    const response = await call(`/v1/clean?url=${encodeURIComponent(origin + PAGE)}&format=text`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; charset=utf-8/);
    expect(response.headers.get("x-clean-site")).toBe("127.0.0.1");
    expect(response.headers.get("x-clean-rules")).toBe("missing");
    expect(response.headers.get("x-clean-mode")).toBe("classifier"); // no rules: the bundled model
    expect(response.headers.get("x-clean-bailout")).toBeNull();
    expect(await response.text()).toContain(ARTICLE_SENTENCE);
  });

  it("POST with a site applies that site's rules from KV", async () => {
    const site = "bbc-117.api.example";
    await env.RULES.put(site, ruleSet(site, TEMPLATE_RULES));
    const without = await call("/v1/clean?site=unknown.api.example&format=text", { method: "POST", headers: { "content-type": "text/html" }, body: pageBytes });
    const withRules = await call(`/v1/clean?site=${site}&format=text`, { method: "POST", headers: { "content-type": "text/html" }, body: pageBytes });
    expect(withRules.status).toBe(200);
    expect(withRules.headers.get("x-clean-site")).toBe(site);
    expect(withRules.headers.get("x-clean-rules")).toBe("applied");
    expect(withRules.headers.get("x-clean-mode")).toMatch(/^rules/);
    // Without rules the bundled classifier cleans the page; with rules, rules plus the classifier (the default).
    expect(without.headers.get("x-clean-mode")).toBe("classifier");
    expect(without.headers.get("x-clean-rules")).toBe("missing");
    expect(await without.text()).toContain(ARTICLE_SENTENCE);
    const cleaned = await withRules.text();
    expect(cleaned).not.toContain("Skip to content");
    expect(cleaned).not.toContain("Skip to local navigation");
    expect(cleaned).toContain(ARTICLE_SENTENCE);
    expect(withRules.headers.get("x-clean-removed")).toMatch(/blocks=\d+; chars=[1-9]\d*/);
  });

  it("?mode= chooses what cleans: rules alone, the classifier alone, or a 400 for an unknown mode", async () => {
    const site = "bbc-117-mode.api.example";
    await env.RULES.put(site, ruleSet(site, TEMPLATE_RULES));
    const post = (query: string) => call(`/v1/clean?site=${site}&format=text&${query}`, { method: "POST", headers: { "content-type": "text/html" }, body: pageBytes });
    expect((await post("")).headers.get("x-clean-mode")).toBe("rules+classifier");
    expect((await post("mode=rules")).headers.get("x-clean-mode")).toBe("rules");
    expect((await post("mode=classifier")).headers.get("x-clean-mode")).toBe("classifier");
    expect((await post("mode=rules+classifier")).headers.get("x-clean-mode")).toBe("rules+classifier");
    const unknown = await post("mode=magic");
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe("bad-request");
  });

  it("a url in POST names the site (host without www.) when no site is given", async () => {
    const site = "bbc.co.uk";
    await env.RULES.put(site, ruleSet(site, TEMPLATE_RULES));
    const url = encodeURIComponent("http://www.bbc.co.uk/sport/0/football/18971248");
    const response = await call(`/v1/clean?url=${url}&format=text`, { method: "POST", headers: { "content-type": "text/html" }, body: pageBytes });
    expect(response.headers.get("x-clean-site")).toBe("bbc.co.uk");
    expect(response.headers.get("x-clean-rules")).toBe("applied");
  });

  it("POST with neither url nor site cleans without rules and names no site", async () => {
    const response = await call("/v1/clean?format=text", { method: "POST", headers: { "content-type": "text/html" }, body: pageBytes });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-clean-rules")).toBe("no-site");
    expect(response.headers.get("x-clean-site")).toBeNull();
    expect(await response.text()).toContain(ARTICLE_SENTENCE);
  });

  it("answers each format with its content type; json carries the reader fields", async () => {
    const expected: Record<string, RegExp> = {
      html: /^text\/html; charset=utf-8/,
      text: /^text\/plain; charset=utf-8/,
      markdown: /^text\/markdown; charset=utf-8/,
      json: /^application\/json/,
    };
    for (const [format, type] of Object.entries(expected)) {
      const response = await call(`/v1/clean?format=${format}&url=${encodeURIComponent("http://www.bbc.co.uk/sport/0/football/18971248")}`, {
        method: "POST",
        headers: { "content-type": "text/html" },
        body: pageBytes,
      });
      expect(response.status, format).toBe(200);
      expect(response.headers.get("content-type"), format).toMatch(type);
      const body = await response.text();
      if (format === "html") expect(body).toMatch(/<html[\s>]/i);
      if (format === "json") {
        const json = JSON.parse(body) as Record<string, unknown>;
        expect(json).toMatchObject({ site: "bbc.co.uk", url: "http://www.bbc.co.uk/sport/0/football/18971248" });
        expect(String(json.title)).toContain("Barton");
        expect(String(json.text)).toContain(ARTICLE_SENTENCE);
        expect(json).toHaveProperty("markdown");
        expect(json).toHaveProperty("mode");
        expect(json).toHaveProperty("removed");
      } else {
        expect(body).toContain("Joey Barton");
      }
    }
  });

  it("GET honours ?site= over the URL's host", async () => {
    const site = "bbc-117.api.example";
    const response = await call(`/v1/clean?url=${encodeURIComponent(origin + PAGE)}&site=${site}&format=text`);
    expect(response.headers.get("x-clean-site")).toBe(site);
  });
});

describe("/v1/rules/:site", () => {
  const get = async (site: string) => {
    const response = await call(`/v1/rules/${site}`);
    return { status: response.status, body: (await response.json()) as { status: string; rulesUsed: number; problems: string[]; ruleSet: unknown } };
  };

  it("reports a missing, a valid, an invalid and a partly unsafe rule set", async () => {
    expect((await get("nothing.rules.example")).body).toMatchObject({ status: "missing", rulesUsed: 0, ruleSet: null });

    await env.RULES.put("valid.rules.example", ruleSet("valid.rules.example", TEMPLATE_RULES));
    const valid = await get("valid.rules.example");
    expect(valid.status).toBe(200);
    expect(valid.body).toMatchObject({ status: "applied", rulesUsed: 2, problems: [] });
    expect(valid.body.ruleSet).toMatchObject({ site: "valid.rules.example", version: 1 });

    await env.RULES.put("broken.rules.example", '{"version": 1, "site": "broken.rules.example", "rules": [');
    const broken = await get("broken.rules.example");
    expect(broken.body.status).toBe("invalid");
    expect(broken.body.problems.join(" ")).toContain("JSON");

    await env.RULES.put("unsafe.rules.example", ruleSet("unsafe.rules.example", ["(x+x+)+y", ...TEMPLATE_RULES]));
    const unsafe = await get("unsafe.rules.example");
    expect(unsafe.body).toMatchObject({ status: "unsafe-skipped", rulesUsed: 2 });
    expect(unsafe.body.problems[0]).toContain("(x+x+)+y");
  });

  it("normalises www. and refuses a non-host", async () => {
    expect((await get("www.nothing.rules.example")).body).toMatchObject({ status: "missing" });
    expect((await call("/v1/rules/not_a_host!")).status).toBe(400);
  });
});
