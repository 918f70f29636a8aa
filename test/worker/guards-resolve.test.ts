import { env } from "cloudflare:test";
import { beforeEach, describe, expect, inject, it } from "vitest";
import { clearResolveCache, resolveAndCheck } from "../../src/http/shared/resolve";
import app from "../../src/worker";
import { readEcho } from "../support/security-origin-routes";

// Names resolved before fetching, with the test origin's DNS-over-HTTPS stub as the resolver (loopback only:
// no real resolver is ever asked). The Worker runs as deployed: private targets refused, only the test
// origin's own address allowed (as `npm start` allows its sample site).
const origin = inject("originUrl");
const resetting = inject("resettingUrl");
const port = new URL(origin).port;
const RESOLVER = { url: `${origin}/dns-query`, timeoutMs: 2_000 };
const GUARDED = { ALLOW_PRIVATE_TARGETS: "false", ALLOWED_TARGET_ORIGINS: origin, DNS_RESOLVER_URL: RESOLVER.url };
const PAGE = "/fixtures/proxy/page.html";

async function call(path: string, vars: Record<string, string> = GUARDED, headers: Record<string, string> = {}): Promise<Response> {
  return app.request(`https://cleaner.test${path}`, { headers: { "x-api-key": "test-key", ...headers } }, { ...env, ...vars });
}

function cleanUrl(url: string, format = "text"): string {
  return `/v1/clean?format=${format}&url=${encodeURIComponent(url)}`;
}

async function errorOf(response: Response): Promise<{ status: number; code: string; message: string }> {
  const body = (await response.json()) as { error: { code: string; message: string } };
  return { status: response.status, ...body.error };
}

beforeEach(() => clearResolveCache());

describe("names are resolved before fetching", () => {
  it("refuses names that resolve to loopback, private, metadata or IPv4-translated addresses, or to one such among public ones", async () => {
    for (const name of ["loopback", "private", "metadata", "v6-loopback", "translated", "mixed", "alias"]) {
      const error = await errorOf(await call(cleanUrl(`http://${name}.guard.test:${port}${PAGE}`)));
      expect(error.status, name).toBe(403);
      expect(error.code, name).toBe("forbidden-target");
      expect(error.message, name).toMatch(new RegExp(`^target ${name}\\.guard\\.test resolves to `));
    }
  });

  it("refuses a redirect from an allowed origin to a name that resolves to loopback", async () => {
    const hop = `http://loopback.guard.test:${port}${PAGE}`;
    const error = await errorOf(await call(cleanUrl(`${origin}/security/redirect?to=${encodeURIComponent(hop)}`)));
    expect(error).toMatchObject({ status: 403, code: "forbidden-target" });
    expect(error.message).toContain(`redirect to ${hop}`);
  });

  it("refuses metadata answers even where private targets are allowed (the Worker tests' own setting)", async () => {
    const vars = { ALLOW_PRIVATE_TARGETS: "true", DNS_RESOLVER_URL: RESOLVER.url };
    expect((await errorOf(await call(cleanUrl(`http://metadata.guard.test:${port}/`), vars))).status).toBe(403);
  });

  it("answers an unknown name exactly as a refused connection or a dropped one", async () => {
    const unknown = await errorOf(await call(cleanUrl(`http://nowhere.guard.test:${port}/`)));
    const closed = await errorOf(await call(cleanUrl("http://127.0.0.1:1/"), { ...GUARDED, ALLOWED_TARGET_ORIGINS: "http://127.0.0.1:1" }));
    const dropped = await errorOf(await call(cleanUrl(`${resetting}/`), { ...GUARDED, ALLOWED_TARGET_ORIGINS: resetting }));
    const shape = (error: typeof unknown, host: string) => ({ ...error, message: error.message.replace(host, "HOST") });
    expect(shape(unknown, `nowhere.guard.test:${port}`)).toEqual({ status: 502, code: "origin-unreachable", message: "could not reach HOST" });
    expect(shape(closed, "127.0.0.1:1")).toEqual(shape(unknown, `nowhere.guard.test:${port}`));
    expect(shape(dropped, new URL(resetting).host)).toEqual(shape(unknown, `nowhere.guard.test:${port}`));
  });

  it("fetches an allowed origin without asking the resolver, and refuses the same address by another origin", async () => {
    const allowed = await call(cleanUrl(`${origin}${PAGE}`));
    expect(allowed.status).toBe(200);
    const otherPort = await errorOf(await call(cleanUrl(`http://127.0.0.1:1${PAGE}`)));
    expect(otherPort).toMatchObject({ status: 403, code: "forbidden-target" });
  });

  it("refuses a full-text feed item whose link resolves to loopback, and fetches the allowed one", async () => {
    const response = await call(`/v1/feed?fulltext=1&url=${encodeURIComponent(`${origin}/security/feed.xml`)}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("x-feed-items")).toBe("total=2; cleaned=2; fulltext=1; failed=1; skipped=0");
    expect(await response.text()).toContain("full text failed (target loopback.guard.test resolves to a loopback address; not fetched)");
  });
});

describe("resolveAndCheck", () => {
  it("passes a public name with its addresses, follows an alias, and keeps answers in a short cache", async () => {
    expect(await resolveAndCheck("public.guard.test", RESOLVER)).toEqual({ ok: true, addresses: ["93.184.215.14"] });
    expect(await resolveAndCheck("PUBLIC.guard.test.", RESOLVER)).toEqual({ ok: true, addresses: ["93.184.215.14"] });
    const count = await (await fetch(`${origin}/dns-queries?name=public.guard.test&type=1`)).json();
    expect(count).toEqual({ count: 1 });
    const alias = await resolveAndCheck("alias.guard.test", RESOLVER);
    expect(alias).toMatchObject({ ok: false, kind: "forbidden", address: "127.0.0.1" });
  });

  it("reports a resolver that cannot be reached as unresolved, never as a pass", async () => {
    const result = await resolveAndCheck("public.guard.test", { url: "http://127.0.0.1:1/dns-query", timeoutMs: 2_000 });
    expect(result).toMatchObject({ ok: false, kind: "unresolved" });
  });
});

describe("calls back into the service", () => {
  it("sends a hop count with every fetch and refuses requests that went through too many", async () => {
    const response = await call(cleanUrl(`${origin}/security/echo`));
    expect(readEcho(await response.text()).hop).toBe("1");
    const nested = await errorOf(await call(cleanUrl(`${origin}${PAGE}`), GUARDED, { "x-clean-hop": "2" }));
    expect(nested).toMatchObject({ status: 508, code: "loop-detected" });
  });

  it("refuses a redirect back to the service's own host, and to a proxy host of its own", async () => {
    const self = `https://cleaner.test${cleanUrl(`${origin}${PAGE}`)}`;
    const back = await errorOf(await call(cleanUrl(`${origin}/security/redirect?to=${encodeURIComponent(self)}`)));
    expect(back).toMatchObject({ status: 403, code: "forbidden-target" });
    expect(back.message).toContain("cleaner.test is this service itself");
    const vars = { ...GUARDED, PROXY_ORIGINS: JSON.stringify({ "news.proxy.test": origin }) };
    const toProxy = await errorOf(await call(cleanUrl(`${origin}/security/redirect?to=${encodeURIComponent("https://news.proxy.test/x")}`), vars));
    expect(toProxy).toMatchObject({ status: 403, code: "forbidden-target" });
  });
});

describe("one resolution per fetch (PIN_TARGETS, local and self-hosted modes)", () => {
  const PINNED = { ALLOW_PRIVATE_TARGETS: "true", DNS_RESOLVER_URL: RESOLVER.url, PIN_TARGETS: "on" };
  const queried = async (name: string): Promise<number> =>
    ((await (await fetch(`${origin}/dns-queries?name=${name}&type=1`)).json()) as { count: number }).count;

  it("fetches a name at the address its check resolved, so a rebinding name cannot answer the fetch with another", async () => {
    // rebind.guard.test answers loopback (allowed here) to its first query and a metadata address to every later one.
    const before = await queried("rebind.guard.test");
    const first = await call(cleanUrl(`http://rebind.guard.test:${port}/security/echo?t=rebind-${Date.now()}`), PINNED);
    expect(first.status).toBe(200);
    // Reached at the checked address (the name itself resolves nowhere but through the stub), over a socket whose
    // request names the host, as a name-based virtual host expects.
    expect(readEcho(await first.text()).host).toBe(`rebind.guard.test:${port}`);
    expect((await queried("rebind.guard.test")) - before).toBe(1); // one lookup: the check's, none by the fetch
    clearResolveCache();
    const later = await errorOf(await call(cleanUrl(`http://rebind.guard.test:${port}/security/echo?t=rebind2-${Date.now()}`), PINNED));
    expect(later).toMatchObject({ status: 403, code: "forbidden-target" });
    expect(later.message).toContain("a link-local or cloud metadata address");
  });

  it("pins a redirect hop too", async () => {
    clearResolveCache();
    const before = await queried("rebind-hop.guard.test");
    const hop = `http://rebind-hop.guard.test:${port}/security/echo?t=hop-${Date.now()}`;
    const response = await call(cleanUrl(`${origin}/security/redirect?to=${encodeURIComponent(hop)}`), PINNED);
    expect(response.status).toBe(200);
    expect(readEcho(await response.text()).host).toBe(`rebind-hop.guard.test:${port}`);
    expect((await queried("rebind-hop.guard.test")) - before).toBe(1);
  });

  it("refuses an https URL by name, which cannot be fetched at an address, before resolving it", async () => {
    const before = await queried("public.guard.test");
    const error = await errorOf(await call(cleanUrl("https://public.guard.test/page.html"), PINNED));
    expect(error).toMatchObject({ status: 403, code: "forbidden-target" });
    expect(error.message).toContain("cannot be fetched at its checked address");
    expect(await queried("public.guard.test")).toBe(before);
  });
});
