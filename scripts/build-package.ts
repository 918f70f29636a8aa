/**
 * npm run build:package (and npm pack's prepack): the installable package in dist/.
 *   dist/index.js     the library for Node, Bun and Deno (src/library-node.ts: html-rewriter-wasm, kept external)
 *   dist/workerd.js   the library inside Workers (src/library-workerd.ts: the platform's HTMLRewriter)
 *   dist/scripts/clean.js  the bin: scripts/clean.ts as npm run clean runs it, with its usage text beside it
 *   dist/types/       declarations, relative imports written as the .js files that Node's resolution finds
 * The shipped model is bundled into both libraries; the bin reads rules/model.json (in the package's files).
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { build } from "esbuild";
import { parseCommand, runCommand, usageText, type Command } from "./lib/cli";
import { REPO_ROOT } from "./lib/paths";

const COMMAND: Command = { name: "build:package", usage: usageText("build-package") };
parseCommand(COMMAND, { options: {} });

const DIST = join(REPO_ROOT, "dist");
const TYPES = join(DIST, "types");
/** The licences of the third-party code the build bundles (the package ships it: package.json "files"). */
const NOTICES_FILE = "THIRD_PARTY_NOTICES.md";

async function main(): Promise<void> {
  rmSync(DIST, { recursive: true, force: true });
  const common = { bundle: true, format: "esm", target: "es2022", logLevel: "warning", legalComments: "none", absWorkingDir: REPO_ROOT, metafile: true } as const;
  const builds = [
    await build({ ...common, entryPoints: { index: "src/library-node.ts" }, outdir: DIST, platform: "node", external: ["html-rewriter-wasm"] }),
    await build({ ...common, entryPoints: { workerd: "src/library-workerd.ts" }, outdir: DIST, platform: "neutral" }),
    // html-rewriter-wasm reads its .wasm beside itself, so it stays a dependency; wrangler is only run as a command (--kv-local).
    // cloudflare:sockets is imported by the fetch path only in workerd (src/http/shared/socket-fetch.ts), never in Node.
    await build({
      ...common, entryPoints: { "scripts/clean": "scripts/clean.ts" }, outdir: DIST, platform: "node", external: ["html-rewriter-wasm", "cloudflare:*"],
      banner: { js: "#!/usr/bin/env node" },
    }),
  ];
  requireNotices(new Set(builds.flatMap((result) => Object.keys(result.metafile.inputs).flatMap(bundledPackage))));
  // The bin's usage text, where scripts/lib/cli.ts looks for it (../usage/ from the script).
  mkdirSync(join(DIST, "usage"), { recursive: true });
  cpSync(join(REPO_ROOT, "scripts", "usage", "clean.txt"), join(DIST, "usage", "clean.txt"));
  execFileSync(process.execPath, [
    join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc"),
    "src/library-node.ts", "src/library-workerd.ts",
    "--declaration", "--emitDeclarationOnly", "--outDir", TYPES, "--rootDir", "src",
    "--target", "ES2022", "--module", "ESNext", "--moduleResolution", "Bundler", "--lib", "ES2022",
    "--types", "@cloudflare/workers-types", "--strict", "--skipLibCheck", "--resolveJsonModule", "--isolatedModules", "--verbatimModuleSyntax",
  ], { cwd: REPO_ROOT, stdio: "inherit" });
  fixDeclarationImports(TYPES);
  process.stderr.write(`package built in ${relative(process.cwd(), DIST) || "."}/\n`);
}

/** The package a bundled input file belongs to ("hono", "@scope/name"), or none for the project's own files. */
function bundledPackage(input: string): string[] {
  const match = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
  return match === null ? [] : [match[1]];
}

/** Every third-party package bundled into dist/ has its licence in THIRD_PARTY_NOTICES.md (a "## name" section). */
function requireNotices(bundled: ReadonlySet<string>): void {
  const notices = readFileSync(join(REPO_ROOT, NOTICES_FILE), "utf8");
  const missing = [...bundled].filter((name) => !notices.includes(`\n## ${name}\n`));
  if (missing.length > 0) throw new Error(`${NOTICES_FILE} does not name ${missing.join(", ")}, bundled into dist/: add each one's licence`);
}

/**
 * The sources import "./page" and "../clean" (bundler resolution); a consumer resolving as Node does needs the
 * file: "./page/index.js", "../clean.js". Each relative specifier is rewritten to the declaration it names.
 */
function fixDeclarationImports(folder: string): void {
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) fixDeclarationImports(path);
    else if (path.endsWith(".d.ts")) writeFileSync(path, readFileSync(path, "utf8").replace(/(from\s+|import\()(["'])(\.{1,2}\/[^"']*)\2/g, (_all, head: string, quote: string, specifier: string) => `${head}${quote}${jsSpecifier(path, specifier)}${quote}`));
  }
}

function jsSpecifier(declaration: string, specifier: string): string {
  const base = resolve(dirname(declaration), specifier);
  if (existsSync(`${base}.d.ts`)) return `${specifier}.js`;
  if (existsSync(join(base, "index.d.ts"))) return `${specifier.replace(/\/$/, "")}/index.js`;
  throw new Error(`${relative(REPO_ROOT, declaration)}: no declaration for "${specifier}"`);
}

await runCommand(COMMAND, main);
