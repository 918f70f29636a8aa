/**
 * Tag ids and the few properties of tags that pass 1 needs. Ids are small integers (they fit a Uint8Array);
 * TAG_ROOT is the virtual root block, TAG_OTHER any element not listed here (custom elements included).
 */

export const TAG_ROOT = 0;
export const TAG_OTHER = 1;

/** The elements that are blocks of the page model (FLAG_BLOCK). */
const BLOCK_TAGS: readonly string[] = [
  "address", "article", "aside", "blockquote", "center", "dd", "details", "dialog", "dir", "div", "dl", "dt",
  "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup",
  "li", "main", "menu", "nav", "ol", "p", "pre", "section", "summary", "table", "tbody", "thead", "tfoot", "tr",
  "td", "th", "caption", "ul", "select", "legend", "search", "listing",
];

/** Tag id → lowercase name (index 0 and 1 are the root and "other"). Append only: ids are stored in page models. */
export const TAG_NAMES: readonly string[] = [
  "#root", "#other",
  ...BLOCK_TAGS,
  // other elements the tree builder or the text needs to know
  "html", "head", "body", "a", "br", "option", "optgroup", "svg", "math", "foreignobject", "desc", "title",
  "mi", "mo", "mn", "ms", "mtext", "annotation-xml", "script", "style", "textarea", "xmp", "iframe", "noembed",
  "noframes", "noscript", "plaintext", "template", "applet", "marquee", "object", "button", "hr", "img", "meta",
  "area", "base", "basefont", "bgsound", "col", "command", "embed", "frame", "image", "input", "keygen", "link",
  "menuitem", "param", "source", "track", "wbr", "colgroup", "span", "b", "i", "em", "strong", "font", "label",
];

const TAG_ID = new Map<string, number>(TAG_NAMES.map((name, id) => [name, id]));

/** Tag id of a lowercase tag name; TAG_OTHER when the name is not listed. */
export function tagId(lowercaseName: string): number {
  return TAG_ID.get(lowercaseName) ?? TAG_OTHER;
}

export function tagName(id: number): string {
  return TAG_NAMES[id] ?? "#other";
}

/** A form control's list: its <option> text is never prose, however long. */
export const TAG_SELECT = tagId("select");

/** Bit flags per tag id. */
export const FLAG_BLOCK = 1; // a block of the page model
export const FLAG_VOID = 2; // never has content or an end tag (lol-html's list, checked on both backends)
export const FLAG_CLOSES_P = 4; // its start tag closes an open <p> in button scope (HTML5 "in body" rules)
export const FLAG_SPECIAL = 8; // HTML5 "special" category: stops the search for an open <li>, <dd> or <dt>
export const FLAG_BUTTON_SCOPE = 16; // bounds the search for an open <p>
export const FLAG_TABLE_SCOPE = 32; // bounds the search for an open cell, row or table section
export const FLAG_HEADING = 64;

const FLAG_LISTS: readonly [number, readonly string[]][] = [
  [FLAG_BLOCK, BLOCK_TAGS],
  [FLAG_VOID, ["area", "base", "basefont", "bgsound", "br", "col", "command", "embed", "frame", "hr", "image", "img",
    "input", "keygen", "link", "menuitem", "meta", "param", "source", "track", "wbr"]],
  [FLAG_CLOSES_P, ["address", "article", "aside", "blockquote", "center", "details", "dialog", "dir", "div", "dl",
    "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup",
    "hr", "main", "menu", "nav", "ol", "p", "pre", "section", "summary", "table", "ul", "li", "dd", "dt", "search",
    "listing", "xmp", "plaintext"]],
  [FLAG_SPECIAL, ["address", "applet", "area", "article", "aside", "base", "basefont", "bgsound", "blockquote", "body",
    "br", "button", "caption", "center", "col", "colgroup", "dd", "details", "dir", "div", "dl", "dt", "embed",
    "fieldset", "figcaption", "figure", "footer", "form", "frame", "h1", "h2", "h3", "h4", "h5", "h6", "head",
    "header", "hgroup", "hr", "html", "iframe", "img", "input", "keygen", "li", "link", "listing", "main", "marquee",
    "menu", "meta", "nav", "noembed", "noframes", "noscript", "object", "ol", "p", "param", "plaintext", "pre",
    "script", "search", "section", "select", "source", "style", "summary", "table", "tbody", "td", "template",
    "textarea", "tfoot", "th", "thead", "title", "tr", "track", "ul", "wbr", "xmp"]],
  [FLAG_BUTTON_SCOPE, ["applet", "caption", "html", "table", "td", "th", "marquee", "object", "template", "button"]],
  [FLAG_TABLE_SCOPE, ["html", "table", "template"]],
  [FLAG_HEADING, ["h1", "h2", "h3", "h4", "h5", "h6"]],
];

/** Tag id → FLAG_* bits. */
export const TAG_FLAGS: Uint8Array = (() => {
  const flags = new Uint8Array(TAG_NAMES.length);
  for (const [flag, names] of FLAG_LISTS) for (const name of names) flags[tagId(name)] |= flag;
  return flags;
})();

export const TAG_P = tagId("p");
export const TAG_DIV = tagId("div");
export const TAG_ADDRESS = tagId("address");
export const TAG_LI = tagId("li");
export const TAG_DD = tagId("dd");
export const TAG_DT = tagId("dt");
export const TAG_TD = tagId("td");
export const TAG_TH = tagId("th");
export const TAG_TR = tagId("tr");
export const TAG_TBODY = tagId("tbody");
export const TAG_THEAD = tagId("thead");
export const TAG_TFOOT = tagId("tfoot");
export const TAG_OPTION = tagId("option");
export const TAG_OPTGROUP = tagId("optgroup");
export const TAG_HEAD = tagId("head");
export const TAG_BODY = tagId("body");
export const TAG_HTML = tagId("html");
export const TAG_A = tagId("a");
export const TAG_BUTTON = tagId("button");
export const TAG_BR = tagId("br");
export const TAG_TITLE = tagId("title");
export const TAG_META = tagId("meta");
