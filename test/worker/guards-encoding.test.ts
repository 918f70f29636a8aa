/**
 * Origins' Content-Encoding: the body limit counts decoded bytes on every path (the reader API, the proxy,
 * full-text feed items), so a few KB of gzip that decode to megabytes are a clean 502 origin-error, never a
 * page passed through; a body that does not decode as its encoding says (plain HTML labelled gzip, gzip cut
 * off) is the same 502, and the Worker answers the next request as before.
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import worker from "../../src/worker";

const ORIGIN = inject("originUrl");
const PROXY_ORIGINS = JSON.stringify({ "/origin": ORIGIN });
const VARS = { PROXY_ORIGINS, API_KEYS: "test-key" };
const KINDS = ["bomb", "mislabelled", "corrupt"] as const;

async function call(path: string, vars: Record<string, string> = {}): Promise<Response> {
  const context = createExecutionContext();
  const response = await worker.fetch(new Request(`https://edge.test${path}`, { headers: { "x-api-key": "test-key" } }), { ...env, ...VARS, ...vars }, context);
  await waitOnExecutionContext(context);
  return response;
}

/** Status, error code and how many bytes came back (read to the end). */
async function outcome(response: Response): Promise<{ status: number; code: string | null; bytes: number }> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  let code: string | null = null;
  try {
    code = (JSON.parse(new TextDecoder().decode(bytes)) as { error?: { code?: string } }).error?.code ?? null;
  } catch {
    // not JSON: a page
  }
  return { status: response.status, code, bytes: bytes.length };
}

const encodedUrl = (kind: string): string => `${ORIGIN}/security/encoded?kind=${kind}`;

describe("origins' encodings", () => {
  it.each(KINDS)("the reader API answers 502 origin-error for a %s gzip body, in every format", async (kind) => {
    for (const format of ["text", "html", "json"]) {
      const result = await outcome(await call(`/v1/clean?format=${format}&url=${encodeURIComponent(encodedUrl(kind))}`));
      expect(result, `${kind} ${format}`).toMatchObject({ status: 502, code: "origin-error" });
      expect(result.bytes).toBeLessThan(2_000);
    }
  });

  it.each(KINDS)("the proxy answers 502 origin-error for a %s gzip body, not the decoded bytes", async (kind) => {
    const result = await outcome(await call(`/origin/security/encoded?kind=${kind}`));
    expect(result).toMatchObject({ status: 502, code: "origin-error" });
    expect(result.bytes).toBeLessThan(2_000);
  });

  it("a good gzip page is cleaned on both paths, after the bad ones", async () => {
    for (const kind of KINDS) await (await call(`/v1/clean?format=text&url=${encodeURIComponent(encodedUrl(kind))}`)).arrayBuffer();
    const read = await call(`/v1/clean?format=text&header=true&url=${encodeURIComponent(encodedUrl("good"))}`);
    expect(read.status).toBe(200);
    expect(await read.text()).toContain("an encoded page");
    const proxied = await call("/origin/security/encoded?kind=good");
    expect(proxied.status).toBe(200);
    expect(await proxied.text()).toContain("an encoded page");
  });

  // Decoded by the Worker on both of workerd's paths: over a socket (pinned, every local mode) and by fetch() raw.
  it.each(["on", "off"])("x-gzip, zlib deflate and raw deflate pages are decoded and cleaned (PIN_TARGETS %s)", async (pin) => {
    for (const kind of ["x-gzip", "deflate", "deflate-raw"]) {
      const read = await call(`/v1/clean?format=text&header=true&url=${encodeURIComponent(encodedUrl(kind))}`, { PIN_TARGETS: pin });
      expect(read.status, `${kind}: ${read.headers.get("x-clean-bailout") ?? ""}`).toBe(200);
      expect(read.headers.get("x-clean-bailout"), kind).toBeNull();
      expect(await read.text()).toContain("an encoded page");
      const proxied = await call(`/origin/security/encoded?kind=${kind}`, { PIN_TARGETS: pin });
      expect(proxied.status, kind).toBe(200);
      expect(await proxied.text()).toContain("an encoded page");
    }
  });

  it.each(["on", "off"])("a Content-Encoding the Worker does not read is a 502 origin-error (PIN_TARGETS %s)", async (pin) => {
    const result = await outcome(await call(`/v1/clean?format=text&url=${encodeURIComponent(encodedUrl("brotli-labelled"))}`, { PIN_TARGETS: pin }));
    expect(result).toMatchObject({ status: 502, code: "origin-error" });
  });
});
