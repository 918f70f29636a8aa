/**
 * The scan behind reader metadata: head facts (<title>, <meta>, <html lang>, <link rel=image_src>,
 * JSON-LD) and the body's byline and date candidates with where they sit (source offset, inside a sidebar,
 * footer, navigation or comments or not), and the page's first headings. One pass of the page scanner,
 * listening only to the tags it needs; comments are skipped whole, script content is raw text.
 */
import { findAttribute, readAttribute } from "./attributes";
import { decodeEntities } from "./entities";
import { scanHtml, TEXT_DATA, TEXT_RAW, TEXT_RCDATA, type ScanHandler } from "./scanner";

/**
 * Meta keys naming the author (a profile URL in one passes to the next). Dublin Core's creator first, as Readability
 * reads them: `author` is as often the site's or the page's maker. A page names each of several authors in a meta of
 * its own: the values of one key are joined ("Jane Doe, John Roe").
 */
export const BYLINE_META_KEYS = ["dc:creator", "dcterms:creator", "author", "article:author", "byl", "sailthru:author", "parsely-author"];
const JOINED_META_KEYS: ReadonlySet<string> = new Set(BYLINE_META_KEYS);

/** An element of the body that may name the author. */
export interface BylineCandidate {
  /** Source offset of its start tag. */
  readonly offset: number;
  /** Its text, white space collapsed, without the text of <time> elements inside it. */
  readonly text: string;
  /** The text of an itemprop="name" element inside it (a microdata Person), or "". */
  readonly name: string;
  /** itemprop="author" or rel="author" (a marked author), rather than a class or id that says "byline". */
  readonly marked: boolean;
  /** Inside <article>, <main>, role="main" or itemprop="articleBody". */
  readonly inMain: boolean;
  /** Named a dateline only: a byline when its text starts with "By" ("By Jo Bloggs --"), else a place ("WASHINGTON --"). */
  readonly dateline: boolean;
}

/** A date the body marks up. */
export interface DateCandidate {
  readonly offset: number;
  /** The date as the page wrote it in datetime, content or title. */
  readonly value: string;
  /** Marked as the publication date (pubdate, itemprop="datePublished", hAtom's class="published"). */
  readonly marked: boolean;
  /** Marked as a modified date only (itemprop="dateModified", hAtom's class="updated" or "modified"). */
  readonly modified: boolean;
}

/** A heading (h1, h2 or h3) outside the page's sidebars, header navigation and footers. */
export interface HeadingFact {
  readonly offset: number;
  readonly level: number;
  readonly text: string;
}

export interface MetadataFacts {
  /** First value per key (metaKey): name, property (each of a space-separated list), itemprop or http-equiv. */
  readonly meta: Map<string, string>;
  title: string;
  htmlLang: string;
  imageLink: string;
  /** href of <link rel="canonical">. */
  canonical: string;
  readonly jsonLd: string[];
  readonly bylines: BylineCandidate[];
  readonly dates: DateCandidate[];
  readonly headings: HeadingFact[];
}

/** Most JSON-LD scripts read from one page (pages with dozens are widget noise). */
const MAX_JSON_LD_SCRIPTS = 16;
/** Longest meta value kept, in characters: anything longer is not a title, name or date. */
const MAX_META_VALUE_CHARS = 2_000;
/** Longest element text followed while looking for a byline, in characters (a byline is a name or two). */
const MAX_BYLINE_TEXT_CHARS = 400;
/** Most candidates kept of each kind: the ones near the title come early on a page. */
const MAX_CANDIDATES = 32;
/**
 * Most byline candidates open at once, and most nested sidebar or main-content containers followed: every
 * start and end tag visits the open ones, so unbounded nesting (hostile or broken pages) would be quadratic.
 * Past the cap nothing is lost: a container inside as many of its kind is inside one of them anyway.
 */
const MAX_OPEN_BYLINES = 4;
const MAX_OPEN_REGIONS = 32;
/** Most headings kept, and the longest heading text followed, in characters. */
const MAX_HEADINGS = 8;
const MAX_HEADING_TEXT_CHARS = 400;

/** A class or id that says the element names the author (Readability's list; a dateline is apart, see BylineCandidate). */
const BYLINE_NAME = /byline|author|writtenby|p-author/i;
const DATELINE_NAME = /dateline/i;
/** A class or id of the author's avatar, bio box or comments' authors: not the article's byline. */
const NOT_BYLINE_NAME = /comment|avatar|(?:^|[-_\s])bio|gravatar|authorbox|about-?the-?author/i;
/** Containers whose bylines and dates belong to something else than the article: sidebars, footers, comments, lists. */
const ASIDE_TAGS = new Set(["aside", "nav", "footer"]);
/**
 * A class or id of a container that is not the article: sidebars, comments, related lists, the page's
 * footer (an entry's or post's footer, "Posted by … on …" in entry-footer or post-footer, is the
 * article's). Unless the name also says it holds the content (content-sidebar-wrap, main-sidebar-container),
 * as Readability's unlikely and maybe-candidate lists do.
 */
const ASIDE_NAME = /sidebar|comment|disqus|(?:^|\s)footer(?:\s|$)|(?:site|page|global)[-_]?footer|related|recommend|most-?(?:read|popular)|teaser|promo|newsletter|(?:^|[-_\s])rail/i;
const CONTENT_NAME = /article|body|column|content|main|wrap|container|layout|(?:no|has|with)[-_]?sidebar/i;
/** Elements read whatever their attributes (regions and dates by their tag, headings), and words that make a start tag worth reading. */
const ELEMENTS_READ = new Set(["aside", "nav", "footer", "article", "main", "time", "h1", "h2", "h3"]);
const ATTRIBUTE_HINT = /author|byline|dateline|writtenby|sidebar|comment|disqus|footer|related|recommend|most|teaser|promo|newsletter|rail|main|articlebody|datepublished|pubdate|published/i;
/** Elements that hold a page region: only these are sidebars or footers by their class (a span.comments is a count). */
const CONTAINER_TAGS = new Set(["div", "section", "aside", "nav", "footer", "ul", "ol", "dl", "table", "td", "form"]);
/** Elements that may carry a byline class or author markup, with the author's name as their text. */
const BYLINE_ELEMENTS = new Set([
  "a", "span", "div", "p", "address", "cite", "strong", "b", "em", "li", "h3", "h4", "h5", "h6", "small", "section", "header", "font", "td",
]);
/** Elements that mark a publication date in the body: <time>, hAtom's <abbr class="published">, microdata on <span> or <meta>. */
const DATE_ELEMENTS = new Set(["time", "abbr", "span", "meta"]);
const MAIN_TAGS = new Set(["article", "main"]);
/** Tags that separate the texts around them when rendered (line breaks, blocks, cells). */
const SPACING_TAGS = new Set(["br", "p", "div", "li", "td", "th", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "address", "section", "header", "ul", "ol", "dd", "dt"]);

/** The text of one element while the scanner walks through it (nested elements of the same name counted). */
class OpenElement {
  text = "";
  private depth = 0;

  constructor(readonly tag: string) {}

  /** A start tag inside the element. */
  opened(name: string): void {
    if (name === this.tag) this.depth++;
  }

  /** An end tag inside the element; true when it ends the element itself. */
  closed(name: string): boolean {
    if (name !== this.tag) return false;
    return this.depth-- === 0;
  }
}

class OpenByline extends OpenElement {
  name: OpenElement | null = null;
  nameText = "";
  /** The title attribute of an author link, its text when it has none. */
  title = "";

  constructor(tag: string, readonly offset: number, readonly marked: boolean, readonly inMain: boolean, readonly dateline: boolean) {
    super(tag);
  }
}

export function scanMetadata(html: string): MetadataFacts {
  const collector = new MetadataCollector(html);
  scanHtml(html, collector);
  return collector.facts;
}

/** Listens to the page scanner for the few tags metadata needs (on its own, or beside pass 1: analysePage). */
export class MetadataCollector implements ScanHandler {
  readonly facts: MetadataFacts = { meta: new Map(), title: "", htmlLang: "", imageLink: "", canonical: "", jsonLd: [], bylines: [], dates: [], headings: [] };
  private inJsonLd = false;
  private titleSeen = false;
  /** Open containers whose content is not the article's (ASIDE_TAGS, ASIDE_NAME), innermost last. */
  private readonly asides: OpenElement[] = [];
  /** Open main-content containers (MAIN_TAGS, role="main", itemprop="articleBody"). */
  private readonly mains: OpenElement[] = [];
  /** Open byline candidates, outermost first (a Person inside a byline is one too). */
  private readonly open: OpenByline[] = [];
  private heading: OpenElement | null = null;
  private headingOffset = 0;
  /** Meta keys whose value came from an itemprop (a name= or property= meta of the key replaces it). */
  private readonly itempropKeys = new Set<string>();
  /** Open <time> elements inside byline candidates: their text is the date, not the name. */
  private timeDepth = 0;

  constructor(private readonly html: string) {}

  startTag(name: string, tagStart: number, nameEnd: number, tagEnd: number, _selfClosing: boolean, foreign: boolean): void {
    if (foreign) return;
    const html = this.html;
    for (const element of this.asides) element.opened(name);
    for (const element of this.mains) element.opened(name);
    for (const element of this.open) this.readInsideByline(element, name, nameEnd, tagEnd);
    if (this.heading !== null) this.heading.opened(name);
    if (SPACING_TAGS.has(name)) this.addSpace();
    if (name === "time" && this.open.length > 0) this.timeDepth++;
    if (name === "meta") this.readMeta(nameEnd, tagEnd);
    else if (name === "html" && this.facts.htmlLang === "") this.facts.htmlLang = readAttribute(html, nameEnd, tagEnd, "lang") ?? "";
    else if (name === "link") this.readLink(nameEnd, tagEnd);
    else if (name === "script") this.inJsonLd = isJsonLd(html, nameEnd, tagEnd) && this.facts.jsonLd.length < MAX_JSON_LD_SCRIPTS;
    if (name === "meta" || name === "link" || name === "script" || name === "html" || name === "head" || name === "title") return;
    this.readBodyElement(name, tagStart, nameEnd, tagEnd);
  }

  private readBodyElement(name: string, tagStart: number, nameEnd: number, tagEnd: number): void {
    const html = this.html;
    // Most start tags say nothing metadata reads: one test of the tag's text spares reading its attributes.
    if (!ELEMENTS_READ.has(name) && !ATTRIBUTE_HINT.test(html.slice(nameEnd, tagEnd))) return;
    const className = readAttribute(html, nameEnd, tagEnd, "class") ?? "";
    const id = readAttribute(html, nameEnd, tagEnd, "id") ?? "";
    const itemprop = (readAttribute(html, nameEnd, tagEnd, "itemprop") ?? "").toLowerCase();
    // A <footer> or <aside> inside an article is the article's own (its byline and date are often there).
    const asideTag = ASIDE_TAGS.has(name) && !((name === "footer" || name === "aside") && this.mains.length > 0);
    if (asideTag || (CONTAINER_TAGS.has(name) && (isAsideName(className) || isAsideName(id)))) {
      if (this.asides.length < MAX_OPEN_REGIONS) this.asides.push(new OpenElement(name));
    } else if (this.mains.length < MAX_OPEN_REGIONS && (MAIN_TAGS.has(name) || /(?:^|\s)articlebody(?:\s|$)/.test(itemprop) || (readAttribute(html, nameEnd, tagEnd, "role") ?? "").trim().toLowerCase() === "main")) {
      this.mains.push(new OpenElement(name));
    }
    if (this.asides.length > 0) return;
    if (DATE_ELEMENTS.has(name) && this.facts.dates.length < MAX_CANDIDATES) this.readDate(name, tagStart, nameEnd, tagEnd, itemprop, className);
    if ((name === "h1" || name === "h2" || name === "h3") && this.heading === null && this.facts.headings.length < MAX_HEADINGS) {
      this.heading = new OpenElement(name);
      this.headingOffset = tagStart;
    }
    if (!BYLINE_ELEMENTS.has(name) || this.facts.bylines.length >= MAX_CANDIDATES || this.open.length >= MAX_OPEN_BYLINES) return;
    const marked = /(?:^|\s)author(?:\s|$)/.test(itemprop) || (name === "a" && /(?:^|\s)author(?:\s|$)/i.test(readAttribute(html, nameEnd, tagEnd, "rel") ?? ""));
    const named = !marked && (BYLINE_NAME.test(className) || BYLINE_NAME.test(id)) && !NOT_BYLINE_NAME.test(className) && !NOT_BYLINE_NAME.test(id);
    const dateline = !marked && !named && (DATELINE_NAME.test(className) || DATELINE_NAME.test(id));
    if (!marked && !named && !dateline) return;
    const candidate = new OpenByline(name, tagStart, marked, this.mains.length > 0, dateline);
    // An author link showing only a picture says who in its title ("View all posts by Jo Bloggs").
    if (name === "a") candidate.title = readAttribute(html, nameEnd, tagEnd, "title") ?? "";
    this.open.push(candidate);
  }

  private readInsideByline(element: OpenByline, name: string, nameEnd: number, tagEnd: number): void {
    element.opened(name);
    if (element.name !== null) element.name.opened(name);
    else if (element.nameText === "" && (readAttribute(this.html, nameEnd, tagEnd, "itemprop") ?? "").trim().toLowerCase() === "name") {
      element.name = new OpenElement(name);
    }
  }

  /** A line break or a block inside a heading or byline shows as a space between the texts around it. */
  private addSpace(): void {
    if (this.heading !== null) this.heading.text += " ";
    for (const element of this.open) {
      element.text += " ";
      if (element.name !== null) element.name.text += " ";
    }
  }

  endTag(name: string): void {
    if (name === "script") this.inJsonLd = false;
    if (SPACING_TAGS.has(name)) this.addSpace();
    if (name === "time" && this.timeDepth > 0) this.timeDepth--;
    closeEnded(this.asides, name);
    closeEnded(this.mains, name);
    if (this.heading !== null && this.heading.closed(name)) {
      const text = this.heading.text.replace(/\s+/g, " ").trim();
      if (text !== "") this.facts.headings.push({ offset: this.headingOffset, level: Number(this.heading.tag.slice(1)), text });
      this.heading = null;
    }
    for (let index = this.open.length - 1; index >= 0; index--) {
      const element = this.open[index];
      if (element.name !== null && element.name.closed(name)) {
        element.nameText = element.name.text;
        element.name = null;
      }
      if (!element.closed(name)) continue;
      this.open.splice(index, 1);
      if (this.open.length === 0) this.timeDepth = 0;
      const text = (element.text.trim() === "" ? element.title : element.text).replace(/\s+/g, " ").trim();
      if (text !== "") {
        this.facts.bylines.push({
          offset: element.offset, text, name: element.nameText.replace(/\s+/g, " ").trim(), marked: element.marked, inMain: element.inMain, dateline: element.dateline,
        });
      }
    }
  }

  text(start: number, end: number, kind: number): void {
    if (kind === TEXT_RAW && this.inJsonLd) this.facts.jsonLd.push(this.html.slice(start, end));
    else if (kind === TEXT_RCDATA && !this.titleSeen) {
      this.titleSeen = true;
      this.facts.title = decodeEntities(this.html, start, end);
    } else if (kind === TEXT_DATA) this.readText(start, end);
  }

  private readText(start: number, end: number): void {
    if (this.heading === null && this.open.length === 0) return;
    const text = decodeEntities(this.html, start, end);
    if (this.heading !== null) {
      this.heading.text += text;
      if (this.heading.text.length > MAX_HEADING_TEXT_CHARS) this.heading = null;
    }
    for (let index = this.open.length - 1; index >= 0; index--) {
      const element = this.open[index];
      if (this.timeDepth === 0) element.text += text;
      if (element.name !== null) element.name.text += text;
      // Far longer than a name: not a byline (an unclosed link, a whole article marked as the author's).
      if (element.text.length > MAX_BYLINE_TEXT_CHARS) this.open.splice(index, 1);
    }
    if (this.open.length === 0) this.timeDepth = 0;
  }

  private readMeta(from: number, to: number): void {
    const html = this.html;
    const named = readAttribute(html, from, to, "property") ?? readAttribute(html, from, to, "name");
    const keys = named ?? readAttribute(html, from, to, "itemprop") ?? readAttribute(html, from, to, "http-equiv");
    if (keys === null) return;
    const content = readAttribute(html, from, to, "content");
    if (content === null || content.length > MAX_META_VALUE_CHARS || content.trim() === "") return;
    // RDFa allows several properties in one attribute: property="og:title twitter:title".
    for (const written of keys.trim().split(/\s+/)) {
      const key = metaKey(written);
      if (key === "") continue;
      // A page's own name= or property= meta wins over microdata's itemprop of the same name (a blog's
      // itemprop="description" is often the blog's, its name="description" the post's).
      const present = this.facts.meta.get(key);
      if (present !== undefined && named !== null && JOINED_META_KEYS.has(key) && !this.itempropKeys.has(key)) {
        if (!present.split(", ").includes(content.trim())) this.facts.meta.set(key, `${present}, ${content.trim()}`);
        continue;
      }
      if (present !== undefined && !(named !== null && this.itempropKeys.delete(key))) continue;
      this.facts.meta.set(key, content);
      if (named === null) this.itempropKeys.add(key);
    }
  }

  private readLink(from: number, to: number): void {
    const rel = (readAttribute(this.html, from, to, "rel") ?? "").trim().toLowerCase();
    if (rel === "image_src" && this.facts.imageLink === "") this.facts.imageLink = readAttribute(this.html, from, to, "href") ?? "";
    else if (rel === "canonical" && this.facts.canonical === "") this.facts.canonical = readAttribute(this.html, from, to, "href") ?? "";
  }

  /** `<time datetime>`, any date element with itemprop="datePublished" or pubdate, or hAtom's `<abbr class="published" title="…">`. */
  private readDate(name: string, offset: number, from: number, to: number, itemprop: string, className: string): void {
    const html = this.html;
    const marked = itemprop.trim() === "datepublished" || findAttribute(html, from, to, "pubdate") !== null || /(?:^|\s)published(?:\s|$)/.test(className);
    if (!marked && name !== "time") return;
    const modified = !marked && (itemprop.trim() === "datemodified" || /(?:^|\s)(?:updated|modified)(?:\s|$)/i.test(className));
    const value = readAttribute(html, from, to, "datetime") ?? (marked ? readAttribute(html, from, to, "content") ?? readAttribute(html, from, to, "title") : null);
    if (value !== null && /\d{4}/.test(value)) this.facts.dates.push({ offset, value, marked, modified });
  }
}

/**
 * A meta's key as metadata reads it: lower case, and Dublin Core's and Sailthru's dotted names written as RDFa
 * writes them ("DC.creator" and "dc:creator" are one key, "DCTERMS.created" is "dcterms:created", "dcterm:" is "dcterms:").
 */
function metaKey(written: string): string {
  return written.toLowerCase().replace(/\./g, ":").replace(/^dcterm:/, "dcterms:");
}

function isAsideName(name: string): boolean {
  return ASIDE_NAME.test(name) && !CONTENT_NAME.test(name);
}

/** Tells every open element of a stack that `name` ended, and drops the ones it ends (each counts its own nesting). */
function closeEnded(stack: OpenElement[], name: string): void {
  for (let index = stack.length - 1; index >= 0; index--) if (stack[index].closed(name)) stack.splice(index, 1);
}

function isJsonLd(html: string, from: number, to: number): boolean {
  const type = readAttribute(html, from, to, "type");
  return type !== null && type.trim().toLowerCase() === "application/ld+json";
}
