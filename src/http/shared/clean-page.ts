import { clean, emptyFallback, type BailoutCode, type CleanResult, type CleanFormat, type Fallback, type FallbackContent, type RequestSelectors, type SelectorCounts } from "../../clean";
import { decodeHtml } from "../../page";
import { createWorkerdBackend } from "../../runtime";
import type { PageSampler } from "../../learning";
import type { Env } from "./bindings";
import { ServiceError } from "./errors";
import type { RequestedKind, RequestedMode } from "./formats";
import { classifierModel } from "./model";
import { loadSiteRules, type RulesStatus } from "./rules-store";
import { DEFAULT_SHAPE_OPTIONS, jinaJson, jinaText, readabilityJson, type AnswerShape, type ReaderJson, type ShapeOptions } from "./reader-shapes";
import { estimateMarkdownTokens } from "./tokens";

/**
 * The shared end of both /v1/clean routes: bytes of a page in, the cleaned page out; or, where cleaning gives up, the
 * reason in `x-clean-bailout` and the answer that keeps the format's promise (clean.ts bailoutFallback): html the
 * page as it came, the other formats never the page's markup. Never a truncated page.
 */
export interface PageToClean {
  readonly bytes: Uint8Array;
  /** The page's Content-Type (for its charset, and for passing it through unchanged). */
  readonly contentType: string | null;
  readonly url: string | undefined;
  /** The site whose rules apply ("" for none). */
  readonly site: string;
  readonly format: CleanFormat;
  /** What may clean it (?mode=). */
  readonly mode: RequestedMode;
  /** What the page is, when the caller says (?kind=); recognised from the page when absent or "auto". */
  readonly kind?: RequestedKind;
  /** A request body over the pipeline's size limit is refused (413); a fetched page is passed through. */
  readonly source: "body" | "fetched";
  /** The size limit of the request (MAX_BODY_BYTES), applied by the pipeline to the decoded page too. */
  readonly maxBytes: number;
  /** format=article: a header with the title, byline and date first; format=text: the headline first (?header=true). */
  readonly articleHeader?: boolean;
  /** format=markdown: a YAML front matter block (title, url, byline, published) first (?frontmatter=true). */
  readonly frontMatter?: boolean;
  /** X-Target-Selector and X-Remove-Selector, parsed. */
  readonly selectors?: RequestSelectors;
  /** Keeps a cleaned page with a URL for learning (src/learning), after the answer; absent: not sampled. */
  readonly sample?: PageSampler;
  /** Another reader's shape for the answer (format is then json): shared/reader-shapes.ts. */
  readonly shape?: AnswerShape;
  readonly shapeOptions?: ShapeOptions;
  /** The client's request signal: once it aborts (the client hung up), cleaning stops (clean.ts CleanInput.signal). */
  readonly signal?: AbortSignal;
}

/** Response header: the answer's Markdown in tokens, estimated (Markdown for Agents; shared/tokens.ts says how). */
export const MARKDOWN_TOKENS_HEADER = "x-markdown-tokens";

/** The reader document of a json answer in the shape asked for; other answers as they are. */
function shapeAnswer(body: string, contentType: string, shape: AnswerShape | undefined, options: ShapeOptions | undefined): { body: string; contentType: string } {
  if (shape === undefined || shape === "document") return { body, contentType };
  const document = JSON.parse(body) as ReaderJson;
  const shapeOptions = options ?? DEFAULT_SHAPE_OPTIONS;
  if (shape === "jina-text") return { body: jinaText(document, shapeOptions), contentType: "text/plain; charset=utf-8" };
  const shaped = shape === "jina-json" ? jinaJson(document, shapeOptions) : readabilityJson(document);
  return { body: JSON.stringify(shaped), contentType: "application/json; charset=utf-8" };
}

/** workerd's native HTMLRewriter, behind the runtime interface the pipeline takes. */
const REWRITER = createWorkerdBackend();

export async function cleanPage(env: Env, page: PageToClean): Promise<Response> {
  const decoded = decodeHtml(page.bytes, page.contentType);
  if (!decoded.ok) return passThrough({ ...page, body: page.bytes, html: null, charset: null, reason: "unsupported-charset", rules: null, fallback: null });
  const rules = await loadSiteRules(env, page.site, page.url);
  // clean() never throws: its own failures come back as bailouts, and the page goes back whole.
  const result = await clean({
    html: decoded.html,
    url: page.url,
    site: page.site,
    format: page.format,
    ruleSet: rules.compiled,
    model: classifierModel(),
    rewriter: REWRITER,
    options: { maxBytes: page.maxBytes, mode: page.mode, kind: page.kind ?? "auto", articleTitle: page.articleHeader === true ? "header" : "keep", textScope: page.articleHeader === true ? "all" : "body", frontMatter: page.frontMatter === true },
    selectors: page.selectors,
    signal: page.signal,
  });
  if (result.ok) {
    const shaped = shapeAnswer(result.body, result.contentType, page.shape, page.shapeOptions);
    const response = cleanedResponse({ ...result, ...shaped }, page.site, rules.status, decoded.charset);
    if (shaped.contentType.startsWith("text/markdown") || page.shape === "jina-text") response.headers.set(MARKDOWN_TOKENS_HEADER, String(estimateMarkdownTokens(shaped.body)));
    if (result.unclosedRawText) response.headers.set(WARNING_HEADER, "unclosed-raw-text");
    if (page.url !== undefined) page.sample?.({ html: decoded.html, url: page.url, site: rules.site, rulesMinedAt: rules.compiled?.minedAt });
    return response;
  }
  // The operator sees why (wrangler tail); the client gets the reason only, with the fallback clean() wrote.
  if (result.bailout !== "too-large") console.error("clean() bailed out", page.site, result.bailout, result.detail);
  if (result.bailout === "too-large" && page.source === "body") throw new ServiceError("payload-too-large", result.detail);
  return passThrough({ ...page, body: page.bytes, html: decoded.html, charset: decoded.charset, reason: result.bailout, rules: rules.status, fallback: result.fallback });
}

function cleanedResponse(result: Extract<CleanResult, { ok: true }>, site: string, rules: RulesStatus, charset: string): Response {
  const headers = new Headers({
    "content-type": result.contentType,
    "x-clean-mode": result.mode,
    "x-clean-kind": result.kind,
    "x-clean-rules": rules,
    "x-clean-charset": charset,
    "x-clean-removed": `blocks=${result.removed.blocks}; chars=${result.removed.chars}`,
  });
  if (site !== "") headers.set("x-clean-site", site);
  if (result.selectors !== undefined) headers.set(SELECTORS_HEADER, selectorCounts(result.selectors));
  const timing = serverTiming(result.timings);
  if (timing !== "") headers.set("server-timing", timing);
  return new Response(result.body, { status: 200, headers });
}

/** Response header: elements each selector that ran matched ("target=1; remove=3"; main= the fallback used, -1 none). */
const SELECTORS_HEADER = "x-clean-selectors";

function selectorCounts(counts: SelectorCounts): string {
  return Object.entries(counts).map(([name, count]) => `${name}=${count}`).join("; ");
}

/** A page that was not cleaned, and why. */
export interface PassedPage {
  /** The page's bytes as they came (a stream when it is too large to hold). */
  readonly body: Uint8Array | ReadableStream<Uint8Array>;
  readonly contentType: string | null;
  /** The page decoded, when it could be (for the json format's `html`). */
  readonly html: string | null;
  /** The charset the bytes are in, when known. */
  readonly charset: string | null;
  readonly url: string | undefined;
  readonly site: string;
  readonly format: CleanFormat;
  readonly reason: BailoutCode;
  readonly rules: RulesStatus | null;
  readonly shape?: AnswerShape;
  readonly shapeOptions?: ShapeOptions;
  /** The answer clean() wrote for the format asked for (its bailout's fallback); absent or null: none was written (the page was not decoded or held). */
  readonly fallback?: Fallback | null;
}

/** Response header: what a bailout's answer holds (clean.ts FALLBACK_CONTENTS: page, sanitised, text, empty). */
export const FALLBACK_HEADER = "x-clean-fallback";

/** The one place a bailout becomes response headers: its code (one of BAILOUT_CODES), mode "none", and what the answer holds. */
export function setBailoutHeaders(headers: Headers, reason: BailoutCode, content: FallbackContent): void {
  headers.set("x-clean-bailout", reason);
  headers.set("x-clean-mode", "none");
  headers.set(FALLBACK_HEADER, content);
}

/**
 * A page that was not cleaned, with the reason, in the shape of the format asked for: html and annotated the page as
 * it came (its own bytes and media type; the API's Content-Security-Policy keeps it inert); every other format the
 * fallback clean() wrote, which holds none of the page's markup (text, Markdown: text; article: allow-listed HTML;
 * json: a reader document with `bailout` and `fallback` set, the page itself only in `html`, as a cleaned page's
 * `html` is the working page), or that format's empty answer when the page was not decoded or held.
 */
export function passThrough(page: PassedPage): Response {
  const headers = new Headers();
  if (page.site !== "") headers.set("x-clean-site", page.site);
  if (page.rules !== null) headers.set("x-clean-rules", page.rules);
  if (page.format === "html" || page.format === "annotated") {
    setBailoutHeaders(headers, page.reason, "page");
    headers.set("content-type", page.contentType ?? "text/html");
    return new Response(page.body, { status: 200, headers });
  }
  if (page.body instanceof ReadableStream) void page.body.cancel();
  const fallback = page.fallback ?? emptyFallback({ url: page.url, site: page.site, format: page.format, bailout: page.reason });
  setBailoutHeaders(headers, page.reason, fallback.content);
  const shaped = shapeAnswer(fallback.body, fallback.contentType, page.format === "json" ? page.shape : undefined, page.shapeOptions);
  headers.set("content-type", shaped.contentType);
  return new Response(shaped.body, { status: 200, headers });
}

/** Response header for what cleaned well but may not be what the page meant. */
const WARNING_HEADER = "x-clean-warning";
/** Stage timings as a Server-Timing header ("analyse;dur=1.20, rules;dur=0.31"), readable in browser devtools. */
function serverTiming(timings: Readonly<Record<string, number>>): string {
  return Object.entries(timings)
    .filter(([name, value]) => /^[A-Za-z0-9_-]+$/.test(name) && Number.isFinite(value))
    .map(([name, value]) => `${name};dur=${value.toFixed(2)}`)
    .join(", ");
}
