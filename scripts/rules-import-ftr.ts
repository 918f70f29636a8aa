/**
 * npm run rules:import-ftr -- <folder> [--out DIR]
 *
 * Reads site configs in the Full-Text RSS format (one `<host>.txt` per site, `.host.txt` for its sub-domains; lines
 * `body:`, `strip:`, `strip_id_or_class:`, `title:`, `author:`, `date:`, the rest ignored) from a local folder and
 * makes each a RuleSet of version 2 (src/ftr-import: body → main, strip → strip, title/author/date →
 * metadata), reporting every line it cannot convert. Prints one rule set per site, or writes them to --out as
 * <site>.json, which load as they are (npm run rules:test -- <site> <page> --rules DIR, or PUT /v1/rules/<site>).
 * The configs stay where they are: nothing of them is copied into this repository.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { ruleSetFileName } from "../src/rules/index";
import { importFtrConfig } from "../src/ftr-import/index";
import { parseCommand, runCommand, usageError, usageText, type Command } from "./lib/cli";

const COMMAND: Command = {
  name: "rules:import-ftr",
  usage: usageText("rules-import-ftr"),
};

function main(): number {
  const parsed = parseCommand(COMMAND, { allowPositionals: true, options: { out: { type: "string" } } });
  const [folder] = parsed.positionals;
  if (folder === undefined || parsed.positionals.length > 1) usageError(COMMAND, "give one folder of site configs");
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    console.error(`not a folder: ${folder}`);
    return 1;
  }
  const files = readdirSync(folder).filter((file) => file.endsWith(".txt")).sort();
  const out = parsed.values.out === undefined ? null : resolve(parsed.values.out);
  if (out !== null) mkdirSync(out, { recursive: true });
  let converted = 0;
  let refused = 0;
  const importedAt = new Date().toISOString();
  for (const file of files) {
    const result = importFtrConfig(file, readFileSync(join(folder, file), "utf8"), importedAt);
    for (const problem of result.problems) console.error(`cannot convert ${problem}`);
    refused += result.problems.length;
    converted += result.converted;
    if (result.ruleSet === null) continue;
    if (result.subdomains) console.error(`${file}: written for ${result.ruleSet.site} (the config is for its sub-domains; a rule set is keyed by one site)`);
    const json = JSON.stringify(result.ruleSet, null, 2);
    if (out === null) console.log(json);
    else writeFileSync(join(out, `${ruleSetFileName(result.ruleSet.site)}.json`), `${json}\n`);
  }
  console.error(`${files.length} config(s): ${converted} selector(s) converted, ${refused} line(s) reported`);
  return 0;
}

await runCommand(COMMAND, main);
