/**
 * Digests of clean() output on a fixed sample of the dev pages, in every mode, as text and as html (the two
 * formats that come from the removal plan and pass 2 alone). test/fixtures/clean-digests.json holds them as the
 * pipeline wrote them before selectors existed; the test proves that a page without selectors and a rule set
 * without version 2 fields still clean byte for byte the same. It imports the pipeline by relative path only, so
 * the same file computes the digests on an older checkout.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { HTMLRewriter } from "html-rewriter-wasm";
import { clean, type CleanFormat } from "../../src/clean";
import { parseModel } from "../../src/classify/index";
import { loadDataset } from "../../src/evaluation/index";
import { compileRuleSet, parseRuleSetText, parseSiteKey, ruleSetFileName, type CompiledRuleSet, type RuleSet } from "../../src/rules/index";
import { createWasmBackend } from "../../src/runtime/index";

const MODES = ["rules", "classifier", "rules+classifier", "none"] as const;
const FORMATS: readonly CleanFormat[] = ["text", "html"];
/** The sample: two small sets whole and every tenth dragnet page (the sites with rule sets in rules/ among them). */
const SAMPLE: readonly [string, number][] = [["cleanportaleval", 1], ["cleaneval-dev", 1], ["dragnet", 10]];

/** A shipped set as version 1 (its text rules only): mined sets carry selectors and a default mode since issue 10. */
function textRulesOnly(ruleSet: RuleSet): RuleSet {
  const { strip: _strip, main: _main, keep: _keep, metadata: _metadata, defaultMode: _defaultMode, ...textRules } = ruleSet;
  return { ...textRules, version: 1 };
}

export async function cleanDigests(repositoryRoot: string): Promise<Record<string, string>> {
  const backend = createWasmBackend(HTMLRewriter);
  const model = parseModel(JSON.parse(readFileSync(join(repositoryRoot, "rules", "model.json"), "utf8")));
  if (!model.ok) throw new Error("rules/model.json is invalid");
  const ruleSets = new Map<string, CompiledRuleSet | null>();
  const ruleSetOf = (site: string): CompiledRuleSet | null => {
    if (!ruleSets.has(site)) {
      const key = parseSiteKey(site);
      const file = key === null ? "" : join(repositoryRoot, "rules", `${ruleSetFileName(key)}.json`);
      const parsed = file !== "" && existsSync(file) ? parseRuleSetText(readFileSync(file, "utf8")) : null;
      ruleSets.set(site, parsed?.ok === true ? compileRuleSet(textRulesOnly(parsed.ruleSet)) : null);
    }
    return ruleSets.get(site) ?? null;
  };
  const digests: Record<string, string> = {};
  for (const [set, step] of SAMPLE) {
    const { pages } = loadDataset(set);
    for (let index = 0; index < pages.length; index += step) {
      const page = pages[index];
      const hash = createHash("sha256");
      for (const mode of MODES) {
        for (const format of FORMATS) {
          const result = await clean({ html: page.html, url: page.url, site: page.site, format, ruleSet: ruleSetOf(page.site), model: model.model, rewriter: backend, options: { mode } });
          hash.update(`${mode} ${format} ${result.ok ? result.body : `bailout ${result.bailout}`}\u0000`);
        }
      }
      digests[`${set}/${page.id}`] = hash.digest("hex").slice(0, 24);
    }
  }
  return digests;
}
