import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import app from "../../src/worker";

// Request selectors (X-Target-Selector, X-Remove-Selector, or the query's target-selector and remove-selector) on
// the reader API, in workerd on a real dev page: every format honours them, a bad one is a 400, they key the cache.
const origin = inject("originUrl");
const KEY = { "x-api-key": "test-key" };
const hasData = (await fetch(`${origin}/data/README.md`)).ok;
if (!hasData) console.warn("api-selectors tests skipped: ../shared/data is absent");

// dragnet page 117 (bbc.co.uk, 2012): the story sits in div.article, with a byline and a pull-out list inside it.
const PAGE = `${origin}/data/dragnet/pages/117.html`;
const LEAD = "QPR are considering loaning Joey Barton to a Football League club to speed up the serving of his 12-match ban.";
const BYLINE = "Mike Whalley";
const PULL_OUT = "QPR: First 12 Premier League games";
const OUTSIDE = "Last updated at"; // the time stamp beside the story, outside div.article

async function call(path: string, headers: Record<string, string> = {}, init: RequestInit = {}): Promise<Response> {
  const context = createExecutionContext();
  const response = await app.fetch(new Request(`https://cleaner.test${path}`, { ...init, headers: { ...KEY, ...headers } }), env, context);
  await waitOnExecutionContext(context);
  return response;
}

function pick(document: Record<string, unknown>, fields: readonly string[]): Record<string, string> {
  return Object.fromEntries(fields.map((field) => {
    expect(typeof document[field], field).toBe("string");
    return [field, document[field] as string];
  }));
}

// The text keeps its header (header=true), so that it shows what a selector kept of the headline and byline.
// `extra` is the API's (and the page's, so that its cache entry is apart); `variant` only the page's, to keep cache entries apart.
const cleanUrl = (format: string, extra = "", variant = "") => `/v1/clean?url=${encodeURIComponent(`${PAGE}?selectors=${format}${extra}${variant}`)}&format=${format}${extra}${format === "text" ? "&header=true" : ""}`;

describe.skipIf(!hasData)("request selectors", () => {
  it("X-Target-Selector keeps only the matched element, and says how many matched", async () => {
    // With mode=none nothing else cleans the page: what goes, the selector took.
    const plain = await (await call(cleanUrl("text", "&mode=none"))).text();
    expect(plain).toContain(OUTSIDE);
    const response = await call(cleanUrl("text", "&mode=none"), { "x-target-selector": "div.article" });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-clean-selectors")).toBe("target=1");
    const text = await response.text();
    expect(text.startsWith("QPR consider Joey Barton loan to speed up 12-match ban")).toBe(true);
    expect(text).toContain(LEAD);
    expect(text).not.toContain(OUTSIDE);
    expect(text.length).toBeLessThan(plain.length);
  });

  it("X-Remove-Selector takes out more, in every format", async () => {
    for (const format of ["text", "markdown", "json", "html", "article"]) {
      const response = await call(cleanUrl(format, "", "&r=1"), { "x-target-selector": "div.article", "x-remove-selector": ".byline, .story-feature" });
      expect(response.status, format).toBe(200);
      expect(response.headers.get("x-clean-selectors"), format).toBe("target=1; remove=4");
      const body = await response.text();
      // JSON's metadata (byline, title) is read from the whole page; its cleaned fields follow the selectors.
      const cleaned = format === "json" ? Object.values(pick(JSON.parse(body) as Record<string, unknown>, ["text", "markdown", "html", "content"])).join("\n") : body;
      expect(cleaned, format).toContain("QPR are considering loaning Joey Barton");
      for (const gone of [BYLINE, PULL_OUT, OUTSIDE]) expect(cleaned, `${format}: ${gone}`).not.toContain(gone);
    }
  });

  it("takes the same selectors as query parameters", async () => {
    const byHeader = await (await call(cleanUrl("markdown", "", "&h=1"), { "x-target-selector": "div.article", "x-remove-selector": ".byline" })).text();
    const byQuery = await (await call(`${cleanUrl("markdown", "", "&h=1")}&target-selector=${encodeURIComponent("div.article")}&remove-selector=.byline`)).text();
    expect(byQuery).toBe(byHeader);
    expect(byQuery).not.toContain(BYLINE);
  });

  it("applies to /v1/read/<url> and to a posted page", async () => {
    const read = await call(`/v1/read/${PAGE}`, { "x-target-selector": "#headline", "x-return-format": "text", "x-article-header": "true" });
    expect(await read.text()).toBe("QPR consider Joey Barton loan to speed up 12-match ban\n\nBy Mike Whalley BBC Sport");
    const html = await (await fetch(PAGE)).text();
    const posted = await call(`/v1/clean?format=text&header=true&url=${encodeURIComponent(PAGE)}`, { "content-type": "text/html", "x-target-selector": "h1.story-header" }, { method: "POST", body: html });
    expect(await posted.text()).toBe("QPR consider Joey Barton loan to speed up 12-match ban");
  });

  it("answers 400 with the reason for a selector outside the subset, before fetching", async () => {
    for (const [selector, reason] of [["li:nth-child(2)", "pseudo-classes"], ["h1 + p", "sibling combinators"], ["div[", "expected an attribute name"]]) {
      const response = await call(cleanUrl("text"), { "x-remove-selector": selector });
      expect(response.status, selector).toBe(400);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("bad-request");
      expect(body.error.message, selector).toMatch(new RegExp(`^X-Remove-Selector: .*${reason}`));
    }
    const query = await call(`${cleanUrl("text")}&target-selector=${encodeURIComponent("a ~ b")}`);
    expect(query.status).toBe(400);
  });

  it("a RuleSet of version 2 in KV cleans with its selectors alone (no text rules), beside the request's", async () => {
    const ruleSet = {
      version: 2, site: "selectors.example", minedAt: "2026-11-24T12:00:00Z", pages: 0, cutoff: 0, mutablePatterns: [], rules: [], source: "hand",
      main: ["article.none", "div.article"], strip: [".story-feature", ".byline"], keep: [".byline-name"],
    };
    await env.RULES.put("selectors.example", JSON.stringify(ruleSet));
    const response = await call(`${cleanUrl("text", "", "&kv=1")}&site=selectors.example&mode=rules`);
    expect(response.headers.get("x-clean-rules")).toBe("applied");
    expect(response.headers.get("x-clean-mode")).toBe("rules");
    expect(response.headers.get("x-clean-selectors")).toBe("strip=4; keep=1; main=1");
    const text = await response.text();
    expect(text.startsWith("QPR consider Joey Barton loan to speed up 12-match ban\n\nBy Mike Whalley\n\nQPR are considering")).toBe(true);
    for (const gone of [PULL_OUT, OUTSIDE, "BBC Sport\n"]) expect(text).not.toContain(gone);
    const both = await call(`${cleanUrl("text", "", "&kv=2")}&site=selectors.example&mode=rules`, { "x-remove-selector": ".byline-name" });
    expect(both.headers.get("x-clean-selectors")).toBe("strip=4; keep=1; remove=1; main=1");
    expect(await both.text()).not.toContain(BYLINE);
  });

  it("keys the cache: other selectors are a miss, the same ones a hit", async () => {
    const path = cleanUrl("text", "", `&cache=${Date.now()}`);
    expect((await call(path, { "x-target-selector": "div.article" })).headers.get("x-clean-cache")).toBe("miss");
    expect((await call(path, { "x-target-selector": "#headline" })).headers.get("x-clean-cache")).toBe("miss");
    expect((await call(path, { "x-target-selector": "#headline", "x-remove-selector": ".byline" })).headers.get("x-clean-cache")).toBe("miss");
    const again = await call(path, { "x-target-selector": "#headline" });
    expect(again.headers.get("x-clean-cache")).toBe("hit");
    expect(await again.text()).toBe("QPR consider Joey Barton loan to speed up 12-match ban\n\nBy Mike Whalley BBC Sport");
  });
});
