/**
 * Bytes → HTML string, following the order browsers use: byte order mark, then the charset of the
 * Content-Type header, then a <meta> declaration in the first bytes, then UTF-8 if the bytes are valid
 * UTF-8, else windows-1252 (the web's de facto default for undeclared legacy pages).
 *
 * UTF-16 is refused: HTMLRewriter reads only ASCII-compatible encodings, so such pages pass through.
 */
import { WINDOWS_1252_C1 } from "./entities";

export type DecodeResult =
  | { readonly ok: true; readonly html: string; readonly charset: string }
  | { readonly ok: false; readonly reason: "unsupported-charset"; readonly charset: string };

/** How many leading bytes are searched for a <meta> charset declaration (the HTML standard's prescan size). */
const META_PRESCAN_BYTES = 1024;

const META_CHARSET = /<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9._:-]+)/i;
/** The charset parameter of a Content-Type value (a header, or a <meta http-equiv> content); group 1 is the label. */
export const CHARSET_PARAMETER = /charset\s*=\s*["']?\s*([A-Za-z0-9._:-]+)/i;

export function decodeHtml(bytes: Uint8Array, contentType?: string | null): DecodeResult {
  const bom = charsetFromByteOrderMark(bytes);
  if (bom !== null) return decodeAs(bytes, bom);
  const declared = charsetFromContentType(contentType) ?? charsetFromMeta(bytes);
  if (declared !== null) {
    // A page that declares UTF-16 in ASCII bytes is not UTF-16 (the HTML standard reads it as UTF-8).
    const label = declared.startsWith("utf-16") && !looksLikeUtf16(bytes) ? "utf-8" : declared;
    return decodeAs(bytes, label);
  }
  if (looksLikeUtf16(bytes)) return { ok: false, reason: "unsupported-charset", charset: "utf-16" };
  const utf8 = tryDecode(bytes, "utf-8", true);
  return utf8 !== null ? { ok: true, html: utf8, charset: "utf-8" } : decodeAs(bytes, "windows-1252");
}

function decodeAs(bytes: Uint8Array, label: string): DecodeResult {
  const charset = canonicalCharset(label);
  if (charset === null) return fallback(bytes);
  if (charset.startsWith("utf-16")) return { ok: false, reason: "unsupported-charset", charset };
  const html = tryDecode(bytes, charset, false);
  return html === null ? { ok: false, reason: "unsupported-charset", charset } : { ok: true, html, charset };
}

/** An unknown label: decode as if nothing was declared. */
function fallback(bytes: Uint8Array): DecodeResult {
  const utf8 = tryDecode(bytes, "utf-8", true);
  if (utf8 !== null) return { ok: true, html: utf8, charset: "utf-8" };
  return { ok: true, html: tryDecode(bytes, "windows-1252", false) ?? "", charset: "windows-1252" };
}

/** The encoding name TextDecoder uses for a label, or null if this runtime does not know the label. */
function canonicalCharset(label: string): string | null {
  try {
    return new TextDecoder(label.trim().toLowerCase()).encoding;
  } catch {
    return null;
  }
}

function tryDecode(bytes: Uint8Array, charset: string, fatal: boolean): string | null {
  try {
    const text = new TextDecoder(charset, { fatal, ignoreBOM: false }).decode(bytes);
    return charset === "windows-1252" ? repairWindows1252(text) : text;
  } catch {
    return null;
  }
}

const C1_CONTROLS = /[\u0080-\u009f]/g;

/**
 * windows-1252 differs from latin-1 in 0x80-0x9F (curly quotes, dashes, euro…). Some runtimes (Node 20)
 * decode the label as latin-1 and leave C1 controls there; map them as the Encoding Standard says.
 */
function repairWindows1252(text: string): string {
  return text.replace(C1_CONTROLS, (c) => String.fromCharCode(WINDOWS_1252_C1[c.charCodeAt(0) - 0x80]));
}

function charsetFromByteOrderMark(bytes: Uint8Array): string | null {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8";
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  return null;
}

/** The charset label of a Content-Type value, lower case, or null. */
export function charsetFromContentType(contentType: string | null | undefined): string | null {
  const match = contentType ? CHARSET_PARAMETER.exec(contentType) : null;
  return match ? match[1].toLowerCase() : null;
}

function charsetFromMeta(bytes: Uint8Array): string | null {
  // Each byte as the character of its code, made in one call (not a string grown by 1,024 concatenations).
  const ascii = String.fromCharCode.apply(null, bytes.subarray(0, META_PRESCAN_BYTES) as unknown as number[]);
  const match = META_CHARSET.exec(ascii);
  return match ? match[1].toLowerCase() : null;
}

/** Many zero bytes at even or odd positions of the first bytes: UTF-16 without a byte order mark. */
function looksLikeUtf16(bytes: Uint8Array): boolean {
  const sample = Math.min(bytes.length, 256) & ~1;
  if (sample < 4) return false;
  let zeros = 0;
  for (let i = 0; i < sample; i++) if (bytes[i] === 0) zeros++;
  return zeros * 4 >= sample;
}
