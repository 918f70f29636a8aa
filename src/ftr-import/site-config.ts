/**
 * Full-Text RSS site configs (one `<host>.txt` per site, `.<host>.txt` for its sub-domains) to RuleSets of version
 * 2: `body:` lines become `main` (in order: the first that matches wins, as there), `strip:` and
 * `strip_id_or_class:` become `strip`, `title:`, `author:` and `date:` the metadata selectors. Only XPath that
 * means the same as a selector is converted (xpath-to-css.ts); every other line is reported with its file and
 * line, never guessed. Other directives (test_url, prune, tidy…) have no equivalent and are left out.
 */
import { parseRuleSet, parseSiteKey, RULESET_VERSION_SELECTORS, type MetadataSelectors, type RuleSet } from "../rules";
import { xpathToCss } from "./xpath-to-css";

export interface FtrImport {
  /** The rule set (null when the file name is no host, or the result does not validate). */
  readonly ruleSet: RuleSet | null;
  /** Whether the config is for the host's sub-domains (".host.txt"); the set is keyed by the host itself. */
  readonly subdomains: boolean;
  /** Selectors converted. */
  readonly converted: number;
  /** Lines that could not be converted, as "<file>:<line>: <why>". */
  readonly problems: readonly string[];
}

const METADATA_KEYS: Readonly<Record<string, keyof MetadataSelectors>> = { title: "title", author: "byline", date: "date" };

/** strip_id_or_class: elements whose id or class holds the string (Full-Text RSS matches it as a substring). */
function idOrClass(value: string): string | null {
  return /^[A-Za-z0-9_ -]+$/.test(value) ? `[id*="${value}"], [class*="${value}"]` : null;
}

/** Converts one config; `fileName` is its name in the folder (it names the site), `importedAt` an ISO timestamp. */
export function importFtrConfig(fileName: string, text: string, importedAt: string): FtrImport {
  const name = fileName.replace(/\.txt$/, "");
  const subdomains = name.startsWith(".");
  const site = parseSiteKey(subdomains ? name.slice(1) : name);
  if (site === null) return { ruleSet: null, subdomains, converted: 0, problems: [`${fileName}: "${name}" is not a host name`] };
  const main: string[] = [];
  const strip: string[] = [];
  const metadata: Record<keyof MetadataSelectors, string[]> = { title: [], byline: [], date: [] };
  const problems: string[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    const match = /^\s*([a-z_]+)\s*:\s*(.*?)\s*$/.exec(line);
    if (match === null || line.trim().startsWith("#")) return;
    const [, key, value] = match;
    const where = `${fileName}:${index + 1}`;
    if (key === "strip_id_or_class") {
      const selector = idOrClass(value);
      if (selector === null) problems.push(`${where}: strip_id_or_class "${value}" holds characters a selector value cannot`);
      else strip.push(selector);
      return;
    }
    const target = key === "body" ? main : key === "strip" ? strip : key in METADATA_KEYS ? metadata[METADATA_KEYS[key]] : null;
    if (target === null) return;
    const converted = xpathToCss(value);
    if (converted.ok) target.push(converted.selector);
    else problems.push(`${where}: ${key}: ${converted.reason}`);
  });
  const fields = Object.fromEntries(Object.entries(metadata).filter(([, selectors]) => selectors.length > 0)) as MetadataSelectors;
  const value: RuleSet = {
    version: RULESET_VERSION_SELECTORS, site, minedAt: importedAt, pages: 0, cutoff: 0, mutablePatterns: [], rules: [], source: "imported",
    ...(main.length > 0 ? { main } : {}), ...(strip.length > 0 ? { strip } : {}), ...(Object.keys(fields).length > 0 ? { metadata: fields } : {}),
  };
  const converted = main.length + strip.length + metadata.title.length + metadata.byline.length + metadata.date.length;
  const parsed = parseRuleSet(value);
  if (!parsed.ok) return { ruleSet: null, subdomains, converted, problems: [...problems, ...parsed.problems.map((problem) => `${fileName}: ${problem}`)] };
  return { ruleSet: parsed.ruleSet, subdomains, converted, problems };
}
