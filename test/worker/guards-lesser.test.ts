/**
 * The lesser guards: feed items' own HTML goes out as the article format writes it (no event handler, no
 * javascript: URL, no script); the proxy relays a redirect only to its origin or to a host its config names,
 * and never to a scheme but http(s); the reader cache keeps nothing the origin said was private, no-store or
 * set a cookie with.
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import worker from "../../src/worker";

const ORIGIN = inject("originUrl");
const PROXY_ORIGINS = JSON.stringify({ "/origin": ORIGIN, "/named": { origin: ORIGIN, redirectHosts: ["elsewhere.example"] } });
const VARS = { PROXY_ORIGINS, API_KEYS: "test-key" };

async function call(path: string): Promise<Response> {
  const context = createExecutionContext();
  const response = await worker.fetch(new Request(`https://edge.test${path}`, { headers: { "x-api-key": "test-key" } }), { ...env, ...VARS }, context);
  await waitOnExecutionContext(context);
  return response;
}

let serial = 0;

describe("feed items' HTML is sanitised as the article format is", () => {
  it("leaves no event handler, javascript: URL, script or form in any item, and keeps their text", async () => {
    const response = await call(`/v1/feed?url=${encodeURIComponent(`${ORIGIN}/security/hostile-feed.xml?t=${serial++}`)}&mode=none`);
    expect(response.status).toBe(200);
    const feed = await response.text();
    const unescaped = feed.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&amp;/g, "&");
    expect(unescaped).not.toMatch(/onerror|javascript:|<script|alert\(|<form|formaction/i);
    expect(unescaped).toContain("It approved the dredging plan");
    expect(unescaped).toContain('<img src="/a.png">');
    expect(unescaped).toMatch(/Read the minutes or the agenda of the meeting\./);
  });
});

describe("proxy redirects", () => {
  it("relays a redirect on the origin (on the proxy) and to a named host; refuses other hosts and schemes with 502", async () => {
    const to = (target: string, prefix = "/origin") => call(`${prefix}/security/redirect?to=${encodeURIComponent(target)}`);
    const own = await to("/fixtures/proxy/page.html");
    expect(own.status).toBe(302);
    expect(own.headers.get("location")).toBe("/origin/fixtures/proxy/page.html");
    const named = await to("https://elsewhere.example/login", "/named");
    expect(named.status).toBe(302);
    expect(named.headers.get("location")).toBe("https://elsewhere.example/login");
    for (const target of ["https://elsewhere.example/login", "javascript:alert(document.cookie)", "data:text/html,<script>alert(1)</script>"]) {
      const refused = await to(target);
      expect(refused.status, target).toBe(502);
      expect(refused.headers.get("location"), target).toBeNull();
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("origin-error");
    }
    expect((await to("javascript:alert(1)", "/named")).status).toBe(502);
  });
});

describe("the reader cache keeps no private answer", () => {
  it.each([
    ["Cache-Control: private", "&cc=private%2C%20max-age%3D600"],
    ["Cache-Control: no-store", "&cc=no-store"],
    ["Set-Cookie", "&cookie=1"],
  ])("an origin page with %s is fetched again for the next client", async (_name, query) => {
    const url = `${ORIGIN}/security/echo?t=${Date.now()}-${serial++}${query}`;
    const path = `/v1/clean?format=text&url=${encodeURIComponent(url)}`;
    const first = await call(path);
    expect(first.status).toBe(200);
    await first.text();
    const second = await call(path);
    expect(second.headers.get("x-clean-cache")).toBe("miss");
    expect(second.headers.get("cache-control")).toBe("private, no-store");
    expect(await second.text()).toMatch(/"served":\d+/);
  });

  it("a public page is still kept", async () => {
    const path = `/v1/clean?format=text&url=${encodeURIComponent(`${ORIGIN}/security/echo?t=${Date.now()}-${serial++}`)}`;
    await (await call(path)).text();
    expect((await call(path)).headers.get("x-clean-cache")).toBe("hit");
  });
});
