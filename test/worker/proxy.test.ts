// The proxy end to end inside workerd: the Worker's own fetch handler, a real local KV and Cache API, and the
// test origin (test/support/origin-server.ts) serving ../shared/data and the fixtures over loopback.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { cleanedEtag } from "../../src/http/proxy/cache";
import worker from "../../src/worker";
import MINED_RULES from "../../rules/sethgodin.typepad.com.json";

const ORIGIN = inject("originUrl");
const ORIGIN_SITE = new URL(ORIGIN).hostname;
const PREFIX = "/proxy/origin";
const PROXY_HOST = "proxied.test";
/** The data page's own site, whose mined rule set (rules/) is published to KV below. */
const DATA_SITE = "sethgodin.typepad.com";
const PROXY_ORIGINS = JSON.stringify({
  [PREFIX]: ORIGIN,
  [PROXY_HOST]: ORIGIN,
  // The same origin, cleaned with the rules of a named site: its mined rules, or none (the classifier).
  "/proxy/site": { origin: ORIGIN, site: DATA_SITE },
  "/proxy/unknown": { origin: ORIGIN, site: "no-rules.example" },
});

/** A real page of ../shared/data (dragnet, sethgodin.typepad.com) with a sidebar template around one post. */
const DATA_PAGE = "/data/dragnet/pages/113.html";
/** Template text of that page's sidebar, removed by the rule set below; and a phrase of the post, from its gold text. */
const TEMPLATE_PHRASES = ["For More Seth check out these links:", "Seth Godin has written 12 bestsellers that have been translated into 33 languages"];
const CONTENT_PHRASE = "young boy and an escaped slave on the Mississippi";

const HAS_DATA = (await fetch(`${ORIGIN}/data/README.md`)).ok;
if (!HAS_DATA) console.warn("proxy tests on ../shared/data skipped: the data folder is absent beside the repository");

type Vars = Readonly<Record<string, string>>;

async function proxyFetch(url: string, init?: RequestInit, vars: Vars = {}): Promise<Response> {
  const context = createExecutionContext();
  const request = new Request(url.startsWith("/") ? `https://edge.test${url}` : url, init);
  const response = await worker.fetch(request, { ...env, PROXY_ORIGINS, ...vars }, context);
  await waitOnExecutionContext(context);
  return response;
}

/** A unique query per test keeps the Cache API entries of one test out of another's way. */
let serial = 0;
function fresh(path: string): string {
  return `${path}?t=${Date.now()}-${serial++}`;
}

/** Hand-written rules for the origin's site (the proxy cleans with the rules of the origin's host). */
function ruleSet(): string {
  return JSON.stringify({
    version: 1,
    site: ORIGIN_SITE,
    minedAt: "2026-01-01T00:00:00.000Z",
    pages: 10,
    cutoff: 0.5,
    mutablePatterns: [],
    rules: TEMPLATE_PHRASES.map((phrase) => ({
      pattern: phrase.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
      docFreq: 10,
      count: 10,
      tokens: phrase.split(" ").length,
    })),
  });
}

beforeAll(async () => {
  await env.RULES.put(ORIGIN_SITE, ruleSet());
  await env.RULES.put(DATA_SITE, JSON.stringify(MINED_RULES));
});

async function originBytes(path: string): Promise<{ bytes: Uint8Array; headers: Headers }> {
  const response = await fetch(`${ORIGIN}${path}`);
  return { bytes: new Uint8Array(await response.arrayBuffer()), headers: response.headers };
}

describe.skipIf(!HAS_DATA)("proxy on a page of the data set", () => {
  it("serves the page cleaned by the site's rules, with the origin's caching headers", async () => {
    const origin = await originBytes(DATA_PAGE);
    const response = await proxyFetch(fresh(`${PREFIX}${DATA_PAGE}`));
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("x-clean-mode")).toBe("rules+classifier");
    expect(response.headers.get("x-clean-site")).toBe(ORIGIN_SITE);
    for (const phrase of TEMPLATE_PHRASES) expect(new TextDecoder().decode(origin.bytes)).toContain(phrase);
    for (const phrase of TEMPLATE_PHRASES) expect(html).not.toContain(phrase);
    expect(html).toContain(CONTENT_PHRASE);
    expect(html).toContain("<title>Seth's Blog: The importance of going first</title>");
    expect(html.length).toBeLessThan(origin.bytes.length);
    expect(response.headers.get("last-modified")).toBe(origin.headers.get("last-modified"));
    expect(response.headers.get("cache-control")).toBe(origin.headers.get("cache-control"));
    expect(response.headers.get("etag")).toMatch(/^W\/".+~c[0-9a-f]{8}"$/);
    expect(response.headers.get("etag")).not.toBe(origin.headers.get("etag"));
  });

  it("cleans with the mined rules of a named site, or with the classifier for a site without rules", async () => {
    const origin = await originBytes(DATA_PAGE);
    const mined = await proxyFetch(fresh(`/proxy/site${DATA_PAGE}`));
    const minedHtml = await mined.text();
    expect(mined.headers.get("x-clean-mode")).toBe("rules+classifier");
    expect(mined.headers.get("x-clean-site")).toBe(DATA_SITE);
    expect(minedHtml).toContain(CONTENT_PHRASE);
    expect(minedHtml.length).toBeLessThan(origin.bytes.length * 0.9);

    const classified = await proxyFetch(fresh(`/proxy/unknown${DATA_PAGE}`));
    const classifiedHtml = await classified.text();
    expect(classified.headers.get("x-clean-mode")).toBe("classifier");
    expect(classified.headers.get("x-clean-rules")).toBe("missing");
    expect(classifiedHtml.length).toBeLessThan(origin.bytes.length);
  });

  it("answers 304 to a conditional request, through the origin and from the cache", async () => {
    const path = fresh(`${PREFIX}${DATA_PAGE}`);
    const first = await proxyFetch(path);
    await first.text();
    const etag = first.headers.get("etag") ?? "";
    const lastModified = first.headers.get("last-modified") ?? "";
    expect(first.headers.get("x-clean-cache")).toBe("miss");

    const revalidated = await proxyFetch(path, { headers: { "if-none-match": etag, "x-clean-cache": "bypass" } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get("etag")).toBe(etag);
    expect(await revalidated.text()).toBe("");

    const fromCache = await proxyFetch(path, { headers: { "if-none-match": etag } });
    expect(fromCache.status).toBe(304);
    expect(fromCache.headers.get("x-clean-cache")).toBe("hit");

    const byDate = await proxyFetch(path, { headers: { "if-modified-since": lastModified, "x-clean-cache": "bypass" } });
    expect(byDate.status).toBe(304);

    const otherTag = await proxyFetch(path, { headers: { "if-none-match": '"not-this-one"' } });
    expect(otherTag.status).toBe(200);
  });

  it("keeps cleaned pages in the Cache API, and revalidates a page cleaned by another version", async () => {
    const path = fresh(`${PREFIX}${DATA_PAGE}`);
    const first = await proxyFetch(path);
    const firstBody = await first.text();
    const second = await proxyFetch(path);
    expect(second.headers.get("x-clean-cache")).toBe("hit");
    expect(second.headers.get("etag")).toBe(first.headers.get("etag"));
    expect(await second.text()).toBe(firstBody);

    // The ETag of the same origin bytes cleaned by another rule set or model must not earn a 304.
    const origin = await originBytes(DATA_PAGE);
    const otherVersionTag = cleanedEtag(origin.headers.get("etag") ?? "", "0badc0de");
    const third = await proxyFetch(path, { headers: { "if-none-match": otherVersionTag, "if-modified-since": first.headers.get("last-modified") ?? "", "x-clean-cache": "bypass" } });
    expect(third.status).toBe(200);
    expect(await third.text()).toBe(firstBody);
  });

  it("answers HEAD with the cleaned page's validators, and honours a client's no-cache", async () => {
    const path = fresh(`${PREFIX}${DATA_PAGE}`);
    const get = await proxyFetch(path);
    await get.text();
    const head = await proxyFetch(path, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("etag")).toBe(get.headers.get("etag"));
    expect(head.headers.get("content-length")).toBeNull();
    expect(await head.text()).toBe("");
    const noCache = await proxyFetch(path, { headers: { "cache-control": "no-cache" } });
    expect(noCache.headers.get("x-clean-cache")).toBe("bypass");
    await noCache.text();
  });

  it("passes a page over the size limit through as the origin's bytes, with the reason", async () => {
    const origin = await originBytes(DATA_PAGE);
    const response = await proxyFetch(fresh(`${PREFIX}${DATA_PAGE}`), undefined, { MAX_BODY_BYTES: "4096" });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-clean-bailout")).toBe("too-large");
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(origin.bytes);
  });
});

describe("proxy on the fixture site", () => {
  it("keeps the page's stylesheet, image, srcset, form and links on the proxy", async () => {
    const response = await proxyFetch(`${PREFIX}/fixtures/proxy/page.html`);
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(html).toContain(`<link rel="stylesheet" href="${PREFIX}/fixtures/proxy/style.css">`);
    expect(html).toContain(`src="${PREFIX}/fixtures/proxy/pixel.png"`);
    expect(html).toContain(`srcset="${PREFIX}/fixtures/proxy/pixel.png 1x, ${PREFIX}/fixtures/proxy/pixel.png 2x"`);
    expect(html).toContain(`action="${PREFIX}/fixtures/proxy/page.html"`);
    expect(html).toContain("After eleven years in storage");
  });

  it("in host mode, root-relative links need no change", async () => {
    const response = await proxyFetch(`https://${PROXY_HOST}/fixtures/proxy/page.html`);
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(html).toContain('<link rel="stylesheet" href="/fixtures/proxy/style.css">');
    expect(html).toContain("After eleven years in storage");
  });

  it.each([
    ["a stylesheet", "/fixtures/proxy/style.css"],
    ["an image", "/fixtures/proxy/pixel.png"],
  ])("streams %s through byte for byte, with the origin's headers", async (_name, path) => {
    const origin = await originBytes(path);
    const response = await proxyFetch(`${PREFIX}${path}`);
    expect(response.status).toBe(200);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(origin.bytes);
    for (const name of ["content-type", "etag", "last-modified", "cache-control"]) expect(response.headers.get(name)).toBe(origin.headers.get(name));
    expect(response.headers.get("x-clean-mode")).toBeNull();
  });

  it("answers 304 for an unchanged image, as the origin does", async () => {
    const first = await proxyFetch(`${PREFIX}/fixtures/proxy/pixel.png`);
    await first.arrayBuffer();
    const second = await proxyFetch(`${PREFIX}/fixtures/proxy/pixel.png`, { headers: { "if-none-match": first.headers.get("etag") ?? "" } });
    expect(second.status).toBe(304);
    expect(second.headers.get("vary")).toBeNull(); // an image's answer never varied on Accept
  });

  it("keeps Vary: Accept on a cleaned page's 304, through the origin, by date and from the cache", async () => {
    const path = fresh(`${PREFIX}/fixtures/proxy/page.html`);
    const first = await proxyFetch(path, { headers: { accept: "text/markdown" } });
    await first.text();
    expect(first.headers.get("vary")).toBe("Accept");
    const etag = first.headers.get("etag") ?? "";
    const answers = {
      "through the origin": await proxyFetch(path, { headers: { accept: "text/markdown", "if-none-match": etag, "x-clean-cache": "bypass" } }),
      "by date": await proxyFetch(path, { headers: { accept: "text/markdown", "if-modified-since": first.headers.get("last-modified") ?? "", "x-clean-cache": "bypass" } }),
      "from the cache": await proxyFetch(path, { headers: { accept: "text/markdown", "if-none-match": etag } }),
    };
    for (const [how, answer] of Object.entries(answers)) {
      expect(answer.status, how).toBe(304);
      expect(answer.headers.get("vary"), how).toBe("Accept");
    }
    expect(answers["from the cache"].headers.get("x-clean-cache")).toBe("hit");
  });

  it.each([
    ["relative", 302],
    ["absolute", 301],
  ])("keeps a redirect (%s Location), pointed at the proxy", async (kind, status) => {
    const response = await proxyFetch(`${PREFIX}/redirect/${kind}`);
    expect(response.status).toBe(status);
    expect(response.headers.get("location")).toBe(`${PREFIX}/fixtures/proxy/page.html`);
  });

  it("passes the origin's errors through with their status", async () => {
    const response = await proxyFetch(`${PREFIX}/fixtures/proxy/no-such-page.html`);
    expect(response.status).toBe(404);
  });

  it("passes a UTF-16 page through as it is, with the reason", async () => {
    const origin = await originBytes("/fixtures/proxy/utf16.html");
    const response = await proxyFetch(`${PREFIX}/fixtures/proxy/utf16.html`);
    expect(response.status).toBe(200);
    expect(response.headers.get("x-clean-bailout")).toBe("unsupported-charset");
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(origin.bytes);
  });

  it("is not an open proxy: paths and hosts outside the configuration are not proxied", async () => {
    for (const url of ["/proxy/elsewhere/fixtures/proxy/page.html", "https://other.test/fixtures/proxy/page.html"]) {
      const response = await proxyFetch(url);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ error: { code: "not-found" } });
    }
    // A path that reads like another host stays a path on the configured origin (which has no such file).
    const hostLikePath = await proxyFetch(`${PREFIX}//example.com/`);
    expect(hostLikePath.status).toBe(404);
    expect(await hostLikePath.text()).toBe("not found");
    const unconfigured = await proxyFetch(`${PREFIX}/fixtures/proxy/page.html`, undefined, { PROXY_ORIGINS: "" });
    expect(unconfigured.status).toBe(404);
  });
});
