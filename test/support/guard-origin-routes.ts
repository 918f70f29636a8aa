/**
 * Routes the input-guard tests need on the test origin beyond its static files: slow answers, an oversize
 * page, a redirect loop, an error status, a non-HTML body, and a windows-1252 page declared only in the
 * Content-Type header. Charset pages declared in <meta> are static fixtures (test/fixtures/guards/).
 */
import { readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { resolve } from "node:path";
import type { OriginRoutes } from "./origin-server";
import { REPO_ROOT } from "./workerd";

/** How long the slow routes stall, in milliseconds: far above the short timeouts the tests set. */
const STALL_MS = 5_000;

/** A deterministic HTML page of at least `bytes` bytes (paragraphs numbered, so a truncation shows). */
export function oversizePage(bytes: number): string {
  const parts = ["<!DOCTYPE html><html><head><title>Long page</title></head><body>\n"];
  let length = parts[0].length;
  for (let index = 0; length < bytes; index++) {
    const paragraph = `<p>Paragraph ${index}: the quick brown fox jumps over the lazy dog.</p>\n`;
    parts.push(paragraph);
    length += paragraph.length;
  }
  parts.push("</body></html>\n");
  return parts.join("");
}

function queryNumber(request: IncomingMessage, name: string, fallback: number): number {
  const value = new URL(request.url ?? "/", "http://origin").searchParams.get(name);
  return value === null ? fallback : Number(value);
}

function stall(response: ServerResponse, then: () => void): void {
  const timer = setTimeout(then, STALL_MS);
  response.on("close", () => clearTimeout(timer));
}

export const GUARD_ORIGIN_ROUTES: OriginRoutes = {
  "/guards/slow-headers": (_request, response) => {
    stall(response, () => response.writeHead(200, { "content-type": "text/html" }).end("<p>late</p>"));
  },
  "/guards/slow-body": (_request, response) => {
    response.writeHead(200, { "content-type": "text/html" });
    response.write("<!DOCTYPE html><html><body><p>The first part arrives at once");
    stall(response, () => response.end(", the rest much later.</p></body></html>"));
  },
  "/guards/oversize": (request, response) => {
    const body = oversizePage(queryNumber(request, "bytes", 200_000));
    // Sent in pieces without a length, as a streaming origin would.
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    for (let offset = 0; offset < body.length; offset += 16_384) response.write(body.slice(offset, offset + 16_384));
    response.end();
  },
  "/guards/redirect-loop": (_request, response) => {
    response.writeHead(302, { location: "/guards/redirect-loop" }).end();
  },
  "/guards/error": (_request, response) => {
    response.writeHead(500, { "content-type": "text/html" }).end("<h1>Internal Server Error</h1>");
  },
  "/guards/image": (_request, response) => {
    response.writeHead(200, { "content-type": "image/png" }).end(Buffer.from("89504e470d0a1a0a0000000d49484452", "hex"));
  },
  "/guards/windows-1252": (_request, response) => {
    const bytes = readFileSync(resolve(REPO_ROOT, "test/fixtures/guards/windows-1252.html"));
    response.writeHead(200, { "content-type": "text/html; charset=windows-1252" }).end(bytes);
  },
};
