/**
 * Normalising metadata values: white space, bylines ("By …", separators and dates around a name), dates
 * (ISO 8601 with the page's own offset kept, never converted to UTC) and titles without the site's name.
 * Values come here decoded once already; nothing here decodes references.
 */

/** White space collapsed and trimmed; null when nothing is left. */
export function tidy(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const text = value.replace(/\s+/g, " ").trim();
  return text === "" ? null : text;
}

/** Longest byline kept, in characters (longer is a sentence, not a name). */
const MAX_BYLINE_CHARS = 100;
/** Link texts and labels that name nobody ("View my complete profile" on Blogger, "About" pages). */
const NOT_A_NAME = /^(?:view (?:my )?(?:complete |full )?profile|(?:about|more)(?: (?:me|the author))?|author|authors|profile|posts?|website|e-?mail|by|staff|admin|published|posted|updated|no (?:primary )?author)$/i;
const BYLINE_LEAD = /^(?:(?:written|posted|published|words|story|text|report(?:ed)?|photos?)\s+)?(?:by|von|par|por|door|di|av)\s*:?\s+/i;
const BYLINE_LABEL = /^(?:author|authors|autor|auteur|posted|written)\s*:\s*/i;
/** Separators and connecting words left at the end when a date was cut out ("Jo Bloggs · ", "Jo Bloggs, on"). */
const BYLINE_TAIL = /(?:[\s,·•|/\-–—:]+(?:on|at|am|le|el|the|updated|published|posted)?)+$/i;

/** Where a date starts in a byline line ("Jo Bloggs on August 8, 2012", "Jo Bloggs | 6/11/2012"): cut from there. */
const BYLINE_DATE = /(?:\s+(?:on|at|am|le|el|updated|published|posted))?\s*(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+)?(?:(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?\b|\d{1,2}(?:st|nd|rd|th)?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{4}|\d{1,4}[/.-]\d{1,2}[/.-]\d{2,4}\b)/i;

/** A "by" after other text ("Monday, May 2, 2012, by Jo Bloggs", a headline then "By Jo Bloggs"): the name follows it. */
const INNER_BY = /^.*[\s,]by\s+(?=\p{L})/iu;
/** What follows a name and a pipe or dash: the site, or how long ago ("Jo Bloggs | Goal.com – 1 hour ago"). */
const BYLINE_AFTER_NAME = /\s+(?:\||[–—-]?\s*(?:about\s+)?\d+\s+(?:second|minute|hour|day|week|month|year)s?\s+ago\b).*$/i;
/** How long ago, alone: a time, not a name. */
const RELATIVE_TIME = /^\d+\s+(?:second|minute|hour|day|week|month|year)s?\s+ago$/i;

/**
 * A byline as a reader wants it: no "By", no label, no separator left where a date was, a name's length.
 * Null for profile URLs, e-mail addresses alone and texts that name nobody.
 */
export function cleanByline(value: string | null): string | null {
  let text = tidy(value);
  if (text === null || /^https?:\/\//i.test(text)) return null;
  text = text.replace(BYLINE_LABEL, "").replace(BYLINE_LEAD, "").replace(INNER_BY, "").replace(BYLINE_AFTER_NAME, "");
  const date = BYLINE_DATE.exec(text);
  if (date !== null) text = text.slice(0, date.index); // a date first and no name after it leaves nothing
  text = text.replace(BYLINE_TAIL, "").replace(/^[\s,·•|\-–—:;]+/, "").trim();
  if (text === "" || /^\S+@\S+$/.test(text) || RELATIVE_TIME.test(text) || /\.\.\.|…/.test(text) || text.length > MAX_BYLINE_CHARS || NOT_A_NAME.test(text) || !/\p{L}/u.test(text)) return null;
  return text;
}

// ── dates ────────────────────────────────────────────────────────────────────────────────────────────

const ISO_DATE = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:(?:T|\s+)(\d{1,2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?\s*(Z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)?$/i;
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const MONTH = "(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\\.?";
const TIME = "(?:(?:,|\\s+at|\\s+-)?\\s+(\\d{1,2})[:.](\\d{2})(?::(\\d{2}))?\\s*([ap]\\.?m\\.?)?)?";
const ZONE = "(?:\\s*\\(?(Z|UTC|GMT|[+-]\\d{2}:?\\d{2}|[ECMP][SD]T|BST|CES?T)\\)?)?";
/** "24 July 2012", "Tue, 24 Jul 2012 14:41:54 GMT" (RFC 2822), each with an optional time and zone. */
const DAY_MONTH_YEAR = new RegExp(`^(?:[a-z]+\\.?,?\\s+)?(\\d{1,2})(?:st|nd|rd|th)?\\.?\\s+${MONTH},?\\s+(\\d{4})${TIME}${ZONE}$`, "i");
/** "July 24, 2012", "Jul 24 2012 10:00 am EST". */
const MONTH_DAY_YEAR = new RegExp(`^(?:[a-z]+\\.?,?\\s+)?${MONTH}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})${TIME}${ZONE}$`, "i");
/** Offsets of the zone abbreviations US and European pages write. */
const ZONE_OFFSETS: Readonly<Record<string, string>> = {
  est: "-05:00", edt: "-04:00", cst: "-06:00", cdt: "-05:00", mst: "-07:00", mdt: "-06:00", pst: "-08:00", pdt: "-07:00",
  bst: "+01:00", cet: "+01:00", cest: "+02:00",
};

/**
 * A date as ISO 8601: a day stays a day (2012-07-24), a time keeps the offset the page wrote
 * (2024-03-05T09:30:00+01:00; Z for UTC and GMT) and a time without one stays without one. A date that
 * does not parse is kept as the page wrote it.
 */
export function normaliseDate(value: string | null): string | null {
  const written = tidy(value);
  if (written === null) return null;
  const iso = ISO_DATE.exec(written);
  if (iso !== null) return isoDate(iso[1], iso[2], iso[3], iso[4], iso[5], iso[6], iso[7], iso[8]);
  const dayFirst = DAY_MONTH_YEAR.exec(written);
  if (dayFirst !== null) return textDate(dayFirst[3], dayFirst[2], dayFirst[1], dayFirst.slice(4));
  const monthFirst = MONTH_DAY_YEAR.exec(written);
  if (monthFirst !== null) return textDate(monthFirst[3], monthFirst[1], monthFirst[2], monthFirst.slice(4));
  return written;
}

function textDate(year: string, monthName: string, day: string, time: readonly (string | undefined)[]): string | null {
  const month = MONTHS.indexOf(monthName.slice(0, 3).toLowerCase()) + 1;
  let hour = time[0];
  if (hour !== undefined && time[3] !== undefined) {
    const pm = time[3].toLowerCase().startsWith("p");
    hour = String((Number(hour) % 12) + (pm ? 12 : 0));
  }
  return isoDate(year, String(month), day, hour, time[1], time[2], undefined, time[4]);
}

function isoDate(year: string, month: string, day: string, hour?: string, minute?: string, second?: string, fraction?: string, zone?: string): string | null {
  const monthNumber = Number(month);
  const dayNumber = Number(day);
  if (monthNumber < 1 || monthNumber > 12 || dayNumber < 1 || dayNumber > 31) return null;
  const date = `${year}-${pad(month)}-${pad(day)}`;
  if (hour === undefined || minute === undefined || Number(hour) > 23 || Number(minute) > 59) return date;
  return `${date}T${pad(hour)}:${minute}:${second ?? "00"}${fraction ?? ""}${offsetOf(zone)}`;
}

/** The zone as an ISO offset: "Z" for UTC and GMT, "+01:00" for "+0100", "+01" or "BST"; "" when none was written. */
function offsetOf(zone: string | undefined): string {
  if (zone === undefined) return "";
  const upper = zone.toUpperCase();
  if (upper === "Z" || upper === "UTC" || upper === "GMT") return "Z";
  const named = ZONE_OFFSETS[zone.toLowerCase()];
  if (named !== undefined) return named;
  const digits = zone.replace(":", "");
  return `${digits.slice(0, 3)}:${digits.slice(3, 5) || "00"}`;
}

function pad(number: string): string {
  return number.length === 1 ? `0${number}` : number;
}

// ── titles ───────────────────────────────────────────────────────────────────────────────────────────

/** What a title and the site's name are made of when compared: letters and digits, lower case, no leading "the". */
export function nameKey(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "").replace(/^the(?=\p{L}{3})/u, "");
}

/** The name part of a host: labels without www., the top-level domain and a short second level (co.uk, com.au). */
export function hostKey(host: string): string {
  const labels = host.toLowerCase().replace(/^www\d?\./, "").split(".");
  if (labels.length > 1) labels.pop();
  if (labels.length > 1 && labels[labels.length - 1].length <= 3) labels.pop();
  return nameKey(labels.join(""));
}

/** A title part names the site: its key equals a site name's, or holds the host's name with little else. */
function namesSite(part: string, siteNames: readonly string[], host: string): boolean {
  const key = nameKey(part);
  if (key.length < 2) return false;
  if (siteNames.some((name) => nameKey(name) === key)) return true;
  return host.length >= 3 && (key === host || (key.includes(host) && key.length <= host.length + 12) || (key.length >= 4 && host.includes(key)));
}

/** Separators between a title and the site's name: "|", "-", "–", "—", "·", "•", "»", "::", "/" with spaces around. */
const TITLE_SEPARATOR = /\s+(?:[|\-–—·•»/]|::)\s+/g;

export interface TitleParts {
  readonly title: string;
  /** The part that named the site, when one was cut off. */
  readonly siteName: string | null;
}

/**
 * The title without the site's name: the last (or first) part after a separator is cut off when it names
 * the site (og:site_name or a like name, or the host), or when the rest is the page's own heading.
 */
export function withoutSiteName(title: string, siteNames: readonly string[], host: string, headings: readonly string[]): TitleParts {
  const separators = [...title.matchAll(TITLE_SEPARATOR)];
  if (separators.length === 0) return { title, siteName: null };
  const last = separators[separators.length - 1];
  const before = title.slice(0, last.index).trim();
  const after = title.slice(last.index + last[0].length).trim();
  if (namesSite(after, siteNames, host) || headings.some((heading) => nameKey(heading) === nameKey(before) && nameKey(before) !== "")) {
    return { title: before, siteName: after };
  }
  const first = separators[0];
  const head = title.slice(0, first.index).trim();
  const rest = title.slice(first.index + first[0].length).trim();
  if (namesSite(head, siteNames, host) || headings.some((heading) => nameKey(heading) === nameKey(rest) && nameKey(rest) !== "")) {
    return { title: rest, siteName: head };
  }
  return { title, siteName: null };
}
