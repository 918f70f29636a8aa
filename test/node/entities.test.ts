/**
 * src/page/entities.ts against the `entities` package's streaming decoder (the decoder src/page read references
 * with before it had a table of its own): every name in text and attribute values, with and without ";" and
 * followed by "=", a letter, a space or the end of the input; numeric references; inputs cut short by `limit`;
 * and random inputs. Then the checked-in table: what the generator writes, and safe in a string literal.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { DecodingMode, HtmlEntityDecoder } from "entities/decode";
import { describe, expect, it } from "vitest";
import { checkedReferences, tableSource, type NamedReference } from "../../scripts/generate-entities";
import { decodeEntities, decodeEntityAt, entityEnd } from "../../src/page/entities";
import * as table from "../../src/page/entity-table";
import { seededRandom } from "../../scripts/lib/seeded-random";

/** The package's decoder on source[start + 1, limit): [decoded, end offset], or null. */
function oracleAt(source: string, start: number, limit: number, inAttribute: boolean): [string, number] | null {
  const units: number[] = [];
  const decoder = new HtmlEntityDecoder((unit) => units.push(unit));
  decoder.startEntity(inAttribute ? DecodingMode.Attribute : DecodingMode.Legacy);
  const next = start + 1 < limit ? source.charCodeAt(start + 1) : -1;
  if (next !== 35 && !/[0-9A-Za-z]/.test(String.fromCharCode(next))) return null;
  let consumed = decoder.write(source.slice(start + 1, limit), 0);
  if (consumed < 0) consumed = decoder.end();
  if (consumed <= 0 || units.length === 0) return null;
  return [String.fromCodePoint(...units), start + consumed];
}

function ourAt(source: string, start: number, limit: number, inAttribute: boolean): [string, number] | null {
  const decoded = decodeEntityAt(source, start, limit, inAttribute);
  return decoded === null ? null : [decoded, entityEnd()];
}

/** Every "&" of `source`, decoded both ways up to `limit`, in text and in attribute values: the disagreements. */
function disagreements(source: string, limit = source.length): string[] {
  const found: string[] = [];
  for (let start = source.indexOf("&"); start >= 0 && start < limit; start = source.indexOf("&", start + 1)) {
    for (const inAttribute of [false, true]) {
      const [ours, theirs] = [ourAt(source, start, limit, inAttribute), oracleAt(source, start, limit, inAttribute)];
      if (JSON.stringify(ours) !== JSON.stringify(theirs)) {
        found.push(`${JSON.stringify(source.slice(start, limit))} ${inAttribute ? "(attribute)" : "(text)"}: ${JSON.stringify(ours)}, expected ${JSON.stringify(theirs)}`);
      }
    }
  }
  return found;
}

describe("character references", async () => {
  const references: NamedReference[] = await checkedReferences();

  it("has the 2,231 references of HTML5", () => {
    expect(references.length + references.filter((reference) => reference.legacy).length).toBe(2231);
  });

  it("decodes every name as the package does: with and without ';', before '=', a letter, a space and the end", () => {
    const failures: string[] = [];
    for (const { name } of references) {
      for (const after of [";", "", "=", "x", "X", "1", " ", ";x", "=x", "<"]) failures.push(...disagreements(`&${name}${after}`));
      // Cut by the limit: the name ends the range though the page goes on.
      failures.push(...disagreements(`&${name};`, name.length + 1), ...disagreements(`a&${name}x;`, name.length + 2));
    }
    expect(failures.slice(0, 10)).toEqual([]);
  });

  it("gives each name's value, and the legacy names without ';' in text and before a space in attribute values", () => {
    for (const { name, value, legacy } of references) {
      expect(decodeEntities(`&${name};`, 0, name.length + 2), name).toBe(value);
      expect(decodeEntities(`&${name} `, 0, name.length + 2, true), name).toBe(legacy ? `${value} ` : `&${name} `);
    }
  });

  it("decodes numeric references as the package does", () => {
    const numbers = ["0", "x0", "9", "65", "x41", "X41", "128", "x80", "x81", "x8D", "x9F", "159", "160", "xD7FF", "xD800", "xDFFF", "xE000",
      "xFFFD", "x10FFFF", "x110000", "1114111", "1114112", "99999999999999999999999", "x0000000000041", "000065", "x", "X", "", "a", "xg", "-1"];
    const failures: string[] = [];
    for (const number of numbers) {
      for (const after of [";", "", " ", "x", ";;", "a;"]) failures.push(...disagreements(`&#${number}${after}`));
      failures.push(...disagreements(`&#${number};`, 3 + number.length - 1));
    }
    expect(failures).toEqual([]);
  });

  it("agrees with the package on random inputs", () => {
    const random = seededRandom(20261127);
    const pieces = ["&", "&", "#", "x", ";", "=", " ", "<", "a", "m", "p", "lt", "not", "in", "it", "amp", "nbsp", "0", "9", "A", "F", "\u00e9", "\ud83d"];
    const names = references.map((reference) => reference.name);
    const failures: string[] = [];
    for (let round = 0; round < 20_000; round++) {
      let source = "";
      const length = 1 + Math.floor(random() * 8);
      for (let piece = 0; piece < length; piece++) {
        source += random() < 0.2 ? names[Math.floor(random() * names.length)] : pieces[Math.floor(random() * pieces.length)];
      }
      failures.push(...disagreements(source), ...disagreements(source, Math.floor(random() * (source.length + 1))));
    }
    expect(failures.slice(0, 10)).toEqual([]);
  });

  it("decodeEntities decodes every reference of a range and copies the rest", () => {
    const text = "x &amp; &notin; &notin &#x41;&#66 &unknown; &amp";
    expect(decodeEntities(text, 0, text.length)).toBe("x & ∉ ¬in AB &unknown; &");
    expect(decodeEntities("a=1&copy=2&not;", 0, 15, true)).toBe("a=1&copy=2¬");
    expect(decodeEntities("[&lt;]", 1, 5)).toBe("<");
  });

  it("is the table the generator writes, in ASCII that needs no escape in a string or template literal", () => {
    expect(readFileSync(resolve(import.meta.dirname, "../../src/page/entity-table.ts"), "utf8")).toBe(tableSource(references));
    for (const text of [table.ENTITY_DIGITS, table.ENTITY_MARKS, table.ENTITY_WORDS, table.ENTITY_VALUES, table.ENTITY_NAMES]) {
      expect(text).toMatch(/^[\x20-\x7e]*$/);
      expect(text).not.toMatch(/[\\`'"]|\$\{/);
    }
  });
});
