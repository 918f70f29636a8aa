/**
 * What an input file is, by its content rather than its name: wget and browsers save pages without ".html"
 * (`index.html?p=2`, `article`, `story.php`), and a list of pages is plain text whatever it is called.
 */
import { closeSync, openSync, readdirSync, readSync } from "node:fs";
import { join } from "node:path";
import { sniffBody, type BodySniff } from "../../src/page/index";

/** Bytes read to decide (an HTML page declares itself in its first tags, after any BOM, blanks or comments). */
const SNIFF_BYTES = 4096;
/** Markup no list file (paths and URLs a line) holds in its first bytes. */
const HTML_SIGNS = /<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>]|<meta\s|<title[\s>]/i;

/** Whether bytes read like an HTML page: markup first (after a BOM and blanks), or a page's signature tags near the start. */
export function looksLikeHtml(bytes: Uint8Array): boolean {
  const start = new TextDecoder("latin1").decode(bytes.subarray(0, SNIFF_BYTES)).replace(/^(?:\xef\xbb\xbf|\xfe\xff|\xff\xfe)/, "");
  const first = start.trimStart();
  // An XML declaration starts feeds and sitemaps too: only the page's own tags tell.
  if (first.startsWith("<?xml")) return HTML_SIGNS.test(start);
  return first.startsWith("<") || HTML_SIGNS.test(start);
}

/** Files a saved site holds beside its pages, never pages themselves (an SVG or a feed starts with "<" too). */
const NOT_PAGES = /\.(?:css|js|mjs|json|xml|rss|atom|svg|png|jpe?g|gif|webp|avif|ico|bmp|woff2?|ttf|otf|eot|pdf|zip|gz|mp[34]|webm|txt|md|tsv|csv)$/i;
const PAGE_NAMES = /\.(?:html?|xhtml|shtml)$/i;

/** Whether a file found in a folder is a page: an HTML name, or any name but an asset's with HTML inside. */
export function isPageInFolder(path: string): boolean {
  if (PAGE_NAMES.test(path)) return true;
  return !NOT_PAGES.test(path) && isHtmlFile(path);
}

/** looksLikeHtml of a file's first bytes (false for a file that cannot be read). */
export function isHtmlFile(path: string): boolean {
  const bytes = firstBytes(path);
  return bytes !== null && looksLikeHtml(bytes);
}

/**
 * What a file that is not plainly a page holds, from its first bytes (src/page sniffBody, as the Worker reads a
 * body): "text" may be a list of pages, "binary" (a PDF, an image, an archive) never is; null if unreadable.
 */
export function sniffFile(path: string): BodySniff | null {
  const bytes = firstBytes(path);
  return bytes === null ? null : sniffBody(bytes);
}

function firstBytes(path: string): Uint8Array | null {
  let descriptor: number | null = null;
  try {
    descriptor = openSync(path, "r");
    const buffer = new Uint8Array(SNIFF_BYTES);
    const read = readSync(descriptor, buffer, 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, read);
  } catch {
    return null; // reported by the caller as unreadable
  } finally {
    if (descriptor !== null) closeSync(descriptor);
  }
}

/** Every page file under a folder (isPageInFolder), sub-folders included, in name order. */
export function pagesUnder(folder: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true }).sort((left, right) => left.name.localeCompare(right.name))) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) files.push(...pagesUnder(path));
    else if (entry.isFile() && isPageInFolder(path)) files.push(path);
  }
  return files;
}
