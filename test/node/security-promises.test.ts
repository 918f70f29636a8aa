/**
 * docs/security.md's "What each configuration promises", row by row, against what each configuration runs with:
 * wrangler.toml's vars (every local and self-hosted run), npm run deploy's vars on top (Cloudflare), the Worker
 * tests' bindings, npm start's allowed origins; each through the settings and the guard the Worker uses. The
 * behaviour behind each promise is tested where it runs (guards-resolve, guards-target, origin-encoding-devtools).
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { checkTarget } from "../../src/http";
import type { Env } from "../../src/http/shared/bindings";
import { resolveSettings } from "../../src/http/shared/settings";
import { REPO_ROOT } from "../../scripts/lib/paths";
import { readWranglerSettings } from "../../scripts/lib/workerd";

const read = (path: string): string => readFileSync(resolve(REPO_ROOT, path), "utf8");

/** The rows of the promises table: configuration → its cells. */
function promisedRows(): Map<string, { pinning: string; privateTargets: string; metadata: string }> {
  const section = read("docs/security.md").split("### What each configuration promises")[1]?.split("\n### ")[0] ?? "";
  const rows = new Map<string, { pinning: string; privateTargets: string; metadata: string }>();
  for (const line of section.split("\n")) {
    const cells = line.split("|").slice(1, -1).map((cell) => cell.trim());
    if (cells.length !== 5 || cells[0] === "configuration" || cells[0].startsWith("---")) continue;
    rows.set(cells[0], { pinning: cells[2], privateTargets: cells[3], metadata: cells[4] });
  }
  return rows;
}

/** `--var NAME:value` pairs npm run deploy passes to wrangler deploy. */
function deployVars(): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const match of read("scripts/deploy.ts").matchAll(/"--var", "([A-Z_]+):([^"]*)"/g)) vars[match[1]] = match[2];
  return vars;
}

const WRANGLER_VARS = readWranglerSettings().vars;
const SAMPLE_ORIGIN = "http://127.0.0.1:8788";
/** Each configuration of the table, by its first cell, and the vars it runs with. */
const CONFIGURATIONS: Record<string, Record<string, string>> = {
  "`npm start`": { ...WRANGLER_VARS, ALLOWED_TARGET_ORIGINS: SAMPLE_ORIGIN },
  "`npm run dev`, `wrangler dev`, a self-hosted workerd": WRANGLER_VARS,
  Cloudflare: { ...WRANGLER_VARS, ...deployVars() },
  "the Worker tests": { ...WRANGLER_VARS, ALLOW_PRIVATE_TARGETS: "true" },
};
const METADATA_URLS = ["http://169.254.169.254/", "http://[::ffff:a9fe:a9fe]/", "http://192.0.0.192/", "http://[64:ff9b:1::a9fe:a9fe]/", "http://metadata.google.internal/"];

function settingsOf(vars: Record<string, string>) {
  return resolveSettings(vars as unknown as Env);
}

describe("what each configuration promises (docs/security.md)", () => {
  it("the table names every configuration, and the vars it runs with are the files'", () => {
    expect([...promisedRows().keys()].sort()).toEqual(Object.keys(CONFIGURATIONS).sort());
    expect(WRANGLER_VARS.PIN_TARGETS).toBe("on");
    expect(WRANGLER_VARS.ALLOW_PRIVATE_TARGETS).toBe("false");
    expect(deployVars()).toEqual({ PIN_TARGETS: "off" });
    // The Worker tests' bindings (vitest.config.ts) allow private targets and leave pinning as wrangler.toml sets it.
    const testBindings = /const TEST_BINDINGS = \{([\s\S]*?)\};/.exec(read("vitest.config.ts"))?.[1] ?? "";
    expect(testBindings).toContain('ALLOW_PRIVATE_TARGETS: "true"');
    expect(testBindings).not.toContain("PIN_TARGETS");
  });

  it.each(Object.entries(CONFIGURATIONS))("%s keeps its row's promises", (name, vars) => {
    const row = promisedRows().get(name)!;
    const settings = settingsOf(vars);
    expect(settings.pinAddresses ? "on" : "off", "pinning").toBe(row.pinning);
    const privateTarget = checkTarget("http://10.1.2.3/", settings).ok || checkTarget("http://127.0.0.1:1/", settings).ok;
    expect(privateTarget ? "allowed" : "refused", "private targets").toBe(row.privateTargets.split(",")[0]);
    if (row.privateTargets.includes("but the listed origins")) expect(checkTarget(`${SAMPLE_ORIGIN}/`, settings).ok).toBe(true);
    expect(row.metadata).toBe("refused");
    for (const url of METADATA_URLS) {
      expect(checkTarget(url, settings).ok, url).toBe(false);
      // Not even where the metadata origin itself is listed.
      expect(checkTarget(url, settingsOf({ ...vars, ALLOWED_TARGET_ORIGINS: new URL(url).origin })).ok, `${url} listed`).toBe(false);
    }
  });

  it("pinning is on wherever PIN_TARGETS is absent (a workerd configured by hand)", () => {
    expect(settingsOf({}).pinAddresses).toBe(true);
  });
});
