import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { formatFromAccept } from "../../src/http/api/negotiate";
import { targetOfPath } from "../../src/http/api/read-routes";
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

describe("format negotiation", () => {
  const offered = ["html", "text", "markdown", "json", "article"] as const;
  it("reads Accept by q-value, the first listed on a tie, wildcards standing for the default", () => {
    expect(formatFromAccept("text/markdown", offered, "html")).toBe("markdown");
    expect(formatFromAccept("text/markdown, text/html;q=0.9", offered, "html")).toBe("markdown");
    expect(formatFromAccept("text/html,application/xhtml+xml,application/xml;q=0.9,text/markdown;q=0.8,*/*;q=0.7", offered, "html")).toBe("html");
    expect(formatFromAccept("text/plain;q=0.5, application/json", offered, "html")).toBe("json");
    expect(formatFromAccept("*/*", offered, "html")).toBe("html");
    expect(formatFromAccept("image/png", offered, "html")).toBeNull();
    expect(formatFromAccept("text/markdown;q=0", offered, "html")).toBeNull();
  });

  it.skipIf(!hasData)("answers Markdown for Accept: text/markdown, with Vary; ?format= wins and sends no Vary", async () => {
    const url = encodeURIComponent(origin + PAGE);
    const markdown = await call(`/v1/clean?url=${url}`, { headers: { accept: "text/markdown" } });
    expect(markdown.status).toBe(200);
    expect(markdown.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(markdown.headers.get("vary")).toMatch(/\bAccept\b/);
    expect(await markdown.text()).toContain("QPR are considering loaning Joey Barton");
    const byHeader = await call(`/v1/clean?url=${url}`, { headers: { "x-return-format": "md" } });
    expect(byHeader.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    const json = await call(`/v1/clean?url=${url}`, { headers: { accept: "application/json" } });
    expect(json.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const text = await call(`/v1/clean?url=${url}&format=text`, { headers: { accept: "text/markdown" } });
    expect(text.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(text.headers.get("vary")).toBeNull();
    const alias = await call(`/v1/clean?url=${url}&format=md`);
    expect(alias.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    const bad = await call(`/v1/clean?url=${url}`, { headers: { "x-return-format": "screenshot" } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/x-return-format must be one of/);
  });

  it.skipIf(!hasData)("writes a YAML front matter with frontmatter=true", async () => {
    const response = await call(`/v1/clean?url=${encodeURIComponent(origin + PAGE)}&format=markdown&frontmatter=true`);
    const body = await response.text();
    expect(body).toMatch(/^---\ntitle: "[^"\n]*Barton[^"\n]*"\nurl: "http:\/\/127\.0\.0\.1:\d+\/data\/dragnet\/pages\/117\.html"\n(?:[a-z]+: "[^\n]*"\n)*---\n\n/);
    expect(body).toContain("QPR are considering loaning Joey Barton");
  });

  it("negotiates a posted page too", async () => {
    const response = await call("/v1/clean", { method: "POST", headers: { "content-type": "text/html", accept: "text/plain" }, body: "<p>Hello <b>there</b></p>" });
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(response.headers.get("vary")).toMatch(/Accept/);
    expect(await response.text()).toBe("Hello there");
  });
});

describe("GET /v1/read/<url>", () => {
  it("reads the target from the path: plain (query the target's, key left out) or encoded (query the API's)", () => {
    expect(targetOfPath("https://c.test/v1/read/https://example.com/a/b?x=1&key=k&y=%20")).toEqual({ url: "https://example.com/a/b?x=1&y=%20", apiQuery: null });
    expect(targetOfPath("https://c.test/v1/read/http:/example.com/")).toEqual({ url: "http://example.com/", apiQuery: null });
    const encoded = targetOfPath("https://c.test/v1/read/https%3A%2F%2Fexample.com%2Fa%3Fq%3D1?format=text");
    expect(encoded.url).toBe("https://example.com/a?q=1");
    expect(encoded.apiQuery?.get("format")).toBe("text");
  });

  it.skipIf(!hasData)("fetches and cleans the page, plain and encoded, with the format negotiated", async () => {
    const plain = await call(`/v1/read/${origin}${PAGE}`, { headers: { accept: "text/markdown" } });
    expect(plain.status).toBe(200);
    expect(plain.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(plain.headers.get("vary")).toMatch(/Accept/);
    expect(await plain.text()).toContain("QPR are considering loaning Joey Barton");
    const encoded = await call(`/v1/read/${encodeURIComponent(origin + PAGE)}?format=text`);
    expect(encoded.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await encoded.text()).toContain(ARTICLE_SENTENCE);
  });

  it("answers 400 without a URL, and the guard's errors for a refused one", async () => {
    expect((await call("/v1/read/")).status).toBe(400);
    expect((await call("/v1/read/ftp://example.com/")).status).toBe(400);
    const metadata = await call("/v1/read/http://169.254.169.254/latest/meta-data/");
    expect(metadata.status).toBe(403);
  });
});

describe.skipIf(!hasData)("a proxied page for an agent", () => {
  const PROXY_ORIGINS = JSON.stringify({ "/proxy/reader": origin });

  async function proxied(path: string, headers: Record<string, string>): Promise<Response> {
    const context = createExecutionContext();
    const response = await app.fetch(new Request(`https://edge.test/proxy/reader${path}`, { headers }), { ...env, PROXY_ORIGINS }, context);
    await waitOnExecutionContext(context);
    return response;
  }

  it("answers Markdown for Accept: text/markdown and the page for a browser, both with Vary: Accept, each cached apart", async () => {
    const path = `${PAGE}?agent=${Date.now()}`;
    const markdown = await proxied(path, { accept: "text/markdown" });
    expect(markdown.status).toBe(200);
    expect(markdown.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(markdown.headers.get("vary")).toMatch(/Accept/);
    const markdownText = await markdown.text();
    expect(markdownText).toContain("QPR are considering loaning Joey Barton");
    expect(markdownText).not.toMatch(/<html|<div/i);
    const page = await proxied(path, { accept: "text/html,application/xhtml+xml,*/*;q=0.8" });
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("vary")).toMatch(/Accept/);
    expect(await page.text()).toMatch(/<html/i);
    const again = await proxied(path, { accept: "text/markdown" });
    expect(again.headers.get("x-clean-cache")).toBe("hit");
    expect(await again.text()).toBe(markdownText);
    expect(again.headers.get("etag")).not.toBe(page.headers.get("etag") ?? "none");
  });

  it("answers HEAD as GET: the negotiated format's type and Vary: Accept, for each Accept", async () => {
    for (const accept of ["text/markdown", "text/plain", "text/html,application/xhtml+xml,*/*;q=0.8"]) {
      const path = `${PAGE}?head=${Date.now()}-${accept.length}`;
      const context = createExecutionContext();
      const head = await app.fetch(new Request(`https://edge.test/proxy/reader${path}`, { method: "HEAD", headers: { accept } }), { ...env, PROXY_ORIGINS }, context);
      await waitOnExecutionContext(context);
      const get = await proxied(path, { accept });
      await get.text();
      expect(head.status, accept).toBe(200);
      expect(head.headers.get("content-type"), accept).toBe(get.headers.get("content-type"));
      expect(head.headers.get("vary"), accept).toMatch(/Accept/);
      expect(await head.text()).toBe("");
    }
  });
});

describe("the reader cache", () => {
  async function count(id: string): Promise<number> {
    return ((await (await fetch(`${origin}/reader/count?id=${encodeURIComponent(id)}`)).json()) as { count: number }).count;
  }
  let serial = 0;
  const uniqueId = (name: string) => `${name}-${Date.now()}-${serial++}`;

  async function viaWorker(path: string, headers: Record<string, string> = {}): Promise<Response> {
    const context = createExecutionContext();
    const response = await app.fetch(new Request(`https://cleaner.test${path}`, { headers: { ...KEY, ...headers } }), env, context);
    await waitOnExecutionContext(context);
    return response;
  }

  it("answers a second identical /v1/clean?url= from the cache: one origin fetch, an ETag, 304 when it matches", async () => {
    const id = uniqueId("clean");
    const path = `/v1/clean?url=${encodeURIComponent(`${origin}/reader/counted.html?id=${id}`)}&format=markdown`;
    const first = await viaWorker(path);
    expect(first.status).toBe(200);
    expect(first.headers.get("x-clean-cache")).toBe("miss");
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(first.headers.get("cache-control")).toBe("private, max-age=300");
    const body = await first.text();
    expect(body).toContain("dredge the inner basin");
    const second = await viaWorker(path);
    expect(second.headers.get("x-clean-cache")).toBe("hit");
    expect(await second.text()).toBe(body);
    expect(await count(id)).toBe(1);
    const conditional = await viaWorker(path, { "if-none-match": etag ?? "" });
    expect(conditional.status).toBe(304);
    expect(conditional.headers.get("etag")).toBe(etag);
    expect(await count(id)).toBe(1);
  });

  it("keys by format and options, and Cache-Control: no-cache fetches again", async () => {
    const id = uniqueId("keys");
    const url = encodeURIComponent(`${origin}/reader/counted.html?id=${id}`);
    await (await viaWorker(`/v1/clean?url=${url}&format=markdown`)).text();
    expect((await viaWorker(`/v1/clean?url=${url}&format=text`)).headers.get("x-clean-cache")).toBe("miss");
    expect((await viaWorker(`/v1/clean?url=${url}`, { accept: "text/markdown" })).headers.get("x-clean-cache")).toBe("hit");
    expect((await viaWorker(`/v1/clean?url=${url}&format=markdown&frontmatter=true`)).headers.get("x-clean-cache")).toBe("miss");
    expect(await count(id)).toBe(3);
    const bypass = await viaWorker(`/v1/clean?url=${url}&format=markdown`, { "cache-control": "no-cache" });
    expect(bypass.headers.get("x-clean-cache")).toBe("bypass");
    expect(await count(id)).toBe(4);
  });

  it("caches /v1/read/<url> and /v1/feed the same way", async () => {
    const id = uniqueId("read");
    const read = `/v1/read/${origin}/reader/counted.html?id=${id}`;
    expect((await viaWorker(read, { accept: "text/plain" })).headers.get("x-clean-cache")).toBe("miss");
    const again = await viaWorker(read, { accept: "text/plain" });
    expect(again.headers.get("x-clean-cache")).toBe("hit");
    expect(again.headers.get("vary")).toMatch(/Accept/);
    expect(await count(id)).toBe(1);
    const feedId = uniqueId("feed");
    const feed = `/v1/feed?url=${encodeURIComponent(`${origin}/reader/feed.xml?id=${feedId}`)}&fulltext=1`;
    const firstFeed = await viaWorker(feed);
    expect(firstFeed.headers.get("x-feed-items")).toBe("total=1; cleaned=1; fulltext=1; failed=0; skipped=0");
    expect(firstFeed.headers.get("x-clean-cache")).toBe("miss");
    const feedText = await firstFeed.text();
    // The full-text item is the article fragment, without the heading that repeats its title or the page's navigation.
    expect(feedText).toContain("dredge the inner basin");
    expect(feedText).not.toContain("Home");
    const secondFeed = await viaWorker(feed);
    expect(secondFeed.headers.get("x-clean-cache")).toBe("hit");
    expect(await count(`feed-${feedId}`)).toBe(1);
    expect(await count(`${feedId}-item`)).toBe(1);
  });
});
