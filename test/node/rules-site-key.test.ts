/** The one site-key definition (src/rules/site-key.ts): parsing, the candidates of a URL, labels of mined pages, file names. */
import { describe, expect, it } from "vitest";
import { parseRuleSet, parseSiteKey, ruleSetFileName, RULESET_VERSION, siteKeyCandidates, siteKeyOfLabel } from "../../src/rules/index";
import { parseSite } from "../../src/http/shared/site";
import { siteKey } from "../../src/mining/index";

describe("site keys", () => {
  it("normalises hosts, keeps a port and a path, refuses what is not a key", () => {
    expect(parseSiteKey("WWW.Example.COM.")).toBe("example.com");
    expect(parseSiteKey("localhost:8787")).toBe("localhost:8787");
    expect(parseSiteKey("www.bbc.co.uk/news/")).toBe("bbc.co.uk/news");
    expect(parseSiteKey("bbc.co.uk/news/world")).toBe("bbc.co.uk/news/world");
    expect(parseSiteKey("bbc.co.uk/a/b/c")).toBeNull(); // deeper than RULES_KEY_MAX_PATH_SEGMENTS
    for (const bad of ["", "not_a_host!", "-x.example", "a..b", "example.com//news", "https://example.com"]) expect(parseSiteKey(bad), bad).toBeNull();
  });

  it("is the same function for the Worker, the miner and the rule set schema", () => {
    expect(parseSite("localhost:8787")).toBe("localhost:8787");
    expect(parseSite("bbc.co.uk/news")).toBe("bbc.co.uk/news");
    expect(siteKey("www.Example.com")).toBe("example.com");
    const set = (site: string) => parseRuleSet({ version: RULESET_VERSION, site, minedAt: "2026-01-01T00:00:00Z", pages: 1, cutoff: 0, mutablePatterns: [], rules: [] });
    expect(set("bbc.co.uk/news").ok).toBe(true);
    expect(set("localhost:8787").ok).toBe(true);
    expect(set("www.bbc.co.uk").ok).toBe(false);
    expect(set("bbc.co.uk-news/").ok).toBe(false);
  });

  it("lists a URL's candidate keys longest first, folders only, without the port", () => {
    expect(siteKeyCandidates(new URL("https://www.bbc.co.uk/news/world/asia-123"))).toEqual(["bbc.co.uk/news/world", "bbc.co.uk/news", "bbc.co.uk"]);
    expect(siteKeyCandidates(new URL("https://bbc.co.uk/news/"))).toEqual(["bbc.co.uk/news", "bbc.co.uk"]);
    expect(siteKeyCandidates(new URL("http://127.0.0.1:8788/story.html"))).toEqual(["127.0.0.1"]);
    expect(siteKeyCandidates(new URL("https://a.example/1/2/3/4/page"))).toEqual(["a.example/1/2", "a.example/1", "a.example"]);
  });

  it("keys a section label by the folder its pages share", () => {
    const urls = (...paths: string[]) => paths.map((path) => `http://bbc.co.uk${path}`);
    expect(siteKeyOfLabel("bbc.co.uk_news", urls("/news/world-1", "/news/health", "/news/uk/x"))).toBe("bbc.co.uk/news");
    expect(siteKeyOfLabel("bbc.co.uk_blog1", urls("/blogs/ask/1", "/blogs/ask/2/x"))).toBe("bbc.co.uk/blogs/ask");
    expect(siteKeyOfLabel("bbc.co.uk_news", urls("/2012/a", "/2013/b"))).toBe("bbc.co.uk");
    expect(siteKeyOfLabel("bbc.co.uk_news", ["http://other.example/news/a"])).toBe("bbc.co.uk-news");
    expect(siteKeyOfLabel("bbc.co.uk_news")).toBe("bbc.co.uk-news");
    expect(siteKeyOfLabel("www.wired.com")).toBe("wired.com");
    expect(ruleSetFileName("washingtonpost.com/blogs/ask-the-post")).toBe("washingtonpost.com_blogs_ask-the-post");
  });

  it("refuses a key with a dot segment in any spelling (it would name another key's entries)", () => {
    for (const key of ["example.com/..", "example.com/../other.com", "example.com/a/../b", "example.com/.", "example.com/%2e%2e", "example.com/%2E./x", "example.com/.%2e"]) {
      expect(parseSiteKey(key), key).toBeNull();
    }
    expect(parseSiteKey("example.com/...")).toBe("example.com/...");
    expect(parseSiteKey("example.com/.well-known")).toBe("example.com/.well-known");
    expect(parseSiteKey("example.com/v1.2")).toBe("example.com/v1.2");
  });
});
