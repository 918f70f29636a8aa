import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import app from "../../src/worker";

// The app in workerd with the test bindings (real local KV), keys set per test.
function call(path: string, init: RequestInit, vars: Partial<typeof env>): Promise<Response> {
  return Promise.resolve(app.request(`https://cleaner.test${path}`, init, { ...env, ...vars }));
}

const KEYS = { API_KEYS: "alpha-key, beta-key", ADMIN_KEY: "admin-secret" };

describe("API keys on /v1/*", () => {
  it("answers 401 with a JSON error and a WWW-Authenticate challenge when no key is sent", async () => {
    const response = await call("/v1/rules/example.com", {}, KEYS);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toContain("Bearer");
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("missing-key");
    expect(body.error.message).toContain("x-api-key");
  });

  it("answers 403 for a wrong key in any of the three places", async () => {
    for (const [path, headers] of [
      ["/v1/rules/example.com", { authorization: "Bearer alpha-ke" }],
      ["/v1/rules/example.com", { "x-api-key": "gamma-key" }],
      ["/v1/rules/example.com?key=alpha-key-and-more", {}],
    ] as const) {
      const response = await call(path, { headers }, KEYS);
      expect(response.status, path + JSON.stringify(headers)).toBe(403);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe("invalid-key");
    }
  });

  it("accepts each configured key from the bearer header, x-api-key or ?key=", async () => {
    for (const [path, headers] of [
      ["/v1/rules/example.com", { authorization: "Bearer alpha-key" }],
      ["/v1/rules/example.com", { authorization: "bearer   beta-key " }],
      ["/v1/rules/example.com", { "x-api-key": "beta-key" }],
      ["/v1/rules/example.com?key=alpha-key", {}],
    ] as const) {
      const response = await call(path, { headers }, KEYS);
      expect(response.status, path + JSON.stringify(headers)).not.toBe(401);
      expect(response.status, path + JSON.stringify(headers)).not.toBe(403);
    }
  });

  it("never takes the admin key as an API key", async () => {
    const response = await call("/v1/rules/example.com", { headers: { "x-api-key": "admin-secret" } }, KEYS);
    expect(response.status).toBe(403);
  });

  it("refuses every request, with 503, when the deployment has no keys", async () => {
    const response = await call("/v1/rules/example.com", { headers: { "x-api-key": "anything" } }, { API_KEYS: " , " });
    expect(response.status).toBe(503);
    const { error } = (await response.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe("keys-not-configured");
    expect(error.message).toContain("set the API_KEYS secret (wrangler secret put API_KEYS; for wrangler dev, API_KEYS=… in .dev.vars, see .dev.vars.example)");
  });

  it("leaves /healthz open and answers unknown routes with a JSON 404", async () => {
    expect((await call("/healthz", {}, KEYS)).status).toBe(200);
    const missing = await call("/nowhere", {}, KEYS);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe("not-found");
  });
});

describe("admin routes take ADMIN_KEY only", () => {
  const site = "admin-upload.keys.example";
  const ruleSet = (patterns: string[]) =>
    JSON.stringify({
      version: 1,
      site,
      minedAt: "2026-03-01T00:00:00Z",
      pages: 4,
      cutoff: 0.5,
      mutablePatterns: [],
      rules: patterns.map((pattern) => ({ pattern, docFreq: 4, count: 4, tokens: 2 })),
    });
  const put = (body: string, headers: Record<string, string>) => call(`/admin/rules/${site}`, { method: "PUT", body, headers }, KEYS);

  it("refuses a missing key (401) and an API key (403)", async () => {
    expect((await put(ruleSet(["Share this"]), {})).status).toBe(401);
    expect((await put(ruleSet(["Share this"]), { authorization: "Bearer alpha-key" })).status).toBe(403);
  });

  it("stores a valid rule set, which the rules route then reports", async () => {
    const stored = await put(ruleSet(["Share this story", "Most read"]), { authorization: "Bearer admin-secret" });
    expect(stored.status).toBe(200);
    const report = await call(`/v1/rules/${site}`, { headers: { "x-api-key": "alpha-key" } }, KEYS);
    expect(report.status).toBe(200);
    const body = (await report.json()) as { status: string; rulesUsed: number };
    expect(body).toMatchObject({ status: "applied", rulesUsed: 2 });
  });

  it("refuses with 422 a rule set with an unsafe pattern, or for another site", async () => {
    const unsafe = await put(ruleSet(["(a+)+b"]), { "x-api-key": "admin-secret" });
    expect(unsafe.status).toBe(422);
    expect(((await unsafe.json()) as { error: { code: string; message: string } }).error.message).toContain("unsafe");
    const other = await call("/admin/rules/other.keys.example", { method: "PUT", body: ruleSet(["Most read"]), headers: { "x-api-key": "admin-secret" } }, KEYS);
    expect(other.status).toBe(422);
  });
});
