/**
 * No origin can end the local runtime: the Worker in workerd with a DevTools session whose Network view is on, as
 * wrangler dev (and so `npm start`) attaches one. There workerd read every fetch() body labelled gzip for that
 * view, and plain HTML or a corrupt stream labelled gzip threw where nothing catches it: "Fatal uncaught
 * kj::Exception … gzip decompression failed", the process gone, every later request failing. Pinned (the default
 * of every local mode), pages are fetched over a socket and decoded by the Worker: such a body is a 502
 * origin-error, and the next request is answered as before. Loopback origin only.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer as createTcpServer, type AddressInfo, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOriginServer, type OriginServer } from "../support/origin-server";
import { SECURITY_ORIGIN_ROUTES } from "../support/security-origin-routes";
import { startWorkerd, type WorkerdHandle } from "../support/workerd";

/** A sentence of the encoded page that cleaning keeps. */
const KEPT = "This paragraph is here so that the page has some content";
let origin: OriginServer;
let worker: WorkerdHandle;
let raw: Server;
let rawUrl: string;

const PAGE = `<!DOCTYPE html><html><head><title>Framed</title></head><body><article><h1>Framed</h1><p>${KEPT}, framed by the answer's own means.</p></article></body></html>`;
/** Answers written byte by byte as an origin might, by the request's path: the socket client's framing. */
const RAW_ANSWERS: Record<string, string> = {
  "/chunked": `HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ntransfer-encoding: chunked\r\n\r\n${chunks(PAGE, 7)}0\r\nx-trailer: yes\r\n\r\n`,
  "/until-close": `HTTP/1.0 200 OK\r\ncontent-type: text/html\r\n\r\n${PAGE}`,
  "/interim": `HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: ${PAGE.length}\r\n\r\n${PAGE}`,
  "/bare-lf": `HTTP/1.1 200 OK\ncontent-type: text/html\ncontent-length: ${PAGE.length}\n\n${PAGE}`,
  "/two-lengths": `HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: ${PAGE.length}\r\ncontent-length: 5\r\n\r\n${PAGE}`,
  "/bad-chunk": `HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n${PAGE}\r\n0\r\n\r\n`,
  "/short": `HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: ${PAGE.length + 100}\r\n\r\n${PAGE}`,
  "/not-http": "SSH-2.0-OpenSSH_9.6\r\n",
  "/huge-head": `HTTP/1.1 200 OK\r\nx-filler: ${"a".repeat(70 * 1024)}\r\n\r\n${PAGE}`,
};

/** What a posted request brought: its framing headers and its body, as JSON. */
function echoBody(request: IncomingMessage, response: ServerResponse): void {
  const parts: Buffer[] = [];
  request.on("data", (part: Buffer) => parts.push(part));
  request.on("end", () => {
    const seen = { method: request.method, length: request.headers["content-length"] ?? null, chunked: request.headers["transfer-encoding"] ?? null, type: request.headers["content-type"] ?? null, body: Buffer.concat(parts).toString("utf8") };
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(seen));
  });
}

function chunks(text: string, size: number): string {
  let out = "";
  for (let at = 0; at < text.length; at += size) out += `${Math.min(size, text.length - at).toString(16)};ext=1\r\n${text.slice(at, at + size)}\r\n`;
  return out;
}

beforeAll(async () => {
  origin = await startOriginServer({ ...SECURITY_ORIGIN_ROUTES, "/echo-body": echoBody });
  raw = createTcpServer((socket) => {
    // The Worker may close the connection before it has read a long answer (the 70 KB head): a reset, not a failure.
    socket.on("error", () => {});
    let head = "";
    socket.on("data", (data) => {
      head += data.toString("latin1");
      if (!head.includes("\r\n\r\n")) return;
      const path = /^GET (\S+)/.exec(head)?.[1] ?? "";
      socket.end(RAW_ANSWERS[path] ?? "HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n", "latin1");
    });
  });
  await new Promise<void>((done) => raw.listen(0, "127.0.0.1", done));
  rawUrl = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
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
  await new Promise<void>((done) => (raw === undefined ? done() : raw.close(() => done())));
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

  it.each(["/chunked", "/until-close", "/interim", "/bare-lf"])("reads an answer framed as %s", async (path) => {
    const read = await outcome(`/v1/clean?format=text&url=${encodeURIComponent(rawUrl + path)}`);
    expect(read.status, read.text.slice(0, 200)).toBe(200);
    expect(read.text).toContain("framed by the answer's own means");
  });

  it.each(["/two-lengths", "/bad-chunk", "/short", "/not-http", "/huge-head"])("answers a malformed answer (%s) as an origin it could not reach, or a broken body", async (path) => {
    const read = await outcome(`/v1/clean?format=text&url=${encodeURIComponent(rawUrl + path)}`);
    expect(read.status, read.text.slice(0, 200)).toBe(502);
    expect(["origin-unreachable", "origin-error"]).toContain(read.code);
  });

  it("relays a form post through the proxy with its Content-Length, or chunked where the client gave none", async () => {
    const form = "name=alice&note=%E2%9C%93";
    const sized = await worker.fetch("/origin/echo-body", { method: "POST", body: form, headers: { "content-type": "application/x-www-form-urlencoded", "content-length": String(form.length) } });
    expect(sized.status).toBe(200);
    expect(await sized.json()).toEqual({ method: "POST", length: String(form.length), chunked: null, type: "application/x-www-form-urlencoded", body: form });
    const streamed = new ReadableStream<Uint8Array>({ start(controller) { controller.enqueue(new TextEncoder().encode(form)); controller.close(); } });
    const unsized = await worker.fetch("/origin/echo-body", { method: "POST", body: streamed, headers: { "content-type": "text/plain" }, duplex: "half" } as RequestInit);
    expect(unsized.status).toBe(200);
    expect(await unsized.json()).toMatchObject({ method: "POST", body: form, type: "text/plain" });
  });
});
