/**
 * Sampling: a bounded set of the pages the Worker cleans, per learning site, in R2. The write happens after
 * the answer (the caller's waitUntil), so the answer never waits for it. Privacy: only pages fetched or sent
 * without credentials are kept (see sentWithCredentials); a page behind a login may be one person's.
 * Trust: a page teaches a site's rules only on evidence the site gave (PageEvidence): fetched from the site's own
 * URL, proxied from the origin the operator mapped to it, or posted by a key an admin allowed for it
 * (posting-keys.ts). A posted body's `url` only names a page, so anyone could name any site with it.
 * Spread: a site takes at most one page per LEARN_SAMPLE_SPACING_MINUTES, so a burst of requests adds one page.
 */
import { hexDigest } from "../digest";
import { siteKeyCandidates, siteOfHost } from "../rules";
import { coversSite, readPostingKey } from "./posting-keys";
import { listWithMetadata, pageKey, sitePagesPrefix } from "./storage-keys";
import { considerJob } from "./jobs";
import { admitSample, samplePeriod } from "./sample-gate";
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

/** A cleaned page with what its word for its site rests on (the sampler adds it: the route that made it knows). */
export interface EvidencedPage extends CleanedPage {
  readonly evidence: PageEvidence;
}

/** What a page's word for its site rests on. */
export type PageEvidence =
  /** Fetched from the URL it names (GET /v1/clean?url=, /v1/read, a full-text feed item): evidence for that URL's own site only. */
  | { readonly kind: "fetched" }
  /** Fetched from the origin the operator mapped to the site (PROXY_ORIGINS). */
  | { readonly kind: "proxied" }
  /** A request body: evidence only for a site the posting key is allowed (posting-keys.ts); keyId names the key. */
  | { readonly kind: "posted"; readonly keyId: string };

/** A sampled page as listed from R2 (without its HTML). */
export interface SampledPage {
  readonly key: string;
  readonly url: string;
  readonly sampledAt: string;
  readonly bytes: number;
  /** PageEvidence's kind ("" for a page sampled before it was recorded), and the posting key's id. */
  readonly evidence: string;
  readonly keyId?: string;
}

export type PageSampler = (page: CleanedPage) => void;

/**
 * Per isolate, a cache of the global gate's "full" answers (sample-gate.ts): site → the period in which the gate
 * let no more samples through. Until the period changes, the isolate asks the gate no more for that site, so a
 * busy site costs one gate call an isolate once its period's samples are in. Oldest entries go past FULL_SITES_LIMIT.
 */
const fullSites = new Map<string, string>();
const FULL_SITES_LIMIT = 10_000;
/** Per isolate: when it last handed a page of a site to sampling (milliseconds), to skip the spacing's R2 read. */
const lastSampled = new Map<string, number>();

/**
 * What the HTTP layer calls after a page is cleaned: decides at once (no I/O) whether to sample it, and
 * if so hands the gate's check and the write to `waitUntil`. `credentialed`: the page was fetched or sent with credentials.
 */
export function pageSampler(
  env: LearningBindings, waitUntil: (promise: Promise<unknown>) => unknown, credentialed: boolean, evidence: PageEvidence, random: () => number = Math.random,
): PageSampler {
  return (cleaned) => {
    const page: EvidencedPage = { ...cleaned, evidence };
    const gate = env.SAMPLE_GATE;
    if (credentialed || env.PAGES === undefined || gate === undefined) return;
    const settings = resolveLearningSettings(env);
    if (!learnsSite(settings, page.site) || page.html.length > MAX_SAMPLED_PAGE_CHARACTERS) return;
    const now = Date.now();
    if (rulesAreFresh(settings, page.rulesMinedAt, now)) return;
    const period = samplePeriod(page.rulesMinedAt, settings.staleMilliseconds, now);
    if (fullSites.get(page.site) === period) return;
    if (page.evidence.kind === "fetched" && !isOwnSite(page.site, page.url)) return;
    if (settings.sampleRate < 1 && random() >= settings.sampleRate) return;
    if (now - (lastSampled.get(page.site) ?? -Infinity) < settings.sampleSpacingMilliseconds) return;
    // A post is checked against its key's sites in samplePage: one that is refused there must not hold the site's turn here.
    if (page.evidence.kind !== "posted") remember(lastSampled, page.site, now);
    const admit = async () => {
      const { admitted } = await admitSample(gate, page.site, period, settings.maxPages);
      if (!admitted) remember(fullSites, page.site, period);
      return admitted;
    };
    waitUntil(
      samplePage(env, settings, page, new Date(), admit).catch((error: unknown) => {
        console.error("sampling failed", page.site, error);
      }),
    );
  };
}

/**
 * Whether a fetched page is evidence for the site it is sampled under: the site is one of the keys of the URL's own
 * host and path (a `?site=` naming another site is a request for other rules, never evidence about that site). A key
 * with a port needs the URL's port.
 */
export function isOwnSite(site: string, pageUrl: string): boolean {
  let url: URL;
  try {
    url = new URL(pageUrl);
  } catch {
    return false;
  }
  const port = /^[^/:]+:(\d+)/.exec(site);
  if (port !== null && !`${site}/`.startsWith(`${siteOfHost(url.host)}/`)) return false;
  const withoutPort = port === null ? site : site.replace(/:\d+/, "");
  return siteKeyCandidates(url).includes(withoutPort);
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
 * pages past the limit removed; with enough pages, a mining job may be enqueued. A posted page is kept only for a site
 * its key is allowed; a page within LEARN_SAMPLE_SPACING_MINUTES of the site's newest is not kept; then `admit` (the
 * site's global gate, from pageSampler) lets it through or not. Returns the pages the site's sample holds.
 * R2: (1 get for a posted page) 1 list + 1 put (+ 1 delete past the limit); then considerJob.
 */
export async function samplePage(env: LearningBindings, settings: LearningSettings, page: EvidencedPage, now: Date, admit?: () => Promise<boolean>): Promise<number> {
  const bucket = requireBucket(env);
  if (page.evidence.kind === "posted") {
    const allowed = await readPostingKey(bucket, page.evidence.keyId);
    if (allowed === null || !coversSite(allowed.sites, page.site)) return 0;
  }
  const key = pageKey(page.site, await hexDigest(page.url, 32));
  const before = await listSampledPages(bucket, page.site);
  if (before.length > 0 && now.getTime() - Date.parse(before[0].sampledAt) < settings.sampleSpacingMilliseconds) return before.length;
  if (admit !== undefined && !(await admit())) return before.length;
  const evidence: Record<string, string> = page.evidence.kind === "posted" ? { evidence: "posted", keyId: page.evidence.keyId } : { evidence: page.evidence.kind };
  await bucket.put(key, page.html, {
    httpMetadata: { contentType: "text/html; charset=utf-8" },
    customMetadata: { url: page.url, sampledAt: now.toISOString(), ...evidence },
  });
  const sampled: SampledPage = { key, url: page.url, sampledAt: now.toISOString(), bytes: page.html.length, evidence: page.evidence.kind };
  const pages = [sampled, ...before.filter((entry) => entry.key !== key)];
  if (pages.length > settings.maxPages) await bucket.delete(pages.slice(settings.maxPages).map((entry) => entry.key));
  const kept = Math.min(pages.length, settings.maxPages);
  if (kept >= settings.minPages) await considerJob(env, settings, page.site, now, "sampled");
  return kept;
}

/** Sets a site's entry as the newest; the oldest goes past FULL_SITES_LIMIT. */
function remember<T>(map: Map<string, T>, site: string, value: T): void {
  map.delete(site);
  map.set(site, value);
  if (map.size > FULL_SITES_LIMIT) map.delete(map.keys().next().value as string);
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
        evidence: object.customMetadata?.evidence ?? "",
        ...(object.customMetadata?.keyId === undefined ? {} : { keyId: object.customMetadata.keyId }),
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
