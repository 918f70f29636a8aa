import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseRuleSetText } from "../../src/rules/index";

const REPO_ROOT = resolve(import.meta.dirname, "../..");
const root = mkdtempSync(join(tmpdir(), "mine-cli-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A folder of sites: each sub-folder holds pages sharing a template (written here, not copied from elsewhere). */
function siteFolder(): string {
  const sites = join(root, "sites");
  for (const [site, pages] of [["www.harbour-news.example", 8], ["valley-post.example", 6], ["tiny.example", 2]] as const) {
    mkdirSync(join(sites, site), { recursive: true });
    for (let p = 0; p < pages; p++) {
      writeFileSync(
        join(sites, site, `page-${p}.html`),
        `<!doctype html><html><body><nav><a href="/">Home</a> | <a href="/news">News</a> | <a href="/sport">Sport</a></nav>
<p class="byline">Posted on ${p + 1} March 2012 by the ${site} desk</p>
<article><h1>Story ${p}: item${p} and thing${p * 3}</h1><p>Body ${p} words${p} other${p} text${p}.</p></article>
<footer><p>Copyright 2012 ${site}. All rights reserved.</p><p>Contact the newsroom</p></footer></body></html>`,
      );
    }
  }
  return sites;
}

describe("npm run mine", () => {
  it("mines a folder of sites, writes a valid rule set per site with enough pages and prints the summary", () => {
    const out = join(root, "rules");
    const result = spawnSync("npx", ["tsx", "scripts/mine.ts", siteFolder(), "--out", out, "--min-pages", "4"], {
      cwd: REPO_ROOT,
      encoding: "utf8",
    });
    expect(result.status, result.stderr).toBe(0);
    expect(readdirSync(out).sort()).toEqual(["harbour-news.example.json", "valley-post.example.json"]);
    for (const file of readdirSync(out)) {
      const parsed = parseRuleSetText(readFileSync(join(out, file), "utf8"), { checkPatterns: true });
      expect(parsed.ok, JSON.stringify(parsed)).toBe(true);
      if (!parsed.ok) continue;
      expect(parsed.ruleSet.rules.length).toBeGreaterThan(0);
      // The end of a page as page text (blocks apart by "\n"), another year: a rule finds the footer's template text
      // (a rule neither starts nor ends with a page's own value, so the year itself is left to the classifier).
      const footer = `Body 9 words9 other9 text9.\nCopyright 2019 ${file === "harbour-news.example.json" ? "www.harbour-news.example" : "valley-post.example"}. All rights reserved.\nContact the newsroom`;
      expect(parsed.ruleSet.rules.some((rule) => new RegExp(rule.pattern).exec(footer)?.[0].includes("All rights reserved")), file).toBe(true);
    }
    expect(result.stdout).toMatch(/site\s+pages\s+tokens\s+candidates\s+cutoff\s+kept\s+cross-site\s+rules\s+strip\s+main\s+keep\s+mode\s+seconds/);
    expect(result.stdout).toMatch(/harbour-news\.example\s+8\s+\d+/);
    expect(result.stdout).toMatch(/wrote 2 rule sets/);
  });

  it("refuses a bad option value in one line", () => {
    const result = spawnSync("npx", ["tsx", "scripts/mine.ts", "x", "--min-pages", "one"], { cwd: REPO_ROOT, encoding: "utf8" });
    expect(result.status).toBe(2);
    const lines = result.stderr.trimEnd().split("\n").filter((line) => !line.startsWith("npm warn"));
    expect(lines).toEqual(['npm run mine: --min-pages needs a whole number of at least 2, not "one" (see npm run mine -- --help)']);
  });

  it("tells how many pages each site has when none has enough", () => {
    const result = spawnSync("npx", ["tsx", "scripts/mine.ts", join(siteFolder(), "tiny.example")], { cwd: REPO_ROOT, encoding: "utf8" });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/no site with 4\+ pages \(found: tiny\.example 2\)/);
  });
});
