/**
 * npm run rules:publish [-- --remote] [--rules DIR] [--persist-to DIR] [--namespace-id ID] [--skip-invalid] [--dry-run]
 *
 * Writes every rule set of rules/ (model.json aside: it is the classifier, bundled with the Worker) to the KV
 * namespace bound as RULES, key = the rule set's site, with `wrangler kv bulk put`: the local namespace by
 * default (what `wrangler dev` and `npm start` read), a real one with --remote. Each file is validated with
 * parseRuleSet and every pattern with checkPatternSafety first; if any file is refused, nothing is written
 * (unless --skip-invalid, which writes the others), and each refusal says why.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseRuleSetText, ruleSetFileName } from "../src/rules/index";
import { parseCommand, runCommand, usageError, usageText, type Command } from "./lib/cli";
import { REPO_ROOT, RULES_FOLDER } from "./lib/paths";

const COMMAND: Command = {
  name: "rules:publish",
  usage: usageText("publish"),
};
/** The classifier model lives in rules/ too but is bundled with the Worker, not stored in KV. */
const MODEL_FILE = "model.json";

export interface KvEntry {
  readonly key: string;
  readonly value: string;
}

export interface CollectedRuleSets {
  readonly entries: KvEntry[];
  /** "file: reason" for every refused file. */
  readonly refused: string[];
  /** Files left aside on purpose (the model). */
  readonly skipped: string[];
}

/** Reads and checks every rule set file of a folder. */
export function collectRuleSets(folder: string): CollectedRuleSets {
  const entries: KvEntry[] = [];
  const refused: string[] = [];
  const skipped: string[] = [];
  for (const file of readdirSync(folder).filter((name) => name.endsWith(".json")).sort()) {
    if (file === MODEL_FILE) {
      skipped.push(file);
      continue;
    }
    const text = readFileSync(join(folder, file), "utf8");
    const parsed = parseRuleSetText(text, { checkPatterns: true });
    if (!parsed.ok) {
      const more = parsed.problems.length > 3 ? ` (and ${parsed.problems.length - 3} more)` : "";
      refused.push(`${file}: ${parsed.problems.slice(0, 3).join("; ")}${more}`);
      continue;
    }
    if (basename(file, ".json") !== ruleSetFileName(parsed.ruleSet.site)) {
      refused.push(`${file}: the file name does not match its site "${parsed.ruleSet.site}" (expected ${ruleSetFileName(parsed.ruleSet.site)}.json)`);
      continue;
    }
    // Stored compact: the Worker parses it once per TTL, and KV bills by size.
    entries.push({ key: parsed.ruleSet.site, value: JSON.stringify(parsed.ruleSet) });
  }
  return { entries, refused, skipped };
}

export interface BulkPutOptions {
  readonly remote: boolean;
  readonly persistTo?: string;
  readonly namespaceId?: string;
}

/** `wrangler kv bulk put` of the entries; returns wrangler's exit status and output. */
export function bulkPut(entries: readonly KvEntry[], options: BulkPutOptions): { ok: boolean; output: string } {
  const folder = mkdtempSync(join(tmpdir(), "rules-bulk-"));
  try {
    const file = join(folder, "rules-bulk.json");
    writeFileSync(file, JSON.stringify(entries));
    // wrangler.toml gives RULES a preview id too; the rules go to the namespace the deployed Worker reads.
    const target = options.namespaceId !== undefined ? ["--namespace-id", options.namespaceId] : ["--binding", "RULES", "--preview", "false"];
    const storage = options.remote ? ["--remote"] : ["--local", ...(options.persistTo ? ["--persist-to", options.persistTo] : [])];
    const result = spawnSync("npx", ["wrangler", "kv", "bulk", "put", file, ...target, ...storage], {
      cwd: REPO_ROOT,
      env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
      encoding: "utf8",
    });
    return { ok: result.status === 0, output: `${result.stdout ?? ""}${result.stderr ?? ""}`.trim() };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

function main(): number {
  const { values } = parseCommand(COMMAND, {
    options: {
      remote: { type: "boolean", default: false },
      rules: { type: "string", default: RULES_FOLDER },
      "persist-to": { type: "string" },
      "namespace-id": { type: "string" },
      "skip-invalid": { type: "boolean", default: false },
      "dry-run": { type: "boolean", default: false },
    },
  });
  if (!existsSync(values.rules) || !statSync(values.rules).isDirectory()) usageError(COMMAND, `--rules ${values.rules}: no such folder`);
  const collected = collectRuleSets(resolve(values.rules));
  for (const file of collected.skipped) console.log(`left aside: ${file} (the classifier model is bundled with the Worker)`);
  for (const refusal of collected.refused) console.error(`REFUSED ${refusal}`);
  if (collected.refused.length > 0 && !values["skip-invalid"]) {
    console.error(`${collected.refused.length} rule set(s) refused: nothing published (fix them, or pass --skip-invalid to publish the others)`);
    return 1;
  }
  if (collected.entries.length === 0) {
    console.error(`no rule set to publish in ${values.rules}`);
    return 1;
  }
  const where = values.remote ? "remote KV" : `local KV${values["persist-to"] ? ` in ${values["persist-to"]}` : ""}`;
  if (values["dry-run"]) {
    console.log(`would write ${collected.entries.length} rule set(s) to ${where}: ${collected.entries.map((entry) => entry.key).join(", ")}`);
    return 0;
  }
  const result = bulkPut(collected.entries, {
    remote: values.remote,
    persistTo: values["persist-to"],
    namespaceId: values["namespace-id"],
  });
  if (!result.ok) {
    console.error(`wrangler kv bulk put failed:\n${result.output}`);
    return 1;
  }
  console.log(`wrote ${collected.entries.length} rule set(s) to ${where} (binding RULES): ${collected.entries.map((entry) => entry.key).join(", ")}`);
  return collected.refused.length > 0 ? 1 : 0;
}

// Run as a script; imported (by npm start and the tests), it only lends its functions.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) await runCommand(COMMAND, main);
