/**
 * Inputs of the mining scripts: sites and their pages from an index.jsonl (../shared/data style, read with
 * loadDataset, which decodes each page's charset) or from a folder holding one sub-folder of pages per site.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { loadDataset } from "../src/evaluation/index";
import { siteKeyOfLabel } from "../src/rules/index";
import { analysePage, decodeHtml } from "../src/page/index";

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
  readonly pages: InputPage[];
}

export interface LoadedInput {
  readonly sites: InputSite[];
  readonly problems: string[];
}

/** Reads every input (index files or folders), grouping pages by site in first-seen order. */
export function loadSites(inputs: readonly string[]): LoadedInput {
  const byLabel = new Map<string, InputPage[]>();
  const problems: string[] = [];
  const add = (label: string, page: InputPage): void => {
    let pages = byLabel.get(label);
    if (pages === undefined) byLabel.set(label, (pages = []));
    pages.push(page);
  };
  for (const input of inputs) {
    const folderIndex = join(input, "index.jsonl");
    if (input.endsWith(".jsonl") || !isDirectory(input) || isFile(folderIndex)) {
      // A set name ("dragnet"), an index file, or a set folder holding index.jsonl.
      const loaded = loadDataset(isDirectory(input) ? folderIndex : input);
      problems.push(...loaded.problems);
      for (const page of loaded.pages) add(page.site, { id: page.id, url: page.url, html: page.html, bytes: page.bytes, gold: page.gold });
      continue;
    }
    loadFolder(resolve(input), add, problems);
  }
  // Keyed once all pages are in: a section label takes the path its pages' URLs share.
  const bySite = new Map<string, InputSite>();
  for (const [label, pages] of byLabel) {
    const site = siteKeyOfLabel(label, pages.map((page) => page.url).filter((url) => url !== ""));
    const entry = bySite.get(site);
    if (entry === undefined) bySite.set(site, { label, site, pages });
    else entry.pages.push(...pages);
  }
  return { sites: [...bySite.values()], problems };
}

function loadFolder(folder: string, add: (label: string, page: InputPage) => void, problems: string[]): void {
  for (const siteFolder of readdirSync(folder).sort()) {
    const path = join(folder, siteFolder);
    if (!isDirectory(path)) continue;
    for (const file of readdirSync(path).sort()) {
      if (!/\.x?html?$/i.test(file)) continue;
      const bytes = new Uint8Array(readFileSync(join(path, file)));
      const decoded = decodeHtml(bytes);
      if (!decoded.ok) {
        problems.push(`${join(path, file)}: ${decoded.reason} (${decoded.charset})`);
        continue;
      }
      add(siteFolder, { id: file, url: "", html: decoded.html, bytes: bytes.length, gold: "" });
    }
  }
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
