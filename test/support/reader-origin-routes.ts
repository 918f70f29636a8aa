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

/** A story with the metadata agents' clients read (byline, date, description), links, images and a text direction; counted per ?id= too. */
const AGENTS_ARTICLE = (host: string) => `<!doctype html><html lang="en" dir="rtl"><head><title>Ferry timetable changes for the winter | Test Gazette</title>
<meta name="author" content="Mara Quill"><meta property="article:published_time" content="2026-11-02T08:30:00Z">
<meta name="description" content="The winter ferry timetable starts next week with fewer crossings on Sundays.">
<meta property="og:site_name" content="Test Gazette"></head><body>
<nav><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></nav>
<article><h1>Ferry timetable changes for the winter</h1>
<p>The winter ferry timetable starts next week, with two fewer crossings on Sundays and an earlier last boat on weekdays, the operator said on Monday.</p>
<p><img src="http://${host}/images/ferry.png" alt="The ferry at the pier"></p>
<p>Passengers can read the <a href="http://${host}/timetables/winter">full winter timetable</a> or ask at the pier office, which keeps its summer hours until the end of the month.</p>
<p>The operator said the changes follow a survey of passengers and will be reviewed in the spring, when the <a href="http://${host}/timetables/summer">summer timetable</a> is drawn up.</p></article>
<footer>© Test Gazette. All rights reserved.</footer></body></html>`;

export const READER_ORIGIN_ROUTES: OriginRoutes = {
  "/reader/agents.html": (request, response) => {
    const id = idOf(request);
    counts.set(`agents-${id}`, (counts.get(`agents-${id}`) ?? 0) + 1);
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(AGENTS_ARTICLE(request.headers.host ?? "127.0.0.1"));
  },
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
