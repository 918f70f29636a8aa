/**
 * The CSS selector subset that rules and requests may use, parsed and validated. It is the part of what
 * HTMLRewriter (lol-html) supports that picks template containers by their markup:
 *   *  E  #id  .class  [attr]  [attr=v]  [attr~=v]  [attr^=v]  [attr$=v]  [attr*=v]
 *   descendant (A B) and child (A > B) combinators, and selector lists (A, B).
 * Values are identifiers or quoted strings. Everything else (pseudo-classes, sibling combinators, |=,
 * case flags, namespaces, escapes) is refused with a reason, never guessed. One left-to-right pass over at
 * most SELECTOR_MAX_LENGTH characters: linear on any input.
 */
import { SELECTOR_MAX_ALTERNATIVES, SELECTOR_MAX_LENGTH, SELECTOR_MAX_STEPS, SELECTOR_MAX_TESTS } from "../config";

/** Attribute operators (AttributeTest.operator). */
export const ATTRIBUTE_PRESENT = 0; // [attr]
export const ATTRIBUTE_EQUALS = 1; // [attr=v]
export const ATTRIBUTE_INCLUDES = 2; // [attr~=v]: one of its white-space-separated words is v
export const ATTRIBUTE_PREFIX = 3; // [attr^=v]
export const ATTRIBUTE_SUFFIX = 4; // [attr$=v]
export const ATTRIBUTE_SUBSTRING = 5; // [attr*=v]

export interface AttributeTest {
  /** Lower-case attribute name (attribute names ignore case in HTML). */
  readonly name: string;
  readonly operator: number;
  /** Compared case-sensitively with the attribute's value as written. */
  readonly value: string;
}

/** One compound selector: all of its tests hold for one element. */
export interface SelectorStep {
  /** Lower-case element name, or null for any element ("*" or none written). */
  readonly tag: string | null;
  readonly ids: readonly string[];
  readonly classes: readonly string[];
  readonly attributes: readonly AttributeTest[];
  /** The combinator before this step: true for ">" (child of the previous step's element), false for descendant. */
  readonly childOf: boolean;
}

/** One selector: its steps from the outermost element (first) to the element it selects (last). */
export interface ComplexSelector {
  readonly steps: readonly SelectorStep[];
}

/** A parsed selector list, with the text it was read from. */
export interface SelectorList {
  readonly source: string;
  readonly selectors: readonly ComplexSelector[];
}

export type SelectorParse = { readonly ok: true; readonly list: SelectorList } | { readonly ok: false; readonly reason: string };

const OPERATORS: Readonly<Record<string, number>> = { "=": ATTRIBUTE_EQUALS, "~=": ATTRIBUTE_INCLUDES, "^=": ATTRIBUTE_PREFIX, "$=": ATTRIBUTE_SUFFIX, "*=": ATTRIBUTE_SUBSTRING };

const SIBLINGS_REFUSED = "sibling combinators (+, ~) are not supported";
/** Why a character (or the |= operator) cannot stand where it stands, for the ones people try. */
const REFUSALS: Readonly<Record<string, string>> = {
  ":": "pseudo-classes and pseudo-elements (:not, :nth-child, ::before…) are not supported",
  "+": SIBLINGS_REFUSED,
  "~": SIBLINGS_REFUSED,
  "\\": "escapes (\\) are not supported",
  "|": "namespaces (ns|name) are not supported",
  "&": "nesting (&) is not supported",
  "(": "functions are not supported",
  "|=": "the |= operator is not supported",
};

class ParseError extends Error {}

/** Parses a selector list; a refusal says what is wrong and where (1-based column). */
export function parseSelector(text: string): SelectorParse {
  if (text.length > SELECTOR_MAX_LENGTH) return { ok: false, reason: `the selector is ${text.length} characters long, over the limit of ${SELECTOR_MAX_LENGTH}` };
  try {
    const selectors = new Reader(text).list();
    return { ok: true, list: { source: text, selectors } };
  } catch (error) {
    if (error instanceof ParseError) return { ok: false, reason: error.message };
    throw error;
  }
}

function isNameCode(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 45 || code === 95 || code >= 0x80;
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 12 || code === 13;
}

class Reader {
  private position = 0;

  constructor(private readonly text: string) {}

  private fail(message: string, at = this.position): never {
    throw new ParseError(`${message} (at column ${at + 1} of ${JSON.stringify(this.text)})`);
  }

  private code(): number {
    return this.position < this.text.length ? this.text.charCodeAt(this.position) : -1;
  }

  private skipSpace(): boolean {
    const start = this.position;
    while (isSpace(this.code())) this.position++;
    return this.position > start;
  }

  list(): ComplexSelector[] {
    const selectors: ComplexSelector[] = [];
    for (;;) {
      this.skipSpace();
      if (selectors.length === SELECTOR_MAX_ALTERNATIVES) this.fail(`more than ${SELECTOR_MAX_ALTERNATIVES} selectors in one list`);
      selectors.push(this.complex());
      if (this.position >= this.text.length) return selectors;
      this.position++; // the "," complex() stopped at
    }
  }

  private complex(): ComplexSelector {
    const steps: SelectorStep[] = [];
    let childOf = false;
    for (;;) {
      if (steps.length === SELECTOR_MAX_STEPS) this.fail(`more than ${SELECTOR_MAX_STEPS} steps in one selector`);
      steps.push(this.compound(childOf));
      const spaced = this.skipSpace();
      const code = this.code();
      if (code === -1 || code === 44) {
        if (code === 44 && this.text.slice(this.position + 1).trim() === "") this.fail("a selector list ends with a comma");
        return { steps };
      }
      if (code === 62) {
        this.position++;
        this.skipSpace();
        childOf = true;
      } else if (REFUSALS[this.text[this.position]] !== undefined) this.fail(REFUSALS[this.text[this.position]]);
      else if (spaced) childOf = false;
      else this.fail(`unexpected ${JSON.stringify(this.text[this.position])}`);
    }
  }

  private compound(childOf: boolean): SelectorStep {
    const start = this.position;
    let tag: string | null = null;
    const ids: string[] = [];
    const classes: string[] = [];
    const attributes: AttributeTest[] = [];
    if (this.code() === 42) this.position++;
    else if (isNameCode(this.code())) tag = this.identifier("an element name").toLowerCase();
    if (this.code() === 124) this.fail(REFUSALS["|"]);
    for (;;) {
      const code = this.code();
      if (code === 35) {
        this.position++;
        ids.push(this.identifier("an id after #"));
      } else if (code === 46) {
        this.position++;
        classes.push(this.identifier("a class name after ."));
      } else if (code === 91) attributes.push(this.attribute());
      else break;
      if (ids.length + classes.length + attributes.length > SELECTOR_MAX_TESTS) this.fail(`more than ${SELECTOR_MAX_TESTS} tests in one step`);
    }
    if (this.position === start) {
      const character = this.text[this.position];
      if (character === undefined || character === "," || character === ">") this.fail("a selector is missing");
      this.fail(REFUSALS[character] ?? `unexpected ${JSON.stringify(character)}`);
    }
    const after = this.text[this.position];
    if (after !== undefined && REFUSALS[after] !== undefined) this.fail(REFUSALS[after]);
    return { tag, ids, classes, attributes, childOf };
  }

  /** A CSS identifier: name characters, not starting with a digit (nor with "-" and a digit). */
  private identifier(what: string): string {
    const start = this.position;
    while (isNameCode(this.code())) this.position++;
    const name = this.text.slice(start, this.position);
    if (name === "") this.fail(this.code() === 92 ? REFUSALS["\\"] : `expected ${what}`);
    if (/^-?[0-9]/.test(name) || name === "-") this.fail(`${JSON.stringify(name)} is not an identifier (it may not start with a digit)`, start);
    if (this.code() === 92) this.fail(REFUSALS["\\"]);
    return name;
  }

  private attribute(): AttributeTest {
    const open = this.position++;
    this.skipSpace();
    const name = this.identifier("an attribute name").toLowerCase();
    if (this.code() === 124) this.fail(REFUSALS[this.text[this.position + 1] === "=" ? "|=" : "|"]);
    this.skipSpace();
    if (this.code() === 93) {
      this.position++;
      return { name, operator: ATTRIBUTE_PRESENT, value: "" };
    }
    const two = this.text.slice(this.position, this.position + 2);
    const operatorText = this.code() === 61 ? "=" : two[1] === "=" ? two : "";
    const operator = OPERATORS[operatorText];
    if (operator === undefined) this.fail(two === "|=" ? REFUSALS["|="] : `expected ], =, ~=, ^=, $= or *= in the attribute test opened at column ${open + 1}`);
    this.position += operatorText.length;
    this.skipSpace();
    const value = this.value();
    this.skipSpace();
    if (this.code() !== 93) {
      if (isNameCode(this.code())) this.fail("attribute flags (i, s) are not supported");
      this.fail(`expected ] to close the attribute test opened at column ${open + 1}`);
    }
    this.position++;
    return { name, operator, value };
  }

  private value(): string {
    const quote = this.code();
    if (quote !== 34 && quote !== 39) return this.identifier("a value (an identifier or a quoted string)");
    const start = this.position + 1;
    const end = this.text.indexOf(quote === 34 ? '"' : "'", start);
    if (end < 0) this.fail("an unclosed quoted value");
    const value = this.text.slice(start, end);
    if (value.includes("\\")) this.fail(REFUSALS["\\"], start + value.indexOf("\\"));
    if (/[\n\r\f]/.test(value)) this.fail("a line break in a quoted value");
    this.position = end + 1;
    return value;
  }
}

/** Several lists as one (their selectors in order, sources joined by ", "); null for none. */
export function joinSelectorLists(lists: readonly SelectorList[]): SelectorList | null {
  if (lists.length === 0) return null;
  if (lists.length === 1) return lists[0];
  return { source: lists.map((list) => list.source).join(", "), selectors: lists.flatMap((list) => list.selectors) };
}
