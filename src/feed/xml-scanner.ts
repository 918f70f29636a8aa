/**
 * A small, lenient XML scanner for feeds: one pass over the string with indexOf, reporting start and end
 * tags by offset. Comments, processing instructions, CDATA sections and doctypes are skipped as units, so
 * markup inside them is never mistaken for tags. No per-token objects: the handler gets offsets and reads
 * what it needs from the source.
 */

export interface XmlHandler {
  /** A start tag `<name …>` or `<name …/>`: [start, end) is the whole tag, the name ends at nameEnd. */
  startTag(start: number, nameEnd: number, end: number, selfClosing: boolean): void;
  /** An end tag `</name>`: [start, end) is the whole tag, the name runs from start + 2 to nameEnd. */
  endTag(start: number, nameEnd: number, end: number): void;
}

const GREATER_THAN = 0x3e; // >
const SLASH = 0x2f; // /
const BANG = 0x21; // !
const QUESTION = 0x3f; // ?
const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;
const OPEN_BRACKET = 0x5b; // [
const CLOSE_BRACKET = 0x5d; // ]

/** Scans the whole string; returns false if it ended inside an unterminated construct (malformed input). */
export function scanXml(source: string, handler: XmlHandler): boolean {
  let position = source.indexOf("<");
  while (position >= 0 && position < source.length) {
    const next = source.charCodeAt(position + 1);
    let end: number;
    if (next === BANG) end = skipDeclaration(source, position);
    else if (next === QUESTION) end = skipPast(source, position + 2, "?>");
    else if (next === SLASH) end = scanEndTag(source, position, handler);
    else if (isNameStart(next)) end = scanStartTag(source, position, handler);
    else end = position + 1; // a stray "<" in text (malformed): skip it
    if (end < 0) return false;
    position = source.indexOf("<", end);
  }
  return true;
}

/** `<!-- … -->`, `<![CDATA[ … ]]>`, `<!DOCTYPE … [ … ]>`: offset just after it, or -1. */
function skipDeclaration(source: string, start: number): number {
  if (source.startsWith("<!--", start)) return skipPast(source, start + 4, "-->");
  if (source.startsWith("<![CDATA[", start)) return skipPast(source, start + 9, "]]>");
  let position = start + 2;
  let bracketDepth = 0;
  while (position < source.length) {
    const code = source.charCodeAt(position);
    if (code === OPEN_BRACKET) bracketDepth++;
    else if (code === CLOSE_BRACKET) bracketDepth--;
    else if (code === GREATER_THAN && bracketDepth <= 0) return position + 1;
    position++;
  }
  return -1;
}

function skipPast(source: string, from: number, terminator: string): number {
  const at = source.indexOf(terminator, from);
  return at < 0 ? -1 : at + terminator.length;
}

function scanStartTag(source: string, start: number, handler: XmlHandler): number {
  const nameEnd = endOfName(source, start + 1);
  const end = endOfTag(source, nameEnd);
  if (end < 0) return -1;
  const selfClosing = source.charCodeAt(end - 2) === SLASH;
  handler.startTag(start, nameEnd, end, selfClosing);
  return end;
}

function scanEndTag(source: string, start: number, handler: XmlHandler): number {
  const nameEnd = endOfName(source, start + 2);
  const end = source.indexOf(">", nameEnd);
  if (end < 0) return -1;
  handler.endTag(start, nameEnd, end + 1);
  return end + 1;
}

/** Offset just after the ">" closing a tag, skipping quoted attribute values; -1 if unterminated. */
function endOfTag(source: string, from: number): number {
  let position = from;
  while (position < source.length) {
    const code = source.charCodeAt(position);
    if (code === GREATER_THAN) return position + 1;
    if (code === DOUBLE_QUOTE || code === SINGLE_QUOTE) {
      const close = source.indexOf(code === DOUBLE_QUOTE ? '"' : "'", position + 1);
      if (close < 0) return -1;
      position = close + 1;
    } else {
      position++;
    }
  }
  return -1;
}

function endOfName(source: string, from: number): number {
  let position = from;
  while (position < source.length && isNameCharacter(source.charCodeAt(position))) position++;
  return position;
}

function isNameStart(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || code === 0x5f || code === 0x3a || code > 0x7f;
}

function isNameCharacter(code: number): boolean {
  return isNameStart(code) || (code >= 0x30 && code <= 0x39) || code === 0x2d || code === 0x2e;
}

/** The value of attribute `name` in a start tag [tagStart, tagEnd), entities decoded; null if absent. */
export function readAttribute(source: string, tagStart: number, tagEnd: number, name: string): string | null {
  let position = endOfName(source, tagStart + 1);
  while (position < tagEnd) {
    const code = source.charCodeAt(position);
    if (!isNameStart(code)) {
      position++;
      continue;
    }
    const attributeEnd = endOfName(source, position);
    const attributeName = source.slice(position, attributeEnd);
    let cursor = attributeEnd;
    while (cursor < tagEnd && source.charCodeAt(cursor) <= 0x20) cursor++;
    if (source.charCodeAt(cursor) !== 0x3d) {
      position = cursor;
      continue;
    }
    cursor++;
    while (cursor < tagEnd && source.charCodeAt(cursor) <= 0x20) cursor++;
    const quote = source.charCodeAt(cursor);
    const valueStart = quote === DOUBLE_QUOTE || quote === SINGLE_QUOTE ? cursor + 1 : cursor;
    const valueEnd = valueStart === cursor ? endOfUnquoted(source, cursor, tagEnd) : source.indexOf(source[cursor], valueStart);
    if (valueEnd < 0 || valueEnd > tagEnd) return null;
    if (attributeName === name) return decodeXmlEntities(source.slice(valueStart, valueEnd));
    position = valueEnd + 1;
  }
  return null;
}

function endOfUnquoted(source: string, from: number, limit: number): number {
  let position = from;
  while (position < limit) {
    const code = source.charCodeAt(position);
    if (code <= 0x20 || code === GREATER_THAN || code === SLASH) break;
    position++;
  }
  return position;
}

const PREDEFINED_ENTITIES: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
const ENTITY = /&(#[0-9]+|#x[0-9a-fA-F]+|amp|lt|gt|quot|apos);/g;

/** Decodes XML's predefined and numeric character references; anything else is left as it is. */
export function decodeXmlEntities(text: string): string {
  if (text.indexOf("&") < 0) return text;
  return text.replace(ENTITY, (whole, body: string) => {
    if (body.charCodeAt(0) !== 0x23) return PREDEFINED_ENTITIES[body];
    const code = body.charCodeAt(1) === 0x78 ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/**
 * Character data of an element's content [start, end): CDATA sections verbatim, text with entities
 * decoded, comments dropped, and child markup (found in sloppy feeds) kept as it is.
 */
export function readCharacterData(source: string, start: number, end: number): string {
  let result = "";
  let position = start;
  while (position < end) {
    const open = source.indexOf("<", position);
    if (open < 0 || open >= end) {
      result += decodeXmlEntities(source.slice(position, end));
      break;
    }
    result += decodeXmlEntities(source.slice(position, open));
    if (source.startsWith("<![CDATA[", open)) {
      const close = source.indexOf("]]>", open + 9);
      const stop = close < 0 || close > end ? end : close;
      result += source.slice(open + 9, stop);
      position = stop === end ? end : stop + 3;
    } else if (source.startsWith("<!--", open)) {
      const close = source.indexOf("-->", open + 4);
      position = close < 0 || close > end ? end : close + 3;
    } else {
      const close = source.indexOf(">", open);
      const stop = close < 0 || close >= end ? end : close + 1;
      result += source.slice(open, stop);
      position = stop;
    }
  }
  return result;
}
