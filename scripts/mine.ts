/**
 * npm run mine -- <input>... [--sites a,b] [--min-pages N] [--out rules/] [--dry-run]
 *
 * Mines per-site template rules (paper 002) from pages and writes rules/<site>.json. An input is an
 * index.jsonl (../shared/data style: id, site, url, page), a data set name ("dragnet"), a set folder
 * holding index.jsonl, or a folder with one sub-folder of .html pages per site. Sites are mined together so
 * that the cross-site filter sees all of them.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { MINING_MIN_PAGES_PER_SITE } from "../src/config";
import { mineSites, type MiningProgress, type SiteReport } from "../src/mining/index";
import { ruleSetFileName } from "../src/rules/index";
import { loadSites, pageTextOf, type InputSite } from "./mining-input";

const USAGE = `usage: npm run mine -- <index.jsonl | set name | folder>... [options]
  --sites a,b       mine only these sites (labels or keys)
  --min-pages N     skip sites with fewer pages (default ${MINING_MIN_PAGES_PER_SITE})
  --out DIR         where rule sets are written (default rules/)
  --dry-run         mine and report, write nothing`;

interface MineArguments {
  readonly inputs: string[];
  readonly sites: ReadonlySet<string> | null;
  readonly minimumPages: number;
  readonly out: string;
  readonly dryRun: boolean;
}

function parseArguments(argv: string[]): MineArguments | string {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        sites: { type: "string" },
        "min-pages": { type: "string" },
        out: { type: "string", default: "rules" },
        "dry-run": { type: "boolean", default: false },
        help: { type: "boolean", default: false },
      },
    });
  } catch (error) {
    return (error as Error).message;
  }
  const { values, positionals } = parsed;
  if (values.help || positionals.length === 0) return "";
  const minimumPages = values["min-pages"] === undefined ? MINING_MIN_PAGES_PER_SITE : Number(values["min-pages"]);
  if (!Number.isInteger(minimumPages) || minimumPages < 2) return "--min-pages needs an integer of at least 2";
  const sites = values.sites === undefined ? null : new Set(values.sites.split(",").map((site) => site.trim()).filter(Boolean));
  return { inputs: positionals, sites, minimumPages, out: resolve(values.out), dryRun: values["dry-run"] };
}

/** A one-line progress bar on stderr (redrawn in place on a terminal, a line per step otherwise). */
function progressBar(label: string, done: number, total: number, detail = ""): void {
  const width = 30;
  const filled = total === 0 ? width : Math.round((done / total) * width);
  const line = `${label.padEnd(10)} [${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${total} ${detail}`;
  if (process.stderr.isTTY) process.stderr.write(`\r${line.slice(0, (process.stderr.columns ?? 100) - 1).padEnd((process.stderr.columns ?? 100) - 1)}`);
  else if (done === total || done % Math.max(1, Math.floor(total / 10)) === 0) process.stderr.write(`${line}\n`);
}

function analyseSites(sites: readonly InputSite[]): { texts: string[][]; seconds: number[] } {
  const total = sites.reduce((sum, site) => sum + site.pages.length, 0);
  let done = 0;
  const texts: string[][] = [];
  const seconds: number[] = [];
  for (const site of sites) {
    const started = performance.now();
    texts.push(site.pages.map((page) => {
      progressBar("analyse", ++done, total, site.site);
      return pageTextOf(page.html);
    }));
    seconds.push((performance.now() - started) / 1000);
  }
  if (process.stderr.isTTY) process.stderr.write("\n");
  return { texts, seconds };
}

function printSummary(reports: readonly SiteReport[], analyseSeconds: readonly number[], written: ReadonlySet<string>): void {
  const header = ["site", "pages", "tokens", "candidates", "cutoff", "kept", "cross-site", "rules", "seconds", ""];
  const rows = reports.map((report, index) => {
    const stageMilliseconds = Object.values(report.timings).reduce((sum, value) => sum + value, 0);
    return [
      report.site,
      String(report.pages),
      String(report.tokens),
      String(report.candidates),
      `${(report.cutoffShare * 100).toFixed(0)}% (${report.cutoffDocuments}+ pages)`,
      String(report.aboveCutoff - report.droppedAcrossSites),
      String(report.droppedAcrossSites),
      String(report.rules),
      (analyseSeconds[index]! + stageMilliseconds / 1000).toFixed(2),
      written.has(report.site) ? "" : report.problems.length > 0 ? "NOT WRITTEN: invalid" : "(dry run)",
    ];
  });
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const format = (row: string[]) => row.map((cell, column) => (column === 0 || column >= 9 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join("  ");
  console.log(format(header));
  for (const row of rows) console.log(format(row));
  console.log("candidates = maximal repeats of 2+ words in 2+ pages at block edges (the histogram); cutoff = eq. 3.1 cut;");
  console.log("kept = above the cutoff and past the cross-site filter; cross-site = dropped as shared by many sites;");
  console.log("rules = patterns written (contained strings merged, long strings cut); seconds = page analysis + mining.");
}

function main(): number {
  const parsed = parseArguments(process.argv.slice(2));
  if (typeof parsed === "string") {
    console.error(parsed === "" ? USAGE : `${parsed}\n${USAGE}`);
    return parsed === "" ? 0 : 2;
  }
  const loaded = loadSites(parsed.inputs);
  for (const problem of loaded.problems) console.error(`skipped: ${problem}`);
  const sites = loaded.sites.filter(
    (site) => (parsed.sites === null || parsed.sites.has(site.site) || parsed.sites.has(site.label)) && site.pages.length >= parsed.minimumPages,
  );
  if (sites.length === 0) {
    console.error(`no site with ${parsed.minimumPages}+ pages in ${parsed.inputs.join(", ")}`);
    return 1;
  }
  const { texts, seconds } = analyseSites(sites);
  const reports = mineSites(
    sites.map((site, index) => ({ site: site.site, pageTexts: texts[index]! })),
    undefined,
    (progress: MiningProgress) => progressBar(progress.stage, progress.done + (progress.stage === "cross-site" ? 0 : 1), progress.total, progress.site ?? ""),
  );
  if (process.stderr.isTTY) process.stderr.write("\n");
  const written = new Set<string>();
  if (!parsed.dryRun) {
    mkdirSync(parsed.out, { recursive: true });
    for (const report of reports) {
      if (report.problems.length > 0) {
        console.error(`${report.site}: rule set invalid, not written:\n  ${report.problems.slice(0, 10).join("\n  ")}`);
        continue;
      }
      writeFileSync(join(parsed.out, `${ruleSetFileName(report.site)}.json`), `${JSON.stringify(report.ruleSet, null, 2)}\n`);
      written.add(report.site);
    }
  }
  printSummary(reports, seconds, written);
  if (!parsed.dryRun) console.log(`wrote ${written.size} rule sets to ${parsed.out}`);
  return reports.some((report) => report.problems.length > 0) ? 1 : 0;
}

process.exitCode = main();
