/**
 * npm run clean -- <page.html | folder | list file>... --out DIR [options]
 *
 * Batch cleaning through the same pipeline as the Worker (src/clean.ts), on html-rewriter-wasm. Inputs: HTML
 * files, folders (their .html/.htm files, recursively), or list files (one page path a line, optionally
 * `path<TAB>url`; a relative path from the list file's folder, else from the working folder; blank lines and # comments skipped). Writes one
 * output per page into --out, a per-page timing file (`id`, ms around the clean() call), a report of every
 * page (ok, bailout or error, with why), and a summary on stdout. A page that fails is reported; the run goes on.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, extname, join, resolve } from "node:path";
import { parseArgs, promisify } from "node:util";
import { HTMLRewriter } from "html-rewriter-wasm";
import { parseModel, type ClassifierModel } from "../src/classify/index";
import { clean, OUTPUT_FORMATS, REQUESTED_MODES, type CleanMode, type OutputFormat, type RequestedMode } from "../src/clean";
import { siteOfHost } from "../src/http/site";
import { decodeHtml } from "../src/page/index";
import { compileRuleSet, parseRuleSetText, ruleSetFileName, type CompiledRuleSet } from "../src/rules/index";
import { createWasmBackend, type HtmlRewriterBackend } from "../src/runtime/index";

const REPOSITORY_ROOT = resolve(import.meta.dirname, "..");
const EXTENSIONS: Readonly<Record<OutputFormat, string>> = { html: "html", text: "txt", markdown: "md", json: "json", article: "article.html" };
const HTML_FILE = /\.(?:html?|xhtml)$/i;
/** Pages at or above this count get a progress bar (shorter runs finish before it would help). */
const PROGRESS_MIN_PAGES = 20;

const USAGE = `usage: npm run clean -- <page.html | folder | list file>... --out DIR [options]
  --out DIR            output folder (one file per page, plus timings.tsv and report.tsv)
  --format F           html | text | markdown | json | article (default html)
  --site SITE          site whose rules apply to every page (host without www.)
  --url URL            page URL for every page (its host chooses the rules); a list file's
                       "path<TAB>url" lines override it per page
  --rules DIR          folder of rule sets <site>.json (default rules/)
  --kv-local           read rule sets from the local wrangler KV (binding RULES) instead of --rules
  --kv-persist-to DIR  wrangler's local state folder, if not the default (.wrangler/state)
  --model FILE         classifier model (default rules/model.json); --no-model to clean without it
  --mode M             auto | rules | classifier | rules+classifier | none (default auto)
  --timings FILE       per-page timing file (default <out>/timings.tsv)`;

interface CleanArguments {
  readonly inputs: readonly string[];
  readonly out: string;
  readonly format: OutputFormat;
  readonly site: string | null;
  readonly url: string | null;
  readonly rulesFolder: string;
  readonly kvLocal: boolean;
  readonly kvPersistTo: string | null;
  readonly modelPath: string | null;
  readonly mode: RequestedMode;
  readonly timingsPath: string;
}

function parseArguments(argv: string[]): CleanArguments | string {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        out: { type: "string" },
        format: { type: "string", default: "html" },
        site: { type: "string" },
        url: { type: "string" },
        rules: { type: "string", default: join(REPOSITORY_ROOT, "rules") },
        "kv-local": { type: "boolean", default: false },
        "kv-persist-to": { type: "string" },
        model: { type: "string", default: join(REPOSITORY_ROOT, "rules", "model.json") },
        "no-model": { type: "boolean", default: false },
        mode: { type: "string", default: "auto" },
        timings: { type: "string" },
        help: { type: "boolean", default: false },
      },
    });
  } catch (error) {
    return (error as Error).message;
  }
  const { values, positionals } = parsed;
  if (values.help || positionals.length === 0) return "";
  if (values.out === undefined) return "--out DIR is required";
  if (!OUTPUT_FORMATS.includes(values.format as OutputFormat)) return `--format must be one of ${OUTPUT_FORMATS.join(", ")}`;
  if (!REQUESTED_MODES.includes(values.mode as RequestedMode)) return `--mode must be one of ${REQUESTED_MODES.join(", ")}`;
  if (values.url !== undefined && !isUrl(values.url)) return `--url is not a URL: ${values.url}`;
  const out = resolve(values.out);
  return {
    inputs: positionals,
    out,
    format: values.format as OutputFormat,
    site: values.site === undefined ? null : siteOfHost(values.site),
    url: values.url ?? null,
    rulesFolder: resolve(values.rules),
    kvLocal: values["kv-local"],
    kvPersistTo: values["kv-persist-to"] ?? null,
    modelPath: values["no-model"] ? null : resolve(values.model),
    mode: values.mode as RequestedMode,
    timingsPath: resolve(values.timings ?? join(out, "timings.tsv")),
  };
}

/** True when the value parses as an absolute URL (the URL constructor is the only parser; it throws on failure). */
function isUrl(value: string): boolean {
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

// ── inputs ───────────────────────────────────────────────────────────────────────────────────────────

interface PageEntry {
  readonly path: string;
  readonly url: string | null;
  id: string;
}

/** Expands the inputs into pages; every input that cannot be read becomes a problem (the rest still run). */
function collectPages(inputs: readonly string[]): { pages: PageEntry[]; problems: string[] } {
  const pages: PageEntry[] = [];
  const problems: string[] = [];
  for (const input of inputs) {
    const path = resolve(input);
    if (!existsSync(path)) {
      problems.push(`${input}: no such file or folder`);
    } else if (statSync(path).isDirectory()) {
      const found = htmlFilesUnder(path);
      if (found.length === 0) problems.push(`${input}: folder holds no .html or .htm files`);
      for (const file of found) pages.push({ path: file, url: null, id: "" });
    } else if (HTML_FILE.test(path)) {
      pages.push({ path, url: null, id: "" });
    } else {
      readListFile(path, pages, problems);
    }
  }
  assignIds(pages);
  return { pages, problems };
}

function htmlFilesUnder(folder: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true }).sort((left, right) => left.name.localeCompare(right.name))) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) files.push(...htmlFilesUnder(path));
    else if (HTML_FILE.test(entry.name)) files.push(path);
  }
  return files;
}

function readListFile(listPath: string, pages: PageEntry[], problems: string[]): void {
  const lines = readFileSync(listPath, "utf8").split(/\r?\n/);
  lines.forEach((line, index) => {
    if (line.trim() === "" || line.trimStart().startsWith("#")) return;
    const [pathPart, urlPart] = line.split("\t");
    const fromList = resolve(dirname(listPath), pathPart.trim());
    const path = existsSync(fromList) ? fromList : resolve(pathPart.trim());
    const url = urlPart?.trim() || null;
    const where = `${basename(listPath)}:${index + 1}`;
    if (url !== null && !isUrl(url)) problems.push(`${where}: not a URL: ${url}`);
    else if (!existsSync(path) || statSync(path).isDirectory()) problems.push(`${where}: no such file: ${pathPart.trim()}`);
    else pages.push({ path, url, id: "" });
  });
}

/** Output names: the file name without extension, made unique with -2, -3… in input order. */
function assignIds(pages: PageEntry[]): void {
  const used = new Map<string, number>();
  for (const page of pages) {
    const stem = basename(page.path, extname(page.path)).replace(/[^\w.-]+/g, "_") || "page";
    const seen = used.get(stem) ?? 0;
    used.set(stem, seen + 1);
    page.id = seen === 0 ? stem : `${stem}-${seen + 1}`;
  }
}

// ── rules and model ─────────────────────────────────────────────────────────────────────────────────

interface RulesFound {
  readonly compiled: CompiledRuleSet | null;
  /** Why there are no rules, or which rules were skipped ("" when all is well). */
  readonly note: string;
}

type RuleSource = (site: string) => Promise<RulesFound>;

const runFile = promisify(execFile);

/** Rule sets by site from the --rules folder or the local KV, read and compiled once per site. */
function createRuleSource(args: CleanArguments): RuleSource {
  const found = new Map<string, Promise<RulesFound>>();
  const read = args.kvLocal ? (site: string) => readFromLocalKv(site, args.kvPersistTo) : (site: string) => readFromFolder(args.rulesFolder, site);
  return (site) => {
    if (site === "") return Promise.resolve({ compiled: null, note: "no site" });
    let entry = found.get(site);
    if (entry === undefined) {
      entry = read(site).then((text) => compileFound(site, text));
      found.set(site, entry);
    }
    return entry;
  };
}

async function readFromFolder(folder: string, site: string): Promise<string | null> {
  const path = join(folder, `${ruleSetFileName(site)}.json`);
  return existsSync(path) ? readFileSync(path, "utf8") : null;
}

async function readFromLocalKv(site: string, persistTo: string | null): Promise<string | null | { error: string }> {
  const command = ["wrangler", "kv", "key", "get", site, "--binding", "RULES", "--local", "--preview", "false", "--text"];
  if (persistTo !== null) command.push("--persist-to", persistTo);
  try {
    const { stdout } = await runFile("npx", command, { cwd: REPOSITORY_ROOT, maxBuffer: 64 * 1024 * 1024 });
    return stdout.trim() === "" || stdout.startsWith("Value not found") ? null : stdout;
  } catch (error) {
    return { error: `wrangler kv key get failed: ${(error as Error).message.split("\n")[0]}` };
  }
}

function compileFound(site: string, text: string | null | { error: string }): RulesFound {
  if (text === null) return { compiled: null, note: `no rule set for ${site}` };
  if (typeof text !== "string") return { compiled: null, note: text.error };
  const parsed = parseRuleSetText(text);
  if (!parsed.ok) return { compiled: null, note: `invalid rule set for ${site}: ${parsed.problems.slice(0, 3).join("; ")}` };
  const compiled = compileRuleSet(parsed.ruleSet);
  const note = compiled.skipped.length === 0 ? "" : `${compiled.skipped.length} rules skipped for ${site}`;
  return { compiled, note };
}

function loadModel(path: string | null): { model: ClassifierModel | null; problem: string | null } {
  if (path === null) return { model: null, problem: null };
  if (!existsSync(path)) return { model: null, problem: `model not found: ${path}` };
  const parsed = parseModel(JSON.parse(readFileSync(path, "utf8")));
  return parsed.ok ? { model: parsed.model, problem: null } : { model: null, problem: `model invalid: ${parsed.problems.join("; ")}` };
}

// ── one page ─────────────────────────────────────────────────────────────────────────────────────────

interface PageOutcome {
  readonly id: string;
  readonly path: string;
  readonly status: "ok" | "bailout" | "error";
  readonly mode: CleanMode | "";
  readonly site: string;
  /** Milliseconds spent in clean(); -1 when clean() was not reached. */
  readonly milliseconds: number;
  readonly detail: string;
}

interface RunContext {
  readonly args: CleanArguments;
  readonly rules: RuleSource;
  readonly model: ClassifierModel | null;
  readonly rewriter: HtmlRewriterBackend;
}

function siteOfPage(entry: PageEntry, args: CleanArguments): { site: string; url: string | undefined } {
  const url = entry.url ?? args.url ?? undefined;
  if (entry.url === null && args.site !== null) return { site: args.site, url };
  return { site: url === undefined ? (args.site ?? "") : siteOfHost(new URL(url).hostname), url };
}

async function cleanPage(entry: PageEntry, context: RunContext): Promise<PageOutcome> {
  const { args } = context;
  const { site, url } = siteOfPage(entry, args);
  const base = { id: entry.id, path: entry.path, site };
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(entry.path);
  } catch (error) {
    return { ...base, status: "error", mode: "", milliseconds: -1, detail: `cannot read: ${(error as Error).message}` };
  }
  const decoded = decodeHtml(bytes, null);
  if (!decoded.ok) return { ...base, status: "error", mode: "", milliseconds: -1, detail: `${decoded.reason} (${decoded.charset})` };
  const rules = await context.rules(site);
  const options = args.mode === "auto" ? undefined : { mode: args.mode };
  const started = performance.now();
  const result = await clean({
    html: decoded.html, url, site, format: args.format, ruleSet: rules.compiled, model: context.model, rewriter: context.rewriter, options,
  });
  const milliseconds = performance.now() - started;
  if (!result.ok) return { ...base, status: "bailout", mode: "", milliseconds, detail: `${result.bailout}: ${result.detail}` };
  const outputPath = join(args.out, `${entry.id}.${EXTENSIONS[args.format]}`);
  writeFileSync(outputPath, result.body);
  const removed = `removed ${result.removed.blocks} blocks, ${result.removed.chars} chars`;
  return { ...base, status: "ok", mode: result.mode, milliseconds, detail: rules.note === "" ? removed : `${removed}; ${rules.note}` };
}

/** An unexpected failure (an output that cannot be written, say): reported like any failed page. */
function failedOutcome(entry: PageEntry, error: unknown): PageOutcome {
  const detail = error instanceof Error ? error.message : String(error);
  return { id: entry.id, path: entry.path, status: "error", mode: "", site: "", milliseconds: -1, detail };
}

// ── progress, report, summary ────────────────────────────────────────────────────────────────────────

/** A progress bar on stderr: redrawn in place on a terminal; off a terminal, a line every tenth of the run. */
function createProgress(total: number): { step(done: number, label: string): void; finish(): void } {
  const enabled = total >= PROGRESS_MIN_PAGES;
  const terminal = process.stderr.isTTY === true;
  const width = 30;
  let lastTenth = -1;
  const started = performance.now();
  return {
    step(done, label) {
      if (!enabled) return;
      const tenth = Math.floor((done * 10) / total);
      if (!terminal && tenth === lastTenth) return;
      lastTenth = tenth;
      const filled = Math.round((done / total) * width);
      const seconds = (performance.now() - started) / 1000;
      const line = `clean [${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${total} ${seconds.toFixed(1)}s ${label}`;
      const columns = (process.stderr.columns ?? 100) - 1;
      process.stderr.write(terminal ? `\r${line.slice(0, columns).padEnd(columns)}` : `${line}\n`);
    },
    finish() {
      if (enabled && terminal) process.stderr.write("\n");
    },
  };
}

function writeReports(args: CleanArguments, outcomes: readonly PageOutcome[]): string {
  const timed = outcomes.filter((outcome) => outcome.milliseconds >= 0);
  const timings = ["id\tms", ...timed.map((outcome) => `${outcome.id}\t${outcome.milliseconds.toFixed(3)}`)];
  mkdirSync(dirname(args.timingsPath), { recursive: true });
  writeFileSync(args.timingsPath, `${timings.join("\n")}\n`);
  const reportPath = join(args.out, "report.tsv");
  const clean = (value: string) => value.replace(/[\t\r\n]+/g, " ");
  const rows = outcomes.map((outcome) =>
    [outcome.id, outcome.status, outcome.mode, outcome.site, outcome.milliseconds.toFixed(3), clean(outcome.path), clean(outcome.detail)].join("\t"),
  );
  writeFileSync(reportPath, `${["id", "status", "mode", "site", "ms", "path", "detail"].join("\t")}\n${rows.join("\n")}\n`);
  return reportPath;
}

function percentile(sorted: readonly number[], share: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)];
}

function printSummary(args: CleanArguments, outcomes: readonly PageOutcome[], inputProblems: readonly string[], seconds: number, reportPath: string): void {
  const count = (status: PageOutcome["status"]) => outcomes.filter((outcome) => outcome.status === status).length;
  const modes = new Map<string, number>();
  for (const outcome of outcomes) if (outcome.status === "ok") modes.set(outcome.mode, (modes.get(outcome.mode) ?? 0) + 1);
  const times = outcomes.filter((outcome) => outcome.milliseconds >= 0).map((outcome) => outcome.milliseconds).sort((a, b) => a - b);
  console.log(`pages       ${outcomes.length} (${count("ok")} cleaned, ${count("bailout")} bailouts, ${count("error")} errors)`);
  if (inputProblems.length > 0) console.log(`inputs      ${inputProblems.length} not found or unreadable (listed above)`);
  console.log(`modes       ${[...modes].map(([mode, pages]) => `${mode} ${pages}`).join(", ") || "-"}`);
  console.log(`clean() ms  median ${percentile(times, 0.5).toFixed(2)}, p95 ${percentile(times, 0.95).toFixed(2)}, max ${(times.at(-1) ?? 0).toFixed(2)}`);
  console.log(`run         ${seconds.toFixed(1)} s`);
  console.log(`output      ${args.out} (${args.format}); timings ${args.timingsPath}; report ${reportPath}`);
  for (const outcome of outcomes) {
    if (outcome.status !== "ok") console.log(`  ${outcome.status.padEnd(8)}${outcome.id}: ${outcome.detail}`);
  }
}

// ── main ─────────────────────────────────────────────────────────────────────────────────────────────

async function main(): Promise<void> {
  const args = parseArguments(process.argv.slice(2));
  if (typeof args === "string") {
    if (args !== "") console.error(args);
    console.error(USAGE);
    process.exitCode = 2;
    return;
  }
  const { pages, problems } = collectPages(args.inputs);
  for (const problem of problems) console.error(`missing input: ${problem}`);
  if (pages.length === 0) {
    console.error("no pages to clean");
    process.exitCode = 2;
    return;
  }
  const { model, problem } = loadModel(args.modelPath);
  if (problem !== null) console.error(`${problem}; cleaning without the classifier`);
  mkdirSync(args.out, { recursive: true });
  const context: RunContext = { args, rules: createRuleSource(args), model, rewriter: createWasmBackend(HTMLRewriter) };
  const started = performance.now();
  const progress = createProgress(pages.length);
  const outcomes: PageOutcome[] = [];
  for (const entry of pages) {
    outcomes.push(await cleanPage(entry, context).catch((error: unknown) => failedOutcome(entry, error)));
    progress.step(outcomes.length, entry.id);
  }
  progress.finish();
  const reportPath = writeReports(args, outcomes);
  printSummary(args, outcomes, problems, (performance.now() - started) / 1000, reportPath);
  if (problems.length > 0 || outcomes.some((outcome) => outcome.status !== "ok")) process.exitCode = 1;
}

await main();
