// The dependency rules of the source tree (design.md, "Layout"): no import cycles among src/ files; a module
// (a folder of src/) is entered only through its index.ts; the cleaning core imports no Node module and no
// HTTP code, so that it runs the same in workerd and in Node; scripts import no test code, and enter src/ modules
// through their index.ts too.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
/** The cleaning core: what must run in workerd and in Node alike. */
const CORE = ["src/page/", "src/rules/", "src/classify/", "src/plan/", "src/rewrite/", "src/runtime/", "src/clean.ts", "src/work-meter.ts", "src/slices.ts"];
/** Packages the core may not import (besides any `node:` module): the HTTP layer's. */
const HTTP_PACKAGES = /^hono(?:\/|$)/;
interface Import {
  /** Importing file, relative to the repository root with "/" separators. */
  readonly from: string;
  /** The specifier as written. */
  readonly specifier: string;
  /** The file it resolves to (relative to the root), or null for a package. */
  readonly file: string | null;
}

function sourceFiles(folder: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(resolve(ROOT, folder))) {
    const path = `${folder}/${name}`;
    if (statSync(resolve(ROOT, path)).isDirectory()) files.push(...sourceFiles(path));
    else if (name.endsWith(".ts") && !name.endsWith(".d.ts")) files.push(path);
  }
  return files;
}

/** The file a relative specifier names: as written (a .ts, .mjs or .json file), with ".ts", ".js" read as ".ts", or the folder's index.ts. */
function resolveFile(from: string, specifier: string): string {
  const base = resolve(ROOT, dirname(from), specifier);
  const candidates = [base, `${base}.ts`, base.replace(/\.js$/, ".ts"), join(base, "index.ts")];
  const found = candidates.find((candidate) => /\.(?:ts|mjs|json)$/.test(candidate) && existsSync(candidate) && statSync(candidate).isFile());
  if (found === undefined) throw new Error(`${from}: cannot resolve "${specifier}"`);
  return relative(ROOT, found).split(sep).join("/");
}

/** Every import, export-from and dynamic import() of a file, read by TypeScript's own pre-processor (comments and strings skipped). */
function importsOf(file: string): Import[] {
  const info = ts.preProcessFile(readFileSync(resolve(ROOT, file), "utf8"), true, true);
  return info.importedFiles.map(({ fileName: specifier }) => ({
    from: file, specifier, file: specifier.startsWith(".") ? resolveFile(file, specifier) : null,
  }));
}

/** The module of a src/ file: its folder under src/ ("src/page"), or the file itself for files at src/'s top. */
function moduleOf(file: string): string {
  const parts = file.split("/");
  return parts.length > 2 ? `${parts[0]}/${parts[1]}` : file;
}

/** Strongly connected components of more than one file (or a file importing itself), by Tarjan's algorithm. */
function cycles(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (edges.get(node) ?? []).includes(node)) found.push(component.sort());
  };
  for (const node of [...edges.keys()].sort()) if (!index.has(node)) visit(node);
  return found;
}

const srcImports = sourceFiles("src").flatMap(importsOf);

/** What the edge Worker never loads: the miner and the queue consumer (the control Worker's, wrangler.control.toml), and the Full-Text RSS importer (a command's). */
const EDGE_FORBIDDEN = ["src/mining/", "src/consumer/", "src/ftr-import/"];

/** Every src/ file an entry point loads, through imports, re-exports and import() calls. */
function reachableFrom(entry: string): Set<string> {
  const reached = new Set([entry]);
  const pending = [entry];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    for (const edge of srcImports) {
      if (edge.from !== file || edge.file === null || reached.has(edge.file)) continue;
      reached.add(edge.file);
      pending.push(edge.file);
    }
  }
  return reached;
}
const scriptImports = sourceFiles("scripts").flatMap(importsOf);

describe("architecture", () => {
  it("reads the import graph (a file's imports, re-exports and import() calls, resolved)", () => {
    const clean = srcImports.filter((edge) => edge.from === "src/clean.ts");
    expect(clean.map((edge) => edge.file)).toContain("src/page/index.ts");
    expect(srcImports.length).toBeGreaterThan(100);
    const graph = new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a"]], ["d", ["d"]], ["e", ["a"]]]);
    expect(cycles(graph)).toEqual([["a", "b", "c"], ["d"]]);
  });

  it("has no import cycle among src/ files", () => {
    const edges = new Map<string, string[]>();
    for (const edge of srcImports) {
      if (edge.file === null) continue;
      edges.set(edge.from, [...(edges.get(edge.from) ?? []), edge.file]);
    }
    expect(cycles(edges)).toEqual([]);
  });

  it("enters another module only through its index.ts", () => {
    const deep = srcImports.filter(({ from, file }) => {
      if (file === null || !file.startsWith("src/")) return false;
      const target = moduleOf(file);
      return target !== moduleOf(from) && target !== file && file !== `${target}/index.ts`;
    });
    expect(deep.map(({ from, specifier }) => `${from} → ${specifier}`)).toEqual([]);
  });

  it("keeps the entry points out of every other file (the bindings' types come from src/http/shared/bindings.ts)", () => {
    expect(srcImports.filter(({ file }) => file === "src/worker.ts" || file === "src/control.ts").map(({ from, file }) => `${from} → ${file}`)).toEqual([]);
  });

  it("keeps the miner and the queue consumer out of the edge Worker: nothing src/worker.ts reaches imports them", () => {
    const reached = reachableFrom("src/worker.ts");
    expect(reached.has("src/http/index.ts") && reached.has("src/learning/index.ts")).toBe(true);
    expect([...reached].filter((file) => EDGE_FORBIDDEN.some((prefix) => file.startsWith(prefix)))).toEqual([]);
    // The control Worker does reach them, so the check above reads the graph that would show them.
    expect([...reachableFrom("src/control.ts")].filter((file) => EDGE_FORBIDDEN.some((prefix) => file.startsWith(prefix))).length).toBeGreaterThan(5);
  });

  it("keeps the cleaning core free of Node modules and of the HTTP layer", () => {
    const core = srcImports.filter(({ from }) => CORE.some((prefix) => from.startsWith(prefix)));
    expect(core.length).toBeGreaterThan(50);
    const forbidden = core.filter(({ specifier, file }) =>
      specifier.startsWith("node:") || HTTP_PACKAGES.test(specifier) || (file !== null && (file.startsWith("src/http/") || file === "src/worker.ts")));
    expect(forbidden.map(({ from, specifier }) => `${from} → ${specifier}`)).toEqual([]);
  });

  it("keeps test code out of scripts", () => {
    expect(scriptImports.length).toBeGreaterThan(20);
    const fromTests = scriptImports.filter(({ file }) => file !== null && file.startsWith("test/"));
    expect(fromTests.map(({ from, specifier }) => `${from} → ${specifier}`)).toEqual([]);
  });

  it("lets scripts enter a src/ module only through its index.ts, as other modules do", () => {
    const fromScripts = scriptImports.filter(({ file }) => file !== null && file.startsWith("src/"));
    expect(fromScripts.length).toBeGreaterThan(20);
    const deep = fromScripts.filter(({ file }) => file !== moduleOf(file!) && file !== `${moduleOf(file!)}/index.ts`);
    expect(deep.map(({ from, specifier }) => `${from} → ${specifier}`)).toEqual([]);
  });
});
