import { MARKDOWN_MAX_NESTING } from "../config";
import { decodeEntities, extractMetadata, readAttribute, type PageMetadata, type PageModel } from "../page";
import type { NormalisedPlan } from "../plan";
import { closedDepth, HEADINGS, impliedEndDepth, NestingCap, scanMarkupSlices, type MarkupHandler } from "./markdown-scan";
import { finishSlices, type Slices } from "../slices";
import { RemovedTextCursor, topRemovedRanges, type PieceSink } from "./text-removal";
import { HAS_SCHEME_PART, ReferenceResolver, URL_IGNORED_CHARACTERS } from "./url-reference";
import type { WorkMeter } from "../work-meter";

/**
 * The article fragment: the kept part of a page as HTML that a WebView or a feed reader can render safely.
 * Built from an allow-list, never by removing what is known to be bad: every element and attribute not
 * listed below is left out (its text kept, unless the element is one whose content goes with it), every
 * URL is resolved against the page (and its <base>) and kept only with an allowed scheme, and every text
 * and attribute value is escaped again. The same walk as the Markdown writer: pass 1's scanner over the
 * source, removed blocks jumped over by their source range, text from the page model's text nodes with
 * removed text cut out (inside <pre>, the source text as written).
 *
 * Elements kept as themselves: KEPT_ELEMENTS; page-layout containers written as <div>: AS_DIV; elements
 * dropped with all they hold: DROPPED_ELEMENTS (scripts, styles, frames, embedded objects, media, form
 * controls, templates, svg and math); all others are unwrapped (tag gone, text kept). Attributes kept:
 * GLOBAL_ATTRIBUTES and ELEMENT_ATTRIBUTES, each value checked by its kind (a URL, a number, a keyword).
 */
/** Title, byline and date read where a site's rules say they are (RuleSet metadata selectors); each wins over the page's own. */
export interface MetadataOverride {
  readonly title?: string;
  readonly byline?: string;
  readonly published?: string;
}

/**
 * The page's reader metadata with the site's own findings over it: what every format that shows metadata shows.
 * Given the plan, readerable says whether what the plan keeps reads as an article.
 */
export function readerMetadata(page: PageModel, url: string | undefined, override: MetadataOverride | undefined, plan?: NormalisedPlan): PageMetadata {
  return { ...extractMetadata(page, url, plan), ...override };
}

export interface ArticleOptions {
  /** The page's URL: URLs are made absolute against it (and the page's <base>); unknown: relative URLs stay as written. */
  readonly baseUrl?: string;
  /** Writes a <header> with the page's title, byline and date above the content (and leaves out a leading heading that repeats the title). */
  readonly header?: boolean;
  /** Leaves out a heading before any other text that repeats the page's title (where the title is shown apart: JSON, feed items). */
  readonly omitTitleHeading?: boolean;
  /** Most kept elements open at once; deeper ones are unwrapped (config MARKDOWN_MAX_NESTING: the same bound as Markdown's). */
  readonly maxNesting?: number;
  /** The site's own metadata selectors' findings, over the page's metadata. */
  readonly metadata?: MetadataOverride;
  /** The page's work meter: the walk stops once its budget is spent (the caller checks it). */
  readonly work?: WorkMeter;
}

export function writeArticle(page: PageModel, plan: NormalisedPlan, options: ArticleOptions = {}): string {
  return finishSlices(writeArticleSlices(page, plan, options));
}

/** writeArticle in slices of its walk (slices.ts). */
export function* writeArticleSlices(page: PageModel, plan: NormalisedPlan, options: ArticleOptions = {}): Slices<string> {
  const metadata = options.header === true || options.omitTitleHeading === true ? readerMetadata(page, options.baseUrl, options.metadata) : null;
  const builder = new ArticleBuilder(page, plan, options.baseUrl, options.maxNesting ?? MARKDOWN_MAX_NESTING, metadata?.title ?? null);
  yield* scanMarkupSlices(page, topRemovedRanges(page, plan), builder, options.work);
  const body = builder.finish();
  if (options.header !== true || metadata === null) return body;
  return `${articleHeader(metadata.title, metadata.byline, metadata.published)}${body}`;
}

/** Elements written as themselves (with their allowed attributes). */
export const KEPT_ELEMENTS: ReadonlySet<string> = new Set([
  "p", "div", "section", "article", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "dl", "dt", "dd", "blockquote", "pre",
  "figure", "figcaption", "table", "caption", "thead", "tbody", "tfoot", "tr", "th", "td", "colgroup", "col", "hr", "br", "wbr",
  "details", "summary", "a", "img", "em", "strong", "b", "i", "u", "s", "del", "ins", "mark", "small", "sub", "sup", "code", "kbd",
  "samp", "var", "q", "cite", "abbr", "dfn", "time", "bdi",
]);
/** Page-layout containers written as <div>: the break between blocks matters to a reader, their role does not. */
export const AS_DIV: ReadonlySet<string> = new Set(["main", "header", "footer", "aside", "nav", "center", "hgroup", "form", "fieldset", "address", "search"]);
/** Elements left out with everything inside them: active content, embedded content, media, form controls, templates, svg and math. */
export const DROPPED_ELEMENTS: ReadonlySet<string> = new Set([
  "script", "style", "template", "iframe", "frame", "frameset", "object", "applet", "embed", "noscript", "noembed", "noframes",
  "button", "select", "textarea", "option", "optgroup", "datalist", "input", "video", "audio", "canvas", "map", "dialog", "svg", "math",
  "portal", "fencedframe",
]);
/** Attributes kept on every kept element. */
export const GLOBAL_ATTRIBUTES: readonly string[] = ["lang", "dir", "title"];
/** Attributes kept per element, besides the global ones. */
export const ELEMENT_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  a: ["href"],
  img: ["src", "srcset", "alt", "width", "height"],
  td: ["colspan", "rowspan"],
  th: ["colspan", "rowspan", "scope"],
  ol: ["start", "reversed", "type"],
  li: ["value"],
  col: ["span"],
  colgroup: ["span"],
  time: ["datetime"],
  del: ["datetime", "cite"],
  ins: ["datetime", "cite"],
  blockquote: ["cite"],
  q: ["cite"],
  code: ["class"],
  pre: ["class"],
  details: ["open"],
};
/** URL schemes kept in links; images and quote sources take http(s) only (and images inline raster data). */
export const LINK_SCHEMES: ReadonlySet<string> = new Set(["http:", "https:", "mailto:", "tel:"]);
/** Inline image data kept by type (raster formats only: an SVG image is a document that may hold scripts). */
const IMAGE_DATA_URL = /^data:image\/(?:png|jpeg|jpg|gif|webp|avif|bmp);base64,[A-Za-z0-9+/=\s]*$/i;
/** Attributes where a lazy-loading page keeps the real image (src then holds a placeholder or nothing). */
const LAZY_SOURCE_ATTRIBUTES = ["data-src", "data-original", "data-lazy-src", "data-url"] as const;

const VOID_ELEMENTS = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr", "keygen", "frame"]);
/** Table parts kept even when empty (a cell without text still holds its column); the table itself goes when it has no content. */
const STRUCTURAL = new Set(["td", "th", "tr", "thead", "tbody", "tfoot", "colgroup"]);

class ArticleBuilder implements MarkupHandler, PieceSink {
  private readonly out: string[] = [];
  /** Kept elements open, innermost last: source name, and out index of the start tag. */
  private readonly openNames: string[] = [];
  private readonly openMarks: number[] = [];
  /** Out index of the last piece with content (text that is not white space, an image, a rule); -1 before any. */
  private lastContent = -1;
  private firstContent = -1;
  /** Dropped element being passed over and its nesting inside itself; 0 when none. */
  private droppedName = "";
  private droppedDepth = 0;
  /** svg or math levels open (their content is dropped); a start tag back in HTML (a breakout) ends them. */
  private foreignDepth = 0;
  private preDepth = 0;
  /** Text nodes of the current source text run, written when the run is reported (to place white space at its edges). */
  private readonly pendingNodes: number[] = [];
  private readonly removed: Uint8Array;
  private readonly cursor: RemovedTextCursor;
  private readonly cap: NestingCap;
  /** The base URLs: from the page's <base href> (resolved against the page), else the page's URL. */
  private base: ReferenceResolver;
  private baseSeen = false;
  /** The leading heading's text while it is written, when it may repeat the title; null otherwise. */
  private titleHeadingText: string | null = null;
  private readonly title: string | null;

  constructor(
    private readonly page: PageModel,
    plan: NormalisedPlan,
    private readonly pageUrl: string | undefined,
    maxNesting: number,
    omittedTitle: string | null,
  ) {
    this.cap = new NestingCap(maxNesting);
    this.removed = plan.removedWithAncestor;
    this.cursor = new RemovedTextCursor(plan.removedText);
    this.base = new ReferenceResolver(pageUrl);
    this.title = omittedTitle === null ? null : normaliseTitle(omittedTitle);
  }

  private get passing(): boolean {
    return this.droppedDepth > 0 || this.foreignDepth > 0;
  }

  textNode(node: number): void {
    if (this.passing || this.preDepth > 0 || this.removed[this.page.textNodes.block[node]] === 1) return;
    this.pendingNodes.push(node);
  }

  piece(from: number, to: number): void {
    this.writeText(this.page.text.slice(from, to));
  }

  rawText(start: number, end: number): void {
    const source = this.page.source;
    if (this.passing) {
      this.pendingNodes.length = 0;
      return;
    }
    if (this.preDepth > 0) {
      let text = decodeEntities(source, start, end);
      const last = this.openNames.length - 1;
      // HTML drops a newline right after <pre>.
      if (this.openNames[last] === "pre" && this.openMarks[last] === this.out.length - 1) text = text.replace(/^\r?\n/, "");
      this.writeText(text);
      return;
    }
    if (this.pendingNodes.length === 0) {
      if (isAllSpace(source, start, end)) this.writeSpace();
      return;
    }
    if (isSpace(source.charCodeAt(start))) this.writeSpace();
    const nodes = this.page.textNodes;
    for (const node of this.pendingNodes) this.cursor.keptPieces(nodes.textStart[node], nodes.textEnd[node], this);
    this.pendingNodes.length = 0;
    if (isSpace(source.charCodeAt(end - 1))) this.writeSpace();
  }

  foreignStartTag(name: string): void {
    if (this.droppedDepth === 0 && (name === "svg" || name === "math")) this.foreignDepth++;
  }

  startTag(name: string, nameEnd: number, tagEnd: number): void {
    if (name === "base" && !this.baseSeen) return this.readBase(nameEnd, tagEnd);
    if (this.droppedDepth > 0) {
      if (name === this.droppedName) this.droppedDepth++;
      return;
    }
    this.foreignDepth = 0; // an HTML start tag: svg or math content has ended (a breakout, as the scanner reads it)
    if (DROPPED_ELEMENTS.has(name)) {
      if (!VOID_ELEMENTS.has(name)) {
        this.droppedName = name;
        this.droppedDepth = 1;
      }
      return;
    }
    if (!KEPT_ELEMENTS.has(name) && !AS_DIV.has(name)) return; // unwrapped: its text comes, its tag does not
    this.closeImplied(name);
    if (VOID_ELEMENTS.has(name)) return this.writeVoid(name, nameEnd, tagEnd);
    if (this.cap.passesOver(name, this.openNames.length)) {
      // A block passed over still parts its text from the text before it.
      if (BLOCK_TAG.test(`<${name}>`)) this.writeSpace();
      return;
    }
    let attributes = "";
    if (name === "a") {
      const href = this.url(this.attribute(nameEnd, tagEnd, "href"), LINK_SCHEMES);
      if (href === null) return; // a link to nowhere, or to a refused scheme: its text alone
      attributes = ` href="${escapeAttribute(href)}"`;
    }
    // A row or cell outside any table (its table removed, or ended by a stray end tag) is a block of its own, a
    // <div>: a browser would drop its tags and run its text into the next cell's.
    const stray = STRUCTURAL.has(name) && !this.openNames.includes("table");
    const written = AS_DIV.has(name) || stray ? "div" : name;
    if (HEADINGS.has(name) && this.title !== null && this.firstContent < 0) this.titleHeadingText = "";
    this.openNames.push(name);
    this.openMarks.push(this.out.length);
    this.out.push(`<${written}${attributes}${this.attributes(stray ? written : name, nameEnd, tagEnd)}>`);
    if (name === "pre") this.preDepth++;
  }

  endTag(name: string): void {
    if (this.droppedDepth > 0) {
      if (name === this.droppedName) this.droppedDepth--;
      return;
    }
    if (this.foreignDepth > 0) {
      if (name === "svg" || name === "math") this.foreignDepth--;
      return;
    }
    if (this.cap.endsPassedOver(name)) return;
    const depth = closedDepth(this.openNames, name);
    if (depth < 0) return; // no such kept element open: a stray end tag
    while (this.openNames.length > depth) this.closeTop();
  }

  finish(): string {
    while (this.openNames.length > 0) this.closeTop();
    return this.out.join("").trim();
  }

  // ── elements ────────────────────────────────────────────────────────────────────────────────────

  private closeImplied(name: string): void {
    const depth = impliedEndDepth(this.openNames, name);
    while (this.openNames.length > depth) this.closeTop();
  }

  private closeTop(): void {
    const name = this.openNames.pop() as string;
    const mark = this.openMarks.pop() as number;
    if (name === "pre") this.preDepth--;
    if (HEADINGS.has(name) && this.titleHeadingText !== null) {
      const repeatsTitle = this.title !== null && sameTitle(this.titleHeadingText, this.title);
      this.titleHeadingText = null;
      if (repeatsTitle) return this.truncate(mark);
    }
    const written = this.out[mark].startsWith("<div") ? "div" : name; // layout containers and stray cells went as <div>
    // An element left without content (an empty link, a paragraph whose text was all removed) goes whole.
    if (!STRUCTURAL.has(written) && this.lastContent < mark) return this.truncate(mark);
    this.out.push(`</${written}>`);
  }

  private truncate(mark: number): void {
    this.out.length = mark;
    // Only a repeated title takes content with it, and it is tracked only when nothing came before it.
    if (this.lastContent >= mark) this.lastContent = -1;
    if (this.firstContent >= mark) this.firstContent = -1;
  }

  private writeVoid(name: string, nameEnd: number, tagEnd: number): void {
    if (name === "img") return this.writeImage(nameEnd, tagEnd);
    const attributes = this.attributes(name, nameEnd, tagEnd);
    if (name === "hr") this.markContent(this.out.length);
    this.out.push(`<${name}${attributes}>`);
  }

  /** An image with a usable source (a lazy-loading page's real one when src holds a placeholder); tracking pixels left out. */
  private writeImage(nameEnd: number, tagEnd: number): void {
    if (this.attribute(nameEnd, tagEnd, "width") === "1" && this.attribute(nameEnd, tagEnd, "height") === "1") return;
    let source = this.imageUrl(this.attribute(nameEnd, tagEnd, "src"));
    if (source === null || source.startsWith("data:")) {
      for (const lazy of LAZY_SOURCE_ATTRIBUTES) {
        const candidate = this.imageUrl(this.attribute(nameEnd, tagEnd, lazy));
        if (candidate !== null && !candidate.startsWith("data:")) {
          source = candidate;
          break;
        }
      }
    }
    if (source === null) return;
    const srcset = this.sourceSet(this.attribute(nameEnd, tagEnd, "srcset") ?? this.attribute(nameEnd, tagEnd, "data-srcset"));
    let attributes = ` src="${escapeAttribute(source)}"`;
    if (srcset !== null) attributes += ` srcset="${escapeAttribute(srcset)}"`;
    attributes += this.attributes("img", nameEnd, tagEnd);
    this.markContent(this.out.length);
    this.out.push(`<img${attributes}>`);
  }

  /** The element's allowed attributes other than the URL ones written by their own code (a href, img src and srcset). */
  private attributes(name: string, nameEnd: number, tagEnd: number): string {
    let written = "";
    for (const attribute of [...GLOBAL_ATTRIBUTES, ...(ELEMENT_ATTRIBUTES[name] ?? [])]) {
      if ((name === "a" && attribute === "href") || (name === "img" && (attribute === "src" || attribute === "srcset"))) continue;
      const raw = this.attribute(nameEnd, tagEnd, attribute);
      if (raw === null) continue;
      const value = this.attributeValue(attribute, raw);
      if (value !== null) written += value === "" && BOOLEAN_ATTRIBUTES.has(attribute) ? ` ${attribute}` : ` ${attribute}="${escapeAttribute(value)}"`;
    }
    return written;
  }

  /** A checked attribute value, or null when it is not of its kind. */
  private attributeValue(attribute: string, raw: string): string | null {
    const value = raw.trim();
    switch (attribute) {
      case "lang":
        return /^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/.test(value) ? value : null;
      case "dir":
        return /^(?:ltr|rtl|auto)$/i.test(value) ? value.toLowerCase() : null;
      case "title":
      case "alt":
      case "datetime":
        return raw.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "").slice(0, 1000);
      case "width":
      case "height":
      case "colspan":
      case "rowspan":
      case "span":
      case "start":
      case "value":
        return /^-?\d{1,6}$/.test(value) ? value : null;
      case "scope":
        return /^(?:row|col|rowgroup|colgroup)$/i.test(value) ? value.toLowerCase() : null;
      case "type":
        return /^[1aAiI]$/.test(value) ? value : null;
      case "reversed":
      case "open":
        return "";
      case "cite":
        return this.url(raw, WEB_SCHEMES);
      case "class": {
        // Only a code language (language-js, lang-python): syntax highlighters read it; other classes mean the page's styles.
        const languages = value.split(/\s+/).filter((token) => /^(?:language|lang)-[\w+#.-]{1,40}$/.test(token));
        return languages.length === 0 ? null : languages.join(" ");
      }
      default:
        return null;
    }
  }

  private attribute(nameEnd: number, tagEnd: number, name: string): string | null {
    return readAttribute(this.page.source, nameEnd, tagEnd, name);
  }

  /** The first <base href> sets the base of every URL after it (resolved against the page's URL). */
  private readBase(nameEnd: number, tagEnd: number): void {
    const href = this.attribute(nameEnd, tagEnd, "href");
    if (href === null) return;
    this.baseSeen = true;
    const resolved = resolve(href.trim(), this.pageUrl);
    if (resolved !== null && WEB_SCHEMES.has(resolved.protocol)) this.base = new ReferenceResolver(resolved.href);
  }

  /**
   * A URL attribute's value resolved against the base, or null when it is empty, a fragment of a page whose
   * URL is unknown, or of a scheme not in `schemes`. Without any base, a relative reference stays as written
   * (it has no scheme, so it cannot be an active one).
   */
  private url(raw: string | null, schemes: ReadonlySet<string>): string | null {
    if (raw === null) return null;
    const reference = raw.trim();
    if (reference === "") return null;
    const resolved = this.base.resolve(reference);
    if (resolved !== null) return schemes.has(resolved.protocol) ? resolved.href : null;
    if (this.base.hasBase || reference.startsWith("#")) return null;
    // No base: only a reference that cannot carry a scheme (no ":" before its first "/", "?" or "#").
    const cleaned = reference.replace(URL_IGNORED_CHARACTERS, "");
    return HAS_SCHEME_PART.test(cleaned) ? null : cleaned;
  }

  private imageUrl(raw: string | null): string | null {
    if (raw === null) return null;
    const reference = raw.trim();
    if (/^data:/i.test(reference)) return IMAGE_DATA_URL.test(reference) ? reference.replace(/\s+/g, "") : null;
    return this.url(reference, WEB_SCHEMES);
  }

  /** srcset with each candidate's URL resolved; null when any candidate is not a usable http(s) URL. */
  private sourceSet(raw: string | null): string | null {
    if (raw === null || raw.trim() === "") return null;
    const candidates: string[] = [];
    for (const candidate of raw.split(/,(?=\s|$)|,(?=[^,]*\s[\d.]+[wx]\s*(?:,|$))/)) {
      const [reference, descriptor, ...rest] = candidate.trim().split(/\s+/);
      if (reference === undefined || reference === "" || rest.length > 0) return null;
      if (descriptor !== undefined && !/^\d+(?:\.\d+)?[wx]$/.test(descriptor)) return null;
      const url = this.url(reference, WEB_SCHEMES);
      if (url === null || /[\s,]/.test(url)) return null;
      candidates.push(descriptor === undefined ? url : `${url} ${descriptor}`);
    }
    return candidates.length === 0 ? null : candidates.join(", ");
  }

  // ── text ────────────────────────────────────────────────────────────────────────────────────────

  private writeText(text: string): void {
    if (text === "") return;
    if (this.titleHeadingText !== null) this.titleHeadingText += text;
    if (/\S/.test(text)) this.markContent(this.out.length);
    this.out.push(escapeText(text));
  }

  private writeSpace(): void {
    const last = this.out[this.out.length - 1];
    // White space after a block's start or end tag shows nothing (HTML drops it there): left out, for a tidy fragment.
    if (last === undefined || last.endsWith(" ") || BLOCK_TAG.test(last)) return;
    if (this.titleHeadingText !== null) this.titleHeadingText += " ";
    this.out.push(" ");
  }

  private markContent(index: number): void {
    this.lastContent = index;
    if (this.firstContent < 0) this.firstContent = index;
  }
}

const WEB_SCHEMES: ReadonlySet<string> = new Set(["http:", "https:"]);
/** A start or end tag of a block-level element as written (inline ones keep the space after them). */
const BLOCK_TAG = /^<\/?(?:p|div|section|article|h[1-6]|ul|ol|li|dl|dt|dd|blockquote|pre|figure|figcaption|table|caption|thead|tbody|tfoot|tr|th|td|colgroup|col|hr|br|details|summary)[\s>]/;
const BOOLEAN_ATTRIBUTES = new Set(["reversed", "open"]);

/** The optional header: title, byline and date, escaped like everything else. */
function articleHeader(title: string | null, byline: string | null, published: string | null): string {
  const parts: string[] = [];
  if (title !== null) parts.push(`<h1>${escapeText(title)}</h1>`);
  const line: string[] = [];
  if (byline !== null) line.push(`<span>${escapeText(byline)}</span>`);
  if (published !== null) line.push(`<time datetime="${escapeAttribute(published)}">${escapeText(published)}</time>`);
  if (line.length > 0) parts.push(`<p>${line.join(" · ")}</p>`);
  return parts.length === 0 ? "" : `<header>${parts.join("")}</header>`;
}

function normaliseTitle(text: string): string {
  return text.replace(/\s+/g, " ").trim().toLowerCase();
}

/** Whether a heading repeats the title: the same words, or the title is the heading plus a site suffix ("Heading | Site"). */
function sameTitle(heading: string, title: string): boolean {
  const text = normaliseTitle(heading);
  if (text === "") return false;
  return text === title || (title.startsWith(text) && /^\s*[|\-–—:·•]/.test(title.slice(text.length)));
}

function resolve(reference: string, base: string | undefined): URL | null {
  try {
    return new URL(reference, base);
  } catch {
    return null;
  }
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 12 || code === 13;
}

function isAllSpace(source: string, start: number, end: number): boolean {
  for (let position = start; position < end; position++) if (!isSpace(source.charCodeAt(position))) return false;
  return end > start;
}

export function escapeText(text: string): string {
  return text.replace(/[&<>]/g, (character) => (character === "&" ? "&amp;" : character === "<" ? "&lt;" : "&gt;"));
}

export function escapeAttribute(value: string): string {
  return value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
