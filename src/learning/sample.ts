/**
 * Sampling: a bounded set of the pages the Worker cleans, per learning site, in R2. The write happens after
 * the answer (the caller's waitUntil), so the answer never waits for it. Privacy: only pages fetched or sent
 * without credentials are kept (see sentWithCredentials); a page behind a login may be one person's.
 */
import { hexDigest } from "../digest";
import { listWithMetadata, pageKey, sitePagesPrefix } from "./storage-keys";
import { considerJob } from "./jobs";
import { FRESH_SHARE, learnsSite, MAX_SAMPLED_PAGE_CHARACTERS, resolveLearningSettings, type LearningBindings, type LearningSettings } from "./settings";

/** A cleaned page, as the HTTP layer hands it over. */
export interface CleanedPage {
  /** The decoded HTML as it came (before cleaning). */
  readonly html: string;
  readonly url: string;
  /** The site key whose rules the page was cleaned with (the URL's host, or ?site=). */
  readonly site: string;
  /** minedAt of the rule set the page was cleaned with; absent when it had none. */
  readonly rulesMinedAt?: string;
}

/** A sampled page as listed from R2 (without its HTML). */
export interface SampledPage {
  readonly key: string;
  readonly url: string;
  readonly sampledAt: string;
  readonly bytes: number;
}

export type PageSampler = (page: CleanedPage) => void;

/**
 * Per isolate: sites whose sample this isolate has seen full (LEARN_MAX_PAGES pages, all sampled after the
 * site's rules were mined), keyed by site, valued by that minedAt ("" for no rules). Until the rules change,
 * the site is not sampled again here: the next mining has its pages, and a busy site's writes stay bounded by
 * its isolates rather than its traffic. Oldest entries go past FULL_SITES_LIMIT.
 */
const fullSites = new Map<string, string>();
const FULL_SITES_LIMIT = 10_000;

/**
 * What the HTTP layer calls after a page is cleaned: decides at once (no I/O) whether to sample it, and
 * if so hands the write to `waitUntil`. `credentialed`: the page was fetched or sent with credentials.
 */
export function pageSampler(env: LearningBindings, waitUntil: (promise: Promise<unknown>) => unknown, credentialed: boolean, random: () => number = Math.random): PageSampler {
  return (page) => {
    if (credentialed || env.PAGES === undefined) return;
    const settings = resolveLearningSettings(env);
    if (!learnsSite(settings, page.site) || page.html.length > MAX_SAMPLED_PAGE_CHARACTERS) return;
    if (rulesAreFresh(settings, page.rulesMinedAt, Date.now())) return;
    if (fullSites.get(page.site) === (page.rulesMinedAt ?? "")) return;
    if (settings.sampleRate < 1 && random() >= settings.sampleRate) return;
    waitUntil(
      samplePage(env, settings, page, new Date()).catch((error: unknown) => {
        console.error("sampling failed", page.site, error);
      }),
    );
  };
}

/**
 * Whether the rules a page was cleaned with are too young to need pages yet: younger than FRESH_SHARE of the
 * staleness limit. The pages of the next mining come from the rest of the period, and a site with fresh rules
 * costs no R2 write (sampling is most of learning's writes: docs/learning.md, "Limits, measured").
 */
export function rulesAreFresh(settings: LearningSettings, minedAt: string | undefined, now: number): boolean {
  if (minedAt === undefined) return false;
  const age = now - Date.parse(minedAt);
  return Number.isFinite(age) && age < settings.staleMilliseconds * FRESH_SHARE;
}

/**
 * Whether a request to the API carries credentials other than the service's own key: a Cookie, or an
 * Authorization that is not a Bearer key (the key check has accepted any Bearer token as an API key).
 */
export function sentWithCredentials(headers: Headers): boolean {
  const authorization = headers.get("authorization");
  return headers.has("cookie") || (authorization !== null && !/^bearer\s/i.test(authorization.trim()));
}

/**
 * Keeps one page: stored under its URL's digest (one copy per URL, the newest), then the site's oldest
 * pages past the limit removed; with enough pages, a mining job may be enqueued. A sample found full of pages
 * newer than the site's rules is remembered (fullSites), and the isolate stops sampling the site until they change.
 * R2: 1 put + 1 list (+ 1 delete past the limit); then considerJob.
 */
export async function samplePage(env: LearningBindings, settings: LearningSettings, page: CleanedPage, now: Date): Promise<number> {
  const bucket = requireBucket(env);
  await bucket.put(pageKey(page.site, await hexDigest(page.url, 32)), page.html, {
    httpMetadata: { contentType: "text/html; charset=utf-8" },
    customMetadata: { url: page.url, sampledAt: now.toISOString() },
  });
  const pages = await listSampledPages(bucket, page.site);
  if (pages.length > settings.maxPages) await bucket.delete(pages.slice(settings.maxPages).map((sampled) => sampled.key));
  const kept = Math.min(pages.length, settings.maxPages);
  if (kept === settings.maxPages && sampledSince(pages[kept - 1].sampledAt, page.rulesMinedAt)) rememberFull(page.site, page.rulesMinedAt ?? "");
  if (kept >= settings.minPages) await considerJob(env, settings, page.site, now, "sampled");
  return kept;
}

/** Whether a page sampled at `sampledAt` is newer than the rules (always, when there are none). */
function sampledSince(sampledAt: string, rulesMinedAt: string | undefined): boolean {
  return rulesMinedAt === undefined || Date.parse(sampledAt) > Date.parse(rulesMinedAt);
}

function rememberFull(site: string, rulesMinedAt: string): void {
  fullSites.delete(site);
  fullSites.set(site, rulesMinedAt);
  if (fullSites.size > FULL_SITES_LIMIT) fullSites.delete(fullSites.keys().next().value as string);
}

/** A site's sampled pages, newest first (every page of the listing, a thousand a call). */
export async function listSampledPages(bucket: R2Bucket, site: string): Promise<SampledPage[]> {
  const pages: SampledPage[] = [];
  let cursor: string | undefined;
  do {
    const listed = await bucket.list(listWithMetadata({ prefix: sitePagesPrefix(site), cursor }));
    for (const object of listed.objects) {
      pages.push({
        key: object.key,
        url: object.customMetadata?.url ?? "",
        sampledAt: object.customMetadata?.sampledAt ?? object.uploaded.toISOString(),
        bytes: object.size,
      });
    }
    cursor = listed.truncated ? listed.cursor : undefined;
  } while (cursor !== undefined);
  // ISO timestamps of one format sort as text, newest first; pages sampled in the same millisecond go by URL.
  return pages.sort((a, b) => (a.sampledAt < b.sampledAt ? 1 : a.sampledAt > b.sampledAt ? -1 : a.url.localeCompare(b.url)));
}

/** The HTML of the pages listed (read in parallel). */
export async function readSampledPages(bucket: R2Bucket, pages: readonly SampledPage[]): Promise<string[]> {
  const bodies = await Promise.all(pages.map(async (page) => (await bucket.get(page.key))?.text() ?? null));
  return bodies.filter((body): body is string => body !== null);
}

export function requireBucket(env: LearningBindings): R2Bucket {
  if (env.PAGES === undefined) throw new Error("the R2 bucket PAGES is not bound (wrangler.toml [[r2_buckets]])");
  return env.PAGES;
}
