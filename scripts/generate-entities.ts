/**
 * npm run entities:generate: writes src/page/entity-table.ts, the HTML5 named character references that
 * src/page/entities.ts decodes, from the `entities` package (a devDependency: the Worker does not bundle it).
 *
 * The names come from the package's own decode data (the table its decoder looks names up in), and every one
 * is checked through the package's public decoder before it is written: "&name;" decodes to the value, and a
 * name is legacy (may omit ";") exactly when the decoder takes "&name" alone at the end of the input. Every
 * alphanumeric string of up to three characters that is not in the list must decode to nothing. The count must
 * be 2,231 (2,125 names, 106 of them legacy); then the written table is read back through src/page/entities.ts
 * and must give every value again.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseCommand, runCommand, type Command } from "./lib/cli";
import { REPO_ROOT } from "./lib/paths";

const COMMAND: Command = {
  name: "entities:generate",
  usage: `usage: npm run entities:generate -- [--check]

Writes src/page/entity-table.ts, the table of HTML5 named character references that src/page/entities.ts
decodes, from the \`entities\` package (a devDependency), after checking every name through that package's
decoder. Prints the number of references and the table's size.

  --check    write nothing: exit 1 if src/page/entity-table.ts differs from what would be written
`,
};

const TABLE_FILE = resolve(REPO_ROOT, "src/page/entity-table.ts");
/** HTML5 has 2,231 named references: 2,125 names with ";", 106 of which may also go without it. */
const EXPECTED_REFERENCES = 2231;

/** Digits of numbers in the table: the 62 ASCII letters and digits. */
export const DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** The ASCII punctuation that needs no escape in a string or template literal (no quote, backslash, backtick or "$"). */
export const MARKS = " !#%&()*+,-./:;<=>?@[]^_{|}~";

export interface NamedReference {
  /** The name without "&" and ";" (ASCII letters and digits). */
  readonly name: string;
  readonly value: string;
  /** Whether the name also stands without its ";" (the 106 legacy names of HTML4). */
  readonly legacy: boolean;
}

interface PackageData {
  readonly keys: Int32Array;
  readonly slotMidOff: Uint16Array;
  readonly slotValue: Uint16Array;
  readonly middles: Uint32Array;
  readonly values: string;
}

/** The package's decode data and its public decoders (the data's module is internal to the package, so loaded by path). */
async function loadPackage() {
  const folder = dirname(createRequire(import.meta.url).resolve("entities/decode"));
  const format = await import(pathToFileURL(join(folder, "internal/decode-data-format.js")).href);
  const generated = await import(pathToFileURL(join(folder, "generated/decode-data-html.js")).href);
  const decode = await import("entities/decode");
  return { data: format.initDecodeData(generated.htmlDecodeData) as PackageData, remap: format.CHAR_REMAP as Uint8Array, decode };
}

/**
 * Every name of the package's table, with its value and legacy flag as the table says, sorted by name. A slot's
 * key holds the first two and last two characters and the length; `middles` the characters between.
 */
function namesOfPackage(data: PackageData, remap: Uint8Array): NamedReference[] {
  const unremap = new Map<number, number>();
  remap.forEach((mapped, code) => mapped !== 0 && unremap.set(mapped, code));
  const references: NamedReference[] = [];
  data.keys.forEach((key, slot) => {
    if (key === 0) return;
    const length = key & 31;
    const codes = new Array<number>(length);
    codes[0] = key >>> 25;
    codes[1] = (key >>> 18) & 127;
    codes[length - 2] = (key >>> 11) & 127;
    codes[length - 1] = unremap.get((key >>> 5) & 63) ?? 0;
    for (let index = 2, word = data.slotMidOff[slot]!; index < length - 2; index += 2, word++) {
      codes[index] = data.middles[word]! & 0xffff;
      if (index + 1 < length - 2) codes[index + 1] = data.middles[word]! >>> 16;
    }
    const packed = data.slotValue[slot]!;
    const value = data.values.slice(packed >> 2, (packed >> 2) + (packed & 1) + 1);
    references.push({ name: String.fromCharCode(...codes), value, legacy: (packed & 2) !== 0 });
  });
  return references.sort((a, b) => (a.name < b.name ? -1 : 1));
}

type Decode = typeof import("entities/decode");

/** What the package's streaming decoder makes of `input` (the text after "&") in a mode: [consumed, emitted]. */
function decodeWith(decode: Decode, input: string, mode: number): [number, string] {
  let emitted = "";
  const decoder = new decode.HtmlEntityDecoder((unit) => (emitted += String.fromCharCode(unit)));
  decoder.startEntity(mode);
  let consumed = decoder.write(input, 0);
  if (consumed < 0) consumed = decoder.end();
  return [consumed, emitted];
}

/** The checks of the header comment against the package's public decoder; the problems found. */
function checkAgainstDecoder(references: readonly NamedReference[], decode: Decode): string[] {
  const problems: string[] = [];
  for (const { name, value, legacy } of references) {
    const [consumed, emitted] = decodeWith(decode, `${name};`, decode.DecodingMode.Strict);
    if (consumed !== name.length + 2 || emitted !== value) problems.push(`&${name}; decodes to ${JSON.stringify(emitted)}, not ${JSON.stringify(value)}`);
    const [alone, aloneValue] = decodeWith(decode, name, decode.DecodingMode.Legacy);
    const takenAlone = alone === name.length + 1 && aloneValue === value;
    if (takenAlone !== legacy) problems.push(`&${name} without ";" is ${takenAlone ? "" : "not "}decoded, but the table says legacy=${legacy}`);
  }
  const known = new Set(references.map((reference) => reference.name));
  const short = [""];
  for (let length = 1; length <= 3; length++) {
    for (const prefix of short.splice(0)) {
      for (const digit of DIGITS) {
        const name = prefix + digit;
        short.push(name);
        if (!known.has(name) && decode.decodeHTMLStrict(`&${name};`) !== `&${name};`) problems.push(`&${name}; decodes but is not in the table`);
      }
    }
  }
  const count = references.length + references.filter((reference) => reference.legacy).length;
  if (count !== EXPECTED_REFERENCES) problems.push(`${count} references, not ${EXPECTED_REFERENCES}`);
  return problems;
}

/**
 * A whole number as digits: the last from DIGITS (base 62), those before it from MARKS (bijective base 28),
 * so that each number ends itself. Numbers below 62 take one character.
 */
function encodeNumber(number: number): string {
  let text = DIGITS[number % DIGITS.length]!;
  for (let rest = Math.floor(number / DIGITS.length); rest > 0; rest = Math.floor((rest - 1) / MARKS.length)) {
    text = MARKS[(rest - 1) % MARKS.length]! + text;
  }
  return text;
}

/**
 * The distinct values in code point order as `encodeNumber`s: 2k + 1 for k values, each one code point after
 * the previous; else 4 * (step from the previous value's first code point) + 2 if a second code point follows
 * (written next, as a number of its own).
 */
function encodeValues(values: readonly string[]): string {
  const points = values.map((value) => [...value].map((character) => character.codePointAt(0)!));
  let previous = 0;
  let text = "";
  for (let index = 0; index < points.length; ) {
    let run = 0;
    while (points[index + run]?.length === 1 && points[index + run]![0] === previous + run + 1) run++;
    if (run > 0) {
      text += encodeNumber(run * 2 + 1);
      previous += run;
      index += run;
      continue;
    }
    const [first, second] = points[index++]!;
    text += encodeNumber((first! - previous) * 4 + (second === undefined ? 0 : 2));
    if (second !== undefined) text += encodeNumber(second);
    previous = first!;
  }
  return text;
}

/** The rest of each name after the characters it shares with the name before (at most `longestShared` of them). */
function suffixes(references: readonly NamedReference[], longestShared: number): string[] {
  return references.map(({ name }, index) => {
    const previous = references[index - 1]?.name ?? "";
    let shared = 0;
    while (shared < Math.min(previous.length, longestShared) && name[shared] === previous[shared]) shared++;
    return name.slice(shared);
  });
}

/**
 * Up to `count` words that save the most characters when each is written as one mark in the suffixes, chosen
 * one at a time (the saving counts every occurrence, the longest first on a tie, then the first in code order).
 */
function chooseWords(rests: readonly string[], count: number): string[] {
  const words: string[] = [];
  let current = [...rests];
  while (words.length < count) {
    const occurrences = new Map<string, number>();
    for (const rest of current) {
      for (let start = 0; start < rest.length; start++) {
        for (let end = start + 2; end <= rest.length && rest[end - 1] !== " " && rest[start] !== " "; end++) {
          const word = rest.slice(start, end);
          occurrences.set(word, (occurrences.get(word) ?? 0) + 1);
        }
      }
    }
    const ranked = [...occurrences]
      .map(([word, times]) => ({ word, saving: times * (word.length - 1) }))
      .sort((a, b) => b.saving - a.saving || b.word.length - a.word.length || (a.word < b.word ? -1 : 1));
    const best = ranked[0];
    if (best === undefined || best.saving <= best.word.length + 1) break;
    words.push(best.word);
    // A space stands for a chosen word: no later word spans it.
    current = current.map((rest) => rest.split(best.word).join(" "));
  }
  return words;
}

/**
 * Each name as MARKS[length shared with the name before], the rest of it (each of `words` in it as the mark
 * MARKS[MARKS.length - words.length + its index]), then two DIGITS of (value index * 2 + 1 if legacy).
 */
function encodeNames(references: readonly NamedReference[], valueIndex: ReadonlyMap<string, number>, rests: readonly string[], words: readonly string[]): string {
  let text = "";
  references.forEach(({ name, value, legacy }, index) => {
    const shared = name.length - rests[index]!.length;
    const code = valueIndex.get(value)! * 2 + (legacy ? 1 : 0);
    // src/page/entities.ts keeps the lengths of the names that may omit ";" in 8 bits.
    if (shared >= MARKS.length - words.length || code >= DIGITS.length ** 2 || (legacy && name.length > 7)) throw new Error(`"${name}" does not fit the table's format`);
    let rest = rests[index]!;
    words.forEach((word, wordIndex) => (rest = rest.split(word).join(MARKS[MARKS.length - words.length + wordIndex])));
    text += MARKS[shared]! + rest + DIGITS[Math.floor(code / DIGITS.length)]! + DIGITS[code % DIGITS.length]!;
  });
  return text;
}

function byCodePoints(a: string, b: string): number {
  const [x, y] = [[...a].map((c) => c.codePointAt(0)!), [...b].map((c) => c.codePointAt(0)!)];
  return x[0]! - y[0]! || (x[1] ?? -1) - (y[1] ?? -1);
}

/**
 * How many MARKS stand for shared lengths and how many for words: the split that writes the names shortest
 * (a cap on the shared length costs the few names that share more, each word saves at every occurrence).
 */
function namesLayout(references: readonly NamedReference[]): { rests: string[]; words: string[] } {
  let best: { rests: string[]; words: string[]; length: number } | null = null;
  for (let longestShared = MARKS.length - 1; longestShared >= 1; longestShared--) {
    const rests = suffixes(references, longestShared);
    const words = chooseWords(rests, MARKS.length - longestShared - 1);
    let length = words.join(" ").length;
    for (const rest of rests) length += 1 + words.reduce((text, word) => text.split(word).join(" "), rest).length;
    if (best === null || length < best.length) best = { rests, words, length };
  }
  return best!;
}

/** The text of src/page/entity-table.ts. */
export function tableSource(references: readonly NamedReference[]): string {
  const values = [...new Set(references.map((reference) => reference.value))].sort(byCodePoints);
  const valueIndex = new Map(values.map((value, index) => [value, index]));
  const { rests, words } = namesLayout(references);
  const legacy = references.filter((reference) => reference.legacy).length;
  return `// Generated by \`npm run entities:generate\` (scripts/generate-entities.ts) from the \`entities\` package: do not edit.
/**
 * The ${(references.length + legacy).toLocaleString("en")} HTML5 named character references: ${references.length.toLocaleString("en")} names, ${legacy} of which may also omit their ";".
 * ASCII that needs no escape in a string literal. Numbers are written with ENTITY_DIGITS (base 62) for their
 * last digit and ENTITY_MARKS (bijective base 28) for the digits before, so that each ends itself.
 *
 * ENTITY_VALUES: the ${values.length.toLocaleString("en")} distinct values in code point order, as numbers: 2k + 1 for k values,
 * each one code point after the previous; else 4 * (step from the previous value's first code point), plus 2
 * if a second code point follows (written next, as a number of its own).
 * ENTITY_NAMES: the names in code unit order, each as ENTITY_MARKS[number of first characters shared with the
 * name before], the rest of the name, then two ENTITY_DIGITS (base 62) of value index * 2 + 1 if legacy. In
 * the rest, the last ${words.length} ENTITY_MARKS stand for the ENTITY_WORDS, in order.
 */
export const ENTITY_DIGITS = "${DIGITS}";
export const ENTITY_MARKS = "${MARKS}";
export const ENTITY_WORDS = "${words.join(" ")}";
export const ENTITY_VALUES = "${encodeValues(values)}";
export const ENTITY_NAMES =
  "${encodeNames(references, valueIndex, rests, words)}";
`;
}

/** The references, checked: those of the package's table, each confirmed through its decoder (throws if not). */
export async function checkedReferences(): Promise<NamedReference[]> {
  const { data, remap, decode } = await loadPackage();
  const references = namesOfPackage(data, remap);
  const problems = checkAgainstDecoder(references, decode);
  if (problems.length > 0) throw new Error(`the entities package disagrees with its table: ${problems.slice(0, 5).join("; ")}`);
  return references;
}

async function main(): Promise<number> {
  const { values } = parseCommand(COMMAND, { options: { check: { type: "boolean" } } });
  const references = await checkedReferences();
  const source = tableSource(references);
  if (values.check) {
    const same = readFileSync(TABLE_FILE, "utf8") === source;
    console.log(same ? "src/page/entity-table.ts is up to date" : "src/page/entity-table.ts differs from what npm run entities:generate writes");
    return same ? 0 : 1;
  }
  writeFileSync(TABLE_FILE, source);
  const { decodeEntities } = await import("../src/page/index");
  const wrong = references.filter(({ name, value }) => decodeEntities(`&${name};`, 0, name.length + 2) !== value);
  if (wrong.length > 0) throw new Error(`the written table decodes ${wrong.length} names wrongly, e.g. &${wrong[0]!.name};`);
  const legacy = references.filter((reference) => reference.legacy).length;
  console.log(`wrote src/page/entity-table.ts: ${references.length} names (${legacy} legacy, ${references.length + legacy} references), ${source.length} characters`);
  return 0;
}

// Run as a script; imported (by the tests), it only lends its functions.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) await runCommand(COMMAND, main);
