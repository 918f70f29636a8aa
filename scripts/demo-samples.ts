/**
 * The demo page's sample list (the DEMO_SAMPLES var) for a sample site served from a folder: every HTML
 * page of the folder, its path as the title, its URL under the server that serves the folder.
 */
import { readdirSync } from "node:fs";
import { resolve } from "node:path";

export interface DemoSampleEntry {
  readonly title: string;
  readonly url: string;
}

export function demoSamples(folder: string, baseUrl: string): DemoSampleEntry[] {
  const pages: string[] = [];
  const walk = (current: string, prefix: string): void => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(resolve(current, entry.name), `${prefix}${entry.name}/`);
      else if (entry.name.endsWith(".html")) pages.push(`${prefix}${entry.name}`);
    }
  };
  walk(folder, "");
  return pages.sort().map((page) => ({ title: page, url: `${baseUrl.replace(/\/$/, "")}/${page}` }));
}
