/** `npm run rules:test`: what each rule removes or keeps on one page, from explainRules and through the script. */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { analysePage } from "../../src/page/index";
import { compileRuleSet, explainRules, parseRuleSetText } from "../../src/rules/index";

const REPO_ROOT = resolve(import.meta.dirname, "../..");
const PAGE = join(REPO_ROOT, "samples", "wrenmouth-gazette.example", "harbour-dredging-approved.html");
const slices = (text: string, pairs: Int32Array) => Array.from({ length: pairs.length / 2 }, (_, index) => text.slice(pairs[index * 2], pairs[index * 2 + 1]).trim());

describe("explainRules", () => {
  it("tells, per rule, what it removes and what it matches but keeps, and what the set removes together", () => {
    const parsed = parseRuleSetText(readFileSync(join(REPO_ROOT, "rules", "wrenmouth-gazette.example.json"), "utf8"));
    if (!parsed.ok) throw new Error(parsed.problems.join("; "));
    const text = analysePage(readFileSync(PAGE, "utf8")).text;
    const explanation = explainRules(compileRuleSet(parsed.ruleSet), text);
    const byline = explanation.rules.find((rule) => rule.pattern.startsWith("Reporter"));
    expect(byline).toBeDefined();
    expect(byline!.matches).toBe(1);
    expect(slices(text, byline!.kept)).toEqual(["Reporter · 14 March 2026"]);
    expect(slices(text, byline!.removed).join(" ")).toContain("Share this story");
    // Removed and kept never overlap, and together they are what the rule matched.
    const removedText = slices(text, explanation.removed).join("\n");
    expect(removedText).toContain("We use cookies");
    expect(removedText).not.toContain("14 March 2026");
  });
});

describe("npm run rules:test", () => {
  it("prints each matching rule with what it removes and keeps", () => {
    const result = spawnSync("npx", ["tsx", "scripts/rules-test.ts", "wrenmouth-gazette.example", PAGE], { cwd: REPO_ROOT, encoding: "utf8" });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain("+ keeps:   Reporter · 14 March 2026");
    expect(result.stdout).toContain("- removes: Share this story Facebook X WhatsApp Email");
    expect(result.stdout).toMatch(/wrenmouth-gazette\.example: 9 rule\(s\), 9 matching this page; together they remove \d+ of \d+ characters/);
  });

  it("says clearly what is wrong with its arguments", () => {
    const run = (...args: string[]) => spawnSync("npx", ["tsx", "scripts/rules-test.ts", ...args], { cwd: REPO_ROOT, encoding: "utf8" });
    const missing = run("nowhere.example", PAGE);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain("no rule set for nowhere.example");
    const bad = run("not_a_site!", PAGE);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("is not a site key");
    const noPage = run("wrenmouth-gazette.example", "/nonexistent/page.html");
    expect(noPage.status).toBe(1);
    expect(noPage.stderr).toContain("no such file");
    expect(missing.stderr + bad.stderr + noPage.stderr).not.toMatch(/\n\s+at /); // never a stack
  });
});
