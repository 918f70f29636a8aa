/**
 * No origin can end the local runtime: the Worker in workerd with a DevTools session whose Network view is on, as
 * wrangler dev (and so `npm start`) attaches one. There workerd read every fetch() body labelled gzip for that
 * view, and plain HTML or a corrupt stream labelled gzip threw where nothing catches it: "Fatal uncaught
 * kj::Exception … gzip decompression failed", the process gone, every later request failing. Pinned (the default
 * of every local mode), pages are fetched over a socket and decoded by the Worker: such a body is a 502
 * origin-error, and the next request is answered as before. Loopback origin only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOriginServer, type OriginServer } from "../support/origin-server";
import { SECURITY_ORIGIN_ROUTES } from "../support/security-origin-routes";
import { startWorkerd, type WorkerdHandle } from "../support/workerd";

/** A sentence of the encoded page that cleaning keeps. */
const KEPT = "This paragraph is here so that the page has some content";
let origin: OriginServer;
let worker: WorkerdHandle;

beforeAll(async () => {
  origin = await startOriginServer(SECURITY_ORIGIN_ROUTES);
  worker = await startWorkerd({
    devtoolsNetwork: true,
    vars: {
      ALLOW_PRIVATE_TARGETS: "true", API_KEYS: "test-key", DNS_RESOLVER_URL: "http://127.0.0.1:9/dns-query",
      PROXY_ORIGINS: JSON.stringify({ "/origin": origin.url }),
    },
  });
}, 120_000);

afterAll(async () => {
  await worker?.dispose();
  await origin?.close();
});

const readUrl = (kind: string, format = "text"): string => `/v1/clean?format=${format}&url=${encodeURIComponent(`${origin.url}/security/encoded?kind=${kind}`)}`;

async function outcome(path: string): Promise<{ status: number; code: string | null; text: string }> {
  const response = await worker.fetch(path, { headers: { "x-api-key": "test-key" } });
  const text = await response.text();
  let code: string | null = null;
  try {
    code = (JSON.parse(text) as { error?: { code?: string } }).error?.code ?? null;
  } catch {
    // a page, not an error
  }
  return { status: response.status, code, text };
}

describe("origins' encodings with a DevTools session attached (wrangler dev, npm start)", () => {
  it.each(["mislabelled", "corrupt", "bomb", "brotli-labelled"])("a %s body is a 502 origin-error on the reader API and the proxy, and the Worker lives on", async (kind) => {
    for (const format of ["text", "html", "json"]) expect(await outcome(readUrl(kind, format)), `${kind} ${format}`).toMatchObject({ status: 502, code: "origin-error" });
    expect(await outcome(`/origin/security/encoded?kind=${kind}`)).toMatchObject({ status: 502, code: "origin-error" });
    const after = await outcome(readUrl("good"));
    expect(after.status).toBe(200);
    expect(after.text).toContain(KEPT);
  });

  it.each(["good", "x-gzip", "deflate", "deflate-raw"])("a %s page is decoded and cleaned", async (kind) => {
    const read = await outcome(readUrl(kind));
    expect(read.status, read.text.slice(0, 200)).toBe(200);
    expect(read.text).toContain(KEPT);
    const proxied = await outcome(`/origin/security/encoded?kind=${kind}`);
    expect(proxied.status).toBe(200);
    expect(proxied.text).toContain(KEPT);
  });

  it.each(["good", "x-gzip", "deflate"])("a %s file the proxy passes through reaches the client as the origin's text", async (kind) => {
    const response = await worker.fetch(`/origin/security/encoded?kind=${kind}&type=css`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(KEPT);
  });
});
