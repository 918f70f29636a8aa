import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { mineSites } from "../../src/mining/index";
import { bulkPut, collectRuleSets } from "../../scripts/publish";

const REPO_ROOT = resolve(import.meta.dirname, "../..");
const folders: string[] = [];

function temporaryFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), "publish-test-"));
  folders.push(folder);
  return folder;
}

afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A real mined rule set for a small synthetic site. */
function minedRuleSet(site: string) {
  const pageTexts = Array.from({ length: 6 }, (_, p) =>
    [`Home | News | Sport`, `Story ${p} text number ${p * 7} about item${p}`, `Contact us · Copyright 2012 Example`].join("\n"),
  );
  const [report] = mineSites([{ site, pageTexts }]);
  expect(report!.ruleSet.rules.length).toBeGreaterThan(0);
  return report!.ruleSet;
}

function rulesFolder(): string {
  const folder = temporaryFolder();
  writeFileSync(join(folder, "good.example.json"), JSON.stringify(minedRuleSet("good.example")));
  writeFileSync(join(folder, "model.json"), JSON.stringify({ features: [] }));
  return folder;
}

describe("publish: rules/ to KV", () => {
  it("keeps valid rule sets, leaves model.json aside and refuses invalid, unsafe or misnamed ones with a reason", () => {
    const folder = rulesFolder();
    const unsafe = { ...minedRuleSet("unsafe.example"), rules: [{ pattern: "(a+)+$", docFreq: 2, count: 2, tokens: 2 }] };
    writeFileSync(join(folder, "unsafe.example.json"), JSON.stringify(unsafe));
    writeFileSync(join(folder, "broken.example.json"), "{ not json");
    writeFileSync(join(folder, "other-name.json"), JSON.stringify(minedRuleSet("real-name.example")));
    const collected = collectRuleSets(folder);
    expect(collected.entries.map((entry) => entry.key)).toEqual(["good.example"]);
    expect(collected.skipped).toEqual(["model.json"]);
    expect(collected.refused).toHaveLength(3);
    expect(collected.refused.find((line) => line.startsWith("unsafe.example.json"))).toMatch(/unsafe/);
    expect(collected.refused.find((line) => line.startsWith("broken.example.json"))).toMatch(/not JSON/);
    expect(collected.refused.find((line) => line.startsWith("other-name.json"))).toMatch(/does not match its site/);
  });

  it("writes nothing and says why when a rule set is refused (the CLI)", () => {
    const folder = rulesFolder();
    writeFileSync(join(folder, "broken.example.json"), "{ not json");
    const result = spawnSync("npx", ["tsx", "scripts/publish.ts", "--rules", folder, "--persist-to", temporaryFolder()], {
      cwd: REPO_ROOT,
      encoding: "utf8",
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/REFUSED broken\.example\.json: not JSON/);
    expect(result.stderr).toMatch(/nothing published/);
  });

  it("puts the rule sets into a local KV namespace that wrangler reads back", { timeout: 120_000 }, () => {
    const collected = collectRuleSets(rulesFolder());
    const persist = temporaryFolder();
    const put = bulkPut(collected.entries, { remote: false, persistTo: persist });
    expect(put.ok, put.output).toBe(true);
    const read = spawnSync("npx", ["wrangler", "kv", "key", "get", "good.example", "--binding", "RULES", "--preview", "false", "--local", "--persist-to", persist, "--text"], {
      cwd: REPO_ROOT,
      encoding: "utf8",
      env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    });
    expect(read.status, read.stderr).toBe(0);
    expect(JSON.parse(read.stdout.trim())).toEqual(JSON.parse(collected.entries[0]!.value));
  });
});
