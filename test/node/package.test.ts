/**
 * The package as a stranger gets it (a gate: npm run test:gates, and so CI): `npm pack` (prepack builds dist/),
 * the tarball installed into an empty folder, then the library from `node -e`, its types from a TypeScript file
 * compiled as Node resolves packages, and the bin on a shipped sample page, from a file and from standard input.
 * The install is offline: its dependencies are packed from the repository's node_modules; no test reaches the
 * registry.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const REPO_ROOT = resolve(import.meta.dirname, "../..");
const SAMPLE = join(REPO_ROOT, "samples", "wrenmouth-gazette.example", "harbour-dredging-approved.html");
const HEADLINE = "Council approves £2.3m dredging of Wrenmouth harbour";
const NAVIGATION = "Community"; // a link of the page's section menu, which cleaning removes
const NPM = process.platform === "win32" ? "npm.cmd" : "npm";

let folder = "";
let app = "";
let files: string[] = [];

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), "edge-cleaner-pack-"));
  const packed = JSON.parse(execFileSync(NPM, ["pack", "--json", "--pack-destination", folder], { cwd: REPO_ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] })) as { filename: string; files: { path: string }[] }[];
  files = packed[0].files.map((file) => file.path);
  app = join(folder, "app");
  mkdirSync(app);
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
  // Its dependencies as packed from the repository's own install (the lock's versions): an offline install finds a
  // dependency's registry metadata in npm's cache only where something once fetched it, which npm ci does not.
  const dependencies = Object.keys((JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { dependencies: Record<string, string> }).dependencies);
  const tarballs = dependencies.map((name) => {
    const [packedDependency] = JSON.parse(execFileSync(NPM, ["pack", "--json", "--pack-destination", folder, join(REPO_ROOT, "node_modules", name)], { cwd: folder, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] })) as { filename: string }[];
    return join(folder, packedDependency.filename);
  });
  execFileSync(NPM, ["install", "--offline", "--no-audit", "--no-fund", join(folder, packed[0].filename), ...tarballs], { cwd: app, stdio: ["ignore", "ignore", "inherit"] });
}, 600_000);

afterAll(() => {
  if (folder !== "") rmSync(folder, { recursive: true, force: true });
});

describe("the packed package", () => {
  it("holds the build, the model and its own files, and no tests, sources, samples or dev data", () => {
    expect(files).toContain("dist/index.js");
    expect(files).toContain("dist/workerd.js");
    expect(files).toContain("dist/scripts/clean.js");
    expect(files).toContain("dist/types/library-node.d.ts");
    expect(files).toContain("rules/model.json");
    expect(files).toContain("LICENSE");
    expect(files).toContain("THIRD_PARTY_NOTICES.md");
    const unexpected = files.filter((path) => !path.startsWith("dist/") && !["package.json", "README.md", "CHANGELOG.md", "LICENSE", "THIRD_PARTY_NOTICES.md", "rules/model.json"].includes(path));
    expect(unexpected).toEqual([]);
  });

  it("is publishable: a licence, not private, a repository and a homepage, and as dependencies only what its build imports", () => {
    const manifest = JSON.parse(readFileSync(join(app, "node_modules", "edge-cleaner", "package.json"), "utf8")) as Record<string, unknown>;
    expect(manifest.license).toBe("Apache-2.0");
    expect(manifest.private).toBeUndefined();
    expect((manifest.repository as { url: string }).url).toMatch(/^git\+https:\/\//);
    expect(manifest.homepage).toMatch(/^https:\/\//);
    // The packages the built files import (bare specifiers) are exactly its dependencies.
    const built = ["dist/index.js", "dist/workerd.js", "dist/scripts/clean.js"].map((path) => readFileSync(join(app, "node_modules", "edge-cleaner", path), "utf8")).join("\n");
    // Statements at a line's start (a bundled library's doc comments show imports too, after a "*"), and import("…") calls.
    const specifiers = [...built.matchAll(/^import\b[^;]*?\bfrom\s*["']([^"'.][^"']*)["']|\bawait import\(\s*["']([^"'.][^"']*)["']/gm)].map((match) => match[1] ?? match[2]);
    // Built-in modules of a platform (node:fs, cloudflare:sockets) are no package.
    const imported = new Set(specifiers.filter((name) => !/^[a-z]+:/.test(name)).map((name) => name.split("/").slice(0, name.startsWith("@") ? 2 : 1).join("/")));
    expect(Object.keys(manifest.dependencies as Record<string, string>).sort()).toEqual([...imported].sort());
    expect(readFileSync(join(app, "node_modules", "edge-cleaner", "LICENSE"), "utf8")).toContain("Apache License");
  });

  it("says its version with npx edge-cleaner --version", () => {
    const version = execFileSync("npx", ["--no-install", "edge-cleaner", "--version"], { cwd: app, encoding: "utf8" });
    expect(version).toBe(`${(JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version}\n`);
  });

  it("passes npm publish --dry-run (offline, after the pack built dist/) with no warning about the package", () => {
    const publish = spawnSync(NPM, ["publish", "--dry-run", "--ignore-scripts", "--offline"], { cwd: REPO_ROOT, encoding: "utf8" });
    expect(publish.status, publish.stderr).toBe(0);
    // Every warning but the one about the registry login, which a dry run off the registry always gives.
    const warnings = publish.stderr.split("\n").filter((line) => /^npm warn/i.test(line) && !/requires you to be logged in/.test(line));
    expect(warnings).toEqual([]);
  });

  it("cleans a page given as a string or as bytes, from node -e", () => {
    const script = `
      import { clean } from "edge-cleaner";
      import { readFileSync } from "node:fs";
      const bytes = readFileSync(process.argv[1]);
      const fromText = await clean(bytes.toString("utf8"), { url: "https://wrenmouth-gazette.example/news/harbour.html", format: "markdown" });
      const fromBytes = await clean(bytes, { format: "text", contentType: "text/html; charset=utf-8", textScope: "all" });
      console.log(JSON.stringify({ fromText, fromBytes }));`;
    const output = execFileSync(process.execPath, ["--input-type=module", "-e", script, SAMPLE], { cwd: app, encoding: "utf8" });
    const { fromText, fromBytes } = JSON.parse(output) as Record<string, { ok: boolean; body: string; mode: string }>;
    expect(fromText.ok).toBe(true);
    expect(fromText.mode).toBe("classifier");
    expect(fromText.body).toContain(`# ${HEADLINE}`);
    expect(fromText.body).not.toContain(NAVIGATION);
    expect(fromBytes.ok).toBe(true);
    expect(fromBytes.body.split("\n")[0]).toBe(HEADLINE);
  });

  it("types the library for a TypeScript consumer that resolves packages as Node does", () => {
    const consumer = `
      import { clean, type CleanResult, type OutputFormat } from "edge-cleaner";
      const format: OutputFormat = "markdown";
      const result: CleanResult | { ok: false } = await clean("<p>x</p>", { url: "https://a.example/", format, comments: "include" });
      if (result.ok) { const body: string = result.body; console.log(body.length); }
      // @ts-expect-error: not a format
      await clean("<p>x</p>", { format: "pdf" });
      export {};`;
    writeFileSync(join(app, "consumer.ts"), consumer);
    const compilerOptions = { strict: true, noEmit: true, target: "ES2022", module: "nodenext", moduleResolution: "nodenext", types: [], lib: ["ES2022", "DOM"] };
    writeFileSync(join(app, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["consumer.ts"] }));
    const tsc = spawnSync(process.execPath, [join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", "."], { cwd: app, encoding: "utf8" });
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.status).toBe(0);
  });

  it("cleans a shipped sample page with the bin, from a file and from standard input", () => {
    const bin = join(app, "node_modules", ".bin", "edge-cleaner");
    const fromFile = spawnSync(bin, ["--format", "md", SAMPLE], { cwd: app, encoding: "utf8" });
    expect(fromFile.stderr).toBe("");
    expect(fromFile.status).toBe(0);
    expect(fromFile.stdout).toContain(`# ${HEADLINE}`);
    expect(fromFile.stdout).not.toContain(NAVIGATION);
    const fromStdin = spawnSync(bin, ["--format", "markdown", "-"], { cwd: app, encoding: "utf8", input: readFileSync(SAMPLE) });
    expect(fromStdin.status).toBe(0);
    expect(fromStdin.stdout).toBe(fromFile.stdout);
    const wrong = spawnSync(bin, ["--format", "pdf", SAMPLE], { cwd: app, encoding: "utf8" });
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toMatch(/^edge-cleaner: --format must be one of .* \(see edge-cleaner --help\)\n$/);
    expect(spawnSync(bin, ["--help"], { cwd: app, encoding: "utf8" }).stdout).toMatch(/^usage: edge-cleaner <page \| folder \| list file \| ->/);
  });
});
