/**
 * `npm run clean` end to end: the CLI run as a process on real pages (the sample site, pages of
 * ../shared/data including a Latin-1 one), with rules from the rules/ folder and from a local wrangler KV.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DATA_ROOT, hasData } from "../../src/evaluation/index";

const REPOSITORY_ROOT = resolve(import.meta.dirname, "../..");
const SAMPLE_SITE = "wrenmouth-gazette.example";
const SAMPLE_FOLDER = join(REPOSITORY_ROOT, "samples", SAMPLE_SITE);
const workFolder = mkdtempSync(join(tmpdir(), "clean-cli-"));

afterAll(() => rmSync(workFolder, { recursive: true, force: true }));

function runBin(bin: string, args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(join(REPOSITORY_ROOT, "node_modules", ".bin", bin), args, { cwd: REPOSITORY_ROOT, encoding: "utf8" });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const runClean = (args: readonly string[]) => runBin("tsx", ["scripts/clean.ts", ...args]);

function readTable(path: string): Array<Record<string, string>> {
  const [header, ...lines] = readFileSync(path, "utf8").trimEnd().split("\n");
  const names = header.split("\t");
  return lines.map((line) => Object.fromEntries(line.split("\t").map((value, index) => [names[index], value])));
}

describe("npm run clean", () => {
  it("cleans a folder of pages with the site's rules: one output per page, timings, report, summary", () => {
    const out = join(workFolder, "sample-text");
    const run = runClean([SAMPLE_FOLDER, "--out", out, "--format", "text", "--header", "--url", `https://www.${SAMPLE_SITE}/`, "--no-model"]);
    expect(run.status, run.stderr).toBe(0);
    const pages = readdirSync(SAMPLE_FOLDER).filter((name) => name.endsWith(".html"));
    const outputs = readdirSync(out).filter((name) => name.endsWith(".txt"));
    expect(outputs.sort()).toEqual(pages.map((name) => name.replace(/\.html$/, ".txt")).sort());
    const timings = readTable(join(out, "timings.tsv"));
    expect(timings.map((row) => row.id).sort()).toEqual(pages.map((name) => name.replace(/\.html$/, "")).sort());
    for (const row of timings) expect(Number(row.ms)).toBeGreaterThan(0);
    const report = readTable(join(out, "report.tsv"));
    expect(report.every((row) => row.status === "ok" && row.mode === "rules" && row.site === SAMPLE_SITE)).toBe(true);
    const article = readFileSync(join(out, "library-reopens.txt"), "utf8");
    expect(article).toContain("Wrenmouth library reopens after eight-month roof repair");
    expect(article).not.toContain("We use cookies");
    expect(run.stdout).toMatch(new RegExp(`pages\\s+${pages.length} \\(${pages.length} cleaned, 0 bailouts, 0 errors\\)`));
  });

  it("reads a list file with per-page URLs, reports a missing page and goes on", () => {
    const list = join(workFolder, "pages.txt");
    writeFileSync(
      list,
      [
        `${join(SAMPLE_FOLDER, "library-reopens.html")}\thttps://${SAMPLE_SITE}/library-reopens.html`,
        "# a comment",
        join(workFolder, "no-such-page.html"),
        `${join(SAMPLE_FOLDER, "index.html")}\thttps://unknown.example/`,
      ].join("\n"),
    );
    const out = join(workFolder, "list-json");
    const run = runClean([list, "--out", out, "--format", "json", "--no-model"]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("no such file");
    expect(run.stderr).toContain("no-such-page.html");
    const report = readTable(join(out, "report.tsv"));
    expect(report.map((row) => [row.id, row.status, row.mode, row.site])).toEqual([
      ["library-reopens", "ok", "rules", SAMPLE_SITE],
      ["index", "ok", "none", "unknown.example"],
    ]);
    const json = JSON.parse(readFileSync(join(out, "library-reopens.json"), "utf8"));
    expect(json.site).toBe(SAMPLE_SITE);
    expect(json.removed.blocks).toBeGreaterThan(0);
  });

  it("refuses bad arguments with the usage", () => {
    const run = runClean([SAMPLE_FOLDER, "--format", "pdf", "--out", join(workFolder, "never")]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("--format must be one of");
    expect(existsSync(join(workFolder, "never"))).toBe(false);
  });

  it.skipIf(!hasData())("cleans real pages of ../shared/data, decoding their charset", () => {
    const list = join(workFolder, "data.txt");
    // cleaneval-dev 15 is ISO-8859-1 with accented names; 22 declares ISO-8859-1 too.
    const ids = ["15", "22", "1"];
    const index = readFileSync(join(DATA_ROOT, "cleaneval-dev", "index.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line));
    const rows = ids.map((id) => index.find((entry: { id: string }) => entry.id === id));
    writeFileSync(list, rows.map((row) => `${join(DATA_ROOT, "cleaneval-dev", row.page)}\t${row.url}`).join("\n"));
    const out = join(workFolder, "data-markdown");
    const run = runClean([list, "--out", out, "--format", "markdown"]);
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(readFileSync(join(out, "15.md"), "utf8")).not.toContain("\ufffd");
    expect(readTable(join(out, "report.tsv")).map((row) => row.mode)).toEqual(["classifier", "classifier", "classifier"]);
    // The committee list with the accented names is template to the classifier; unclean, it is all there.
    const uncleaned = join(workFolder, "data-uncleaned");
    expect(runClean([list, "--out", uncleaned, "--format", "text", "--mode", "none"]).status).toBe(0);
    const latin = readFileSync(join(uncleaned, "15.txt"), "utf8");
    expect(latin).toContain("Søren Søndergaard");
    expect(latin).not.toContain("\ufffd");
  });

  it("takes rules from the local wrangler KV with --kv-local", () => {
    const persist = join(workFolder, "kv-state");
    const put = runBin("wrangler", [
      "kv", "key", "put", SAMPLE_SITE, "--path", join(REPOSITORY_ROOT, "rules", `${SAMPLE_SITE}.json`),
      "--binding", "RULES", "--local", "--preview", "false", "--persist-to", persist,
    ]);
    expect(put.status, put.stderr).toBe(0);
    const out = join(workFolder, "kv-html");
    const page = join(SAMPLE_FOLDER, "harbour-dredging-approved.html");
    const run = runClean([page, "--out", out, "--site", SAMPLE_SITE, "--kv-local", "--kv-persist-to", persist, "--no-model", "--rules", join(workFolder, "empty")]);
    expect(run.status, run.stderr).toBe(0);
    expect(readTable(join(out, "report.tsv"))[0].mode).toBe("rules");
    const html = readFileSync(join(out, "harbour-dredging-approved.html"), "utf8");
    expect(html).toContain("<h1>");
    expect(html).not.toContain("We use cookies");
  });
});
