// The proxy's privacy inside workerd with the real Cache API: what of the client's request reaches the origin,
// and which answers are kept for the next visitor. The test origin's /security/echo page says what it saw.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import worker from "../../src/worker";
import { readEcho } from "../support/security-origin-routes";

const ORIGIN = inject("originUrl");
const PROXY_ORIGINS = JSON.stringify({
  "/plain": ORIGIN,
  "/with-credentials": { origin: ORIGIN, forwardCredentials: true },
  "/shared-credentials": { origin: ORIGIN, forwardCredentials: true, cacheCredentialed: true },
  "private.proxy.test": { origin: ORIGIN, forwardCredentials: true },
});
const VARS = { PROXY_ORIGINS, API_KEYS: "test-key", ADMIN_KEY: "admin-secret" };

async function proxyFetch(path: string, headers: Record<string, string> = {}, host = "edge.test"): Promise<Response> {
  const context = createExecutionContext();
  const response = await worker.fetch(new Request(`https://${host}${path}`, { headers }), { ...env, ...VARS }, context);
  await waitOnExecutionContext(context);
  return response;
}

let serial = 0;
/** A fresh echo URL (its own cache entry); `query` adds the echo route's options (cc=, vary=). */
function echo(prefix: string, query = ""): string {
  return `${prefix}/security/echo?t=${Date.now()}-${serial++}${query}`;
}

async function seen(response: Response): Promise<ReturnType<typeof readEcho>> {
  expect(response.status).toBe(200);
  return readEcho(await response.text());
}

describe("what reaches the origin", () => {
  it("never the service's key: x-api-key, a Bearer holding an API or admin key, a ?key= holding one", async () => {
    for (const prefix of ["/plain", "/with-credentials"]) {
      const keyed = await seen(await proxyFetch(`${echo(prefix)}&key=test-key&key=their-own`, { "x-api-key": "test-key", authorization: "Bearer admin-secret" }));
      expect(keyed.apiKey, prefix).toBeNull();
      expect(keyed.authorization, prefix).toBeNull();
      expect(keyed.query, prefix).toMatch(/^\?t=[\d-]+&key=their-own$/);
      expect(keyed.hop, prefix).toBe("1");
    }
  });

  it("the client's Cookie and Authorization only for an entry that forwards credentials", async () => {
    const credentials = { cookie: "session=alice", authorization: "Basic YWxpY2U6cGFzcw==" };
    const plain = await seen(await proxyFetch(echo("/plain"), credentials));
    expect(plain).toMatchObject({ cookie: null, authorization: null });
    const forwarded = await seen(await proxyFetch(echo("/with-credentials"), credentials));
    expect(forwarded).toMatchObject({ cookie: "session=alice", authorization: "Basic YWxpY2U6cGFzcw==" });
  });


  it("an allow-list: a header of the client's own, its User-Agent and Accept-Language never; Range as it was sent", async () => {
    const client = { "x-client-note": "alice's secret", "user-agent": "Alice's browser", "accept-language": "fr", "x-forwarded-for": "10.0.0.7", referer: "https://alice.example/" };
    const got = await seen(await proxyFetch(echo("/plain"), client));
    expect(got).toMatchObject({ note: null, acceptLanguage: null });
    expect(got.userAgent).toMatch(/^edge-cleaner\//);
    const ranged = await proxyFetch(echo("/plain"), { range: "bytes=0-99" });
    expect(readEcho(await ranged.text()).range).toBe("bytes=0-99");
  });
});

describe("what is kept for the next visitor", () => {
  it("never an answer to a request with a header of the client's own (Range, If-Match, …), which may make it theirs", async () => {
    for (const own of [{ range: "bytes=0-" }, { "if-match": '"any"' }, { "if-unmodified-since": "Tue, 01 Jan 2030 00:00:00 GMT" }] as Record<string, string>[]) {
      const path = echo("/plain");
      const theirs = await seen(await proxyFetch(path, own));
      const next = await proxyFetch(path);
      expect(next.headers.get("x-clean-cache"), JSON.stringify(own)).toBe("miss");
      expect((await seen(next)).served).toBeGreaterThan(theirs.served);
    }
  });

  it("a public page fetched without credentials is stored and served from the cache", async () => {
    const path = echo("/plain");
    const first = await proxyFetch(path, { cookie: "session=alice" }); // not forwarded: the origin saw an anonymous request
    const served = (await seen(first)).served;
    const second = await proxyFetch(path);
    expect(second.headers.get("x-clean-cache")).toBe("hit");
    expect((await seen(second)).served).toBe(served);
  });

  it("never a page fetched with the client's Cookie or Authorization, even one the origin calls public", async () => {
    const sessions: Record<string, string>[] = [{ cookie: "session=alice" }, { authorization: "Basic YWxpY2U6cGFzcw==" }];
    for (const credentials of sessions) {
      const path = echo("/with-credentials");
      const alice = await seen(await proxyFetch(path, credentials));
      const next = await proxyFetch(path);
      expect(next.headers.get("x-clean-cache")).toBe("miss");
      const visitor = await seen(next);
      expect(visitor.served).toBeGreaterThan(alice.served);
      expect(visitor.cookie).toBeNull();
      expect(visitor.authorization).toBeNull();
      // And a visitor with a session is never answered from the cache either.
      expect((await proxyFetch(path, credentials)).headers.get("x-clean-cache")).toBe("bypass");
    }
  });

  it("a credentialed page only where the entry opts in explicitly", async () => {
    const path = echo("/shared-credentials");
    const alice = await seen(await proxyFetch(path, { cookie: "session=alice" }));
    const next = await proxyFetch(path);
    expect(next.headers.get("x-clean-cache")).toBe("hit");
    expect((await seen(next)).served).toBe(alice.served);
  });

  it("never a page that varies on a request header, or on everything (Vary: *)", async () => {
    for (const vary of ["*", "Cookie", "Accept-Language, Accept-Encoding"]) {
      const path = echo("/plain", `&vary=${encodeURIComponent(vary)}`);
      const first = await seen(await proxyFetch(path));
      const second = await proxyFetch(path);
      expect(second.headers.get("x-clean-cache"), vary).toBe("miss");
      expect((await seen(second)).served, vary).toBeGreaterThan(first.served);
    }
    const path = echo("/plain", "&vary=Accept-Encoding");
    await seen(await proxyFetch(path));
    expect((await proxyFetch(path)).headers.get("x-clean-cache")).toBe("hit");
  });
});

describe("what comes back", () => {
  it("prefix mode runs the page's scripts in an opaque origin; host mode leaves the page its own", async () => {
    const prefixed = await proxyFetch(echo("/plain"));
    const policy = prefixed.headers.get("content-security-policy") ?? "";
    expect(policy).toMatch(/^sandbox /);
    expect(policy).toContain("allow-scripts");
    expect(policy).not.toContain("allow-same-origin");
    const hosted = await proxyFetch(`/security/echo?t=${Date.now()}-${serial++}`, {}, "private.proxy.test");
    expect(hosted.status).toBe(200);
    expect(hosted.headers.get("content-security-policy")).toBeNull();
  });
});
