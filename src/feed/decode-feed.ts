/**
 * Feed bytes → string. XML's order (RFC 7303): byte order mark, then the charset of the Content-Type
 * header, then the encoding of the XML declaration, else UTF-8. Unlike HTML pages, UTF-16 feeds are
 * fine here: the feed is rewritten as a string and sent back as UTF-8.
 */
import { charsetFromContentType } from "../page";

export type FeedDecodeResult =
  | { readonly ok: true; readonly xml: string; readonly charset: string }
  | { readonly ok: false; readonly reason: "unsupported-charset"; readonly charset: string };

/** How many leading bytes hold the XML declaration, at most (it is short and comes first). */
const DECLARATION_PRESCAN_BYTES = 256;

const DECLARED_ENCODING = /^<\?xml[^>]*?\sencoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/;

export function decodeFeed(bytes: Uint8Array, contentType?: string | null): FeedDecodeResult {
  const label = byteOrderMark(bytes) ?? charsetFromContentType(contentType) ?? declaredEncoding(bytes) ?? "utf-8";
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label.toLowerCase());
  } catch {
    return { ok: false, reason: "unsupported-charset", charset: label };
  }
  return { ok: true, xml: decoder.decode(bytes), charset: decoder.encoding };
}

function byteOrderMark(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  return null;
}

function declaredEncoding(bytes: Uint8Array): string | null {
  // The declaration is ASCII; latin-1 reads those bytes one to one whatever the real encoding is.
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, DECLARATION_PRESCAN_BYTES));
  return DECLARED_ENCODING.exec(head)?.[1] ?? null;
}
