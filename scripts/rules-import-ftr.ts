/**
 * npm run rules:import-ftr -- <folder> [--out DIR]
 *
 * Reads site configs in the Full-Text RSS format (one `<host>.txt` per site, `.host.txt` for its sub-domains; lines
 * `body:`, `strip:`, `strip_id_or_class:`, `title:`, `author:`, `date:`, the rest ignored) from a local folder,
 * converts the XPath forms that mean the same as a CSS selector (src/rules/xpath-to-css.ts), and reports every
 * line it cannot convert. Prints one JSON value per site (`site`, `source: "imported"`, `main`, `strip`,
 * `metadata`), or writes them to --out as <site>.selectors.json. The configs stay where they are: nothing of
 * them is copied into this repository.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { parseSiteKey, ruleSetFileName, xpathToCss } from "../src/rules/index";

const USAGE = "usage: npm run rules:import-ftr -- <folder of site configs> [--out DIR]";

interface ImportedSelectors {
  readonly site: string;
  /** Whether the config is for the host's sub-domains (a file named ".host.txt"). */
  readonly subdomains: boolean;
  readonly source: "imported";
  readonly main: string[];
  readonly strip: string[];
  readonly metadata: { title: string[]; byline: string[]; date: string[] };
}

const METADATA_FIELDS: Readonly<Record<string, keyof ImportedSelectors["metadata"]>> = { title: "title", author: "byline", date: "date" };

/** strip_id_or_class: elements whose id or class holds the string (Full-Text RSS matches it as a substring). */
function idOrClass(value: string): string | null {
  return /^[A-Za-z0-9_ -]+$/.test(value) ? `[id*="${value}"], [class*="${value}"]` : null;
}

function importConfig(file: string, text: string): { selectors: ImportedSelectors | null; problems: string[] } {
  const name = basename(file, ".txt");
  const subdomains = name.startsWith(".");
  const site = parseSiteKey(subdomains ? name.slice(1) : name);
  if (site === null) return { selectors: null, problems: [`${file}: "${name}" is not a host name`] };
  const selectors: ImportedSelectors = { site, subdomains, source: "imported", main: [], strip: [], metadata: { title: [], byline: [], date: [] } };
  const problems: string[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    const match = /^\s*([a-z_]+)\s*:\s*(.*?)\s*$/.exec(line);
    if (match === null || line.trim().startsWith("#")) return;
    const [, key, value] = match;
    const where = `${file}:${index + 1}`;
    if (key === "strip_id_or_class") {
      const selector = idOrClass(value);
      if (selector === null) problems.push(`${where}: strip_id_or_class "${value}" holds characters a selector value cannot`);
      else selectors.strip.push(selector);
      return;
    }
    const target = key === "body" ? selectors.main : key === "strip" ? selectors.strip : key in METADATA_FIELDS ? selectors.metadata[METADATA_FIELDS[key]] : null;
    if (target === null) return; // other directives (test_url, prune, tidy, …) have no equivalent here
    const converted = xpathToCss(value);
    if (converted.ok) target.push(converted.selector);
    else problems.push(`${where}: ${key}: ${converted.reason}`);
  });
  return { selectors, problems };
}

function main(): number {
  let parsed;
  try {
    parsed = parseArgs({ args: process.argv.slice(2), allowPositionals: true, options: { out: { type: "string" } } });
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const [folder] = parsed.positionals;
  if (folder === undefined || parsed.positionals.length > 1) {
    console.error(USAGE);
    return 2;
  }
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    console.error(`not a folder: ${folder}`);
    return 1;
  }
  const files = readdirSync(folder).filter((file) => file.endsWith(".txt")).sort();
  const out = parsed.values.out === undefined ? null : resolve(parsed.values.out);
  if (out !== null) mkdirSync(out, { recursive: true });
  let converted = 0;
  let refused = 0;
  for (const file of files) {
    const result = importConfig(file, readFileSync(join(folder, file), "utf8"));
    for (const problem of result.problems) console.error(`cannot convert ${problem}`);
    refused += result.problems.length;
    if (result.selectors === null) continue;
    const { selectors } = result;
    converted += selectors.main.length + selectors.strip.length + selectors.metadata.title.length + selectors.metadata.byline.length + selectors.metadata.date.length;
    const json = JSON.stringify(selectors, null, 2);
    if (out === null) console.log(json);
    else writeFileSync(join(out, `${ruleSetFileName(selectors.site)}.selectors.json`), `${json}\n`);
  }
  console.error(`${files.length} config(s): ${converted} selector(s) converted, ${refused} line(s) reported`);
  return 0;
}

process.exitCode = main();
