/**
 * XPath to CSS for imported site configs (Full-Text RSS `body:`, `strip:`…): only the forms that mean the same as a
 * selector HTMLRewriter runs are converted; anything else is reported, never guessed.
 *   //tag, //*, //a//b (descendant), //a/b (child), a | b (a selector list);
 *   predicates, alone or joined by "and": @id='x' (#x), @attr='v' ([attr="v"]), @attr ([attr]),
 *   contains(@attr,'v') ([attr*="v"]), starts-with(@attr,'v') ([attr^="v"]),
 *   contains(concat(' ',normalize-space(@class),' '),' v ') (.v).
 */
export type XPathConversion = { readonly ok: true; readonly selector: string } | { readonly ok: false; readonly reason: string };

const NAME = /^(?:\*|[A-Za-z][A-Za-z0-9-]*)/;
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const QUOTED = `(?:'([^']*)'|"([^"]*)")`;
/** Each predicate form and its selector, from the match (quoted values are in either of two groups). */
const PREDICATES: ReadonlyArray<[RegExp, (match: RegExpExecArray) => string]> = [
  [new RegExp(`^contains\\(\\s*concat\\(\\s*' '\\s*,\\s*normalize-space\\(\\s*@class\\s*\\)\\s*,\\s*' '\\s*\\)\\s*,\\s*${QUOTED}\\s*\\)$`), (match) => classSelector(match[1] ?? match[2])],
  [new RegExp(`^@([A-Za-z][A-Za-z0-9_:-]*)\\s*=\\s*${QUOTED}$`), (match) => {
    const value = match[2] ?? match[3];
    return match[1] === "id" && IDENTIFIER.test(value) ? `#${value}` : `[${match[1]}="${escape(value)}"]`;
  }],
  [new RegExp(`^contains\\(\\s*@([A-Za-z][A-Za-z0-9_:-]*)\\s*,\\s*${QUOTED}\\s*\\)$`), (match) => `[${match[1]}*="${escape(match[2] ?? match[3])}"]`],
  [new RegExp(`^starts-with\\(\\s*@([A-Za-z][A-Za-z0-9_:-]*)\\s*,\\s*${QUOTED}\\s*\\)$`), (match) => `[${match[1]}^="${escape(match[2] ?? match[3])}"]`],
  [/^@([A-Za-z][A-Za-z0-9_:-]*)$/, (match) => `[${match[1]}]`],
];

function escape(value: string): string {
  return value.replace(/["\\]/g, "\\$&");
}

/** " v " (one class token between spaces) → ".v"; anything else cannot be a class token. */
function classSelector(value: string): string {
  const token = value.trim();
  return value === ` ${token} ` && IDENTIFIER.test(token) ? `.${token}` : "";
}

export function xpathToCss(xpath: string): XPathConversion {
  const alternatives = splitTopLevel(xpath.trim(), "|");
  const selectors: string[] = [];
  for (const alternative of alternatives) {
    const converted = convertPath(alternative.trim());
    if (!converted.ok) return converted;
    selectors.push(converted.selector);
  }
  return { ok: true, selector: selectors.join(", ") };
}

function convertPath(path: string): XPathConversion {
  if (!path.startsWith("//")) return { ok: false, reason: `only paths from anywhere in the page ("//…") map to selectors: ${path}` };
  let rest = path.slice(2);
  let selector = "";
  let combinator = "";
  while (rest !== "") {
    const name = NAME.exec(rest);
    if (name === null) return { ok: false, reason: `a step that is not an element name: ${rest}` };
    rest = rest.slice(name[0].length);
    if (rest.startsWith("(")) return { ok: false, reason: `a function with no selector equivalent: ${name[0]}(${rest.slice(1)}` };
    let step = name[0] === "*" ? "" : name[0].toLowerCase();
    while (rest.startsWith("[")) {
      const end = closingBracket(rest);
      if (end < 0) return { ok: false, reason: `an unclosed predicate: ${rest}` };
      for (const part of splitTopLevel(rest.slice(1, end), " and ")) {
        const converted = convertPredicate(part.trim());
        if (converted === null) return { ok: false, reason: `a predicate with no selector equivalent: [${part.trim()}]` };
        step += converted;
      }
      rest = rest.slice(end + 1);
    }
    selector += combinator + (step === "" ? "*" : step);
    if (rest.startsWith("//")) combinator = " ";
    else if (rest.startsWith("/")) combinator = " > ";
    else if (rest !== "") return { ok: false, reason: `an axis or function with no selector equivalent: ${rest}` };
    rest = rest.replace(/^\/\/?/, "");
  }
  return selector === "" ? { ok: false, reason: "an empty path" } : { ok: true, selector };
}

function convertPredicate(predicate: string): string | null {
  for (const [pattern, write] of PREDICATES) {
    const match = pattern.exec(predicate);
    if (match === null) continue;
    const written = write(match);
    return written === "" ? null : written;
  }
  return null;
}

/** Index of the "]" closing the "[" at 0, quotes respected; -1 if none. */
function closingBracket(text: string): number {
  let depth = 0;
  let quote = "";
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index];
    if (quote !== "") {
      if (character === quote) quote = "";
    } else if (character === "'" || character === '"') quote = character;
    else if (character === "[") depth += 1;
    else if (character === "]" && --depth === 0) return index;
  }
  return -1;
}

/** Splits on `separator` outside quotes, brackets and parentheses. */
function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = "";
  let start = 0;
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index];
    if (quote !== "") {
      if (character === quote) quote = "";
    } else if (character === "'" || character === '"') quote = character;
    else if (character === "[" || character === "(") depth += 1;
    else if (character === "]" || character === ")") depth -= 1;
    else if (depth === 0 && text.startsWith(separator, index)) {
      parts.push(text.slice(start, index));
      start = index + separator.length;
      index = start - 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}
