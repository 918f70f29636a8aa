/**
 * The command line of every script (scripts/lib/cli.ts): --help answers with usage and does nothing else, a
 * wrong option is one line and exit 2, inputs are pages by their content, progress stays off stdout, and
 * `clean --url` fetches through the Worker's fetch guard (tested against a loopback server started here).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MINING_MIN_PAGES_PER_SITE } from "../../src/config";

const REPO_ROOT = resolve(import.meta.dirname, "../..");
const SAMPLE_FOLDER = join(REPO_ROOT, "samples", "wrenmouth-gazette.example");
const SAMPLE_PAGE = join(SAMPLE_FOLDER, "harbour-dredging-approved.html");
const work = mkdtempSync(join(tmpdir(), "cli-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const scripts = (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
/** The npm scripts that run a file of scripts/ (test, typecheck and the wrangler ones aside). */
const SCRIPT_COMMANDS = Object.entries(scripts).filter(([, command]) => command.startsWith("node scripts/run.mjs "));

/** An npm script's command, run directly (node and its flags), with more arguments. */
function run(name: string, args: readonly string[], options: { input?: string } = {}): { status: number | null; stdout: string; stderr: string } {
  const [program, ...rest] = scripts[name]!.split(" ");
  const result = spawnSync(program!, [...rest, ...args], { cwd: REPO_ROOT, encoding: "utf8", input: options.input, env: { ...process.env, FORCE_COLOR: "0" } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const NO_STACK = /\n\s+at /;

/** A one-page PDF document ("Tide tables" in Helvetica), after its header: objects, a compressed-free stream, xref. */
const PDF_BODY = [
  "1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj",
  "2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj",
  "3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >> endobj",
  "4 0 obj << /Length 44 >> stream\nBT /F1 24 Tf 72 700 Td (Tide tables) Tj ET\nendstream endobj",
  "5 0 obj << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> endobj",
  "trailer << /Root 1 0 R >>",
  "%%EOF",
].join("\n");

describe("every script", () => {
  it("is run through scripts/run.mjs, and publishing rules is not npm's own lifecycle name", () => {
    expect(SCRIPT_COMMANDS.map(([name]) => name)).toEqual(expect.arrayContaining(["clean", "mine", "rules:publish", "train", "eval", "bench", "bench:mine", "mine:eval", "rules:test", "rules:import-ftr", "load", "size", "start"]));
    expect(scripts.publish).toBeUndefined();
    for (const [name, command] of Object.entries(scripts)) {
      if (/scripts\//.test(command)) expect(command, name).toMatch(/^node scripts\/run\.mjs [\w-]+$/);
    }
    for (const [, command] of SCRIPT_COMMANDS) expect(existsSync(join(REPO_ROOT, "scripts", `${command.split(" ")[2]}.ts`)), command).toBe(true);
  });

  it("prints the same usage whether npm runs it or it runs itself, and states the live defaults", () => {
    for (const [name, command] of SCRIPT_COMMANDS) {
      const file = command.split(" ")[2]!;
      if (!existsSync(join(REPO_ROOT, "scripts", "usage", `${file}.txt`))) continue;
      const direct = spawnSync(process.execPath, ["--import", "tsx", `scripts/${file}.ts`, "--help"], { cwd: REPO_ROOT, encoding: "utf8" });
      expect(direct.status, name).toBe(0);
      expect(direct.stdout, name).toBe(run(name, ["--help"]).stdout);
    }
    expect(run("mine", ["--help"]).stdout).toContain(`skip sites with fewer pages (default ${MINING_MIN_PAGES_PER_SITE})`);
  });

  it("answers --help with its usage on stdout, exit 0, and does nothing else", () => {
    const watched = [join(REPO_ROOT, "rules", "model.json"), join(REPO_ROOT, "test", "eval-floors.json")].filter(existsSync);
    const before = watched.map((path) => statSync(path).mtimeMs);
    for (const [name] of SCRIPT_COMMANDS) {
      const result = run(name, ["--help"]);
      expect(result.status, `${name}: ${result.stderr}`).toBe(0);
      expect(result.stdout, name).toMatch(new RegExp(`^usage: npm (?:run ${name.replace(":", "\\:")}|start)\\b`));
      expect(result.stderr, name).toBe("");
    }
    expect(watched.map((path) => statSync(path).mtimeMs)).toEqual(before);
    expect(existsSync(join(REPO_ROOT, "rules", "model.json.tmp"))).toBe(false);
  });

  it("refuses an unknown option in one line on stderr with exit 2, never a stack", () => {
    for (const [name] of SCRIPT_COMMANDS) {
      const result = run(name, ["--no-such-option"]);
      expect(result.status, name).toBe(2);
      expect(result.stderr.trimEnd().split("\n"), name).toEqual([`npm run ${name}: Unknown option '--no-such-option' (see npm run ${name} -- --help)`]);
      expect(result.stdout, name).toBe("");
    }
  });

  it("takes 0 for a count its usage says 0 leaves out, and refuses one below 0", () => {
    const usages = readdirSync(join(REPO_ROOT, "scripts", "usage")).map((file) => [file.replace(/\.txt$/, ""), readFileSync(join(REPO_ROOT, "scripts", "usage", file), "utf8")] as const);
    const offered = usages.flatMap(([file, usage]) => [...usage.matchAll(/^\s+--([\w-]+) N\b.*\b0 leaves\b/gm)].map((match) => [file, match[1]!] as const));
    expect(offered).toContainEqual(["size", "runs"]);
    for (const [file, option] of offered) {
      const name = SCRIPT_COMMANDS.find(([, command]) => command.endsWith(` ${file}`))![0];
      const result = run(name, [`--${option}=-1`]);
      expect(result.status, `${name} --${option}`).toBe(2);
      expect(result.stderr, `${name} --${option}`).toContain(`--${option} needs a whole number of at least 0, not "-1"`);
    }
  });
});

describe("npm run mine", () => {
  it("mines a folder of one site's pages, whatever their file names", () => {
    const site = join(work, "harbour-news.example");
    mkdirSync(site, { recursive: true });
    for (let p = 0; p < 6; p++) {
      writeFileSync(join(site, p === 0 ? "index.html?page=2" : `story-${p}`),
        `<!doctype html><html><body><nav><a href="/">Home</a> | <a href="/news">News</a> | <a href="/sport">Sport</a></nav>
<article><h1>Story ${p}: item${p}</h1><p>Body ${p} words${p} other${p} text${p}.</p></article>
<footer><p>Copyright 2012 Harbour News. All rights reserved.</p><p>Contact the newsroom</p></footer></body></html>`);
    }
    writeFileSync(join(site, "style.css"), "body { color: black }");
    const out = join(work, "mined");
    const result = run("mine", [site, "--out", out]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/harbour-news\.example\s+6\s+\d+/);
    expect(readdirSync(out)).toEqual(["harbour-news.example.json"]);
    const named = run("mine", [site, "--site", "harbour-news.example/news", "--dry-run"]);
    expect(named.stdout).toMatch(/harbour-news\.example\/news\s+6\s+/);
  });

  it("says in one line that a data set does not exist", () => {
    const result = run("mine", ["nosuchset"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/nosuchset: no such file, folder or data set/);
    expect(result.stderr).toMatch(/npm run mine: no pages found in nosuchset/);
    expect(result.stderr).not.toMatch(NO_STACK);
  });
});

describe("npm run clean", () => {
  it("reads a saved page without .html as a page and, without --out, writes the cleaned page to stdout", () => {
    const saved = join(work, "harbour-dredging-approved");
    copyFileSync(SAMPLE_PAGE, saved);
    const result = run("clean", [saved, "--format", "text", "--site", "wrenmouth-gazette.example"]);
    expect(result.status, result.stderr).toBe(0);
    // The text leaves the article's header out by default (the headline is the JSON's title); --header keeps it.
    expect(result.stdout).not.toContain("Council approves £2.3m dredging of Wrenmouth harbour");
    expect(result.stdout).toContain("after councillors approved a £2.3 million scheme");
    expect(result.stderr).toBe("");
    const withHeader = run("clean", [saved, "--format", "text", "--site", "wrenmouth-gazette.example", "--header"]);
    expect(withHeader.stdout).toMatch(/^Council approves £2\.3m dredging of Wrenmouth harbour\n/);
    expect(withHeader.stdout).toContain(result.stdout.split("\n")[0]);
  });

  it("takes the API's format aliases: --format md writes Markdown", () => {
    const markdown = run("clean", [SAMPLE_PAGE, "--format", "markdown", "--site", "wrenmouth-gazette.example"]);
    const md = run("clean", [SAMPLE_PAGE, "--format", "md", "--site", "wrenmouth-gazette.example"]);
    expect(md.status, md.stderr).toBe(0);
    expect(md.stdout).toMatch(/^# Council approves £2\.3m dredging of Wrenmouth harbour\n/);
    expect(md.stdout).toBe(markdown.stdout);
    const wrong = run("clean", [SAMPLE_PAGE, "--format", "pdf"]);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr.trimEnd().split("\n")).toEqual(['npm run clean: --format must be one of html, text, markdown, json, article (or md), not "pdf" (see npm run clean -- --help)']);
  });

  it("reads a PDF as neither a page nor a list of pages, in one line", () => {
    const pdf = join(work, "report.pdf");
    writeFileSync(pdf, Buffer.concat([Buffer.from("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n", "latin1"), Buffer.from(PDF_BODY, "latin1")]));
    const result = run("clean", [pdf, "--format", "text"]);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr.trimEnd().split("\n")).toEqual([`npm run clean: ${pdf}: not a page and not a list of pages (binary data, such as a PDF, an image or an archive) (see npm run clean -- --help)`]);
  });

  it("asks for --out when more than one page would go to stdout", () => {
    const result = run("clean", [SAMPLE_FOLDER]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/give --out DIR to clean more than one page/);
    expect(result.stdout).toBe("");
  });

  it("writes progress on stderr only, whatever stdout is", () => {
    const folder = join(work, "many");
    mkdirSync(folder, { recursive: true });
    for (let copy = 0; copy < 24; copy++) copyFileSync(SAMPLE_PAGE, join(folder, `page-${copy}`));
    const result = run("clean", [folder, "--out", join(work, "many-out"), "--format", "text"]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).not.toContain("\r");
    expect(result.stdout).toMatch(/^pages\s+24 \(24 cleaned/);
    expect(result.stderr).toMatch(/clean\s+\[#+\] 24\/24/);
  });

  describe("--url", () => {
    // The origin runs in a process of its own: the CLI runs synchronously, and would wait on this one.
    const ORIGIN = `
      const { createServer } = require("node:http");
      const { readFileSync } = require("node:fs");
      const server = createServer((request, response) => {
        if (request.url === "/harbour") response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(readFileSync(process.argv[1]));
        else if (request.url === "/to-metadata") response.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end();
        else response.writeHead(404).end("not found");
      });
      server.listen(0, "127.0.0.1", () => console.log(server.address().port));`;
    let origin: ChildProcess;
    let base = "";
    beforeAll(async () => {
      origin = spawn(process.execPath, ["-e", ORIGIN, SAMPLE_PAGE], { stdio: ["ignore", "pipe", "inherit"] });
      const port = await new Promise<string>((done) => origin.stdout!.once("data", (chunk: Buffer) => done(chunk.toString().trim())));
      base = `http://127.0.0.1:${port}`;
    });
    afterAll(() => {
      origin.kill();
    });

    it("refuses a loopback address in one line, as the Worker does", () => {
      const result = run("clean", ["--url", `${base}/harbour`, "--format", "markdown"]);
      expect(result.status).toBe(2);
      expect(result.stderr.trimEnd().split("\n")).toEqual([
        "npm run clean: target 127.0.0.1 is a loopback address; not fetched (--allow-private fetches a server on this machine or network)",
      ]);
      expect(result.stdout).toBe("");
    });

    it("with --allow-private, fetches the page and prints its Markdown", () => {
      const result = run("clean", ["--url", `${base}/harbour`, "--format", "markdown", "--allow-private"]);
      expect(result.status, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/^# Council approves £2\.3m dredging of Wrenmouth harbour\n/);
      expect(result.stdout).toContain(`[Margaret Oyelaran](${base}/authors/margaret-oyelaran.html)`);
    });

    it("never follows a redirect to a metadata address, even with --allow-private", () => {
      const result = run("clean", ["--url", `${base}/to-metadata`, "--allow-private"]);
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(/redirect to http:\/\/169\.254\.169\.254\/latest\/meta-data\/: target 169\.254\.169\.254 is a link-local or cloud metadata address/);
    });

    it("says in one line what an origin answered", () => {
      const result = run("clean", ["--url", `${base}/missing`, "--allow-private"]);
      expect(result.status).toBe(1);
      expect(result.stderr.trimEnd().split("\n")).toEqual([`npm run clean: ${new URL(base).host} answered 404 for /missing`]);
    });
  });
});
