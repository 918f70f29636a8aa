// The proxy's parts inside workerd: configuration, URL mapping, link rewriting (native HTMLRewriter), validators.
import { describe, expect, it } from "vitest";
import {
  cleanedEtag,
  cleaningVersion,
  isNotModified,
  isStorable,
  originIfNoneMatch,
} from "../../src/http/proxy/cache";
import { parseProxyConfig, resolveProxyTarget, type ProxyConfig, type ProxyEntry } from "../../src/http/proxy/config";
import { linkRewriter, rewriteLocation, rewriteSrcset, rewriteUrlValue } from "../../src/http/proxy/links";

function configOf(raw: Readonly<Record<string, unknown>>): ProxyConfig {
  const result = parseProxyConfig(JSON.stringify(raw));
  if (!result.ok) throw new Error(result.problems.join("; "));
  return result.config;
}

const CONFIG = configOf({ "/proxy/news": "https://www.news.example", "reader.example": "http://origin.example:8080" });
const PREFIX_ENTRY = CONFIG.prefixes[0] as ProxyEntry;
const HOST_ENTRY = CONFIG.byHost.get("reader.example") as ProxyEntry;
const PAGE = new URL("https://www.news.example/world/story.html");

describe("proxy configuration", () => {
  it("maps a prefix and a host to their origins and nothing else", () => {
    expect(resolveProxyTarget(CONFIG, new URL("https://any.host/proxy/news/world/a.html?x=1"))?.targetUrl.href).toBe("https://www.news.example/world/a.html?x=1");
    expect(resolveProxyTarget(CONFIG, new URL("https://any.host/proxy/news"))?.targetUrl.href).toBe("https://www.news.example/");
    expect(resolveProxyTarget(CONFIG, new URL("http://Reader.Example/a/b"))?.targetUrl.href).toBe("http://origin.example:8080/a/b");
    expect(resolveProxyTarget(CONFIG, new URL("https://any.host/proxy/newsroom/a"))).toBeNull();
    expect(resolveProxyTarget(CONFIG, new URL("https://any.host/v1/clean"))).toBeNull();
  });

  it("never turns a path into another host (no open proxy through //host paths)", () => {
    expect(resolveProxyTarget(CONFIG, new URL("https://any.host/proxy/news//evil.example/x"))?.targetUrl.host).toBe("www.news.example");
    expect(resolveProxyTarget(CONFIG, new URL("http://reader.example//evil.example/x"))?.targetUrl.host).toBe("origin.example:8080");
  });

  it("cleans with the origin host's rules, or with those of a named site", () => {
    expect(PREFIX_ENTRY.site).toBe("news.example");
    const named = configOf({ "/p": { origin: "http://10.0.0.5:8080", site: "WWW.Example.com" } });
    expect(named.prefixes[0].site).toBe("example.com");
    expect(named.prefixes[0].originHost).toBe("10.0.0.5:8080");
    expect(parseProxyConfig(JSON.stringify({ "/p": { origin: "http://10.0.0.5", site: "not a host" } })).ok).toBe(false);
  });

  it("reports bad configuration instead of guessing", () => {
    const bad = parseProxyConfig(JSON.stringify({ "/p": "ftp://x.example", "a b": "https://x.example", "loop.example": "https://loop.example", "/q": "https://x.example/path" }));
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.problems).toHaveLength(4);
    expect(parseProxyConfig("{not json").ok).toBe(false);
    expect(parseProxyConfig(undefined)).toEqual({ ok: true, config: { byHost: new Map(), prefixes: [] } });
  });
});

describe("proxy URL mapping", () => {
  it("keeps origin URLs on the proxy and leaves other hosts and relative URLs alone", () => {
    expect(rewriteUrlValue(PREFIX_ENTRY, "/img/a.png", PAGE)).toBe("/proxy/news/img/a.png");
    expect(rewriteUrlValue(PREFIX_ENTRY, "https://www.news.example/a?b=c#d", PAGE)).toBe("/proxy/news/a?b=c#d");
    expect(rewriteUrlValue(PREFIX_ENTRY, "http://www.news.example/a", PAGE)).toBe("/proxy/news/a");
    expect(rewriteUrlValue(PREFIX_ENTRY, "//www.news.example/a", PAGE)).toBe("/proxy/news/a");
    expect(rewriteUrlValue(PREFIX_ENTRY, "//cdn.example/a.js", PAGE)).toBeNull();
    expect(rewriteUrlValue(PREFIX_ENTRY, "https://other.example/a", PAGE)).toBeNull();
    expect(rewriteUrlValue(PREFIX_ENTRY, "next.html", PAGE)).toBeNull();
    expect(rewriteUrlValue(PREFIX_ENTRY, "mailto:desk@news.example", PAGE)).toBeNull();
    expect(rewriteUrlValue(HOST_ENTRY, "/a", PAGE)).toBeNull();
    expect(rewriteUrlValue(HOST_ENTRY, "http://origin.example:8080/a", PAGE)).toBe("/a");
    expect(rewriteUrlValue(HOST_ENTRY, "http://origin.example/a", PAGE)).toBeNull();
  });

  it("rewrites every candidate of a srcset and a redirect's Location", () => {
    expect(rewriteSrcset(PREFIX_ENTRY, "/a.png 1x, https://cdn.example/b.png 2x,/c.png 3x", PAGE)).toBe("/proxy/news/a.png 1x, https://cdn.example/b.png 2x,/proxy/news/c.png 3x");
    expect(rewriteSrcset(PREFIX_ENTRY, "a.png 1x", PAGE)).toBeNull();
    expect(rewriteLocation(PREFIX_ENTRY, "/login", PAGE)).toEqual({ ok: true, location: "/proxy/news/login" });
    expect(rewriteLocation(PREFIX_ENTRY, "other.html", PAGE)).toEqual({ ok: true, location: "/proxy/news/world/other.html" });
  });

  it("relays a redirect to another host only where redirectHosts names it, and never to a scheme but http(s)", () => {
    const named = configOf({ "/proxy/news": { origin: "https://www.news.example", redirectHosts: ["Auth.Example"] } }).prefixes[0] as ProxyEntry;
    expect(rewriteLocation(named, "https://auth.example/x", PAGE)).toEqual({ ok: true, location: "https://auth.example/x" });
    expect(rewriteLocation(PREFIX_ENTRY, "https://auth.example/x", PAGE)).toMatchObject({ ok: false, reason: expect.stringContaining("auth.example") });
    for (const location of ["javascript:alert(document.cookie)", "JavaScript:alert(1)", "data:text/html,<script>x</script>", "ftp://www.news.example/f"]) {
      expect(rewriteLocation(named, location, PAGE), location).toMatchObject({ ok: false });
    }
    expect(configOf.bind(null, { "/p": { origin: "https://a.example", redirectHosts: ["not a host"] } })).toThrow(/redirectHosts/);
  });

  it("rewrites link, image, form and srcset attributes in a streamed page, and nothing else", async () => {
    const html = [
      '<link rel="stylesheet" href="/s.css"><a href="https://www.news.example/a">a</a><a href="https://other.example/b">b</a>',
      '<img src="/i.png" srcset="/i.png 1x, /j.png 2x"><form action="/search"></form><a href="rel.html">r</a>',
      '<script>var u = "/not-an-attribute";</script><p>/plain text</p>',
    ].join("");
    const out = await linkRewriter(PREFIX_ENTRY, PAGE).transform(new Response(html)).text();
    expect(out).toBe(
      [
        '<link rel="stylesheet" href="/proxy/news/s.css"><a href="/proxy/news/a">a</a><a href="https://other.example/b">b</a>',
        '<img src="/proxy/news/i.png" srcset="/proxy/news/i.png 1x, /proxy/news/j.png 2x"><form action="/proxy/news/search"></form><a href="rel.html">r</a>',
        '<script>var u = "/not-an-attribute";</script><p>/plain text</p>',
      ].join(""),
    );
  });
});

describe("proxy validators", () => {
  const version = cleaningVersion("1:2026-01-01:12:applied", "none");

  it("derives a cleaned ETag and turns it back into the origin's for revalidation", () => {
    const strong = cleanedEtag('"abc123"', version);
    const weak = cleanedEtag('W/"abc123"', version);
    expect(strong).toMatch(/^W\/"abc123~c[0-9a-f]{8}"$/);
    expect(originIfNoneMatch(strong, version)).toBe('"abc123"');
    expect(originIfNoneMatch(weak, version)).toBe('W/"abc123"');
    expect(originIfNoneMatch(`${strong}, "plain"`, version)).toBe('"abc123", "plain"');
    const otherVersion = cleaningVersion("1:2026-02-01:12:applied", "none");
    expect(otherVersion).not.toBe(version);
    expect(originIfNoneMatch(cleanedEtag('"abc123"', otherVersion), version)).toBeNull();
  });

  it("answers conditions the way RFC 9110 says", () => {
    const stored = new Headers({ etag: 'W/"x~c1"', "last-modified": "Tue, 01 Sep 2026 10:00:00 GMT" });
    expect(isNotModified(new Headers({ "if-none-match": '"x~c1"' }), stored)).toBe(true);
    expect(isNotModified(new Headers({ "if-none-match": '"y"' }), stored)).toBe(false);
    // If-None-Match wins over If-Modified-Since when both are sent.
    expect(isNotModified(new Headers({ "if-none-match": '"y"', "if-modified-since": "Wed, 02 Sep 2026 10:00:00 GMT" }), stored)).toBe(false);
    expect(isNotModified(new Headers({ "if-modified-since": "Wed, 02 Sep 2026 10:00:00 GMT" }), stored)).toBe(true);
    expect(isNotModified(new Headers({ "if-modified-since": "Mon, 31 Aug 2026 10:00:00 GMT" }), stored)).toBe(false);
  });

  it("stores only what a shared cache may store", () => {
    const fresh = { "cache-control": "public, max-age=60" };
    expect(isStorable(new Headers(), new Response("x", { headers: fresh }))).toBe(true);
    expect(isStorable(new Headers(), new Response("x", { headers: { "cache-control": "private, max-age=60" } }))).toBe(false);
    expect(isStorable(new Headers(), new Response("x", { headers: { "cache-control": "no-store" } }))).toBe(false);
    expect(isStorable(new Headers(), new Response("x", { headers: { "cache-control": "max-age=0" } }))).toBe(false);
    expect(isStorable(new Headers(), new Response("x", { headers: { ...fresh, "set-cookie": "a=b" } }))).toBe(false);
    expect(isStorable(new Headers(), new Response("x", { headers: { ...fresh, vary: "Cookie" } }))).toBe(false);
    expect(isStorable(new Headers(), new Response("x", { status: 404, headers: fresh }))).toBe(false);
    expect(isStorable(new Headers({ authorization: "Basic x" }), new Response("x", { headers: { "cache-control": "max-age=60" } }))).toBe(false);
    expect(isStorable(new Headers({ authorization: "Basic x" }), new Response("x", { headers: fresh }))).toBe(false);
    expect(isStorable(new Headers({ cookie: "a=b" }), new Response("x", { headers: fresh }))).toBe(false);
    expect(isStorable(new Headers({ cookie: "a=b" }), new Response("x", { headers: fresh }), true)).toBe(true);
    expect(isStorable(new Headers(), new Response("x", { headers: { ...fresh, vary: "*" } }))).toBe(false);
    expect(isStorable(new Headers(), new Response("x", { headers: { ...fresh, vary: "Accept-Encoding" } }))).toBe(true);
  });
});
