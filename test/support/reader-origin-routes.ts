/**
 * Routes the reader API tests need on the test origin: an article that counts its fetches (per ?id=), the
 * count itself, a feed whose items link to counted articles, and a page that shows the request headers it got.
 */
import type { IncomingMessage } from "node:http";
import type { OriginRoutes } from "./origin-server";

const counts = new Map<string, number>();

function idOf(request: IncomingMessage): string {
  return new URL(request.url ?? "/", "http://origin").searchParams.get("id") ?? "";
}

const ARTICLE = (id: string) => `<!doctype html><html><head><title>Counted article ${id}</title></head><body>
<nav><a href="/">Home</a> <a href="/news">News</a></nav>
<article><h1>Counted article ${id}</h1><p>The harbour board met on Tuesday and agreed to dredge the inner basin before the winter storms arrive, at a cost the council has yet to confirm.</p>
<p>Work starts in October, after the sailing season, and should take about six weeks if the weather holds.</p></article>
<footer>© Test Gazette</footer></body></html>`;

export const READER_ORIGIN_ROUTES: OriginRoutes = {
  "/reader/counted.html": (request, response) => {
    const id = idOf(request);
    counts.set(id, (counts.get(id) ?? 0) + 1);
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(ARTICLE(id));
  },
  "/reader/count": (request, response) => {
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ count: counts.get(idOf(request)) ?? 0 }));
  },
  "/reader/feed.xml": (request, response) => {
    const id = idOf(request);
    counts.set(`feed-${id}`, (counts.get(`feed-${id}`) ?? 0) + 1);
    const host = request.headers.host ?? "127.0.0.1";
    response.writeHead(200, { "content-type": "application/rss+xml" }).end(`<?xml version="1.0"?><rss version="2.0"><channel><title>T</title><link>http://${host}/</link>
<item><title>One</title><link>http://${host}/reader/counted.html?id=${id}-item</link><description>short</description></item></channel></rss>`);
  },
  "/reader/headers.html": (request, response) => {
    const shown = `user-agent=[${request.headers["user-agent"] ?? ""}] accept-language=[${request.headers["accept-language"] ?? ""}]`;
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(`<!doctype html><html><body><article><p>The request headers this origin saw were these, written out so that a test can read them: ${shown}</p></article></body></html>`);
  },
};
