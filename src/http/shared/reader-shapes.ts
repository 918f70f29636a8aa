/**
 * The reader document (format json, rewrite/json-writer.ts) in the shapes other readers' clients expect, so that
 * each works unchanged: Jina Reader's text envelope and JSON (`/v1/read/`), Mozilla Readability's article
 * (`?shape=readability`), and the result of the MCP tools (http/mcp). Metadata (title, byline, dates, excerpt,
 * site name) is the document's own: this module renames and selects, it extracts nothing.
 */
import { decodeEntities, readAttribute } from "../../page";
import type { ReaderDocument } from "../../rewrite";
import { estimateMarkdownTokens } from "./tokens";

/**
 * The reader document's fields these shapes read, as the json format sends them: a cleaned page's, or the fallback of
 * a page that was not cleaned (clean.ts bailoutFallback), with `bailout` and `fallback` set, its text, Markdown and
 * content written without the page's markup, and `html` the page as it came (null when it was not decoded or held).
 */
export type ReaderJson = Pick<ReaderDocument, "url" | "site" | "title" | "lang" | "byline" | "published" | "siteName" | "excerpt" | "leadImage" | "mode" | "text" | "markdown" | "content">
  & Partial<Pick<ReaderDocument, "comments" | "dir">>
  & { readonly html: string | null; readonly bailout?: string; readonly fallback?: string };

/** How the answer of a read is shaped: our own format (`document`), or another reader's. */
export type AnswerShape = "document" | "jina-text" | "jina-json" | "readability";

/** X-Retain-Images (Jina): all (default), none (images left out), alt (each image as its alt text). */
export type RetainImages = "all" | "none" | "alt";
export const RETAIN_IMAGES: readonly RetainImages[] = ["all", "none", "alt"];

export interface ShapeOptions {
  /** X-With-Links-Summary: the content's links listed after it. */
  readonly linksSummary: boolean;
  /** X-With-Images-Summary: the content's images listed after it. */
  readonly imagesSummary: boolean;
  readonly retainImages: RetainImages;
}

export const DEFAULT_SHAPE_OPTIONS: ShapeOptions = Object.freeze({ linksSummary: false, imagesSummary: false, retainImages: "all" });

/** Markdown images and links without nested brackets or parentheses (what the Markdown writer writes). */
const MARKDOWN_IMAGE = /!\[([^\[\]\n]*)\]\(([^()\s]+)(?:\s+"[^"\n]*")?\)/g;
const MARKDOWN_LINK = /(?<!!)\[([^\[\]\n]*)\]\(([^()\s]+)(?:\s+"[^"\n]*")?\)/g;

/** The Markdown with its images kept, left out, or replaced by their alt text. */
export function retainImages(markdown: string, retain: RetainImages): string {
  if (retain === "all") return markdown;
  return markdown.replace(MARKDOWN_IMAGE, (_image, alt: string) => (retain === "alt" ? alt : ""));
}

/** The content's links, [text, url] in order of first appearance, each URL once (images' own links excepted). */
export function linksOf(markdown: string): [string, string][] {
  const seen = new Set<string>();
  const links: [string, string][] = [];
  for (const match of markdown.replace(MARKDOWN_IMAGE, "$1").matchAll(MARKDOWN_LINK)) {
    if (seen.has(match[2])) continue;
    seen.add(match[2]);
    links.push([match[1].trim(), match[2]]);
  }
  return links;
}

/** The content's images, [alt, src] in order, each source once. */
export function imagesOf(markdown: string): [string, string][] {
  const seen = new Set<string>();
  const images: [string, string][] = [];
  for (const match of markdown.matchAll(MARKDOWN_IMAGE)) {
    if (seen.has(match[2])) continue;
    seen.add(match[2]);
    images.push([match[1].trim(), match[2]]);
  }
  return images;
}

/** The Markdown a Jina client gets: images as X-Retain-Images says. Never the page's HTML, a page that was not cleaned included. */
function jinaContent(document: ReaderJson, options: ShapeOptions): string {
  return retainImages(document.markdown, options.retainImages);
}

/**
 * Jina Reader's text envelope: `Title:`, `URL Source:`, `Published Time:` (when known), then `Markdown Content:`,
 * and the links and images summaries when asked for (Jina's `Links/Buttons:` and `Images:` sections).
 */
export function jinaText(document: ReaderJson, options: ShapeOptions): string {
  const content = jinaContent(document, options);
  const parts = [`Title: ${document.title ?? ""}`, `URL Source: ${document.url ?? ""}`];
  if (document.published !== null) parts.push(`Published Time: ${document.published}`);
  parts.push(`Markdown Content:\n${content}`);
  if (options.imagesSummary) parts.push(`Images:\n${imagesOf(document.markdown).map(([alt, src], index) => `- ![Image ${index + 1}${alt === "" ? "" : `: ${alt}`}](${src})`).join("\n")}`);
  if (options.linksSummary) parts.push(`Links/Buttons:\n${linksOf(content).map(([text, url]) => `- [${text}](${url})`).join("\n")}`);
  return parts.join("\n\n");
}

/** Jina Reader's JSON: `{code, status, data: {title, description, url, content, publishedTime, usage: {tokens}}}`, links and images as objects when asked. */
export function jinaJson(document: ReaderJson, options: ShapeOptions): Record<string, unknown> {
  const content = jinaContent(document, options);
  const data: Record<string, unknown> = {
    title: document.title ?? "",
    description: document.excerpt ?? "",
    url: document.url ?? "",
    content,
    publishedTime: document.published ?? undefined,
    usage: { tokens: estimateMarkdownTokens(content) },
  };
  if (options.imagesSummary) data.images = Object.fromEntries(imagesOf(document.markdown).map(([alt, src], index) => [`Image ${index + 1}${alt === "" ? "" : `: ${alt}`}`, src]));
  if (options.linksSummary) data.links = Object.fromEntries(linksOf(content));
  return { code: 200, status: 20000, data };
}

/** The text direction of a page with no reader document's `dir` (one not cleaned): the dir attribute of <html>, else of <body>; null when neither has one. */
export function textDirection(html: string | null): string | null {
  if (html === null) return null;
  for (const tag of [/<html\b/i, /<body\b/i]) {
    const found = tag.exec(html);
    if (found === null) continue;
    const end = html.indexOf(">", found.index);
    const value = readAttribute(html, found.index + found[0].length, end < 0 ? html.length : end, "dir")?.trim().toLowerCase();
    if (value === "ltr" || value === "rtl" || value === "auto") return value;
  }
  return null;
}

/** The text of an HTML fragment as the DOM's textContent gives it: the text between the tags, references decoded. */
export function textContentOf(html: string): string {
  const text = html.replace(/<!--[\s\S]*?-->|<[^>]*>/g, "");
  return decodeEntities(text, 0, text.length);
}

/**
 * Mozilla Readability's article (`parse()`'s result): title, byline, dir, lang, content (the article's HTML),
 * textContent, length (characters of textContent, as Readability counts them), excerpt, siteName, publishedTime.
 */
export function readabilityJson(document: ReaderJson): Record<string, unknown> {
  // Readability's textContent is its content's text (the DOM's textContent): no title where the content has none.
  const textContent = textContentOf(document.content);
  return {
    title: document.title ?? "",
    byline: document.byline,
    dir: document.dir ?? textDirection(document.html),
    lang: document.lang,
    // The article fragment (allow-listed HTML), a page that was not cleaned included: never the page itself.
    content: document.content,
    textContent,
    length: textContent.length,
    excerpt: document.excerpt,
    siteName: document.siteName,
    publishedTime: document.published,
  };
}
