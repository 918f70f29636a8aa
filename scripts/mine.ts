/**
 * npm run mine -- <input>... [--sites a,b] [--min-pages N] [--out rules/] [--dry-run]
 *
 * Mines per-site template rules (paper 002) from pages and writes rules/<site>.json. An input is an
 * index.jsonl (../shared/data style: id, site, url, page), a data set name ("dragnet"), a set folder
 * holding index.jsonl, a folder of one site's pages (named by the site), or a folder with one sub-folder of
 * pages per site (scripts/mining-input.ts). Sites are mined together so that the cross-site filter sees all.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { MINING_MIN_PAGES_PER_SITE as DEFAULT_MIN_PAGES } from "../src/config";
import type { MiningProgress, SiteReport } from "../src/mining/index";
import type { PageModel } from "../src/page/index";
import { integerOption, parseCommand, runCommand, usageError, usageText, type Command } from "./lib/cli";
import { createProgress, type Progress } from "./lib/progress";
import type { InputSite } from "./mining-input";


const COMMAND: Command = {
  name: "mine",
  usage: usageText("mine"),
};

const { values, positionals } = parseCommand(COMMAND, {
  allowPositionals: true,
  options: {
    site: { type: "string" },
    sites: { type: "string" },
    "min-pages": { type: "string" },
    out: { type: "string", default: "rules" },
    "dry-run": { type: "boolean", default: false },
  },
});
if (positionals.length === 0) usageError(COMMAND, "name at least one input (an index.jsonl, a data set or a folder of pages)");
const minimumPages = integerOption(COMMAND, "min-pages", values["min-pages"], DEFAULT_MIN_PAGES, 2);
const wanted = values.sites === undefined ? null : new Set(values.sites.split(",").map((site) => site.trim()).filter(Boolean));
// Loaded after the arguments are read, so that --help and a mistyped option answer at once.
const { mineSites } = await import("../src/mining/index");
const { parseSiteKey, ruleSetFileName } = await import("../src/rules/index");
const { loadSites } = await import("./mining-input");
const { analysePage } = await import("../src/page/index");
const siteKey = values.site === undefined ? null : parseSiteKey(values.site);
if (values.site !== undefined && siteKey === null) usageError(COMMAND, `--site "${values.site}" is not a site key (a host, optionally with a port and a path)`);

function analyseSites(sites: readonly InputSite[]): { models: PageModel[][]; seconds: number[] } {
  const total = sites.reduce((sum, site) => sum + site.pages.length, 0);
  const progress = createProgress("analyse", total);
  let done = 0;
  const models: PageModel[][] = [];
  const seconds: number[] = [];
  for (const site of sites) {
    const started = performance.now();
    models.push(site.pages.map((page) => {
      progress.step(++done, site.site);
      return analysePage(page.html);
    }));
    seconds.push((performance.now() - started) / 1000);
  }
  progress.finish();
  return { models, seconds };
}

function printSummary(reports: readonly SiteReport[], analyseSeconds: readonly number[], written: ReadonlySet<string>): void {
  const header = ["site", "pages", "tokens", "candidates", "cutoff", "kept", "cross-site", "rules", "strip", "main", "keep", "mode", "seconds", ""];
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
      String(report.ruleSet.strip?.length ?? 0),
      String(report.ruleSet.main?.length ?? 0),
      String(report.ruleSet.keep?.length ?? 0),
      report.ruleSet.defaultMode?.mode ?? "",
      (analyseSeconds[index]! + stageMilliseconds / 1000).toFixed(2),
      written.has(report.site) ? "" : report.problems.length > 0 ? "NOT WRITTEN: invalid" : "(dry run)",
    ];
  });
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const format = (row: string[]) => row.map((cell, column) => (column === 0 || column >= 12 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join("  ");
  console.log(format(header));
  for (const row of rows) console.log(format(row));
  console.log("candidates = maximal repeats of 2+ words in 2+ pages at block edges (the histogram); cutoff = eq. 3.1 cut;");
  console.log("kept = above the cutoff and past the cross-site filter; cross-site = dropped as shared by many sites;");
  console.log("rules = patterns written (contained strings merged, long strings cut); strip, main, keep = selectors kept after the");
  console.log("held-back check; mode = the default mode measured on held-back pages; seconds = page analysis + mining.");
}

function main(): number {
  const loaded = loadSites(positionals);
  for (const problem of loaded.problems) console.error(`skipped: ${problem}`);
  if (loaded.sites.length === 0) usageError(COMMAND, `no pages found in ${positionals.join(", ")}`);
  if (siteKey !== null && loaded.sites.length > 1) usageError(COMMAND, `--site names one site, but the inputs hold ${loaded.sites.length}`);
  const named = siteKey === null ? loaded.sites : loaded.sites.map((site) => ({ ...site, site: siteKey }));
  const chosen = named.filter((site) => wanted === null || wanted.has(site.site) || wanted.has(site.label));
  const sites = chosen.filter((site) => site.pages.length >= minimumPages);
  if (sites.length === 0) {
    const counts = chosen.map((site) => `${site.site} ${site.pages.length}`).join(", ") || "none of the sites asked for";
    usageError(COMMAND, `no site with ${minimumPages}+ pages (found: ${counts}); --min-pages sets the least`);
  }
  const { models, seconds } = analyseSites(sites);
  let stage = "";
  let progress: Progress | null = null;
  const reports = mineSites(
    sites.map((site, index) => ({ site: site.site, pageTexts: models[index]!.map((page) => page.text), pages: models[index]! })),
    undefined,
    (step: MiningProgress) => {
      if (step.stage !== stage) {
        progress?.finish();
        stage = step.stage;
        progress = createProgress(step.stage, step.total);
      }
      progress!.step(step.done + (step.stage === "cross-site" ? 0 : 1), step.site ?? "");
    },
  );
  (progress as Progress | null)?.finish();
  const written = new Set<string>();
  const out = resolve(values.out);
  if (!values["dry-run"]) {
    mkdirSync(out, { recursive: true });
    for (const report of reports) {
      if (report.problems.length > 0) {
        console.error(`${report.site}: rule set invalid, not written:\n  ${report.problems.slice(0, 10).join("\n  ")}`);
        continue;
      }
      writeFileSync(join(out, `${ruleSetFileName(report.site)}.json`), `${JSON.stringify(report.ruleSet, null, 2)}\n`);
      written.add(report.site);
    }
  }
  printSummary(reports, seconds, written);
  if (!values["dry-run"]) console.log(`wrote ${written.size} rule sets to ${out}`);
  return reports.some((report) => report.problems.length > 0) ? 1 : 0;
}

await runCommand(COMMAND, main);
