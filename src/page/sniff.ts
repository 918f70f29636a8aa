/**
 * Sniffing a body's first bytes (the HTML standard's sniffing, in part): what the bytes are, before any decoding.
 */

/** What the first bytes of a body look like. */
export type BodySniff = "html" | "utf-16" | "binary" | "text";

/** How many leading bytes the sniffer looks at (the HTML standard's sniffing window is 1445). */
const SNIFF_BYTES = 1024;

/**
 * What a body is, from its first bytes, whatever it is called or labelled: a page (markup), UTF-16 text, binary
 * data (an image, a PDF, an archive, or bytes full of controls) or other text. The Worker's media-type guard and
 * the CLI's inputs (a page, or a list of pages) read it.
 */
export function sniffBody(bytes: Uint8Array): BodySniff {
  const length = Math.min(bytes.length, SNIFF_BYTES);
  if (length >= 2 && ((bytes[0] === 0xfe && bytes[1] === 0xff) || (bytes[0] === 0xff && bytes[1] === 0xfe))) return "utf-16";
  // Image, PDF, gzip and zip signatures (the HTML standard's sniffing table, in part): binary whatever follows.
  const startsWith = (...signature: number[]): boolean => signature.every((byte, index) => bytes[index] === byte);
  if (startsWith(0x89, 0x50, 0x4e, 0x47) || startsWith(0x47, 0x49, 0x46, 0x38) || startsWith(0xff, 0xd8, 0xff) ||
    startsWith(0x25, 0x50, 0x44, 0x46, 0x2d) || startsWith(0x1f, 0x8b) || startsWith(0x50, 0x4b, 0x03, 0x04)) return "binary";
  let zerosEven = 0;
  let zerosOdd = 0;
  let controls = 0; // the standard's "binary data bytes": NUL and C0 controls other than tab, newlines, form feed and escape
  let tagLike = false;
  for (let i = 0; i < length; i++) {
    const byte = bytes[i];
    if (byte === 0) {
      if ((i & 1) === 0) zerosEven++;
      else zerosOdd++;
    } else if (byte === 0x3c /* < */ && i + 1 < length && startsMarkup(bytes[i + 1])) tagLike = true;
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d && byte !== 0x1b) controls++;
  }
  // UTF-16 without a byte order mark: every other byte of ASCII text is zero.
  if (Math.max(zerosEven, zerosOdd) * 4 >= length && length >= 4) return "utf-16";
  // A stray NUL or control byte in a page is not a reason to refuse it (HTML5 reads U+0000 as a parse error, not
  // the end of the document); a body where such bytes are frequent (more than 1 in 32) is not text.
  if (controls > length / 32 + 1) return "binary";
  return tagLike ? "html" : "text";
}

/** A byte that may follow "<" in markup: a letter, "!" (doctype, comment), "/" or "?". */
function startsMarkup(byte: number): boolean {
  return (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a) || byte === 0x21 || byte === 0x2f || byte === 0x3f;
}
