/**
 * Routes the security tests need on the test origin: a DNS-over-HTTPS resolver stub (RFC 8484 wire format,
 * GET ?dns=) answering from a fixed table, never the internet; redirects to any URL; a page that echoes the
 * request headers it received; pages with Vary and credential-dependent answers for the proxy cache.
 */
import type { IncomingMessage } from "node:http";
import { createServer, type AddressInfo } from "node:net";
import { deflateRawSync, deflateSync, gzipSync } from "node:zlib";
import type { OriginRoutes } from "./origin-server";
import { manyBlocksPage } from "../../scripts/lib/hostile-pages";

/** Names the stub resolves: name → records. Every name of the table ends in ".guard.test". */
export const STUB_RECORDS: Readonly<Record<string, ReadonlyArray<{ readonly type: "A" | "AAAA" | "CNAME"; readonly data: string }>>> = {
  "public.guard.test": [{ type: "A", data: "93.184.215.14" }],
  "loopback.guard.test": [{ type: "A", data: "127.0.0.1" }],
  "private.guard.test": [{ type: "A", data: "10.1.2.3" }],
  "metadata.guard.test": [{ type: "A", data: "169.254.169.254" }],
  "v6-loopback.guard.test": [{ type: "AAAA", data: "0:0:0:0:0:0:0:1" }],
  "translated.guard.test": [{ type: "AAAA", data: "0:0:0:0:ffff:0:a00:1" }], // ::ffff:0:10.0.0.1
  "mixed.guard.test": [{ type: "A", data: "93.184.215.14" }, { type: "A", data: "192.168.0.9" }],
  // An alias answered alone: the client must ask again for its target.
  "alias.guard.test": [{ type: "CNAME", data: "loopback.guard.test" }],
};

/**
 * Names that answer a different address each time they are asked (DNS rebinding): the n-th A query gets the n-th
 * address, the last one from then on. The first is loopback (allowed where the tests allow private targets, and the
 * test origin listens there), the later ones a metadata address, refused in every configuration.
 */
export const REBINDING_RECORDS: Readonly<Record<string, readonly string[]>> = {
  "rebind.guard.test": ["127.0.0.1", "169.254.169.254"],
  "rebind-hop.guard.test": ["127.0.0.1", "169.254.169.254"],
};

const TYPE_CODES = { A: 1, CNAME: 5, AAAA: 28 } as const;
/** Queries the stub answered, by "name type": the tests read them to see the cache at work. */
const queries = new Map<string, number>();

function parseQuestion(message: Buffer): { name: string; type: number; end: number } | null {
  const labels: string[] = [];
  let offset = 12;
  while (offset < message.length && message[offset] !== 0) {
    const length = message[offset];
    labels.push(message.subarray(offset + 1, offset + 1 + length).toString("latin1").toLowerCase());
    offset += length + 1;
  }
  if (offset + 5 > message.length) return null;
  return { name: labels.join("."), type: message.readUInt16BE(offset + 1), end: offset + 5 };
}

function encodeName(name: string): Buffer {
  const parts = name.split(".").map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label, "latin1")]));
  return Buffer.concat([...parts, Buffer.from([0])]);
}

function recordData(type: "A" | "AAAA" | "CNAME", data: string): Buffer {
  if (type === "A") return Buffer.from(data.split(".").map(Number));
  if (type === "CNAME") return encodeName(data);
  const bytes = Buffer.alloc(16);
  data.split(":").forEach((group, index) => bytes.writeUInt16BE(parseInt(group, 16), index * 2));
  return bytes;
}

/** A DNS response for the query: the records of the asked type (and CNAMEs), a compression pointer to the question's name. */
function dnsAnswer(query: Buffer): Buffer {
  const question = parseQuestion(query);
  if (question === null) return Buffer.from([0, 0, 0x81, 0x81, 0, 0, 0, 0, 0, 0, 0, 0]); // FORMERR
  const key = `${question.name} ${question.type}`;
  queries.set(key, (queries.get(key) ?? 0) + 1);
  const rebinding = REBINDING_RECORDS[question.name];
  const asked = queries.get(key) ?? 1;
  const records = rebinding === undefined ? STUB_RECORDS[question.name] : [{ type: "A" as const, data: rebinding[Math.min(asked, rebinding.length) - 1] }];
  const matching = (records ?? []).filter((record) => TYPE_CODES[record.type] === question.type || record.type === "CNAME");
  const header = Buffer.from([0, 0, 0x81, records === undefined ? 0x83 : 0x80, 0, 1, 0, matching.length, 0, 0, 0, 0]);
  const answers = matching.map((record) => {
    const data = recordData(record.type, record.data);
    const fixed = Buffer.alloc(10);
    fixed.writeUInt16BE(TYPE_CODES[record.type], 0);
    fixed.writeUInt16BE(1, 2);
    fixed.writeUInt32BE(300, 4);
    fixed.writeUInt16BE(data.length, 8);
    return Buffer.concat([Buffer.from([0xc0, 12]), fixed, data]);
  });
  return Buffer.concat([header, query.subarray(12, question.end), ...answers]);
}

function queryParameter(request: IncomingMessage, name: string): string | null {
  return new URL(request.url ?? "/", "http://origin").searchParams.get(name);
}

const CACHEABLE_PAGE = (text: string): string =>
  `<!DOCTYPE html><html><head><title>Security page</title></head><body><article><h1>Security page</h1><p>${text}</p>` +
  "<p>This paragraph is here so that the page has some content that a cleaner keeps, whatever it decides about the rest.</p></article></body></html>";

let servedCount = 0;

/** Decoded size of the gzip bomb: far over the 5 MiB limit, from about 32 KB on the wire. */
export const GZIP_BOMB_DECODED_BYTES = 32 * 1024 * 1024;
let gzipBomb: Buffer | null = null;

/** An HTML page of GZIP_BOMB_DECODED_BYTES, gzipped (made once). */
function gzipBombBytes(): Buffer {
  gzipBomb ??= gzipSync(Buffer.concat([Buffer.from("<!DOCTYPE html><html><body><p>"), Buffer.alloc(GZIP_BOMB_DECODED_BYTES - 30, "a")]), { level: 9 });
  return gzipBomb;
}

/** Bodies whose Content-Encoding goes wrong: a bomb, plain HTML labelled gzip, and gzip cut off and followed by noise. */
function encodedPage(kind: string): { body: Buffer; coding: string } {
  if (kind === "bomb") return { body: gzipBombBytes(), coding: "gzip" };
  const page = Buffer.from(CACHEABLE_PAGE("an encoded page"));
  if (kind === "mislabelled") return { body: page, coding: "gzip" };
  if (kind === "corrupt") return { body: Buffer.concat([gzipSync(page).subarray(0, 30), Buffer.alloc(2000, 0x5a)]), coding: "gzip" };
  if (kind === "deflate") return { body: deflateSync(page), coding: "deflate" };
  if (kind === "deflate-raw") return { body: deflateRawSync(page), coding: "deflate" };
  if (kind === "x-gzip") return { body: gzipSync(page), coding: "x-gzip" };
  if (kind === "brotli-labelled") return { body: page, coding: "br" };
  return { body: gzipSync(page), coding: "gzip" }; // "good"
}

export const SECURITY_ORIGIN_ROUTES: OriginRoutes = {
  "/dns-query": (request, response) => {
    const encoded = queryParameter(request, "dns");
    if (request.headers.accept !== "application/dns-message" || encoded === null) {
      response.writeHead(400, { "content-type": "text/plain" }).end("RFC 8484 GET with ?dns= only");
      return;
    }
    const body = dnsAnswer(Buffer.from(encoded, "base64url"));
    response.writeHead(200, { "content-type": "application/dns-message", "content-length": body.length }).end(body);
  },
  "/dns-queries": (request, response) => {
    const key = `${queryParameter(request, "name")} ${queryParameter(request, "type")}`;
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ count: queries.get(key) ?? 0 }));
  },
  /** An RSS feed whose first item links to a name the stub resolves to loopback, on this origin's port. */
  "/security/feed.xml": (request, response) => {
    const port = (request.headers.host ?? "").split(":")[1] ?? "80";
    const item = (title: string, link: string) => `<item><title>${title}</title><link>${link}</link><description>&lt;p&gt;${title}: the summary.&lt;/p&gt;</description></item>`;
    response.writeHead(200, { "content-type": "application/rss+xml" }).end(
      `<?xml version="1.0"?><rss version="2.0"><channel><title>Names</title><link>http://127.0.0.1:${port}/</link><description>d</description>` +
        item("By name", `http://loopback.guard.test:${port}/fixtures/proxy/page.html`) +
        item("By address", `http://127.0.0.1:${port}/fixtures/proxy/page.html`) +
        "</channel></rss>",
    );
  },
  /** ?kind=bomb|mislabelled|corrupt|good|deflate|deflate-raw|x-gzip|brotli-labelled: an HTML page whose encoding is
   * (or is not) what it says; "deflate" is zlib-wrapped, "deflate-raw" the same label on raw deflate (as some servers send). */
  "/security/encoded": (request, response) => {
    const { body, coding } = encodedPage(queryParameter(request, "kind") ?? "good");
    // ?type=css: the same bytes as a stylesheet, which the proxy passes through instead of cleaning.
    const type = queryParameter(request, "type") === "css" ? "text/css; charset=utf-8" : "text/html; charset=utf-8";
    response.writeHead(200, { "content-type": type, "content-encoding": coding, "content-length": body.length }).end(body);
  },
  /** An RSS feed whose items carry active content: an event handler, javascript: links, a script, a form action. */
  /** The page of issue 44: 120,000 <div> and a script, past the pipeline's block limit. */
  "/security/many-divs": (_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" }).end(manyBlocksPage());
  },
  /** A feed whose item's own HTML is that page (escaped), linking to it for full text. */
  "/security/bailout-feed.xml": (request, response) => {
    const escape = (html: string): string => html.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
    const link = `http://${request.headers.host ?? "127.0.0.1"}/security/many-divs`;
    response.writeHead(200, { "content-type": "application/rss+xml", "cache-control": "no-store" }).end(
      '<?xml version="1.0"?><rss version="2.0"><channel><title>Bail</title><link>http://127.0.0.1/</link><description>d</description>' +
        `<item><title>Many</title><link>${link}</link><description>${escape(manyBlocksPage())}</description></item></channel></rss>`,
    );
  },
  "/security/hostile-feed.xml": (_request, response) => {
    const escape = (html: string): string => html.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
    const item = (title: string, html: string) => `<item><title>${title}</title><link>http://127.0.0.1:9/none</link><description>${escape(html)}</description></item>`;
    response.writeHead(200, { "content-type": "application/rss+xml", "cache-control": "public, max-age=600" }).end(
      '<?xml version="1.0"?><rss version="2.0"><channel><title>Hostile</title><link>http://127.0.0.1/</link><description>d</description>' +
        item("Handler", '<p>The council met on Tuesday.<img src="/a.png" onerror="alert(1)"> It approved the dredging plan after a long debate.</p>') +
        item("Link", '<p>Read <a href="javascript:alert(document.cookie)">the minutes</a> or <a href="JaVaScRiPt&#58;alert(2)">the agenda</a> of the meeting.</p>') +
        item("Script", "<p>Short.</p><script>alert(3)</script><form action=\"javascript:alert(4)\"><button formaction=\"javascript:alert(5)\">Go</button></form>") +
        "</channel></rss>",
    );
  },
  "/security/redirect": (request, response) => {
    response.writeHead(302, { location: queryParameter(request, "to") ?? "/", "cache-control": "no-store" }).end();
  },
  /** The request headers and query the origin saw, as page text; cacheable by a shared cache unless ?vary= says otherwise. */
  "/security/echo": (request, response) => {
    servedCount++;
    const seen = {
      cookie: request.headers.cookie ?? null,
      authorization: request.headers.authorization ?? null,
      apiKey: request.headers["x-api-key"] ?? null,
      hop: request.headers["x-clean-hop"] ?? null,
      host: request.headers.host ?? null,
      userAgent: request.headers["user-agent"] ?? null,
      acceptLanguage: request.headers["accept-language"] ?? null,
      note: request.headers["x-client-note"] ?? null,
      range: request.headers.range ?? null,
      query: new URL(request.url ?? "/", "http://origin").search,
      served: servedCount,
    };
    const headers: Record<string, string> = { "content-type": "text/html; charset=utf-8", "cache-control": queryParameter(request, "cc") ?? "public, max-age=600" };
    const vary = queryParameter(request, "vary");
    if (vary !== null) headers.vary = vary;
    if (queryParameter(request, "cookie") !== null) headers["set-cookie"] = "session=s3cret; Path=/; HttpOnly";
    response.writeHead(200, headers).end(CACHEABLE_PAGE(`SEEN ${JSON.stringify(seen)} END`));
  },
};

/** The JSON the echo page holds (what the origin saw), read back from any format of it. */
export function readEcho(text: string): {
  cookie: string | null; authorization: string | null; apiKey: string | null; hop: string | null; host: string | null;
  userAgent: string | null; acceptLanguage: string | null; note: string | null; range: string | null; query: string; served: number;
} {
  const match = /SEEN (.*?) END/.exec(text.replace(/&quot;/g, '"'));
  if (match === null) throw new Error("no echo in the page");
  return JSON.parse(match[1]);
}

/** A TCP server on loopback that closes every connection as soon as it is made. */
export async function startResettingServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((socket) => socket.destroy());
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((done) => server.close(() => done())) };
}
