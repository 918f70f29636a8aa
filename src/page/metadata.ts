/**
 * Reader metadata of a page: title (without the site's name), byline, published date, excerpt, language,
 * lead image, site name, and whether the page reads as an article. Head facts and the body's byline and
 * date candidates come from one scan (metadata-scan.ts); paragraphs and readerability from pass 1's page
 * model (metadata-article.ts). Sources in Readability's order: JSON-LD, then meta tags (Dublin Core, Open
 * Graph, Twitter, parse.ly, Sailthru), then the page body, and <title> last.
 */
import { analysePage } from "./analyse";
import { readArticleShape, type KeptContent } from "./metadata-article";
import { normaliseDate } from "./metadata-dates";
import { parseMetaJson, readJsonLd, type JsonLdFacts } from "./metadata-json-ld";
import { BYLINE_META_KEYS, scanMetadata, type BylineCandidate, type DateCandidate, type HeadingFact, type MetadataFacts } from "./metadata-scan";
import { cleanByline, hostKey, nameKey, TITLE_SEPARATOR, tidy, withoutSiteName } from "./metadata-values";
import { isIdeograph } from "./text-marks";
import type { PageModel } from "./types";

export interface PageMetadata {
  /** The article's title, without the site's name when the page's title adds it ("… | The Gazette"). */
  readonly title: string | null;
  /** Author name(s), joined by ", " when there are several. */
  readonly byline: string | null;
  /** ISO 8601 (a day, or a time with the offset the page wrote: metadata-dates.ts), null when no source gives a whole date. */
  readonly published: string | null;
  /** The page's description, else its first paragraph. */
  readonly excerpt: string | null;
  readonly lang: string | null;
  /** Absolute URL when the page's URL is known. */
  readonly leadImage: string | null;
  readonly siteName: string | null;
  /**
   * The page reads as an article (a front page, a list of teasers or a page of links does not): judged on what the
   * cleaning keeps when extractMetadata is given it (the article we extract), else on the whole page.
   */
  readonly readerable: boolean;
}

/** How far from the title heading a byline or date still sits next to it, in source characters (a share bar, a standfirst between). */
const NEAR_TITLE_CHARS = 6_000;
/** How far from the byline a date is still its date, in source characters. */
const NEAR_BYLINE_CHARS = 1_500;

/** Meta keys, as the scan writes them (metaKey: lower case, "DC.creator" as "dc:creator"), in the order they are tried. */
const EXCERPT_META_KEYS = ["dc:description", "dcterms:description", "og:description", "description", "twitter:description", "sailthru:description"];
const TITLE_META_KEYS = ["dc:title", "dcterms:title", "og:title", "twitter:title", "headline", "sailthru:title", "parsely-title"];
/**
 * Meta keys of the publication date; modified dates (article:modified_time, dateModified) are never one. Open Graph's
 * (also as og:article:, and article:published without _time), schema.org's, Dublin Core's, then the names CMSs,
 * Sailthru and Parse.ly write, Highwire's citation_ (scholarly pages, as Google Scholar reads them) and PRISM's.
 */
const DATE_META_KEYS = [
  "article:published_time", "og:article:published_time", "article:published", "datepublished", "og:published_time", "dc:date:issued",
  "dcterms:issued", "dcterms:created", "dc:date", "date", "pubdate", "publishdate", "publish-date", "publish_date", "publication_date",
  "pub_date", "sailthru:date", "parsely-pub-date", "citation_publication_date", "citation_date", "prism:publicationdate",
];

/**
 * Metadata of a page: its HTML (analysed here) or the page model pass 1 made of it; `kept`, what the cleaning keeps
 * of it (readerable is then judged on that).
 */
export function extractMetadata(input: string | PageModel, pageUrl?: string, kept?: KeptContent): PageMetadata {
  const page = typeof input === "string" ? analysePage(input, { metadata: true }) : input;
  const facts = page.metadataFacts ?? scanMetadata(page.source);
  const jsonLd = readJsonLd(facts.jsonLd);
  const meta = (...keys: string[]): string | null => firstMeta(facts.meta, keys);
  const parsely = parseMetaJson(meta("parsely-page") ?? "") ?? {};
  const host = hostOf(pageUrl) ?? hostOf(facts.canonical) ?? hostOf(meta("og:url")) ?? "";
  const siteNames = [meta("og:site_name"), jsonLd.publisher, jsonLd.websiteName, meta("application-name", "apple-mobile-web-app-title", "dc:publisher")]
    .filter((name): name is string => tidy(name) !== null);
  const anchor = titleHeading(facts.headings, facts.title);
  const title = readTitle(facts, jsonLd, meta, parsely, siteNames, host);
  const bodyByline = chooseByline(facts.bylines, anchor);
  const byline = cleanByline(notUrl(jsonLd.authors)) ?? firstByline(facts.meta, BYLINE_META_KEYS) ??
    cleanByline(parsely.author ?? null) ?? (bodyByline === null ? null : cleanByline(bodyByline.name) ?? cleanByline(bodyByline.text));
  const lang = nonEmpty(facts.htmlLang) ?? meta("content-language", "dc:language") ?? localeToLang(meta("og:locale")) ?? jsonLd.inLanguage;
  const published = readPublished([jsonLd.datePublished, ...DATE_META_KEYS.map((key) => facts.meta.get(key)), parsely.pub_date], facts.dates, bodyByline, anchor, lang);
  const shape = readArticleShape(page, anchor?.offset ?? -1, kept);
  const described = [...EXCERPT_META_KEYS.map((key) => facts.meta.get(key)), jsonLd.description].find((value) => describesPage(value, [...siteNames, title.siteName ?? ""]));
  const excerpt = described ?? shape.firstParagraph;
  const image = jsonLd.image ?? meta("og:image", "og:image:url", "og:image:secure_url", "twitter:image", "twitter:image:src", "sailthru:image:full") ??
    parsely.image_url ?? nonEmpty(facts.imageLink);
  return {
    // A page without a title of its own (an empty <title>, none at all) is titled by its first heading.
    title: title.title ?? (facts.headings.find((heading) => heading.level === 1) ?? facts.headings[0])?.text ?? null,
    byline,
    published,
    excerpt: tidy(excerpt),
    lang: tidy(lang),
    leadImage: absoluteUrl(image, pageUrl),
    siteName: tidy(siteNames[0] ?? title.siteName),
    readerable: shape.readerable,
  };
}

/**
 * The <title> without the site's name, where the part cut off is the name of the host of `pageUrl` ("… | Facebook" on
 * blog.facebook.com); the whole <title> when no part is, or no URL is given. Only the <title> and the URL are read
 * (no meta tags, so that cleaning needs no metadata scan and every format cleans alike), and only such evidence
 * counts, not the page's headings, which hold the site's banner as often as the article's title.
 */
export function titleWithoutSiteName(page: PageModel, pageUrl?: string): string | null {
  const title = tidy(page.title);
  const host = hostKey(hostOf(pageUrl) ?? "");
  // Without a host's name nothing in the title can be shown to name the site: the title stays whole.
  return title === null || host === "" ? title : withoutSiteName(title, [], host, []).title;
}

/**
 * The title: JSON-LD's (headline or name, whichever the <title> holds when they differ), else the meta
 * tags', else <title>; then without the site's name.
 */
function readTitle(facts: MetadataFacts, jsonLd: JsonLdFacts, meta: (...keys: string[]) => string | null, parsely: Readonly<Record<string, string>>,
  siteNames: readonly string[], host: string): { title: string | null; siteName: string | null } {
  const headings = facts.headings.map((heading) => heading.text);
  const hostName = hostKey(host);
  const pageTitle = tidy(facts.title);
  const pageParts = pageTitle === null ? null : withoutSiteName(pageTitle, siteNames, hostName, headings);
  // A title that is only the site's name (og:title on some blogs' every page) says nothing of the page.
  const siteKeys = new Set([...siteNames, pageParts?.siteName ?? ""].map(nameKey).filter((key) => key !== ""));
  const ofPage = (title: string | null | undefined): string | null => {
    const tidied = tidy(title);
    return tidied === null || (siteKeys.has(nameKey(tidied)) && nameKey(tidied) !== nameKey(pageParts?.title ?? "")) ? null : tidied;
  };
  const fromJsonLd = jsonLd.titles.length > 1 && pageTitle !== null
    ? jsonLd.titles.find((title) => nameKey(pageTitle).includes(nameKey(title))) ?? jsonLd.titles[0]
    : jsonLd.titles[0];
  const title = ofPage(fromJsonLd) ?? ofPage(meta(...TITLE_META_KEYS)) ?? ofPage(parsely.title) ?? pageTitle;
  if (title === null) return { title: null, siteName: null };
  if (title === pageTitle && pageParts !== null) {
    return { title: headingTitle(facts.headings, pageTitle, pageParts.title) ?? pageParts.title, siteName: tidy(pageParts.siteName) };
  }
  const parts = withoutSiteName(title, siteNames, hostName, headings);
  return { title: parts.title, siteName: tidy(parts.siteName ?? pageParts?.siteName) };
}

/**
 * The <title>, without the site's name (`ownTitle`), stays the title unless the page's one h1, saying more than a
 * name does (saysMoreThanAName), states the page better: the <title> is only names, of the site or its sections, and
 * names no heading of the page ("Cape Argus", "News | Africa - Reuters.com"); or the h1 states the <title>'s headline
 * and goes on (continuesHeadline). A <title> that names the page otherwise stays, whatever the h1 says ("Daring
 * Fireball: Colophon" over an h1 "About This Site").
 */
function headingTitle(headings: readonly HeadingFact[], pageTitle: string, ownTitle: string): string | null {
  const h1 = headings.filter((heading) => heading.level === 1);
  if (h1.length !== 1) return null;
  const text = tidy(h1[0]!.text);
  if (text === null || !saysMoreThanAName(text)) return null;
  const titleKey = nameKey(pageTitle);
  if (isOnlyNames(ownTitle) && !headings.some((heading) => heading.level <= 3 && holdsHeading(titleKey, heading))) return text;
  const headline = ownTitle.split(TITLE_SEPARATOR)[0]!.trim();
  return continuesHeadline(ownTitle, text) || continuesHeadline(headline, text) ? text : null;
}

/** Most words of a name of a site or section ("The Anatolian Times", "Lifestyle & Entertainment"); a headline has more. */
const MAX_TITLE_NAME_WORDS = 3;

/**
 * A title made only of names: each part between separators is MAX_TITLE_NAME_WORDS or fewer (in Chinese and Japanese, says
 * no more than a name), and no colon joins a name to what the page is ("Daring Fireball: Colophon").
 */
function isOnlyNames(title: string): boolean {
  if (/:\s/.test(title)) return false;
  return title.split(TITLE_SEPARATOR).every((part) => {
    const words = part.trim().split(/\s+/).length;
    return words <= MAX_TITLE_NAME_WORDS && !(words === 1 && saysMoreThanAName(part));
  });
}

/**
 * The heading states the title's headline and goes on: its letters and digits start with the title's (10 or more),
 * and more words follow (", Says Her …", "… of creative ways to kill" where the <title> was cut short), not a count
 * ("… Start-Ups 199 Comments": a comment link inside the heading).
 */
function continuesHeadline(title: string, heading: string): boolean {
  const key = headlineKey(title.replace(/(?:\.\.\.|…)$/, ""));
  if (key.length < 10) return false;
  let matched = 0;
  let at = 0;
  for (; at < heading.length && matched < key.length; at++) {
    const letters = headlineKey(heading[at]!);
    if (letters === "") continue;
    if (letters !== key.slice(matched, matched + letters.length)) return false;
    matched += letters.length;
  }
  const rest = heading.slice(at);
  return matched === key.length && /^[^\p{L}\p{N}]*\p{L}/u.test(rest);
}

/** Letters and digits, lower case: a headline as two statements of it are compared ("Leyden’s" and "Leyden's" alike). */
function headlineKey(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
}

/** Three words or more; or, in Chinese and Japanese, written without spaces, six kana or ideographs or more. */
function saysMoreThanAName(text: string): boolean {
  if (text.split(/\s+/).length >= 3) return true;
  let ideographs = 0;
  for (let i = 0; i < text.length; i++) if (isIdeograph(text.charCodeAt(i))) ideographs++;
  return ideographs >= 6;
}

/** Whether a title (its nameKey) holds a heading's text, of 8 letters and digits or more (fewer may be a section's name). */
function holdsHeading(titleKey: string, heading: HeadingFact): boolean {
  const key = nameKey(heading.text);
  return key.length >= 8 && titleKey.includes(key);
}

/** The heading that titles the page: the first h1 or h2 that <title> holds, else the first h1. */
function titleHeading(headings: readonly HeadingFact[], pageTitle: string): HeadingFact | null {
  const titleKey = nameKey(pageTitle);
  return headings.find((heading) => holdsHeading(titleKey, heading)) ??
    headings.find((heading) => heading.level === 1) ?? null;
}

/**
 * The body's byline: outside sidebars, footers and comments (the scan leaves those out), nearest the title
 * heading when one sits next to it, else the first inside the main content, else the first marked author, else the first.
 */
function chooseByline(candidates: readonly BylineCandidate[], anchor: HeadingFact | null): BylineCandidate | null {
  const usable = candidates.filter((candidate) => (!candidate.dateline || /^by\s/i.test(candidate.text)) &&
    (cleanByline(candidate.name) !== null || cleanByline(candidate.text) !== null));
  if (anchor !== null) {
    const near = usable.filter((candidate) => Math.abs(candidate.offset - anchor.offset) <= NEAR_TITLE_CHARS);
    if (near.length > 0) return nearest(near, anchor.offset);
  }
  return usable.find((candidate) => candidate.inMain) ?? usable.find((candidate) => candidate.marked) ?? usable[0] ?? null;
}

/**
 * The publication date as ISO 8601: from the first source that gives a whole date (one that does not parse passes to
 * the next), the head's `written` first, then the body's; a date the body marks as modified only is the last resort
 * ("Updated" is not when the page was published).
 */
function readPublished(written: readonly (string | null | undefined)[], dates: readonly DateCandidate[], byline: BylineCandidate | null,
  anchor: HeadingFact | null, lang: string | null): string | null {
  for (const value of written) {
    const date = normaliseDate(value ?? null, lang);
    if (date !== null) return date;
  }
  const published = chooseDate(dates.filter((date) => !date.modified), byline, anchor);
  const modified = chooseDate(dates.filter((date) => date.modified), byline, anchor);
  return normaliseDate(published?.value ?? null, lang) ?? normaliseDate(modified?.value ?? null, lang);
}

/** The date of the byline (inside it or next to it), else a marked publication date, else the <time> nearest the title. */
function chooseDate(dates: readonly DateCandidate[], byline: BylineCandidate | null, anchor: HeadingFact | null): DateCandidate | null {
  if (byline !== null) {
    const near = dates.filter((date) => Math.abs(date.offset - byline.offset) <= NEAR_BYLINE_CHARS);
    if (near.length > 0) return nearest(near, byline.offset);
  }
  const marked = dates.find((date) => date.marked);
  if (marked !== undefined) return marked;
  if (anchor === null) return null;
  const near = dates.filter((date) => Math.abs(date.offset - anchor.offset) <= NEAR_TITLE_CHARS);
  return near.length > 0 ? nearest(near, anchor.offset) : null;
}

function nearest<T extends { readonly offset: number }>(items: readonly T[], offset: number): T {
  let best = items[0];
  for (const item of items) if (Math.abs(item.offset - offset) < Math.abs(best.offset - offset)) best = item;
  return best;
}

function firstMeta(meta: Map<string, string>, keys: readonly string[]): string | null {
  for (const key of keys) {
    const value = meta.get(key);
    if (value !== undefined) return value;
  }
  return null;
}

/** A description that says something of the page: not only the site's name, not markup. */
function describesPage(value: string | null | undefined, names: readonly string[]): value is string {
  const text = tidy(value);
  if (text === null || text.startsWith("<")) return false;
  const key = nameKey(text);
  return key !== "" && !names.some((name) => nameKey(name) === key);
}

function firstByline(meta: Map<string, string>, keys: readonly string[]): string | null {
  for (const key of keys) {
    const byline = cleanByline(notUrl(meta.get(key) ?? null));
    if (byline !== null) return byline;
  }
  return null;
}

function hostOf(url: string | null | undefined): string | null {
  if (url === null || url === undefined) return null;
  const hostname = resolveUrl(url.trim(), url.trim())?.hostname ?? null; // only an absolute URL has a host
  // An address names no site; the page's canonical URL may.
  return hostname === null || /^[\d.]+$|^\[|^localhost$/.test(hostname) ? null : hostname;
}

// ── normalising values ───────────────────────────────────────────────────────────────────────────────

/** A byline that is a profile URL (article:author often is) names nobody readable: the next source is tried. */
function notUrl(value: string | null): string | null {
  return value === null || /^\s*https?:\/\//i.test(value) ? null : value;
}

function nonEmpty(value: string | null): string | null {
  return value === null || value.trim() === "" ? null : value;
}

/** og:locale is written en_GB; a language tag is en-GB. */
function localeToLang(locale: string | null): string | null {
  return locale === null ? null : locale.trim().replace(/_/g, "-");
}

function absoluteUrl(value: string | null, base: string | undefined): string | null {
  const text = tidy(value);
  if (text === null) return null;
  if (base === undefined) return text;
  return resolveUrl(text, base)?.href ?? text;
}

/** The URL a (possibly relative) reference names, or null when it does not parse. */
function resolveUrl(reference: string, base: string): URL | null {
  try {
    return new URL(reference, base);
  } catch {
    return null; // URL.canParse is missing from the Workers type declarations; the constructor is the test
  }
}
