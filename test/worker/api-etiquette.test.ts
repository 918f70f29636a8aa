import { env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { allowedOrigin } from "../../src/http/api/etiquette";
import app from "../../src/worker";

// CORS, the per-key rate limit (the Workers Rate Limiting binding, counted in memory by the local runtime)
// and what origins see of the client, through the Worker in workerd.
const origin = inject("originUrl");
const APP_ORIGIN = "https://reader-app.example";
const CORS = { CORS_ALLOWED_ORIGINS: `${APP_ORIGIN}, https://other.example` };

function call(path: string, init: RequestInit = {}, vars: Record<string, string> = {}): Promise<Response> {
  return Promise.resolve(app.request(`https://cleaner.test${path}`, init, { ...env, ...vars }));
}

describe("CORS", () => {
  it("matches listed origins exactly, or every origin with *", () => {
    expect(allowedOrigin("https://a.example, https://b.example/", "https://b.example")).toBe("https://b.example");
    expect(allowedOrigin("https://a.example", "https://a.example.evil.test")).toBeNull();
    expect(allowedOrigin("*", "https://any.example")).toBe("*");
    expect(allowedOrigin(undefined, "https://a.example")).toBeNull();
    expect(allowedOrigin("https://a.example", null)).toBeNull();
  });

  it("answers a preflight 204 without a key, allowing the origin, the API's headers and methods", async () => {
    const response = await call("/v1/clean?url=https://example.com/", {
      method: "OPTIONS",
      headers: { origin: APP_ORIGIN, "access-control-request-method": "GET", "access-control-request-headers": "x-api-key, x-return-format" },
    }, CORS);
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe(APP_ORIGIN);
    expect(response.headers.get("access-control-allow-methods")).toContain("GET");
    expect(response.headers.get("access-control-allow-headers")).toMatch(/x-api-key.*x-return-format|x-return-format.*x-api-key/);
    expect(response.headers.get("access-control-allow-credentials")).toBeNull();
    const stranger = await call("/v1/clean", { method: "OPTIONS", headers: { origin: "https://stranger.example" } }, CORS);
    expect(stranger.status).toBe(204);
    expect(stranger.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("allows in a preflight the headers of MCP and Jina clients and the reader's options, on /v1/mcp, /v1/read and /v1/clean", async () => {
    const requested = [
      "mcp-protocol-version", "mcp-session-id", "last-event-id", "x-no-cache", "x-cache-tolerance", "x-timeout", "x-with-links-summary",
      "x-with-images-summary", "x-retain-images", "x-target-selector", "x-remove-selector", "x-return-format", "x-engine", "x-respond-with",
    ];
    for (const [path, method] of [["/v1/mcp", "POST"], ["/v1/mcp", "DELETE"], ["/v1/read/https://example.com/", "GET"], ["/v1/clean", "POST"]]) {
      const response = await call(path, { method: "OPTIONS", headers: { origin: APP_ORIGIN, "access-control-request-method": method, "access-control-request-headers": requested.join(",") } }, CORS);
      expect(response.status, path).toBe(204);
      const allowed = (response.headers.get("access-control-allow-headers") ?? "").split(/,\s*/);
      for (const header of requested) expect(allowed, `${path} ${header}`).toContain(header);
      expect(response.headers.get("access-control-allow-methods"), path).toContain(method);
    }
  });

  it("exposes the headers a browser client reads: the token estimate, the MCP session and revision, the cache state", async () => {
    const answered = await call("/v1/clean?format=markdown", { method: "POST", headers: { origin: APP_ORIGIN, "x-api-key": "test-key", "content-type": "text/html" }, body: "<p>Hi there</p>" }, CORS);
    expect(answered.headers.get("x-markdown-tokens")).not.toBeNull();
    const exposed = (answered.headers.get("access-control-expose-headers") ?? "").split(/,\s*/);
    for (const header of ["x-markdown-tokens", "mcp-session-id", "mcp-protocol-version", "x-clean-cache", "x-clean-selectors", "etag"]) expect(exposed, header).toContain(header);
  });

  it("lets an allowed origin read answers and refusals; no list, no CORS headers", async () => {
    const refused = await call("/v1/rules/example.com", { headers: { origin: APP_ORIGIN } }, CORS);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("access-control-allow-origin")).toBe(APP_ORIGIN);
    expect(refused.headers.get("vary")).toMatch(/Origin/);
    const answered = await call("/v1/clean?format=text", { method: "POST", headers: { origin: APP_ORIGIN, "x-api-key": "test-key", "content-type": "text/html" }, body: "<p>Hi there</p>" }, CORS);
    expect(answered.status).toBe(200);
    expect(answered.headers.get("access-control-allow-origin")).toBe(APP_ORIGIN);
    expect(answered.headers.get("access-control-expose-headers")).toContain("x-clean-mode");
    const closed = await call("/v1/clean?format=text", { method: "POST", headers: { origin: APP_ORIGIN, "x-api-key": "test-key", "content-type": "text/html" }, body: "<p>Hi</p>" });
    expect(closed.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("per-key rate limit", () => {
  it("answers 429 with Retry-After once a key passes its limit, and counts each key apart", async () => {
    const keys = { API_KEYS: "test-key,limited-key-a,limited-key-b" };
    const limit = 600; // wrangler.toml [[ratelimits]] API_RATE_LIMIT simple.limit
    let passed = 0;
    let refused: Response | null = null;
    // Requests to a route that answers 404 after the key and the limit: cheap, and counted all the same.
    // (The local limiter's window is the clock minute: a window that turns mid-loop only delays the first refusal.)
    for (let index = 0; index < 2 * limit + 2 && refused === null; index++) {
      const response = await call("/v1/no-such-route", { headers: { "x-api-key": "limited-key-a" } }, keys);
      if (response.status === 429) refused = response;
      else passed++;
    }
    expect(refused).not.toBeNull();
    expect(passed).toBeGreaterThanOrEqual(limit);
    expect(refused?.headers.get("retry-after")).toBe("60");
    expect(((await refused?.json()) as { error: { code: string } }).error.code).toBe("rate-limited");
    expect((await call("/v1/no-such-route", { headers: { "x-api-key": "limited-key-b" } }, keys)).status).toBe(404);
  });

  it("does not consult the limiter with RATE_LIMIT off", async () => {
    const keys = { API_KEYS: "test-key,unlimited-key", RATE_LIMIT: "off" };
    const statuses = new Set<number>();
    for (let index = 0; index < 2 * 600 + 2; index++) {
      statuses.add((await call("/v1/no-such-route", { headers: { "x-api-key": "unlimited-key" } }, keys)).status);
    }
    expect([...statuses]).toEqual([404]);
  });
});

describe("what origins see", () => {
  const page = encodeURIComponent(`${origin}/reader/headers.html`);
  async function seen(headers: Record<string, string>, vars: Record<string, string> = {}): Promise<string> {
    const response = await call(`/v1/clean?url=${page}&format=text`, { headers: { "x-api-key": "test-key", "cache-control": "no-cache", ...headers } }, vars);
    expect(response.status).toBe(200);
    return response.text();
  }

  it("passes the client's Accept-Language on (unless turned off), and says the answer varies on it", async () => {
    expect(await seen({ "accept-language": "de-CH, de;q=0.9" })).toContain("accept-language=[de-CH, de;q=0.9]");
    expect(await seen({ "accept-language": "de-CH" }, { FORWARD_ACCEPT_LANGUAGE: "false" })).toContain("accept-language=[]");
    const response = await call(`/v1/clean?url=${page}&format=text`, { headers: { "x-api-key": "test-key", "accept-language": "fr" } });
    expect(response.headers.get("vary")).toMatch(/Accept-Language/);
  });

  it("sends the service's User-Agent, the deployment's, or the client's X-User-Agent only where allowed", async () => {
    expect(await seen({ "x-user-agent": "PosingBot/1.0" })).toMatch(/user-agent=\[edge-cleaner\//);
    expect(await seen({}, { FETCH_USER_AGENT: "ExampleReader/2.0 (+https://reader.example)" })).toContain("user-agent=[ExampleReader/2.0 (+https://reader.example)]");
    expect(await seen({ "x-user-agent": "MyApp/3.1" }, { FORWARD_USER_AGENT: "true" })).toContain("user-agent=[MyApp/3.1]");
  });
});
