/** `npm run rules:test` on a RuleSet of version 2: what each selector matches, removes or keeps (explainSelectors). */
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { analysePage } from "../../src/page/index";
import { explainSelectors, parseRuleSet, type RuleSet } from "../../src/rules/index";

const REPO_ROOT = resolve(import.meta.dirname, "../..");

const RULE_SET: RuleSet = {
  version: 2, site: "news.example", minedAt: "2026-11-24T00:00:00Z", pages: 0, cutoff: 0, mutablePatterns: [], rules: [], source: "hand",
  main: ["article", "#story", "body"], strip: [".share, aside"], keep: [".byline"], metadata: { byline: [".author"] },
};
const PAGE = '<html><body><nav>Home World</nav><div id="story"><h1>Rivers rise</h1><p class="byline">By <span class="author">Ann Lee</span></p><p>The river rose overnight.</p><div class="share">Share this</div></div><aside>Most read</aside></body></html>';

describe("explainSelectors", () => {
  it("tells per entry the elements it matches and their text, and which main entry cleaning uses", () => {
    expect(parseRuleSet(RULE_SET).ok).toBe(true);
    const page = analysePage(PAGE);
    const effects = explainSelectors(RULE_SET, page);
    const text = (pairs: Int32Array) => Array.from({ length: pairs.length / 2 }, (_, index) => page.text.slice(pairs[index * 2], pairs[index * 2 + 1]));
    expect(effects.map((effect) => [effect.path, effect.elements, effect.chosen])).toEqual([
      ["strip.0", 2, false], ["main.0", 0, false], ["main.1", 1, true], ["main.2", 1, false], ["keep.0", 1, false], ["metadata.byline.0", 1, false],
    ]);
    expect(text(effects[0].text)).toEqual(["Share this", "Most read"]);
    expect(text(effects[5].text)).toEqual(["Ann Lee"]);
  });
});

describe("npm run rules:test with selectors", () => {
  it("prints what each selector removes, keeps or reads, and what the set removes in mode rules", () => {
    const folder = mkdtempSync(join(tmpdir(), "rules-test-"));
    writeFileSync(join(folder, "news.example.json"), JSON.stringify(RULE_SET));
    writeFileSync(join(folder, "page.html"), PAGE);
    const result = spawnSync("npx", ["tsx", "scripts/rules-test.ts", "news.example", join(folder, "page.html"), "--rules", folder], { cwd: REPO_ROOT, encoding: "utf8" });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain("strip.0: .share, aside\n  2 element(s); removes 19 characters\n  - removes: Share this\n  - removes: Most read");
    expect(result.stdout).toContain("main.0: article\n  matches nothing");
    expect(result.stdout).toContain("main.1: #story\n  1 element(s); keeps only 59 characters (the first main entry that matches");
    expect(result.stdout).toContain("main.2: body\n  1 element(s); would keep");
    expect(result.stdout).toContain("keep.0: .byline\n  1 element(s); keeps 10 characters\n  + keeps: By Ann Lee");
    expect(result.stdout).toContain("metadata.byline.0: .author\n  1 element(s); reads 7 characters\n  + reads: Ann Lee");
    // nav (outside main), the share bar and the aside: "Home World", "Share this", "Most read".
    expect(result.stdout).toContain("news.example: cleaning with the set's rules and selectors (mode rules) removes 29 of 80 characters of page text");
  });
});
