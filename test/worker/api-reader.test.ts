import { env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import app from "../../src/worker";

// The reader API's article fragment, negotiation, URL forms and cache, in workerd with a real local KV.
const origin = inject("originUrl");
const KEY = { "x-api-key": "test-key" };
const hasData = (await fetch(`${origin}/data/README.md`)).ok;
if (!hasData) console.warn("api-reader tests skipped: ../shared/data is absent");

async function call(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  for (const [name, value] of Object.entries(KEY)) if (!headers.has(name)) headers.set(name, value);
  return app.request(`https://cleaner.test${path}`, { ...init, headers }, env);
}

// dragnet page 117 (bbc.co.uk): a football story under the BBC's 2012 template, with scripts, styles and relative images.
const PAGE = "/data/dragnet/pages/117.html";
const ARTICLE_SENTENCE = "QPR are considering loaning Joey Barton to a Football League club to speed up the serving of his 12-match ban.";

describe.skipIf(!hasData)("format=article", () => {
  it("answers the kept content as a safe fragment: no script, style, iframe or handler, URLs absolute", async () => {
    const response = await call(`/v1/clean?url=${encodeURIComponent(origin + PAGE)}&format=article`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const body = await response.text();
    expect(body).toContain("QPR are considering loaning Joey Barton");
    expect(body).not.toMatch(/<(?:script|style|iframe|link|meta|form|input)\b|<[a-z][^>]*\son[a-z]+\s*=/i);
    for (const [, url] of body.matchAll(/\s(?:href|src)="([^"]*)"/g)) expect(url).toMatch(/^(?:https?:|mailto:|tel:|data:image\/)/);
    expect(body).not.toMatch(/^<html|<body/i);
  });

  it("starts with a header of title, byline and date with header=true", async () => {
    const response = await call(`/v1/clean?url=${encodeURIComponent(origin + PAGE)}&format=article&header=true`);
    const body = await response.text();
    expect(body).toMatch(/^<header><h1>[^<]*Barton[^<]*<\/h1>/);
  });

  it("gives the fragment to JSON as content, beside the cleaned page's html", async () => {
    const response = await call(`/v1/clean?url=${encodeURIComponent(origin + PAGE)}&format=json`);
    const document = (await response.json()) as { content: string; html: string; text: string };
    expect(document.content).toContain("QPR are considering loaning Joey Barton");
    expect(document.content).not.toMatch(/<script\b/i);
    expect(document.html).toMatch(/<script\b/i); // the whole page minus its template keeps the site's scripts
    expect(document.text).toContain(ARTICLE_SENTENCE);
  });
});
