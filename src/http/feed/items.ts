import { clean, type CleanResult } from "../../clean";
import { mapBounded, readItemHtml, type FeedDocument, type ItemEdit } from "../../feed";
import { decodeEntities, decodeHtml, scanHtml, TEXT_DATA } from "../../page";
import type { PageSampler } from "../../learning";
import { createWorkerdBackend } from "../../runtime";
import type { Env } from "../shared/bindings";
import { isHtmlBody, readFetchedBody } from "../shared/body";
import type { RequestedMode } from "../shared/formats";
import { classifierModel } from "../shared/model";
import { fetchOrigin } from "../shared/origin-fetch";
import { loadSiteRules } from "../shared/rules-store";
import type { HttpSettings } from "../shared/settings";
import { siteOfHost } from "../shared/site";
import { checkTarget } from "../shared/target";

/**
 * The work on a feed's items: each item's own HTML cleaned with the feed's site rules (or the classifier),
 * and, for full text, each item's link fetched and its article cleaned with that page's site rules.
 * Nothing here throws for one item: a failure becomes a note on that item and the feed goes on.
 */
export interface FeedJob {
  readonly env: Env;
  readonly settings: HttpSettings;
  readonly feed: FeedDocument;
  /** The feed's final URL (after redirects): item links are resolved against it. */
  readonly feedUrl: URL;
  /** Whose rules clean the items' own HTML. */
  readonly site: string;
  /** What may clean the items and their articles (?mode=). */
  readonly mode: RequestedMode;
  /** How many items to clean (the rest go out as they came). */
  readonly itemLimit: number;
  /** How many items get full text (0: none). */
  readonly fullTextLimit: number;
  readonly concurrency: number;
  readonly itemTimeoutMs: number;
  /** Date.now() after which no further item page is fetched. */
  readonly deadline: number;
  /** Keeps a fetched full-text article for learning (src/learning); absent: none kept. */
  readonly sampleArticle?: PageSampler;
}

export interface FeedJobSummary {
  readonly cleaned: number;
  readonly fullText: number;
  readonly failed: number;
  readonly skipped: number;
}

/** workerd's native HTMLRewriter, behind the runtime interface the pipeline takes. */
const REWRITER = createWorkerdBackend();

type ItemOutcome = { readonly edit: ItemEdit; readonly cleaned: boolean; readonly fullText: "ok" | "failed" | "skipped" | "none" };

export async function processItems(job: FeedJob): Promise<{ edits: ItemEdit[]; summary: FeedJobSummary }> {
  const count = Math.min(job.feed.items.length, job.itemLimit);
  const indexes = Array.from({ length: count }, (_, index) => index);
  const outcomes = await mapBounded(indexes, job.concurrency, (index) => processItem(job, index), (error, index) => {
    console.error("feed item failed", index, error);
    const edit: ItemEdit = { item: index, description: null, content: null, note: "edge-cleaner: this item could not be processed" };
    return { edit, cleaned: false, fullText: index < job.fullTextLimit ? "failed" : "none" } satisfies ItemOutcome;
  });
  const edits = outcomes.map((outcome) => outcome.edit).filter((edit) => edit.description !== null || edit.content !== null || edit.note !== null);
  const summary: FeedJobSummary = {
    cleaned: outcomes.filter((outcome) => outcome.cleaned).length,
    fullText: outcomes.filter((outcome) => outcome.fullText === "ok").length,
    failed: outcomes.filter((outcome) => outcome.fullText === "failed").length,
    skipped: outcomes.filter((outcome) => outcome.fullText === "skipped").length,
  };
  return { edits, summary };
}

async function processItem(job: FeedJob, index: number): Promise<ItemOutcome> {
  const item = job.feed.items[index];
  const description = await cleanItemHtml(job, readItemHtml(job.feed, item.description));
  const content = await cleanItemHtml(job, readItemHtml(job.feed, item.content));
  const cleaned = description !== null || content !== null;
  if (index >= job.fullTextLimit) {
    return { edit: { item: index, description, content, note: null }, cleaned, fullText: "none" };
  }
  if (Date.now() > job.deadline) {
    const note = "edge-cleaner: full text skipped (the feed's time budget was spent)";
    return { edit: { item: index, description, content, note }, cleaned, fullText: "skipped" };
  }
  const article = await fetchArticle(job, item.link);
  if (!article.ok) {
    const note = `edge-cleaner: full text failed (${article.reason}); the item keeps its own content`;
    return { edit: { item: index, description, content, note }, cleaned, fullText: "failed" };
  }
  return { edit: { item: index, description, content: article.html, note: null }, cleaned, fullText: "ok" };
}

/**
 * An item's own HTML, cleaned and written as the article format writes a page (allow-listed elements and attributes,
 * no script, no event handler, no javascript: URL): a feed reader shows it as HTML. Null when the item has none.
 */
async function cleanItemHtml(job: FeedJob, html: string | null): Promise<string | null> {
  if (html === null) return null;
  const rules = await loadSiteRules(job.env, job.site);
  // The classifier judges whole pages; an item's HTML is a fragment, so where the site has rules they clean it alone.
  const result = await cleanHtml(html, undefined, job.site, rules.compiled, { withRules: "rules", mode: job.mode }, "article");
  // Past a limit: the article format's fallback (clean.ts bailoutFallback: the whole item through the allow-list, or
  // the text of its start), never its HTML as it came.
  if (!result.ok) return result.fallback.body;
  if (hasVisibleText(result.body) || !hasVisibleText(html)) return result.body;
  // A short item can look like boilerplate as a whole: an item emptied by cleaning keeps all its content, written the same safe way.
  const whole = await cleanHtml(html, undefined, job.site, null, { mode: "none" }, "article");
  return whole.ok ? whole.body : whole.fallback.body;
}

type ArticleFetch = { readonly ok: true; readonly html: string } | { readonly ok: false; readonly reason: string };

async function fetchArticle(job: FeedJob, link: string): Promise<ArticleFetch> {
  if (link === "") return { ok: false, reason: "the item has no link" };
  const resolved = resolveUrl(link, job.feedUrl);
  if (resolved === null) return { ok: false, reason: "the item's link is not a URL" };
  const target = checkTarget(resolved.href, job.settings);
  if (!target.ok) return { ok: false, reason: target.message };
  const settings = { ...job.settings, fetchTimeoutMs: Math.min(job.settings.fetchTimeoutMs, job.itemTimeoutMs) };
  const fetched = await fetchOrigin(target.url, settings);
  if (!fetched.ok) return { ok: false, reason: fetched.message };
  const { response } = fetched;
  const bodyTimeoutMs = Math.min(job.settings.fetchBodyTimeoutMs, job.itemTimeoutMs);
  const body = await readFetchedBody(response, job.settings.maxBodyBytes, bodyTimeoutMs);
  if (body.kind === "timeout") return { ok: false, reason: `the page did not arrive within ${bodyTimeoutMs} ms` };
  if (body.kind === "bad-encoding") return { ok: false, reason: body.message };
  if (body.kind === "too-large") {
    await body.stream.cancel();
    return { ok: false, reason: `the page is over ${job.settings.maxBodyBytes} bytes` };
  }
  const contentType = response.headers.get("content-type");
  if (!isHtmlBody(contentType, body.bytes)) return { ok: false, reason: "the link is not an HTML page" };
  const decoded = decodeHtml(body.bytes, contentType);
  if (!decoded.ok) return { ok: false, reason: `unsupported charset ${decoded.charset}` };
  const site = siteOfHost(fetched.url.hostname);
  const rules = await loadSiteRules(job.env, site, fetched.url);
  // The article fragment (allow-listed markup, absolute URLs), without a heading that repeats the item's title.
  const result = await cleanHtml(decoded.html, fetched.url.href, site, rules.compiled, { mode: job.mode, articleTitle: "omit" }, "article");
  if (!result.ok) return { ok: false, reason: `cleaning bailed out: ${result.bailout}` };
  job.sampleArticle?.({ html: decoded.html, url: fetched.url.href, site: rules.site, rulesMinedAt: rules.compiled?.minedAt });
  const html = result.body;
  return hasVisibleText(html) ? { ok: true, html } : { ok: false, reason: "no article text was left after cleaning" };
}

/** An item's HTML or linked article through the pipeline, as the article fragment. */
function cleanHtml(
  html: string,
  url: string | undefined,
  site: string,
  ruleSet: Parameters<typeof clean>[0]["ruleSet"],
  options: Parameters<typeof clean>[0]["options"],
  format: "article",
): Promise<CleanResult> {
  return clean({ html, url, site, format, ruleSet, model: classifierModel(), rewriter: REWRITER, options });
}

/** Whether HTML has any visible text: a letter or digit in its character data (entities decoded). */
export function hasVisibleText(html: string): boolean {
  let found = false;
  scanHtml(html, {
    startTag() {},
    endTag() {},
    text(start, end, kind) {
      if (!found && kind === TEXT_DATA) found = VISIBLE_CHARACTER.test(decodeEntities(html, start, end));
    },
  });
  return found;
}

const VISIBLE_CHARACTER = /[\p{L}\p{N}]/u;

/** The URL a (possibly relative) reference names, or null when it does not parse. */
function resolveUrl(reference: string, base: URL): URL | null {
  try {
    return new URL(reference, base);
  } catch {
    return null; // URL.canParse is missing from the Workers type declarations; the constructor is the test
  }
}
