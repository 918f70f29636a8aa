import type { Context } from "hono";
import { Hono } from "hono/tiny";
import {
  FEED_FULLTEXT_BUDGET_MS,
  FEED_FULLTEXT_CONCURRENCY,
  FEED_FULLTEXT_DEFAULT_ITEMS,
  FEED_FULLTEXT_MAX_ITEMS,
  FEED_ITEM_TIMEOUT_MS,
  FEED_MAX_ITEMS,
} from "../../config";
import { decodeFeed, parseFeed, rewriteFeed, type FeedKind } from "../../feed";
import type { Env } from "../shared/bindings";
import { mediaType, readFetchedBody } from "../shared/body";
import { requireKnownParameters, ServiceError } from "../shared/errors";
import type { ReaderCacheBindings } from "../api/read-url";
import { processItems } from "./items";
import { pageSampler } from "../../learning";
import { modelVersion } from "../proxy/clean";
import { cachedAnswer, keptPrivateWhere, readerCacheTtl, waitUntilOf } from "../shared/cache";
import { requireMode } from "../shared/formats";
import { fetchOrigin } from "../shared/origin-fetch";
import { resolveSettings } from "../shared/settings";
import { parseSite, requireSiteParam, siteOfHost } from "../shared/site";
import { checkTarget } from "../shared/target";

/**
 * /v1/feed: an RSS 2.0, RSS 1.0 (RDF) or Atom 1.0 feed in, the same feed out with each item's HTML cleaned.
 *   GET /v1/feed?url=…[&fulltext=1][&limit=N][&site=…][&mode=…]
 * With fulltext=1 the first `limit` items get their linked article, fetched and cleaned, as content.
 */
export const feedRoutes = new Hono<{ Bindings: Env }>();

const ACCEPT_FEEDS = "application/rss+xml, application/atom+xml, application/rdf+xml;q=0.9, application/xml;q=0.8, text/xml;q=0.8, */*;q=0.5";
/** What each kind goes out as when the origin's media type was not a feed or XML type. */
const MEDIA_TYPE_BY_KIND: Readonly<Record<FeedKind, string>> = {
  rss: "application/rss+xml",
  atom: "application/atom+xml",
  rdf: "application/rdf+xml",
};
const XML_MEDIA_TYPE = /^(?:application|text)\/(?:[\w.+-]+\+)?xml$/;

/** The query parameters /v1/feed reads (any other is a 400 naming these). */
const FEED_QUERY_PARAMETERS = ["url", "site", "key", "fulltext", "limit", "mode", "kind"] as const;

feedRoutes.get("/", async (context) => {
  requireKnownParameters(new URL(context.req.url).searchParams, FEED_QUERY_PARAMETERS);
  // Cached by its parameters (the key left out) and the model; a full-text feed's articles are cleaned with their
  // sites' rules as they are when it is made, for the cache's TTL.
  const query = [...new URL(context.req.url).searchParams].filter(([name]) => name !== "key").sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const env = context.env as Env & ReaderCacheBindings;
  const cache = { request: context.req.raw, parts: ["feed", JSON.stringify(query), modelVersion()], ttlSeconds: readerCacheTtl(env.READER_CACHE_TTL), waitUntil: waitUntilOf(context) };
  return cachedAnswer(cache, () => serveFeed(context));
});

async function serveFeed(context: Context<{ Bindings: Env }>): Promise<Response> {
  const started = Date.now();
  const settings = resolveSettings(context.env, context.req.raw);
  const url = context.req.query("url");
  if (url === undefined || url === "") throw new ServiceError("bad-request", "the url parameter is required");
  const fullText = parseFlag(context.req.query("fulltext"));
  const limit = parseLimit(context.req.query("limit"));
  const mode = requireMode(context.req.query("mode"));
  const target = checkTarget(url, settings);
  if (!target.ok) throw new ServiceError(target.code, target.message);
  const fetched = await fetchOrigin(target.url, settings, { accept: ACCEPT_FEEDS });
  if (!fetched.ok) throw new ServiceError(fetched.code, fetched.message);
  const { response } = fetched;
  const body = await readFetchedBody(response, settings.maxBodyBytes, settings.fetchBodyTimeoutMs);
  if (body.kind === "bad-encoding") throw new ServiceError("origin-error", `${fetched.url.host}: ${body.message}`);
  if (body.kind === "timeout") throw new ServiceError("origin-timeout", `${fetched.url.host} did not send the feed within ${settings.fetchBodyTimeoutMs} ms`);
  if (body.kind === "too-large") {
    await body.stream.cancel();
    throw new ServiceError("payload-too-large", `the feed is over the limit of ${settings.maxBodyBytes} bytes`);
  }
  const contentType = response.headers.get("content-type");
  const decoded = decodeFeed(body.bytes, contentType);
  if (!decoded.ok) throw new ServiceError("unsupported-media-type", `the feed's charset ${decoded.charset} is not supported`);
  const parsed = parseFeed(decoded.xml);
  if (!parsed.ok && parsed.reason === "not-a-feed") {
    throw new ServiceError("unsupported-media-type", `${fetched.url.href} is not an RSS, RDF or Atom feed (${mediaType(contentType) || "no content type"})`);
  }
  if (!parsed.ok) throw new ServiceError("origin-error", `the feed at ${fetched.url.href} is malformed: ${parsed.detail}`);
  const { feed } = parsed;
  const site = requireSite(context.req.query("site"), feed.siteLink, fetched.url);
  const { edits, summary } = await processItems({
    env: context.env,
    settings,
    feed,
    feedUrl: fetched.url,
    site,
    mode,
    itemLimit: FEED_MAX_ITEMS,
    fullTextLimit: fullText ? limit : 0,
    concurrency: FEED_FULLTEXT_CONCURRENCY,
    itemTimeoutMs: FEED_ITEM_TIMEOUT_MS,
    deadline: started + FEED_FULLTEXT_BUDGET_MS,
    // Full-text articles are fetched without credentials from their own URLs: evidence for their own sites.
    sampleArticle: pageSampler(context.env, waitUntilOf(context), false, { kind: "fetched" }),
  });
  const type = mediaType(contentType);
  const outputType = XML_MEDIA_TYPE.test(type) ? type : MEDIA_TYPE_BY_KIND[feed.kind];
  return keptPrivateWhere(response.headers, new Response(rewriteFeed(feed, edits), {
    status: 200,
    headers: {
      "content-type": `${outputType}; charset=utf-8`,
      "x-feed-kind": feed.kind,
      "x-clean-site": site,
      "x-feed-items": `total=${feed.items.length}; cleaned=${summary.cleaned}; fulltext=${summary.fullText}; failed=${summary.failed}; skipped=${summary.skipped}`,
    },
  }));
}

function parseFlag(value: string | undefined): boolean {
  if (value === undefined || value === "" || value === "0" || value === "false") return false;
  if (value === "1" || value === "true") return true;
  throw new ServiceError("bad-request", `fulltext must be 1 or 0, not "${value}"`);
}

function parseLimit(value: string | undefined): number {
  if (value === undefined || value === "") return FEED_FULLTEXT_DEFAULT_ITEMS;
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1 || limit > FEED_FULLTEXT_MAX_ITEMS) {
    throw new ServiceError("bad-request", `limit must be a whole number from 1 to ${FEED_FULLTEXT_MAX_ITEMS}, not "${value}"`);
  }
  return limit;
}

/**
 * Whose rules clean the items' own HTML: the `site` parameter, else the host of the website the feed links
 * to (a feed served by a feed host or a CDN carries its publisher's HTML), else the feed's own host.
 */
function requireSite(value: string | undefined, siteLink: string, feedUrl: URL): string {
  if (value === undefined || value === "") return siteOfLink(siteLink, feedUrl) ?? siteOfHost(feedUrl.hostname);
  return requireSiteParam(value);
}

function siteOfLink(link: string, feedUrl: URL): string | null {
  if (link === "") return null;
  let url: URL;
  try {
    url = new URL(link, feedUrl);
  } catch {
    return null; // a channel link that is not a URL names no site
  }
  return url.protocol === "http:" || url.protocol === "https:" ? parseSite(url.hostname) : null;
}
