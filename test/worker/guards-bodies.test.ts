/**
 * Request bodies that are not pages are bounded and read strictly: /v1/mcp takes a message up to twice the body
 * limit and 64 KiB (clean_html's page, escaped in JSON) and refuses more with 413 naming the limit, unread;
 * PUT /admin/keys/:keyId/sites takes {"sites": [strings]} and nothing else, up to MAX_POSTING_SITES × 512 bytes.
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { keyIdOf } from "../../src/learning";
import worker from "../../src/worker";

/** A small body limit, so that the bound is crossed without megabytes: 2 × 1,000 + 65,536 bytes for /v1/mcp. */
const VARS = { API_KEYS: "test-key", ADMIN_KEY: "test-admin-key", MAX_BODY_BYTES: "1000" };
const MCP_LIMIT = 2 * 1000 + 64 * 1024;

async function call(path: string, init: RequestInit): Promise<Response> {
  const context = createExecutionContext();
  const response = await worker.fetch(new Request(`https://edge.test${path}`, init), { ...env, ...VARS }, context);
  await waitOnExecutionContext(context);
  return response;
}

function mcpCall(body: string): Promise<Response> {
  return call("/v1/mcp", { method: "POST", body, headers: { "x-api-key": "test-key", "content-type": "application/json", accept: "application/json, text/event-stream" } });
}

const ping = (padding: number): string => JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { padding: "x".repeat(padding) } });

describe("/v1/mcp's body", () => {
  it("answers a message up to its bound, and 413 naming the limit past it", async () => {
    const under = ping(MCP_LIMIT - ping(0).length);
    expect(under.length).toBe(MCP_LIMIT);
    expect((await mcpCall(under)).status).toBe(200);
    const over = await mcpCall(ping(MCP_LIMIT - ping(0).length + 1));
    expect(over.status).toBe(413);
    expect(((await over.json()) as { error: { message: string } }).error.message).toContain(`${MCP_LIMIT} bytes`);
  });

  it("refuses 30 MB with 413 (it answered 200)", async () => {
    expect((await mcpCall(ping(30 * 1024 * 1024))).status).toBe(413);
  });
});

describe("PUT /admin/keys/:keyId/sites", () => {
  const put = async (body: string): Promise<{ status: number; message: string }> => {
    const response = await call(`/admin/keys/${await keyIdOf("test-key")}/sites`, { method: "PUT", body, headers: { "x-api-key": "test-admin-key", "content-type": "application/json" } });
    const text = await response.text();
    return { status: response.status, message: (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? "" };
  };

  it("refuses unknown fields, sites that are not strings and other shapes, naming what is wrong", async () => {
    const unknown = await put(JSON.stringify({ sites: ["news.example"], site: ["other.example"] }));
    expect(unknown).toMatchObject({ status: 400 });
    expect(unknown.message).toContain('unknown field "site"');
    for (const body of [JSON.stringify({ sites: [1] }), JSON.stringify([{ sites: [] }]), JSON.stringify({ sites: "news.example" }), "null", "{"]) {
      expect((await put(body)).status, body).toBe(400);
    }
  });

  it("refuses a body over its bound with 413, unread (6 MB was taken)", async () => {
    const big = await put(JSON.stringify({ sites: Array.from({ length: 200_000 }, (_, n) => `site-${n}.example`).concat("x".repeat(3_000_000)) }));
    expect(big.status).toBe(413);
    expect(big.message).toContain(`${1000 * 512} bytes`);
  });
});
