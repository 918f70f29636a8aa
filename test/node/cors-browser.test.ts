// Browser clients on another origin, in a real browser: Debian's chromium (playwright-core) loads a page from one
// loopback origin and calls the Worker (workerd, Miniflare, real local KV) on another, which CORS_ALLOWED_ORIGINS
// lists. In the page: the official MCP SDK client (bundled for the browser by esbuild) over /v1/mcp, a Jina-Reader-
// style client of /v1/read with Jina's headers, and /v1/clean with posted HTML; each sends the headers we document
// and reads the ones we expose. A page on an origin not listed is refused by the browser itself.
import { build } from "esbuild";
import { existsSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/free-port";
import { startStaticServer, type StaticServer } from "../../scripts/static-server";
import { CHROMIUM, CHROMIUM_ARGS } from "../support/chromium";
import { bridgeWorker, type WorkerBridge } from "../support/worker-bridge";
import { REPO_ROOT, startWorkerd, type WorkerdHandle } from "../support/workerd";

const KEY = "browser-key";
const SAMPLE_FOLDER = resolve(REPO_ROOT, "samples", "wrenmouth-gazette.example");
const SAMPLE_PAGE = "harbour-dredging-approved.html";
/** The Jina Reader request headers a client may send, as docs/agents.md's table names them (X-Md-* stands for a family). */
const DOCUMENTED_JINA_HEADERS = [...readFileSync(resolve(REPO_ROOT, "docs/agents.md"), "utf8").matchAll(/^\| `(X-[A-Za-z-]+)[`:]/gm)].map((match) => match[1].toLowerCase());

const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`cross-origin browser test skipped: ${CHROMIUM} is absent (apt-get install chromium; .ci/run installs it)`);

/** A loopback server for the app's origin: an empty page, and the SDK's client bundled for the browser. */
async function appServer(sdk: string): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    if (request.url === "/sdk.js") {
      response.writeHead(200, { "content-type": "text/javascript" });
      response.end(sdk);
      return;
    }
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end('<!doctype html><html><head><title>app</title><script src="/sdk.js"></script></head><body></body></html>');
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** The official SDK's client in the page: connect with the key as a Bearer token, list the tools, read a page, close. */
const MCP_CLIENT_SOURCE = `async ({ api, key, page }) => {
  const { Client, StreamableHTTPClientTransport } = globalThis.McpSdk;
  const client = new Client({ name: "browser-app", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(api + "/v1/mcp"), { requestInit: { headers: { authorization: "Bearer " + key } } });
  await client.connect(transport);
  const tools = await client.listTools();
  const read = await client.callTool({ name: "read_url", arguments: { url: page, format: "markdown" } });
  const cleaned = await client.callTool({ name: "clean_html", arguments: { html: "<article><h1>Quay</h1><p>The old quay reopens to boats on Monday after the works.</p></article>", format: "text" } });
  const protocolVersion = transport.protocolVersion;
  await client.close();
  return { tools: tools.tools.map((tool) => tool.name), read: read.content[0].text, cleaned: cleaned.content[0].text, protocolVersion };
}`;

/** A Jina-Reader-style client: GET /v1/read/<url> with Jina's headers, and POST /v1/clean; what the page can read of each answer. */
const JINA_CLIENT_SOURCE = `async ({ api, key, page, headers }) => {
  const read = await fetch(api + "/v1/read/" + page, { headers: { authorization: "Bearer " + key, ...headers } });
  const posted = await fetch(api + "/v1/clean?format=markdown", {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "text/html", "x-no-cache": "true", "x-timeout": "10", "x-with-links-summary": "true" },
    body: "<article><h1>Quay</h1><p>The old quay reopens to boats on Monday after the works. <a href='https://wrenmouth.example/quay'>More</a></p></article>",
  });
  const head = await fetch(api + "/v1/read/" + page, { method: "HEAD", headers: { authorization: "Bearer " + key, accept: "text/markdown" } });
  return {
    read: { status: read.status, tokens: read.headers.get("x-markdown-tokens"), cache: read.headers.get("x-clean-cache"), body: await read.text() },
    posted: { status: posted.status, tokens: posted.headers.get("x-markdown-tokens"), mode: posted.headers.get("x-clean-mode"), body: await posted.text() },
    head: { status: head.status, type: head.headers.get("content-type") },
  };
}`;

describe.skipIf(!hasChromium)("browser clients on another origin", () => {
  let samples: StaticServer;
  let worker: WorkerdHandle;
  let api: WorkerBridge;
  let app: { url: string; server: Server };
  let stranger: { url: string; server: Server };
  let browser: Browser;

  beforeAll(async () => {
    samples = await startStaticServer(SAMPLE_FOLDER, "127.0.0.1", await freePort());
    const bundled = await build({
      stdin: {
        contents: 'export { Client } from "@modelcontextprotocol/sdk/client/index.js"; export { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";',
        resolveDir: REPO_ROOT,
      },
      bundle: true, format: "iife", globalName: "McpSdk", platform: "browser", write: false, logLevel: "silent",
    });
    const sdk = bundled.outputFiles[0].text;
    app = await appServer(sdk);
    stranger = await appServer(sdk);
    worker = await startWorkerd({ vars: { API_KEYS: KEY, ALLOW_PRIVATE_TARGETS: "true", CORS_ALLOWED_ORIGINS: app.url } });
    api = await bridgeWorker(worker);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await api?.close();
    await worker?.dispose();
    for (const server of [app?.server, stranger?.server]) await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
    await samples?.close();
  });

  async function pageOn(origin: string): Promise<Page> {
    const page = await browser.newPage();
    await page.goto(`${origin}/`);
    return page;
  }

  it("the official MCP SDK client connects to /v1/mcp, lists the tools and calls them", async () => {
    const page = await pageOn(app.url);
    const result = await page.evaluate<{ tools: string[]; read: string; cleaned: string; protocolVersion: string }>(`(${MCP_CLIENT_SOURCE})(${JSON.stringify({ api: api.url, key: KEY, page: `${samples.url}/${SAMPLE_PAGE}` })})`);
    expect(result.tools).toEqual(expect.arrayContaining(["read_url", "clean_html", "list_rules", "get_rules"]));
    expect(result.read).toMatch(/dredging/i);
    expect(result.cleaned).toContain("The old quay reopens to boats on Monday");
    // The client sends mcp-protocol-version on every request after initialize: the preflight allowed it.
    expect(result.protocolVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await page.close();
  });

  it("a Jina-Reader-style client reads /v1/read with Jina's headers and /v1/clean, and reads the exposed headers", async () => {
    const page = await pageOn(app.url);
    // Every Jina header docs/agents.md lists is sent at once (the ones we do not act on are ignored, not refused).
    const headers: Record<string, string> = Object.fromEntries(DOCUMENTED_JINA_HEADERS.filter((name) => !name.startsWith("x-md") && name !== "x-return-format" && name !== "x-set-cookie").map((name) => [name, ""]));
    Object.assign(headers, { "x-no-cache": "true", "x-timeout": "10", "x-with-links-summary": "true", "x-with-images-summary": "true", "x-retain-images": "none", "x-engine": "direct", "x-cache-tolerance": "0" });
    expect(Object.keys(headers).length).toBeGreaterThan(15);
    const result = await page.evaluate<{ read: { status: number; tokens: string | null; cache: string | null; body: string }; posted: { status: number; tokens: string | null; mode: string | null; body: string }; head: { status: number; type: string | null } }>(
      `(${JINA_CLIENT_SOURCE})(${JSON.stringify({ api: api.url, key: KEY, page: `${samples.url}/${SAMPLE_PAGE}`, headers })})`);
    expect(result.read.status, result.read.body.slice(0, 300)).toBe(200);
    expect(result.read.body).toMatch(/^Title: .*\n\nURL Source: /);
    expect(Number(result.read.tokens)).toBeGreaterThan(0);
    expect(result.read.cache).toBe("bypass");
    expect(result.posted.status, result.posted.body.slice(0, 300)).toBe(200);
    expect(Number(result.posted.tokens)).toBeGreaterThan(0);
    expect(result.posted.mode).not.toBeNull();
    expect(result.posted.body).toContain("The old quay reopens to boats on Monday");
    expect(result.head).toEqual({ status: 200, type: "text/markdown; charset=utf-8" });
    await page.close();
  });

  it("a page on an origin not listed cannot read the answers", async () => {
    const page = await pageOn(stranger.url);
    const outcome = await page.evaluate<string>(`fetch(${JSON.stringify(`${api.url}/v1/clean?format=text`)}, { method: "POST", headers: { "x-api-key": ${JSON.stringify(KEY)}, "content-type": "text/html" }, body: "<p>Hi</p>" }).then(() => "read", (error) => "refused: " + error.message)`);
    expect(outcome).toMatch(/^refused: /);
    await page.close();
  });
});
