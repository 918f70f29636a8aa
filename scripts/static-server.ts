/**
 * A small static file server (Node), for the sample site of `npm start`: files under one folder, a folder
 * path serves its index.html, content types from the extension, ETag and Last-Modified with 304s.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize, sep } from "node:path";

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".xml": "application/xml",
  ".json": "application/json",
  ".txt": "text/plain; charset=utf-8",
};

export interface StaticServer {
  readonly url: string;
  close(): Promise<void>;
}

export interface StaticServerOptions {
  /**
   * The site's public origin ("https://wrenmouth-gazette.example"), which its feeds name in every link. Served here,
   * a feed (.xml) names this server's origin instead, so that a full-text feed's articles are fetched from it (the
   * public name resolves nowhere); the pages' bytes stay as written.
   */
  readonly publicOrigin?: string;
}

/** Files whose links name the site's public origin, rewritten to the served one (StaticServerOptions.publicOrigin). */
const FEED_EXTENSIONS: ReadonlySet<string> = new Set([".xml"]);

export async function startStaticServer(root: string, host: string, port: number, options: StaticServerOptions = {}): Promise<StaticServer> {
  let served = "";
  const server = createServer((request, response) => {
    const file = resolveFile(root, new URL(request.url ?? "/", "http://static").pathname);
    if (file === null) {
      response.writeHead(404, { "content-type": "text/html; charset=utf-8" }).end("<!DOCTYPE html><title>Not found</title><h1>Not found</h1>");
      return;
    }
    const bytes = readFileSync(file);
    const body = options.publicOrigin !== undefined && FEED_EXTENSIONS.has(extname(file).toLowerCase())
      ? Buffer.from(bytes.toString("utf8").replaceAll(options.publicOrigin.replace(/\/+$/, ""), served))
      : bytes;
    const headers = {
      "content-type": CONTENT_TYPES[extname(file).toLowerCase()] ?? "application/octet-stream",
      etag: `"${createHash("sha1").update(body).digest("hex").slice(0, 16)}"`,
      "last-modified": statSync(file).mtime.toUTCString(),
      "cache-control": "public, max-age=60",
    };
    if (request.headers["if-none-match"] === headers.etag) {
      response.writeHead(304, headers).end();
      return;
    }
    response.writeHead(200, { ...headers, "content-length": body.length }).end(request.method === "HEAD" ? undefined : body);
  });
  await new Promise<void>((done, fail) => {
    server.once("error", fail);
    server.listen(port, host, done);
  });
  // Port 0 asks for a free port: the URL names the one bound.
  const bound = (server.address() as AddressInfo).port;
  served = `http://${host}:${bound}`;
  return {
    url: served,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

function resolveFile(root: string, path: string): string | null {
  const decoded = safeDecode(path);
  if (decoded === null) return null;
  const candidate = normalize(join(root, decoded));
  if (candidate !== root && !candidate.startsWith(root + sep)) return null;
  const file = existsSync(candidate) && statSync(candidate).isDirectory() ? join(candidate, "index.html") : candidate;
  return existsSync(file) && statSync(file).isFile() ? file : null;
}

function safeDecode(path: string): string | null {
  try {
    return decodeURIComponent(path);
  } catch {
    return null;
  }
}
