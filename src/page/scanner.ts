/**
 * The low-level HTML scanner of pass 1: one left-to-right walk over the decoded page string with indexOf and
 * charCodeAt, calling back with offsets for start tags, end tags and text runs. It tokenizes like lol-html
 * (the HTML parser inside HTMLRewriter): comments (including "<!-->" and "--!>"), doctype and bogus
 * comments, raw-text elements (script with its escape states, style, xmp, iframe, noembed, noframes,
 * noscript), RCDATA (textarea, title), plaintext, quoted attribute values holding ">", and CDATA sections
 * and self-closing tags inside svg and math. It builds no tree and allocates only the tag names it does not know.
 */

import { findAttribute, isTagSpace, TAG_CLOSE, TAG_ORDINARY, TAG_SLASH, TAG_SPACE, tagCharacter } from "./attributes";
import { TAG_NAMES } from "./tags";

/** Kinds of text runs. */
export const TEXT_DATA = 0; // ordinary character data (entities to decode)
export const TEXT_RCDATA = 1; // content of textarea and title (entities to decode, no tags)
export const TEXT_RAW = 2; // content of script, style and the other raw-text elements (no entities)
export const TEXT_CDATA = 3; // a CDATA section inside svg or math

export interface ScanHandler {
  /**
   * A start tag: lowercase name, offset of "<", offset after the name, offset after ">", whether it ended
   * with "/>", whether the element is in the svg or math namespace, and which (NAMESPACE_*).
   */
  startTag(name: string, tagStart: number, nameEnd: number, tagEnd: number, selfClosing: boolean, foreign: boolean, namespace: number): void;
  /** An end tag: lowercase name, offset of "<", offset after ">". */
  endTag(name: string, tagStart: number, tagEnd: number): void;
  /** A run of text [start, end) of the given TEXT_* kind. */
  text(start: number, end: number, kind: number): void;
}

const RAW_TEXT_NAMES = new Set(["style", "xmp", "iframe", "noembed", "noframes", "noscript"]);
const RCDATA_NAMES = new Set(["textarea", "title"]);
/** How the content of the elements the tokenizer reads as text ends, by name: one lookup per start tag. */
const CONTENT_SCRIPT = 0; // at "</script", with the script escape states
const CONTENT_RAW = 1; // at the element's end tag
const CONTENT_RCDATA = 2; // at the element's end tag (references decoded)
const CONTENT_PLAINTEXT = 3; // never
const TEXT_CONTENT = new Map<string, number>([
  ["script", CONTENT_SCRIPT], ["plaintext", CONTENT_PLAINTEXT],
  ...[...RAW_TEXT_NAMES].map((name): [string, number] => [name, CONTENT_RAW]),
  ...[...RCDATA_NAMES].map((name): [string, number] => [name, CONTENT_RCDATA]),
]);
const SVG_INTEGRATION_POINTS = new Set(["foreignobject", "desc", "title"]);
const MATH_INTEGRATION_POINTS = new Set(["mi", "mo", "mn", "ms", "mtext"]);
/** HTML start tags that leave svg or math content (HTML5 "in foreign content"; <font> with color, face or size too). */
const FOREIGN_CONTENT_EXITS = new Set([
  "b", "big", "blockquote", "body", "br", "center", "code", "dd", "div", "dl", "dt", "em", "embed", "h1", "h2", "h3",
  "h4", "h5", "h6", "head", "hr", "i", "img", "li", "listing", "menu", "meta", "nobr", "ol", "p", "pre", "ruby", "s",
  "small", "span", "strong", "strike", "sub", "sup", "table", "tt", "u", "ul", "var",
]);

/** Namespaces of content, as reported with start tags. */
export const NAMESPACE_HTML = 0;
export const NAMESPACE_SVG = 1;
export const NAMESPACE_MATH = 2;

/**
 * The namespace of the content being read, as lol-html tracks it (its tree-builder simulator), so that
 * both passes tokenize alike: <svg> and <math> push their namespace (self-closed too), their end tags pop
 * it; in svg or math an exit tag pops one level; an integration point (svg foreignObject, desc, title;
 * MathML mi, mo, mn, ms, mtext; annotation-xml with an HTML encoding) pushes HTML until its end tag. No
 * open elements are kept: one number per level.
 */
class NamespaceStack {
  private readonly levels: number[] = [NAMESPACE_HTML];

  current(): number {
    return this.levels[this.levels.length - 1];
  }

  /** Updates the stack for a start tag and returns the namespace of its element. */
  startTag(name: string, selfClosing: boolean, html: string, nameEnd: number, tagEnd: number): number {
    if (name === "svg" || name === "math") {
      this.levels.push(name === "svg" ? NAMESPACE_SVG : NAMESPACE_MATH);
      return this.current();
    }
    const current = this.current();
    if (current === NAMESPACE_HTML) return current;
    if (FOREIGN_CONTENT_EXITS.has(name) || (name === "font" && hasFontAttribute(html, nameEnd, tagEnd))) {
      this.pop();
      return this.current();
    }
    if (!selfClosing && (current === NAMESPACE_SVG ? SVG_INTEGRATION_POINTS.has(name) : MATH_INTEGRATION_POINTS.has(name) ||
      (name === "annotation-xml" && hasHtmlEncoding(html, nameEnd, tagEnd)))) {
      this.levels.push(NAMESPACE_HTML);
    }
    return current;
  }

  endTag(name: string): void {
    const current = this.current();
    if (current === NAMESPACE_SVG ? name === "svg" : current === NAMESPACE_MATH ? name === "math" : this.endsIntegrationPoint(name)) this.pop();
  }

  private endsIntegrationPoint(name: string): boolean {
    const previous = this.levels.length >= 2 ? this.levels[this.levels.length - 2] : NAMESPACE_HTML;
    if (previous === NAMESPACE_SVG) return SVG_INTEGRATION_POINTS.has(name);
    return previous === NAMESPACE_MATH && (MATH_INTEGRATION_POINTS.has(name) || name === "annotation-xml");
  }

  private pop(): void {
    if (this.levels.length > 1) this.levels.pop();
  }
}

function hasFontAttribute(html: string, nameEnd: number, tagEnd: number): boolean {
  return findAttribute(html, nameEnd, tagEnd, "color") !== null || findAttribute(html, nameEnd, tagEnd, "face") !== null ||
    findAttribute(html, nameEnd, tagEnd, "size") !== null;
}

function hasHtmlEncoding(html: string, nameEnd: number, tagEnd: number): boolean {
  const range = findAttribute(html, nameEnd, tagEnd, "encoding");
  if (range === null) return false;
  const value = html.slice(range[0], range[1]).toLowerCase();
  return value === "text/html" || value === "application/xhtml+xml";
}

/** Set by tagEndAt: whether the tag just read ended with "/>". */
let lastTagSelfClosing = false;

/** Scans `html`, calling the handler for each tag and text run in document order. */
export function scanHtml(html: string, handler: ScanHandler): void {
  new HtmlScan(html, handler).continueTo(html.length);
}

/**
 * A scan of `html` that stops and goes on: each continueTo(offset) reports the events up to that offset, so that
 * a caller can let other work run between slices of a large page. The events, and where text runs split, are the
 * same however the scan is sliced: text is reported at the markup that ends it, and a slice ends only before a "<".
 */
export class HtmlScan {
  private readonly frames = new NamespaceStack();
  private textStart = 0;
  /** The next "<" to read (-1: none left). */
  private position: number;
  private done = false;

  constructor(private readonly html: string, private readonly handler: ScanHandler) {
    this.position = html.indexOf("<");
  }

  /** Reports the markup that starts before `offset` (read whole, however far it reaches) and the text before it; whether the page is done. */
  continueTo(offset: number): boolean {
    const { html, handler, frames } = this;
    const length = html.length;
    let { textStart, position } = this;
    if (this.done) return true;
    while (position >= 0 && position < length - 1) {
      if (position >= offset) {
        this.textStart = textStart;
        this.position = position;
        return false;
      }
      const next = html.charCodeAt(position + 1);
      let resume = -1; // where text starts again after a markup construct at `position`; -1: "<" is text
      if (isAsciiLetter(next)) {
        if (textStart < position) handler.text(textStart, position, TEXT_DATA);
        resume = startTagAt(html, position, handler, frames);
      } else if (next === 47) {
        const after = position + 2 < length ? html.charCodeAt(position + 2) : -1;
        if (textStart < position) handler.text(textStart, position, TEXT_DATA);
        if (isAsciiLetter(after)) resume = endTagAt(html, position, handler, frames);
        else resume = after === 62 ? position + 3 : bogusCommentEnd(html, position + 2);
      } else if (next === 33 || next === 63) {
        if (textStart < position) handler.text(textStart, position, TEXT_DATA);
        resume = markupDeclarationEnd(html, position, handler, frames.current() !== NAMESPACE_HTML);
      }
      if (resume < 0) {
        position = html.indexOf("<", position + 1);
        continue;
      }
      textStart = resume;
      position = resume >= length ? -1 : html.indexOf("<", resume);
    }
    this.done = true; // the last text is reported once
    if (textStart < length) handler.text(textStart, length, TEXT_DATA);
    return true;
  }
}

function isAsciiLetter(code: number): boolean {
  const lower = code | 0x20;
  return lower >= 97 && lower <= 122;
}

/** Set by readTagName: the offset just after the name it read. */
let lastNameEnd = 0;

/**
 * The lowercase text of the tag name that starts at `start` (lastNameEnd: the offset after it). A name the
 * page model or the scanner knows is found by a hash of its lowercase codes, taken while reading it, and given
 * as the one string kept for it: no string is made, and the listeners' lookups and comparisons by name are
 * those of a constant. Other names are sliced (and lower-cased, non-ASCII letters too, as before).
 */
function readTagName(html: string, start: number): string {
  const length = html.length;
  let end = start;
  let upper = false;
  let ascii = true;
  let hash = 0;
  while (end < length) {
    let code = html.charCodeAt(end);
    if (isTagSpace(code) || code === 47 || code === 62) break;
    if (code >= 65 && code <= 90) {
      upper = true;
      code |= 0x20;
    } else if (code >= 0x80) ascii = false;
    hash = (Math.imul(hash, 31) + code) | 0;
    end++;
  }
  lastNameEnd = end;
  if (ascii) {
    const known = knownName(html, start, end, hash);
    if (known !== null) return known;
  }
  const name = html.slice(start, end);
  return upper ? name.toLowerCase() : name;
}

/** Tag names kept as constants: those with a tag id, and the others that pass 1's listeners or common pages name. */
const KNOWN_NAMES: readonly string[] = [
  ...TAG_NAMES.slice(2), ...RAW_TEXT_NAMES, ...RCDATA_NAMES, ...SVG_INTEGRATION_POINTS, ...MATH_INTEGRATION_POINTS,
  ...FOREIGN_CONTENT_EXITS, "picture", "time", "abbr", "cite", "small", "sup", "sub", "text", "tspan", "textpath",
  "annotation", "path", "g", "use", "symbol", "defs", "circle", "rect", "polygon", "noindex", "ins", "del", "q",
  "figcaption", "video", "audio", "canvas", "picture", "u", "s", "code", "kbd", "samp", "mark", "dfn", "bdi", "bdo",
];
/** Open-addressed table of KNOWN_NAMES by readTagName's hash (a quarter full at most); empty slots hold "". */
const KNOWN_SLOTS = 1024;
const knownNames: string[] = new Array<string>(KNOWN_SLOTS).fill("");
const knownHashes = new Int32Array(KNOWN_SLOTS);
for (const name of new Set(KNOWN_NAMES)) {
  let hash = 0;
  for (let i = 0; i < name.length; i++) hash = (Math.imul(hash, 31) + name.charCodeAt(i)) | 0;
  let slot = hash & (KNOWN_SLOTS - 1);
  while (knownNames[slot] !== "") slot = (slot + 1) & (KNOWN_SLOTS - 1);
  knownNames[slot] = name;
  knownHashes[slot] = hash;
}

/** The constant for the ASCII name html[start, end) lower-cased, whose hash is `hash`, or null when it is not known. */
function knownName(html: string, start: number, end: number, hash: number): string | null {
  for (let slot = hash & (KNOWN_SLOTS - 1); ; slot = (slot + 1) & (KNOWN_SLOTS - 1)) {
    const name = knownNames[slot];
    if (name === "") return null;
    if (knownHashes[slot] !== hash || name.length !== end - start) continue;
    let i = 0;
    while (i < name.length && toAsciiLower(html.charCodeAt(start + i)) === name.charCodeAt(i)) i++;
    if (i === name.length) return name;
  }
}

function toAsciiLower(code: number): number {
  return code >= 65 && code <= 90 ? code | 0x20 : code;
}

/** Reads the start tag at `position`, reports it, then its raw content if any; returns where text resumes. */
function startTagAt(html: string, position: number, handler: ScanHandler, frames: NamespaceStack): number {
  const name = readTagName(html, position + 1);
  const nameEnd = lastNameEnd;
  const tagEnd = tagEndAt(html, nameEnd);
  if (tagEnd < 0) return html.length; // an unfinished tag at the end of the page is dropped, as lol-html does
  const selfClosing = lastTagSelfClosing;
  const namespace = frames.startTag(name, selfClosing, html, nameEnd, tagEnd);
  const foreign = namespace !== NAMESPACE_HTML;
  handler.startTag(name, position, nameEnd, tagEnd, selfClosing, foreign, namespace);
  return foreign ? tagEnd : rawContentEnd(html, name, tagEnd, handler);
}

/** For raw-text, RCDATA, script and plaintext elements: reports their content and returns where it ends. */
function rawContentEnd(html: string, name: string, contentStart: number, handler: ScanHandler): number {
  const content = TEXT_CONTENT.get(name);
  if (content === undefined) return contentStart;
  const kind = content === CONTENT_RCDATA ? TEXT_RCDATA : TEXT_RAW;
  let contentEnd = content === CONTENT_SCRIPT ? scriptEnd(html, contentStart) : content === CONTENT_PLAINTEXT ? html.length : appropriateEndTag(html, name, contentStart);
  if (contentEnd < 0) contentEnd = html.length;
  if (contentStart < contentEnd) handler.text(contentStart, contentEnd, kind);
  return contentEnd;
}

/** Offset of the next "</name" (any case) followed by a tag delimiter, or -1. */
function appropriateEndTag(html: string, name: string, from: number): number {
  let position = html.indexOf("</", from);
  while (position >= 0) {
    if (matchesEndTagName(html, position + 2, name)) return position;
    position = html.indexOf("</", position + 2);
  }
  return -1;
}

function matchesEndTagName(html: string, start: number, name: string): boolean {
  if (start + name.length >= html.length) return false;
  for (let i = 0; i < name.length; i++) {
    if ((html.charCodeAt(start + i) | 0x20) !== name.charCodeAt(i)) return false;
  }
  const after = html.charCodeAt(start + name.length);
  return isTagSpace(after) || after === 47 || after === 62;
}

/**
 * End of script content, with the HTML5 script-data escape states: after "<!--" a "<script" enters the
 * double-escaped state, where "</script" does not end the element until "-->" leaves it.
 */
function scriptEnd(html: string, from: number): number {
  let escaped = false;
  let doubleEscaped = false;
  let position = from;
  while (position < html.length) {
    const less = html.indexOf("<", position);
    const dashes = escaped ? html.indexOf("-->", position) : -1;
    if (dashes >= 0 && (less < 0 || dashes < less)) {
      escaped = false;
      doubleEscaped = false;
      position = dashes + 3;
      continue;
    }
    if (less < 0) return -1;
    if (html.startsWith("<!--", less) && !escaped) {
      escaped = true;
      position = less + 2; // so that "<!-->" leaves the escaped state again at once
      continue;
    }
    if (html.charCodeAt(less + 1) === 47 && matchesEndTagName(html, less + 2, "script")) {
      if (!doubleEscaped) return less;
      doubleEscaped = false;
    } else if (escaped && !doubleEscaped && matchesEndTagName(html, less + 1, "script")) {
      doubleEscaped = true;
    }
    position = less + 1;
  }
  return -1;
}

/** Reads the end tag at `position`, reports it; returns the offset after it. */
function endTagAt(html: string, position: number, handler: ScanHandler, frames: NamespaceStack): number {
  const name = readTagName(html, position + 2);
  const nameEnd = lastNameEnd;
  const tagEnd = tagEndAt(html, nameEnd);
  if (tagEnd < 0) return html.length;
  handler.endTag(name, position, tagEnd);
  frames.endTag(name);
  return tagEnd;
}

/** Comments, doctype, CDATA and bogus comments starting with "<!" or "<?"; returns the offset after them. */
function markupDeclarationEnd(html: string, position: number, handler: ScanHandler, foreign: boolean): number {
  if (html.startsWith("<!--", position)) return commentEnd(html, position + 4);
  if (foreign && html.startsWith("<![CDATA[", position)) {
    const close = html.indexOf("]]>", position + 9);
    const contentEnd = close < 0 ? html.length : close;
    if (position + 9 < contentEnd) handler.text(position + 9, contentEnd, TEXT_CDATA);
    return close < 0 ? html.length : close + 3;
  }
  return bogusCommentEnd(html, position + 2);
}

/** Offset after a comment whose text starts at `start` (after "<!--"). */
function commentEnd(html: string, start: number): number {
  if (html.charCodeAt(start) === 62) return start + 1; // "<!-->"
  if (html.charCodeAt(start) === 45 && html.charCodeAt(start + 1) === 62) return start + 2; // "<!--->"
  let position = html.indexOf("--", start);
  while (position >= 0) {
    const after = html.charCodeAt(position + 2);
    if (after === 62) return position + 3;
    if (after === 33 && html.charCodeAt(position + 3) === 62) return position + 4;
    position = html.indexOf("--", position + 1);
  }
  return html.length;
}

function bogusCommentEnd(html: string, from: number): number {
  const close = html.indexOf(">", from);
  return close < 0 ? html.length : close + 1;
}

/**
 * Offset after the ">" that ends a tag whose attributes start at `from`, or -1 at the end of the page. Sets
 * lastTagSelfClosing. HTML5's attribute states, folded to the four that differ in where a tag ends: before a name
 * (after a quoted value too), in a name (after one too: only there does "=" start a value), before a value (a quote
 * there starts a quoted value, read with indexOf, so a quoted ">" does not end the tag) and in an unquoted value
 * (where "/" and "=" are text).
 */
function tagEndAt(html: string, from: number): number {
  lastTagSelfClosing = false;
  const length = html.length;
  let inName = false;
  let i = from;
  while (i < length) {
    const kind = tagCharacter(html.charCodeAt(i));
    if (kind === TAG_ORDINARY) {
      inName = true;
      i++;
      continue;
    }
    if (kind === TAG_SPACE) {
      i++;
      continue;
    }
    if (kind === TAG_CLOSE) return i + 1;
    if (kind === TAG_SLASH) {
      if (html.charCodeAt(i + 1) === 62) {
        lastTagSelfClosing = true;
        return i + 2;
      }
      inName = false;
      i++;
      continue;
    }
    // TAG_EQUALS: a name's first character, or the start of its value.
    i++;
    if (!inName) {
      inName = true;
      continue;
    }
    while (i < length && isTagSpace(html.charCodeAt(i))) i++;
    if (i >= length) return -1;
    const first = html.charCodeAt(i);
    if (first === 34 || first === 39) {
      const close = html.indexOf(first === 34 ? '"' : "'", i + 1);
      if (close < 0) return -1;
      i = close + 1;
    } else {
      if (first === 62) return i + 1;
      for (i++; i < length; i++) {
        const next = html.charCodeAt(i);
        if (next === 62) return i + 1;
        if (isTagSpace(next)) break;
      }
      i++;
    }
    inName = false;
  }
  return -1;
}
