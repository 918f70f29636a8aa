/**
 * npm run deploy: `wrangler deploy` of the edge Worker (wrangler.toml), then of the control Worker
 * (wrangler.control.toml), which must bind the same KV namespace. Wrangler gives a KV binding without an id a
 * namespace of its own on first deploy and writes the id back into that config only, so the edge's id is
 * copied into the control's config here, between the two deploys.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fail, parseCommand, runCommand, usageText, type Command } from "./lib/cli";
import { REPO_ROOT } from "./lib/paths";

const COMMAND: Command = {
  name: "deploy",
  usage: usageText("deploy"),
};

const EDGE_CONFIG = "wrangler.toml";
/**
 * Vars that hold on Cloudflare only: wrangler.toml pins fetched names to their checked address (PIN_TARGETS "on"),
 * which every local and self-hosted run needs; Cloudflare's egress reaches no private network, and pinned, an https
 * URL by name would be refused (docs/security.md, "One resolution per fetch").
 */
const CLOUDFLARE_VARS = ["--var", "PIN_TARGETS:off"] as const;
const CONTROL_CONFIG = "wrangler.control.toml";

/** A [[kv_namespaces]] table of a TOML file: from its header to the next table header or the end. */
const KV_TABLE = /^\[\[kv_namespaces\]\][\s\S]*?(?=^\[|(?![\s\S]))/gm;

/** The table that binds RULES in a config's text: where it is, and its id (null when it has none). */
function rulesTable(text: string): { readonly start: number; readonly table: string; readonly id: string | null } | null {
  for (const match of text.matchAll(KV_TABLE)) {
    if (!/^binding\s*=\s*"RULES"\s*$/m.test(match[0])) continue;
    return { start: match.index, table: match[0], id: /^id\s*=\s*"([^"]+)"\s*$/m.exec(match[0])?.[1] ?? null };
  }
  return null;
}

function wrangler(args: readonly string[]): boolean {
  const result = spawnSync("npx", ["wrangler", "deploy", ...args], { cwd: REPO_ROOT, stdio: "inherit", env: process.env });
  return result.status === 0;
}

/** The control config with the edge's RULES id (written when it differs); fails if the edge's config has none. */
function shareNamespaceId(): void {
  const id = rulesTable(readFileSync(join(REPO_ROOT, EDGE_CONFIG), "utf8"))?.id ?? null;
  if (id === null) fail(COMMAND, `${EDGE_CONFIG} has no id for the KV namespace RULES after its deploy; set it (wrangler kv namespace list) and run again`);
  const path = join(REPO_ROOT, CONTROL_CONFIG);
  const control = readFileSync(path, "utf8");
  const found = rulesTable(control);
  if (found === null) fail(COMMAND, `${CONTROL_CONFIG} has no [[kv_namespaces]] table binding RULES`);
  if (found.id === id) return;
  const table = found.id === null
    ? found.table.replace(/^(binding[ \t]*=[ \t]*"RULES"[ \t]*)$/m, `$1\nid = "${id}"`)
    : found.table.replace(/^id[ \t]*=[ \t]*"[^"]+"[ \t]*$/m, `id = "${id}"`);
  writeFileSync(path, control.slice(0, found.start) + table + control.slice(found.start + found.table.length));
  console.log(`${CONTROL_CONFIG}: the KV namespace RULES is the edge's (${id}); commit the file`);
}

function main(): number {
  const { values } = parseCommand(COMMAND, { options: { "dry-run": { type: "boolean" }, "secrets-file": { type: "string" } } });
  const dryRun = values["dry-run"] === true ? ["--dry-run"] : [];
  const secrets = values["secrets-file"] === undefined ? [] : ["--secrets-file", values["secrets-file"]];
  if (!wrangler(["-c", EDGE_CONFIG, ...CLOUDFLARE_VARS, ...dryRun, ...secrets])) return 1;
  // A dry run provisions nothing: the control Worker builds without the id.
  if (dryRun.length === 0) shareNamespaceId();
  return wrangler(["-c", CONTROL_CONFIG, ...dryRun]) ? 0 : 1;
}

await runCommand(COMMAND, main);
