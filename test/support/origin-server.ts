/**
 * A static origin on 127.0.0.1 for tests that fetch pages: ../shared/data under /data/ and the project's own
 * fixtures (test/fixtures) under /fixtures/; /sites/<name>/data/… serves /data/… again, so that pages of one dev
 * site have a site key of their own here (127.0.0.1/sites/<name>) for the learning tests. Files are served as raw bytes with a content type from their
 * extension, and with ETag / Last-Modified and 304 answers to conditional requests, as a real origin would.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize, resolve } from "node:path";
import { DATA_ROOT } from "../../src/evaluation/index";
import { REPO_ROOT } from "./workerd";

const FIXTURES_ROOT = resolve(REPO_ROOT, "test/fixtures");

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html",
  ".htm": "text/html",
  ".txt": "text/plain; charset=utf-8",
  ".md": "text/markdown; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".json": "application/json",
  ".xml": "application/xml",
  ".rss": "application/rss+xml",
  ".atom": "application/atom+xml",
  ".rdf": "application/rdf+xml",
  ".png": "image/png",
  ".gif": "image/gif",
  ".jpg": "image/jpeg",
  ".svg": "image/svg+xml",
};

/** Extra routes a test suite adds: path → handler. Checked before the static folders. */
export type OriginRoutes = Readonly<Record<string, (request: IncomingMessage, response: ServerResponse) => void>>;

export interface OriginServer {
  readonly url: string;
  close(): Promise<void>;
}

export async function startOriginServer(routes: OriginRoutes = {}): Promise<OriginServer> {
  const server: Server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? "/", "http://origin").pathname);
    const route = routes[path];
    if (route) return route(request, response);
    const file = resolveStatic(path);
    if (file === null) {
      response.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    serveFile(file, request, response);
  });
  // workerd keeps idle connections for reuse; Node's 5-second default closed them under a test that mined for longer,
  // and the next fetch failed with "Network connection lost".
  server.keepAliveTimeout = 10 * 60_000;
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

function resolveStatic(requested: string): string | null {
  const path = requested.replace(/^\/sites\/[^/]+(?=\/data\/)/, "");
  const [root, prefix] = path.startsWith("/data/") ? [DATA_ROOT, "/data/"] : path.startsWith("/fixtures/") ? [FIXTURES_ROOT, "/fixtures/"] : [null, ""];
  if (root === null) return null;
  const file = normalize(join(root, path.slice(prefix.length)));
  if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) return null;
  return file;
}

function serveFile(file: string, request: IncomingMessage, response: ServerResponse): void {
  const body = readFileSync(file);
  const etag = `"${createHash("sha1").update(body).digest("hex").slice(0, 16)}"`;
  const lastModified = statSync(file).mtime.toUTCString();
  const headers = {
    "content-type": CONTENT_TYPES[extname(file).toLowerCase()] ?? "application/octet-stream",
    etag,
    "last-modified": lastModified,
    "cache-control": "public, max-age=60",
  };
  const ifNoneMatch = request.headers["if-none-match"];
  const ifModifiedSince = request.headers["if-modified-since"];
  const notModified = ifNoneMatch !== undefined
    ? ifNoneMatch.split(",").some((tag) => tag.trim() === etag)
    : ifModifiedSince !== undefined && Date.parse(ifModifiedSince) >= Date.parse(lastModified);
  if (notModified) {
    response.writeHead(304, headers).end();
    return;
  }
  response.writeHead(200, { ...headers, "content-length": body.length }).end(body);
}
