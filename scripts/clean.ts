/**
 * npm run clean -- <page | folder | list file | ->... [--out DIR] [options]
 * npm run clean -- URL [options]   (or --url URL; the package's bin: edge-cleaner <URL | page | ->)
 *
 * Cleaning through the same pipeline as the Worker (src/clean.ts), on html-rewriter-wasm. Inputs: pages (any
 * file that reads as HTML, whatever its name: wget saves pages without ".html"), folders (their pages,
 * recursively), or list files (one page path a line, optionally `path<TAB>url`; a relative path from the list
 * file's folder, else from the working folder; blank lines and # comments skipped), or - (standard input);
 * or one page fetched from a URL (alone, or --url) through the Worker's own fetch guard (src/http: http(s)
 * only, loopback, private and metadata addresses refused, names resolved over DNS over HTTPS first, redirects
 * checked hop by hop).
 *
 * Without --out, one page is cleaned to stdout. With --out, one output per page goes into the folder, with a
 * per-page timing file (`id`, ms around the clean() call), a report of every page (ok, bailout or error,
 * with why), and a summary on stdout. A page that fails is reported; the run goes on.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, extname, join, resolve } from "node:path";
import { promisify } from "node:util";
import type { ClassifierModel } from "../src/classify/index";
import type { CleanMode, OutputFormat, RequestedMode } from "../src/clean";
import type { CompiledRuleSet } from "../src/rules/index";
import type { HtmlRewriterBackend } from "../src/runtime/index";
import { version as PACKAGE_VERSION } from "../package.json";
import { choiceOption, fail, parseCommand, runCommand, urlOption, usageError, usageText, type Command } from "./lib/cli";
import { isHtmlFile, pagesUnder, sniffFile } from "./lib/inputs";
import { REPO_ROOT, RULES_FOLDER, SHIPPED_MODEL } from "./lib/paths";
import { createProgress } from "./lib/progress";

const COMMAND: Command = {
  name: "clean",
  usage: usageText("clean"),
};

const EXTENSIONS: Readonly<Record<OutputFormat, string>> = { html: "html", text: "txt", markdown: "md", json: "json", article: "article.html" };
const HTML_FILE = /\.(?:html?|xhtml)$/i;
/** Pages at or above this count get a progress bar (shorter runs finish before it would help). */
const PROGRESS_MIN_PAGES = 20;

interface CleanArguments {
  readonly inputs: readonly string[];
  /** Output folder; null: the one page goes to stdout. */
  readonly out: string | null;
  readonly format: OutputFormat;
  readonly site: string | null;
  readonly url: string | null;
  /** --url with no inputs: the page is fetched from it. */
  readonly fetch: boolean;
  readonly allowPrivate: boolean;
  readonly rulesFolder: string;
  readonly kvLocal: boolean;
  readonly kvPersistTo: string | null;
  readonly modelPath: string | null;
  readonly mode: RequestedMode;
  /** --header: the article's header kept (text) or written (article), as the reader API's header=true. */
  readonly header: boolean;
  readonly timingsPath: string | null;
}

const { values, positionals } = parseCommand(COMMAND, {
  allowPositionals: true,
  options: {
    out: { type: "string" },
    format: { type: "string", default: "html" },
    site: { type: "string" },
    url: { type: "string" },
    "allow-private": { type: "boolean", default: false },
    rules: { type: "string", default: RULES_FOLDER },
    "kv-local": { type: "boolean", default: false },
    "kv-persist-to": { type: "string" },
    model: { type: "string", default: SHIPPED_MODEL },
    "no-model": { type: "boolean", default: false },
    mode: { type: "string", default: "auto" },
    header: { type: "boolean", default: false },
    timings: { type: "string" },
    version: { type: "boolean", default: false },
  },
});
// --version: the package's version (bundled into the bin from package.json), alone on stdout.
if (values.version) {
  process.stdout.write(`${PACKAGE_VERSION}\n`);
  process.exit(0);
}
// One http(s) URL alone is the page to fetch, as --url URL with no inputs (`edge-cleaner https://…`).
const urlAlone = positionals.length === 1 && values.url === undefined && /^https?:\/\//i.test(positionals[0]) ? positionals[0] : undefined;
const pageUrl = values.url ?? urlAlone;
const inputs = urlAlone === undefined ? positionals : [];
if (inputs.length === 0 && pageUrl === undefined) usageError(COMMAND, "name the pages to clean (files, folders, list files, - for standard input) or give a URL");
if (pageUrl !== undefined) urlOption(COMMAND, "url", pageUrl);
if (values["allow-private"] && (pageUrl === undefined || inputs.length > 0)) usageError(COMMAND, "--allow-private is for a page fetched from a URL");
if (inputs.filter((input) => input === "-").length > 1) usageError(COMMAND, "standard input (-) can be read once");
// Loaded after the arguments are read, so that --help and a mistyped option answer at once.
const { HTMLRewriter } = await import("html-rewriter-wasm");
const { parseModel } = await import("../src/classify/index");
const { clean, formatByName, OUTPUT_FORMATS, REQUESTED_MODES } = await import("../src/clean");
const { decodeHtml } = await import("../src/page/index");
const { compileRuleSet, parseRuleSetText, parseSiteKey, ruleSetFileName, siteKeyCandidates, siteOfHost } = await import("../src/rules/index");
const { createWasmBackend } = await import("../src/runtime/index");

function cleanArguments(): CleanArguments {
  // The API's names and aliases (md, txt, plain), from src/clean.ts.
  const format = formatByName(values.format, OUTPUT_FORMATS) ?? usageError(COMMAND, `--format must be one of ${OUTPUT_FORMATS.join(", ")} (or md), not "${values.format}"`);
  const mode = choiceOption(COMMAND, "mode", values.mode, REQUESTED_MODES);
  const site = values.site === undefined ? null : parseSiteKey(values.site);
  if (values.site !== undefined && site === null) usageError(COMMAND, `--site "${values.site}" is not a site key (a host, optionally with a port and a path)`);
  const out = values.out === undefined ? null : resolve(values.out);
  if (out === null && values.timings !== undefined) usageError(COMMAND, "--timings needs --out");
  return {
    inputs,
    out,
    format,
    site,
    url: pageUrl ?? null,
    fetch: pageUrl !== undefined && inputs.length === 0,
    allowPrivate: values["allow-private"],
    rulesFolder: resolve(values.rules),
    kvLocal: values["kv-local"],
    kvPersistTo: values["kv-persist-to"] ?? null,
    modelPath: values["no-model"] ? null : resolve(values.model),
    mode,
    header: values.header,
    timingsPath: out === null ? null : resolve(values.timings ?? join(out, "timings.tsv")),
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
  /** The file, or the URL of a fetched page. */
  readonly path: string;
  readonly url: string | null;
  /** The bytes of a page fetched or read from standard input, and its content type (a file is read when its turn comes). */
  readonly fetched?: { readonly bytes: Uint8Array; readonly contentType: string | null };
  id: string;
}

/** Expands the inputs into pages; every input that cannot be read becomes a problem (the rest still run). */
function collectPages(inputs: readonly string[]): { pages: PageEntry[]; problems: string[] } {
  const pages: PageEntry[] = [];
  const problems: string[] = [];
  for (const input of inputs) {
    const path = resolve(input);
    if (input === "-") {
      pages.push({ path: "-", url: null, fetched: { bytes: readFileSync(0), contentType: null }, id: "" });
    } else if (!existsSync(path)) {
      problems.push(`${input}: no such file or folder`);
    } else if (statSync(path).isDirectory()) {
      const found = pagesUnder(path);
      if (found.length === 0) problems.push(`${input}: folder holds no pages`);
      for (const file of found) pages.push({ path: file, url: null, id: "" });
    } else if (HTML_FILE.test(path) || isHtmlFile(path)) {
      pages.push({ path, url: null, id: "" });
    } else {
      // Only a text file can be a list of pages; UTF-16 is a page the pipeline reports (unsupported-charset).
      const kind = sniffFile(path);
      if (kind === "text") readListFile(path, pages, problems);
      else if (kind === "utf-16") pages.push({ path, url: null, id: "" });
      else if (kind === "binary") problems.push(`${input}: not a page and not a list of pages (binary data, such as a PDF, an image or an archive)`);
      else problems.push(`${input}: cannot be read`);
    }
  }
  assignIds(pages);
  return { pages, problems };
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
    const stem = page.path === "-" ? "stdin" : basename(page.path, extname(page.path)).replace(/[^\w.-]+/g, "_") || "page";
    const seen = used.get(stem) ?? 0;
    used.set(stem, seen + 1);
    page.id = seen === 0 ? stem : `${stem}-${seen + 1}`;
  }
}

/**
 * The page at a URL, fetched as the Worker fetches (src/http fetchOrigin: every hop checked by the target
 * guard and, for names, by their resolved addresses; bounded waits and size), or a one-line refusal.
 */
async function fetchPage(url: string, allowPrivate: boolean): Promise<PageEntry> {
  const { fetchOrigin, readFetchedBody, resolveSettings } = await import("../src/http/index");
  // resolveSettings reads only these string vars; the CLI has no other bindings.
  const vars = {
    ALLOW_PRIVATE_TARGETS: allowPrivate ? "true" : "false",
    RESOLVE_TARGETS: process.env.RESOLVE_TARGETS,
    DNS_RESOLVER_URL: process.env.DNS_RESOLVER_URL,
    PIN_TARGETS: process.env.PIN_TARGETS,
    FETCH_TIMEOUT_MS: process.env.FETCH_TIMEOUT_MS,
    FETCH_BODY_TIMEOUT_MS: process.env.FETCH_BODY_TIMEOUT_MS,
    MAX_BODY_BYTES: process.env.MAX_BODY_BYTES,
  };
  const settings = resolveSettings(vars as Parameters<typeof resolveSettings>[0]);
  const fetched = await fetchOrigin(new URL(url), settings);
  if (!fetched.ok) {
    const hint = fetched.code === "forbidden-target" && !allowPrivate ? " (--allow-private fetches a server on this machine or network)" : "";
    // A refused target is a usage error (2); an origin that answered with an error status is not (1).
    fail(COMMAND, `${fetched.message}${hint}`, fetched.code === "origin-error" ? 1 : 2);
  }
  const { response } = fetched;
  const body = await readFetchedBody(response, settings.maxBodyBytes, settings.fetchBodyTimeoutMs);
  if (body.kind === "bad-encoding") fail(COMMAND, `${fetched.url.host}: ${body.message}`, 1);
  if (body.kind === "timeout") fail(COMMAND, `${fetched.url.host} did not send the whole page within ${settings.fetchBodyTimeoutMs} ms`);
  if (body.kind === "too-large") {
    await body.stream.cancel();
    fail(COMMAND, `the page is larger than ${settings.maxBodyBytes} bytes (MAX_BODY_BYTES)`);
  }
  const id = basename(fetched.url.pathname, extname(fetched.url.pathname)).replace(/[^\w.-]+/g, "_") || "page";
  return { path: fetched.url.href, url: fetched.url.href, fetched: { bytes: body.bytes, contentType: response.headers.get("content-type") }, id };
}

// ── rules and model ─────────────────────────────────────────────────────────────────────────────────

interface RulesFound {
  readonly compiled: CompiledRuleSet | null;
  /** No rule set is stored for the site (as against one that is invalid or could not be read). */
  readonly missing: boolean;
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
    if (site === "") return Promise.resolve({ compiled: null, missing: true, note: "no site" });
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
    const { stdout } = await runFile("npx", command, { cwd: REPO_ROOT, maxBuffer: 64 * 1024 * 1024 });
    return stdout.trim() === "" || stdout.startsWith("Value not found") ? null : stdout;
  } catch (error) {
    return { error: `wrangler kv key get failed: ${(error as Error).message.split("\n")[0]}` };
  }
}

function compileFound(site: string, text: string | null | { error: string }): RulesFound {
  if (text === null) return { compiled: null, missing: true, note: `no rule set for ${site}` };
  if (typeof text !== "string") return { compiled: null, missing: false, note: text.error };
  const parsed = parseRuleSetText(text);
  if (!parsed.ok) return { compiled: null, missing: false, note: `invalid rule set for ${site}: ${parsed.problems.slice(0, 3).join("; ")}` };
  const compiled = compileRuleSet(parsed.ruleSet);
  const note = compiled.skipped.length === 0 ? "" : `${compiled.skipped.length} rules skipped for ${site}`;
  return { compiled, missing: false, note };
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

/**
 * The page's site and rules: --site for every file (a list's own URLs aside); else the URL's longest site key
 * with a rule set, as the Worker chooses (a path key such as bbc.co.uk/news before the host), else its host.
 */
async function rulesOfPage(entry: PageEntry, context: RunContext): Promise<{ site: string; url: string | undefined; rules: RulesFound }> {
  const { args } = context;
  const url = entry.url ?? args.url ?? undefined;
  if ((entry.url === null && args.site !== null) || url === undefined) {
    const site = args.site ?? "";
    return { site, url, rules: await context.rules(site) };
  }
  const candidates = siteKeyCandidates(new URL(url));
  for (const candidate of candidates) {
    const rules = await context.rules(candidate);
    if (!rules.missing) return { site: candidate, url, rules };
  }
  const site = candidates.at(-1) ?? siteOfHost(new URL(url).hostname);
  return { site, url, rules: await context.rules(site) };
}

async function cleanPage(entry: PageEntry, context: RunContext): Promise<PageOutcome> {
  const { args } = context;
  const { site, url, rules } = await rulesOfPage(entry, context);
  const base = { id: entry.id, path: entry.path, site };
  let bytes: Uint8Array;
  try {
    bytes = entry.fetched?.bytes ?? readFileSync(entry.path);
  } catch (error) {
    return { ...base, status: "error", mode: "", milliseconds: -1, detail: `cannot read: ${(error as Error).message}` };
  }
  const decoded = decodeHtml(bytes, entry.fetched?.contentType ?? null);
  if (!decoded.ok) return { ...base, status: "error", mode: "", milliseconds: -1, detail: `${decoded.reason} (${decoded.charset})` };
  const options = { ...(args.mode === "auto" ? {} : { mode: args.mode }), ...(args.header ? { textScope: "all", articleTitle: "header" } as const : {}) };
  const started = performance.now();
  const result = await clean({
    html: decoded.html, url, site, format: args.format, ruleSet: rules.compiled, model: context.model, rewriter: context.rewriter, options,
  });
  const milliseconds = performance.now() - started;
  if (!result.ok) return { ...base, status: "bailout", mode: "", milliseconds, detail: `${result.bailout}: ${result.detail}` };
  if (args.out === null) process.stdout.write(result.body);
  else writeFileSync(join(args.out, `${entry.id}.${EXTENSIONS[args.format]}`), result.body);
  const removed = `removed ${result.removed.blocks} blocks, ${result.removed.chars} chars`;
  return { ...base, status: "ok", mode: result.mode, milliseconds, detail: rules.note === "" ? removed : `${removed}; ${rules.note}` };
}

/** An unexpected failure (an output that cannot be written, say): reported like any failed page. */
function failedOutcome(entry: PageEntry, error: unknown): PageOutcome {
  const detail = error instanceof Error ? error.message : String(error);
  return { id: entry.id, path: entry.path, status: "error", mode: "", site: "", milliseconds: -1, detail };
}

// ── report, summary ──────────────────────────────────────────────────────────────────────────────────

function writeReports(out: string, timingsPath: string, outcomes: readonly PageOutcome[]): string {
  const timed = outcomes.filter((outcome) => outcome.milliseconds >= 0);
  const timings = ["id\tms", ...timed.map((outcome) => `${outcome.id}\t${outcome.milliseconds.toFixed(3)}`)];
  mkdirSync(dirname(timingsPath), { recursive: true });
  writeFileSync(timingsPath, `${timings.join("\n")}\n`);
  const reportPath = join(out, "report.tsv");
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

function printSummary(args: CleanArguments, out: string, outcomes: readonly PageOutcome[], inputProblems: readonly string[], seconds: number, reportPath: string): void {
  const count = (status: PageOutcome["status"]) => outcomes.filter((outcome) => outcome.status === status).length;
  const modes = new Map<string, number>();
  for (const outcome of outcomes) if (outcome.status === "ok") modes.set(outcome.mode, (modes.get(outcome.mode) ?? 0) + 1);
  const times = outcomes.filter((outcome) => outcome.milliseconds >= 0).map((outcome) => outcome.milliseconds).sort((a, b) => a - b);
  console.log(`pages       ${outcomes.length} (${count("ok")} cleaned, ${count("bailout")} bailouts, ${count("error")} errors)`);
  if (inputProblems.length > 0) console.log(`inputs      ${inputProblems.length} skipped: not found, unreadable or not pages (listed above)`);
  console.log(`modes       ${[...modes].map(([mode, pages]) => `${mode} ${pages}`).join(", ") || "-"}`);
  console.log(`clean() ms  median ${percentile(times, 0.5).toFixed(2)}, p95 ${percentile(times, 0.95).toFixed(2)}, max ${(times.at(-1) ?? 0).toFixed(2)}`);
  console.log(`run         ${seconds.toFixed(1)} s`);
  console.log(`output      ${out} (${args.format}); timings ${args.timingsPath}; report ${reportPath}`);
  for (const outcome of outcomes) {
    if (outcome.status !== "ok") console.log(`  ${outcome.status.padEnd(8)}${outcome.id}: ${outcome.detail}`);
  }
}

// ── main ─────────────────────────────────────────────────────────────────────────────────────────────

/** One page to stdout: the body alone; a bailout or an error is one line on stderr (exit 1). */
async function cleanToStdout(entry: PageEntry, context: RunContext): Promise<number> {
  const outcome = await cleanPage(entry, context);
  if (outcome.status !== "ok") fail(COMMAND, `${entry.path}: ${outcome.status}: ${outcome.detail}`);
  return 0;
}

async function main(): Promise<number> {
  const args = cleanArguments();
  const { pages, problems } = args.fetch ? { pages: [await fetchPage(args.url!, args.allowPrivate)], problems: [] } : collectPages(args.inputs);
  // No page at all: the inputs were wrong (one line each); else the pages run and the others are reported.
  if (pages.length === 0) usageError(COMMAND, problems.length === 0 ? "no pages to clean" : problems.join(`\nnpm run ${COMMAND.name}: `));
  for (const problem of problems) console.error(`skipped input: ${problem}`);
  if (args.out === null && (pages.length > 1 || problems.length > 0)) {
    usageError(COMMAND, `${pages.length + problems.length} inputs: give --out DIR to clean more than one page (without it, one page goes to stdout)`);
  }
  const { model, problem } = loadModel(args.modelPath);
  if (problem !== null) console.error(`${problem}; cleaning without the classifier`);
  const context: RunContext = { args, rules: createRuleSource(args), model, rewriter: createWasmBackend(HTMLRewriter) };
  if (args.out === null) return cleanToStdout(pages[0], context);
  mkdirSync(args.out, { recursive: true });
  const started = performance.now();
  const progress = createProgress("clean", pages.length, { minimum: PROGRESS_MIN_PAGES });
  const outcomes: PageOutcome[] = [];
  for (const entry of pages) {
    outcomes.push(await cleanPage(entry, context).catch((error: unknown) => failedOutcome(entry, error)));
    progress.step(outcomes.length, entry.id);
  }
  progress.finish();
  const reportPath = writeReports(args.out, args.timingsPath!, outcomes);
  printSummary(args, args.out, outcomes, problems, (performance.now() - started) / 1000, reportPath);
  return problems.length > 0 || outcomes.some((outcome) => outcome.status !== "ok") ? 1 : 0;
}

await runCommand(COMMAND, main);
