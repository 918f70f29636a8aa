/**
 * The media-type guard's look at a body's first bytes: a stray NUL in an HTML page does not make it binary
 * (HTML5 reads U+0000 as a parse error), while images, archives and bodies full of control bytes stay refused.
 */
import { describe, expect, it } from "vitest";
import { isHtmlBody } from "../../src/http/index";
import { seededRandom } from "../../scripts/lib/seeded-random";

const encoder = new TextEncoder();
const PAGE = `<!doctype html><html><head><title>Tide tables</title></head><body><p>${"High water at the quay is at seven. ".repeat(40)}</p></body></html>`;

function withByte(text: string, at: number, byte: number): Uint8Array {
  const bytes = encoder.encode(text);
  bytes[at] = byte;
  return bytes;
}

describe("body sniffing", () => {
  it("takes an HTML page with a NUL byte in its first 1,024 bytes, labelled or not", () => {
    for (const at of [0, 20, 300, 1_000]) {
      const bytes = withByte(PAGE, at, 0);
      expect(isHtmlBody("text/html; charset=utf-8", bytes), `NUL at ${at}`).toBe(true);
      expect(isHtmlBody("", bytes), `NUL at ${at}, unlabelled`).toBe(true);
    }
    expect(isHtmlBody("text/html", encoder.encode("<p>a\u0000b</p>"))).toBe(true);
  });

  it("refuses images, archives and random bytes labelled as HTML", () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
    const gif = encoder.encode("GIF89a<p>not a page</p>");
    const gzip = new Uint8Array([0x1f, 0x8b, 0x08, 0x00, ...encoder.encode("<html><body>x</body></html>")]);
    const random = seededRandom(7);
    const noise = Uint8Array.from({ length: 1_024 }, () => Math.floor(random() * 256));
    for (const [label, bytes] of [["png", png], ["gif", gif], ["gzip", gzip], ["random bytes", noise]] as const) {
      expect(isHtmlBody("text/html", bytes), label).toBe(false);
    }
  });

  it("still reads UTF-16 without a byte order mark as text, not binary", () => {
    const utf16 = new Uint8Array(encoder.encode(PAGE).length * 2);
    encoder.encode(PAGE).forEach((byte, index) => (utf16[index * 2] = byte));
    expect(isHtmlBody("text/html", utf16)).toBe(true);
  });
});
