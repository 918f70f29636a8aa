/**
 * Normalising metadata values: white space, bylines ("By …", separators and dates around a name; only what has a
 * name's shape) and titles without the site's name (dates: metadata-dates.ts). Values come here decoded once
 * already; nothing here decodes references.
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
const BYLINE_TAIL = /(?:[\s,·•|/\-–—:]+(?:on|at|am|le|el|the|(?:last\s+)?(?:updated|modified)|published|posted)?)+$/i;

/** Where a date starts in a byline line ("Jo Bloggs on August 8, 2012", "Jo Bloggs | 6/11/2012"): cut from there. */
const BYLINE_DATE = /(?:\s+(?:on|at|am|le|el|(?:last\s+)?(?:updated|modified)|published|posted)\s*:?)?\s*(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+)?(?:(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?\b|\d{1,2}(?:st|nd|rd|th)?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{4}|\d{1,4}[/.-]\d{1,2}[/.-]\d{2,4}\b)/i;

/** A "by" after other text ("Monday, May 2, 2012, by Jo Bloggs", a headline then "By Jo Bloggs"): the name follows it. */
const INNER_BY = /^.*[\s,]by\s+(?=\p{L})/iu;
/** What follows a name and a pipe or dash: the site, or how long ago ("Jo Bloggs | Goal.com – 1 hour ago"). */
const BYLINE_AFTER_NAME = /\s+(?:\||[–—/-]?\s*(?:about\s+)?\d+\s+(?:second|sec|minute|min|hour|hr|day|week|wk|month|year|yr)s?\s+ago\b).*$/i;
/** How long ago, alone: a time, not a name. */
const RELATIVE_TIME = /^\d+\s+(?:second|minute|hour|day|week|month|year)s?\s+ago$/i;

/** Most words of one name or role in a byline ("Local Democracy Reporter"; "and" and commas part names). */
const MAX_NAME_WORDS = 6;
/**
 * Words of page controls, share bars, forms and date labels: a byline holding one is a control or a date, not a
 * name ("Login 50% 50%", "Name Twitter Name Twitter", "Last" of "Last Updated: …").
 */
const CONTROL_WORDS = new Set([
  "login", "logout", "signin", "signup", "register", "subscribe", "share", "shares", "tweet", "twitter", "facebook", "linkedin",
  "pinterest", "instagram", "whatsapp", "reddit", "email", "print", "comment", "comments", "reply", "follow", "followers", "search",
  "menu", "loading", "advertisement", "permalink", "updated", "modified", "published", "posted", "last",
]);
/** Marks no name holds: percentages, handles, markup, code. */
const NOT_NAME_MARKS = /[%@#=<>{}[\]|\\*^~]|:\/\//;

/**
 * A byline as a reader wants it: no "By", no label, no separator left where a date was, a name's length, a name
 * written twice once. Null for profile URLs, e-mail addresses alone, texts that name nobody and texts that are
 * not shaped as names (isNameShaped).
 */
export function cleanByline(value: string | null): string | null {
  let text = tidy(value);
  if (text === null || /^https?:\/\//i.test(text)) return null;
  text = withoutAsides(text).replace(BYLINE_LABEL, "").replace(BYLINE_LEAD, "").replace(INNER_BY, "").replace(BYLINE_AFTER_NAME, "");
  const date = BYLINE_DATE.exec(text);
  if (date !== null) text = text.slice(0, date.index); // a date first and no name after it leaves nothing
  text = text.replace(BYLINE_TAIL, "").replace(/^[\s,·•|\-–—:;]+/, "").trim();
  if (text === "" || /^\S+@\S+$/.test(text) || RELATIVE_TIME.test(text) || /\.\.\.|…/.test(text) || text.length > MAX_BYLINE_CHARS || NOT_A_NAME.test(text) || !/\p{L}/u.test(text)) return null;
  text = withoutRepeat(text);
  return isNameShaped(text) ? text : null;
}

/**
 * A bracket that names co-authors: "with", "avec", "mit", "con", "com", "met", "and", "et", "und" then a capitalised
 * name ("Jean Dupont (avec Marie Curie et Paul Martin)"). Part of the byline, as Readability keeps it, not an aside.
 */
const CO_AUTHORS = /^[(\[]\s*(?:[Ww]ith|[Aa]vec|[Mm]it|[Cc]on|[Cc]om|[Mm]et|[Aa]nd|[Ee]t|[Uu]nd)\s+\p{Lu}/u;

/** Asides a byline line adds in brackets ("Jo Bloggs (Email)", "[link]"), and a line break written into a meta's text. */
function withoutAsides(text: string): string {
  return text.replace(/<br\s*\/?>/gi, ", ").replace(/\s*(?:\([^()]*\)|\[[^[\]]*\])/g, (aside) => (CO_AUTHORS.test(aside.trim()) ? aside : "")).trim();
}

/** A text written twice in a row ("Jo Bloggs Jo Bloggs": a name and its link's copy) once. */
function withoutRepeat(text: string): string {
  const words = text.split(" ");
  if (words.length % 2 !== 0) return text;
  const half = words.length / 2;
  const first = words.slice(0, half).join(" ");
  return first.toLowerCase() === words.slice(half).join(" ").toLowerCase() ? first : text;
}

/**
 * Names of people or of the organisation that wrote (a site's user name too: "jbat"): every word holds a letter, no
 * name or role is longer than MAX_NAME_WORDS, and no word is a control's or a date label's (CONTROL_WORDS), and no mark
 * is one that no name has (NOT_NAME_MARKS).
 */
function isNameShaped(text: string): boolean {
  if (NOT_NAME_MARKS.test(text)) return false;
  for (const part of text.split(/\s*[,;&]\s*|\s+(?:and|und|et|y|e|[/·•–—-])\s+/i)) {
    const words = part.split(" ").filter((word) => word !== "");
    if (words.length > MAX_NAME_WORDS) return false;
    for (const word of words) {
      if (!/\p{L}/u.test(word) || CONTROL_WORDS.has(word.toLowerCase().replace(/[^\p{L}]/gu, ""))) return false;
    }
  }
  return true;
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
export const TITLE_SEPARATOR = /\s+(?:[|\-–—·•»/]|::)\s+/g;

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
