import { env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import app from "../../src/worker";

// The sample site's feed as `npm start` serves it (scripts/static-server.ts with the site's public origin): a
// full-text feed fetches every item's article from the served site, in workerd with a real local KV.
const samplesUrl = inject("samplesUrl");
const KEY = { "x-api-key": "test-key" };

describe("the sample feed under npm start", () => {
  it("names the served site in its links, not the public name that resolves nowhere", async () => {
    const feed = await (await fetch(`${samplesUrl}/feed.xml`)).text();
    expect(feed).toContain(`<link>${samplesUrl}/library-reopens.html</link>`);
    expect(feed).not.toContain("https://wrenmouth-gazette.example");
  });

  it("gives every item its article's full text with fulltext=1", async () => {
    const response = await app.request(`https://cleaner.test/v1/feed?fulltext=1&url=${encodeURIComponent(`${samplesUrl}/feed.xml`)}`, { headers: KEY }, env);
    expect(response.status).toBe(200);
    const summary = response.headers.get("x-feed-items") ?? "";
    const total = Number(/total=(\d+)/.exec(summary)?.[1]);
    expect(total).toBeGreaterThan(0);
    expect(summary).toContain(`fulltext=${total}; failed=0`);
    const body = await response.text();
    expect(body).not.toContain("full text failed");
    // The library story's full text, past the feed's one-line summary.
    expect(body).toContain("a new slate roof");
  });
});
