/**
 * Reading the html5lib tree-construction suite (.dat files) in place, and the text a browser renders from an
 * expected tree, joined the way our text writer joins text: text nodes in document order, a separator where
 * a block starts or ends, white space collapsed. What is not rendered is left out: script, style, title,
 * textarea and iframe content, template contents, noscript (scripting on, as pass 1 reads it), svg text
 * outside <text>, svg desc/title and MathML annotations.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { FLAG_BLOCK, TAG_FLAGS, tagId } from "../../src/page/index";

/** The suite sits beside the repository as ../shared/html5lib-tests; it is read in place, never copied. */
export const HTML5LIB_ROOT = resolve(import.meta.dirname, "../../../shared/html5lib-tests");

export function hasHtml5libTests(): boolean {
  return existsSync(join(HTML5LIB_ROOT, "tree-construction"));
}

export interface TreeTest {
  readonly file: string;
  /** 1-based ordinal of the test in its file. */
  readonly index: number;
  readonly data: string;
  /** Lines of the expected document tree, "| " prefixes included. */
  readonly document: readonly string[];
  /** Fragment tests parse in an element's context, not as a page. */
  readonly fragment: boolean;
  /** "off" for tests that hold only with scripting off (pass 1 reads <noscript> as scripting on does). */
  readonly scripting: "on" | "off" | "both";
}

/** Every test of every .dat file in tree-construction/ (not the scripted/ subfolder). */
export function readTreeTests(): TreeTest[] {
  const folder = join(HTML5LIB_ROOT, "tree-construction");
  const tests: TreeTest[] = [];
  for (const file of readdirSync(folder).filter((name) => name.endsWith(".dat")).sort()) {
    tests.push(...parseDat(file, readFileSync(join(folder, file), "utf8")));
  }
  return tests;
}

function parseDat(file: string, content: string): TreeTest[] {
  const lines = content.split("\n");
  const tests: TreeTest[] = [];
  let line = 0;
  while (line < lines.length) {
    if (lines[line] !== "#data") {
      line++;
      continue;
    }
    const dataLines: string[] = [];
    for (line++; line < lines.length && lines[line] !== "#errors"; line++) dataLines.push(lines[line]);
    let fragment = false;
    let scripting: TreeTest["scripting"] = "both";
    const document: string[] = [];
    // Sections up to #document; the document runs to a blank line that comes before the next #data.
    for (; line < lines.length && lines[line] !== "#document"; line++) {
      if (lines[line] === "#document-fragment") fragment = true;
      if (lines[line] === "#script-off") scripting = "off";
      if (lines[line] === "#script-on") scripting = "on";
    }
    for (line++; line < lines.length; line++) {
      if (lines[line] === "" && (line + 1 >= lines.length || lines[line + 1] === "#data")) break;
      document.push(lines[line]);
    }
    tests.push({ file, index: tests.length + 1, data: dataLines.join("\n"), document, fragment, scripting });
  }
  return tests;
}

interface TreeNode {
  readonly depth: number;
  /** "element", "text", "content" (template contents) or "other" (comment, doctype, attribute). */
  readonly kind: "element" | "text" | "content" | "other";
  readonly name: string;
  readonly namespace: "html" | "svg" | "math";
  readonly text: string;
  /** An element no reader sees (classify/hidden.ts, which clean() applies in every mode): the attribute hidden, aria-hidden="true", an inline style that hides, a <dialog> not open. */
  readonly hidden?: boolean;
}

/** An attribute line of an expected tree: name="value". */
const ATTRIBUTE_LINE = /^([^=\s]+)="([\s\S]*)"$/;
const HIDING_STYLE = /(?:^|[;\s])(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!important\s*)?(?:;|$)/i;

/** Whether an HTML element with these attributes is hidden from readers, as classify/hidden.ts reads it. */
function hiddenFromReaders(name: string, attributes: ReadonlyMap<string, string>): boolean {
  if (name === "dialog") return !attributes.has("open");
  const hidden = attributes.get("hidden");
  if (hidden !== undefined && hidden.trim().toLowerCase() !== "until-found") return true;
  return attributes.get("aria-hidden")?.trim().toLowerCase() === "true" || HIDING_STYLE.test(attributes.get("style") ?? "");
}

/** The nodes of an expected tree in document order (multi-line text and comments joined). */
function parseTree(lines: readonly string[]): TreeNode[] {
  const raw: { depth: number; body: string }[] = [];
  for (const line of lines) {
    if (line.startsWith("| ")) {
      const body = line.slice(2);
      const indent = body.length - body.trimStart().length;
      raw.push({ depth: indent / 2, body: body.slice(indent) });
    } else if (raw.length > 0) raw[raw.length - 1].body += `\n${line}`;
  }
  const nodes = raw.map(({ depth, body }): TreeNode => {
    if (body.startsWith('"') && body.endsWith('"') && body.length >= 2) return { depth, kind: "text", name: "", namespace: "html", text: body.slice(1, -1) };
    if (body === "content") return { depth, kind: "content", name: "", namespace: "html", text: "" };
    if (body.startsWith("<!") || body.startsWith("<?") || !body.startsWith("<")) return { depth, kind: "other", name: "", namespace: "html", text: body };
    const inner = body.slice(1, -1);
    const space = inner.indexOf(" ");
    const prefix = space < 0 ? "" : inner.slice(0, space);
    if (prefix === "svg" || prefix === "math") return { depth, kind: "element", name: inner.slice(space + 1), namespace: prefix, text: "" };
    return { depth, kind: "element", name: inner, namespace: "html", text: "" };
  });
  return nodes.map((node, index) => {
    if (node.kind !== "element" || node.namespace !== "html") return node;
    const attributes = new Map<string, string>();
    for (let next = index + 1; next < nodes.length && nodes[next].kind === "other" && nodes[next].depth === node.depth + 1; next++) {
      const match = ATTRIBUTE_LINE.exec(nodes[next].text);
      if (match !== null) attributes.set(match[1], match[2]);
    }
    return hiddenFromReaders(node.name, attributes) ? { ...node, hidden: true } : node;
  });
}

/** HTML elements whose content a browser does not render as text (scripting on). */
const HIDDEN_HTML = new Set(["script", "style", "title", "textarea", "iframe", "noembed", "noframes", "noscript", "template", "head"]);
const SVG_TEXT = new Set(["text", "tspan", "textPath"]);

/** Whether text directly inside the element path `ancestors` (root first) is rendered. */
function rendered(ancestors: readonly TreeNode[]): boolean {
  let inSvg = false;
  let svgText = false;
  for (const node of ancestors) {
    if (node.kind === "content") return false;
    if (node.kind !== "element") continue;
    if (node.namespace === "html") {
      if (HIDDEN_HTML.has(node.name) || node.hidden === true) return false;
      inSvg = false;
    } else if (node.namespace === "svg") {
      if (node.name === "desc" || node.name === "title") return false;
      if (node.name === "foreignObject") inSvg = svgText = false;
      else {
        if (node.name === "svg" && !inSvg) svgText = false;
        inSvg = true;
        svgText ||= SVG_TEXT.has(node.name);
      }
    } else {
      if (node.name === "annotation" || node.name === "annotation-xml") return false;
      inSvg = false;
    }
  }
  return !inSvg || svgText;
}

/** The rendered text of an expected tree: block starts and ends and <br> separate, white space collapsed. */
export function expectedText(document: readonly string[]): string {
  const path: TreeNode[] = [];
  let text = "";
  for (const node of parseTree(document)) {
    while (path.length > node.depth) if (separates(path.pop() as TreeNode)) text += " ";
    if (node.kind === "element" || node.kind === "content") {
      path.push(node);
      if (separates(node) || (node.namespace === "html" && node.name === "br")) text += " ";
      continue;
    }
    if (node.kind === "other") {
      path.push(node);
      continue;
    }
    if (rendered(path)) text += node.text;
    path.push(node);
  }
  return collapse(text);
}

/** A block element: its start and end separate the text before and after it. */
function separates(node: TreeNode): boolean {
  return node.kind === "element" && node.namespace === "html" && (TAG_FLAGS[tagId(node.name)] & FLAG_BLOCK) !== 0;
}

/** White space runs to one space, trimmed (the comparison ignores which kind of separator stands where). */
export function collapse(text: string): string {
  return text.replace(/[\s\u00a0]+/g, " ").trim();
}
