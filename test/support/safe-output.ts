/**
 * What "safe" means for each promise a format makes, checked on what a parser reads back, and the hostile pages that
 * try to break it (seeded: the same seed gives the same pages). No Node API: the Worker tests use it too, with
 * HTMLRewriter as their parser; the Node tests with linkedom.
 *
 * - safe HTML (article, json content, Readability's content, feed items): only the article writer's allow-listed
 *   elements and attributes, no on* attribute, and no URL with a scheme other than http(s), mailto, tel (and raster
 *   data images on <img>);
 * - text (text, json text, Readability's textContent): no markup at all, nothing a parser would read as a tag;
 * - Markdown (markdown, json markdown, Jina's content): read by a CommonMark parser that lets raw HTML through, no
 *   raw HTML node, and no link or image to a javascript:, vbscript: or data: URL but raster images.
 */
import { AS_DIV, ELEMENT_ATTRIBUTES, GLOBAL_ATTRIBUTES, KEPT_ELEMENTS } from "../../src/rewrite/article-writer";

/** Elements and attributes as a parser read them. */
export interface ParsedElement {
  readonly name: string;
  readonly attributes: readonly (readonly [string, string])[];
}

const SAFE_LINK = /^(?:https?:\/\/|mailto:|tel:)/i;
const RASTER_DATA_IMAGE = /^data:image\/(?:png|jpeg|jpg|gif|webp|avif|bmp);base64,/i;
const URL_ATTRIBUTES = new Set(["href", "src", "cite", "action", "formaction", "poster", "background", "xlink:href", "data"]);

/** What is wrong with elements read from a fragment that promises safe HTML ([] when nothing is). */
export function htmlProblems(elements: readonly ParsedElement[]): string[] {
  const found: string[] = [];
  for (const { name, attributes } of elements) {
    if (!KEPT_ELEMENTS.has(name) && !AS_DIV.has(name) && name !== "header") found.push(`element <${name}>`);
    const allowed = new Set([...GLOBAL_ATTRIBUTES, ...(ELEMENT_ATTRIBUTES[name] ?? [])]);
    for (const [attribute, value] of attributes) {
      if (!allowed.has(attribute)) found.push(`attribute ${attribute} on <${name}>`);
      if (/^on/i.test(attribute)) found.push(`handler ${attribute} on <${name}>`);
      const urls = attribute === "srcset" ? value.split(",").map((candidate) => candidate.trim().split(/\s+/)[0]) : URL_ATTRIBUTES.has(attribute) ? [value] : [];
      for (const url of urls) {
        const hasScheme = /^\s*[a-z][\w+.-]*:/i.test(url);
        if (hasScheme && !SAFE_LINK.test(url) && !(name === "img" && RASTER_DATA_IMAGE.test(url))) found.push(`url ${attribute}=${url.slice(0, 60)} on <${name}>`);
      }
    }
  }
  return found;
}

/** What is wrong with a text that promises no markup: anything an HTML parser would read as a tag, comment or declaration. */
export function textProblems(text: string): string[] {
  const tags = text.match(/<[a-z\/!?][^<]{0,40}/gi) ?? [];
  return tags.slice(0, 5).map((tag) => `markup ${JSON.stringify(tag)}`);
}

/** A CommonMark node as the commonmark package's walker gives it (the fields read here). */
export interface MarkdownNode {
  readonly type: string;
  readonly destination: string | null;
  readonly literal: string | null;
}

/** What is wrong with Markdown's nodes (from a CommonMark parser): raw HTML, or a link or image to a script or document URL. */
export function markdownProblems(nodes: Iterable<MarkdownNode>): string[] {
  const found: string[] = [];
  for (const node of nodes) {
    if (node.type === "html_block" || node.type === "html_inline") found.push(`raw HTML ${JSON.stringify((node.literal ?? "").slice(0, 60))}`);
    if ((node.type === "link" || node.type === "image") && node.destination !== null) {
      const url = node.destination;
      if (/^\s*[a-z][\w+.-]*:/i.test(url) && !SAFE_LINK.test(url) && !(node.type === "image" && RASTER_DATA_IMAGE.test(url))) found.push(`${node.type} to ${url.slice(0, 60)}`);
    }
  }
  return found;
}

/** A seeded generator of numbers in [0, 1) (mulberry32): the same seed, the same pages. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Markup that runs, in the spellings that get past naive filters. Each piece carries no text of its own outside what
 * it hides, and none of it is text that looks like markup (a page's own text "&lt;b&gt;" is text, and is written as
 * text: see the formats' tests), so that any tag in a text output is the page's markup leaking.
 */
export const HOSTILE_PIECES: readonly string[] = [
  "<script>document.title = 'ran'</script>",
  "<script src=https://evil.example/x.js></script>",
  "<SCRIPT>alert(1)</SCRIPT >",
  "<style>body { background: url(javascript:alert(1)) }</style>",
  "<iframe src=\"javascript:alert(1)\"></iframe>",
  "<iframe srcdoc=\"<script>alert(1)</script>\"></iframe>",
  "<object data=\"data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==\">fallback</object>",
  "<embed src=\"javascript:alert(1)\">",
  "<svg onload=\"alert(1)\"><script>alert(1)</script><a href=\"javascript:alert(1)\"><text>svg text</text></a></svg>",
  "<svg><foreignObject><p onclick=alert(1)>fo</p></foreignObject></svg>",
  "<math><annotation-xml encoding=\"text/html\"><img src=x onerror=alert(1)></annotation-xml></math>",
  "<img src=x onerror=\"alert(1)\" alt=\"pic\">",
  "<a href=\"jav&#x09;ascript:alert(1)\">tabbed</a>",
  "<a href=\"&#106;&#97;vascript:alert(1)\">entities</a>",
  "<a href=\" JaVaScRiPt:alert(1)\">cased</a>",
  "<a href=\"data:text/html,<script>alert(1)</script>\">data</a>",
  "<a href=\"vbscript:msgbox(1)\">vb</a>",
  "<p style=\"background:url(javascript:alert(1))\" class=\"x\" id=\"y\">styled</p>",
  "<form action=\"javascript:alert(1)\"><input value=v><button formaction=\"javascript:alert(1)\">Go</button></form>",
  "<base href=\"javascript:alert(1)//\">",
  "<meta http-equiv=\"refresh\" content=\"0;url=javascript:alert(1)\">",
  "<link rel=stylesheet href=\"https://evil.example/x.css\">",
  "<template><script>alert(1)</script></template>",
  "<noscript><img src=x onerror=alert(1)></noscript>",
  "<!-- <script>alert(1)</script> -->",
  "<div onmouseover=\"alert(1)\">hover</div>",
  "<details open ontoggle=\"alert(1)\"><summary>s</summary>d</details>",
  "<video><source onerror=\"alert(1)\"></video>",
  "<body onload=\"alert(1)\">",
  "<p title='x\" onmouseover=\"alert(1)'>quoted</p>",
];

const SENTENCES = [
  "The harbour board approved the dredging plan after a long meeting on Tuesday evening.",
  "Boats wait in the harbour until noon while the tide turns.",
  "The council said the wall would be rebuilt next spring.",
];

/** A page of `pieces` hostile pieces among paragraphs of prose (always with the harbour sentence the rule tests match). */
export function hostilePage(random: () => number, pieces: number): string {
  const parts = [`<!doctype html><html><head><title>Harbour</title>${HOSTILE_PIECES[Math.floor(random() * HOSTILE_PIECES.length)]}</head><body>`];
  parts.push(`<nav><a href="/">Home</a> <a href="/about">About</a></nav><article><h1>Harbour news</h1><p>${SENTENCES[0]}</p>`);
  for (let index = 0; index < pieces; index++) {
    parts.push(HOSTILE_PIECES[Math.floor(random() * HOSTILE_PIECES.length)]);
    if (random() < 0.5) parts.push(`<p>${SENTENCES[Math.floor(random() * SENTENCES.length)]}</p>`);
  }
  // A paragraph its ancestor's end tag closes: removing it takes pass 2's HTMLRewriter (one closed by its own end tag is cut in the string).
  parts.push("<div><p>Share this story</div></article></body></html>");
  return parts.join("\n");
}
