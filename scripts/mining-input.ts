/**
 * Inputs of the mining scripts: sites and their pages from an index.jsonl (../shared/data style, read with
 * loadDataset, which decodes each page's charset), a data set's name, a folder of one site's pages (a saved
 * site: pages at its top, maybe in sub-folders too) or a folder holding one sub-folder of pages per site.
 * Pages are known by their content, not their names (scripts/lib/inputs.ts).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { DATA_ROOT, DATA_SETS, loadDataset } from "../src/evaluation/index";
import { siteKeyOfLabel } from "../src/rules/index";
import { analysePage, decodeHtml } from "../src/page/index";
import { isHtmlFile, isPageInFolder, pagesUnder } from "./lib/inputs";

export interface InputPage {
  readonly id: string;
  readonly url: string;
  readonly html: string;
  readonly bytes: number;
  /** Hand-cleaned text when the index names one, else "". */
  readonly gold: string;
}

export interface InputSite {
  /** Label as the input names it (an index's `site`, or the sub-folder name). */
  readonly label: string;
  /** KV key derived from the label and the pages' URLs (siteKeyOfLabel: `bbc.co.uk_news` → `bbc.co.uk/news`). */
  readonly site: string;
  /** The input it was read from (a data set's name, an index file, a folder): mine:eval compares systems per group. */
  readonly group: string;
  readonly pages: InputPage[];
}

export interface LoadedInput {
  readonly sites: InputSite[];
  readonly problems: string[];
}

/** Reads every input (index files, set names, folders or pages), grouping pages by site in first-seen order. */
export function loadSites(inputs: readonly string[]): LoadedInput {
  const byLabel = new Map<string, InputPage[]>();
  const groupOf = new Map<string, string>();
  const problems: string[] = [];
  let group = "";
  const add = (label: string, page: InputPage): void => {
    let pages = byLabel.get(label);
    if (pages === undefined) byLabel.set(label, (pages = []));
    if (!groupOf.has(label)) groupOf.set(label, group);
    pages.push(page);
  };
  for (const input of inputs) {
    group = input;
    const index = indexOf(input);
    if (index !== null) {
      const loaded = loadDataset(index);
      problems.push(...loaded.problems);
      for (const page of loaded.pages) add(page.site, { id: page.id, url: page.url, html: page.html, bytes: page.bytes, gold: page.gold });
    } else if (isDirectory(input)) {
      loadFolder(resolve(input), add, problems);
    } else if (isFile(input) && isHtmlFile(input)) {
      // A page on its own belongs to the site of its folder's name.
      addPage(resolve(input), basename(input), basename(dirname(resolve(input))), add, problems);
    } else {
      problems.push(isFile(input) ? `${input}: neither a page nor an index.jsonl` : `${input}: no such file, folder or data set (the sets: ${DATA_SETS.join(", ")})`);
    }
  }
  // Keyed once all pages are in: a section label takes the path its pages' URLs share.
  const bySite = new Map<string, InputSite>();
  for (const [label, pages] of byLabel) {
    const site = siteKeyOfLabel(label, pages.map((page) => page.url).filter((url) => url !== ""));
    const entry = bySite.get(site);
    if (entry === undefined) bySite.set(site, { label, site, group: groupOf.get(label)!, pages });
    else entry.pages.push(...pages);
  }
  return { sites: [...bySite.values()], problems };
}

/** The index file an input names: an index.jsonl, a set folder holding one, or a set of ../shared/data by name. */
function indexOf(input: string): string | null {
  if (input.endsWith(".jsonl") && isFile(input)) return input;
  if (isDirectory(input)) return isFile(join(input, "index.jsonl")) ? join(input, "index.jsonl") : null;
  if (!existsSync(input) && !/[\\/]/.test(input) && isFile(join(DATA_ROOT, input, "index.jsonl"))) return input;
  return null;
}

/**
 * A folder with pages at its top is one site (named by the folder; its sub-folders' pages belong to it too,
 * as in a saved site); otherwise each sub-folder holding pages is a site of its own.
 */
function loadFolder(folder: string, add: (label: string, page: InputPage) => void, problems: string[]): void {
  const entries = readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
  const pagesHere = entries.some((entry) => entry.isFile() && isPageInFolder(join(folder, entry.name)));
  if (pagesHere) {
    for (const file of pagesUnder(folder)) addPage(file, relative(folder, file), basename(folder), add, problems);
    return;
  }
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    const siteFolder = join(folder, entry.name);
    for (const file of pagesUnder(siteFolder)) addPage(file, relative(siteFolder, file), entry.name, add, problems);
  }
}


function addPage(path: string, id: string, label: string, add: (label: string, page: InputPage) => void, problems: string[]): void {
  const bytes = new Uint8Array(readFileSync(path));
  const decoded = decodeHtml(bytes);
  if (!decoded.ok) {
    problems.push(`${path}: ${decoded.reason} (${decoded.charset})`);
    return;
  }
  add(label, { id, url: "", html: decoded.html, bytes: bytes.length, gold: "" });
}

function isDirectory(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}

/** The page text the miner and the Worker's rules read (src/page pass 1). */
export function pageTextOf(html: string): string {
  return analysePage(html).text;
}

/** Splits a site's pages into a mining part and a held-out part: every other page (odd ordinals held out). */
export function splitAlternate<T>(pages: readonly T[]): { mine: T[]; heldOut: T[] } {
  return { mine: pages.filter((_page, index) => index % 2 === 0), heldOut: pages.filter((_page, index) => index % 2 === 1) };
}
