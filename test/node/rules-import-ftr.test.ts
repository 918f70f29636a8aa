/** XPath to CSS for imported site configs, and `npm run rules:import-ftr` (RuleSets of version 2) on configs written for the tests (test/fixtures/ftr). */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { HTMLRewriter } from "html-rewriter-wasm";
import { describe, expect, it } from "vitest";
import { clean } from "../../src/clean";
import { compileRuleSet, parseRuleSet, parseRuleSetText, type RuleSet } from "../../src/rules/index";
import { xpathToCss } from "../../src/ftr-import/index";
import { createWasmBackend } from "../../src/runtime/index";

const REPO_ROOT = resolve(import.meta.dirname, "../..");

describe("xpathToCss", () => {
  it.each([
    ["//div[@id='article-body']", "div#article-body"],
    ["//div[@class=\"related\"]", 'div[class="related"]'],
    ["//h1", "h1"],
    ["//div[contains(@class, 'share')]", 'div[class*="share"]'],
    ["//a[starts-with(@href,'/tag/')]", 'a[href^="/tag/"]'],
    ["//div[@id='main']//p", "div#main p"],
    ["//ul[@class='a']/li", 'ul[class="a"] > li'],
    ["//*[contains(concat(' ',normalize-space(@class),' '),' byline ')]", ".byline"],
    ["//time[@datetime] | //span[@class='date']", 'time[datetime], span[class="date"]'],
    ["//div[@class='a' and @id='b']", 'div[class="a"]#b'],
    ["//*[@id='x y']", '[id="x y"]'],
  ])("%s → %s", (xpath, css) => {
    expect(xpathToCss(xpath)).toEqual({ ok: true, selector: css });
  });

  it.each(["//div[@id='x']/text()", "//p[1]", "//meta[@name='author']/@content", "/html/body", "//div[not(@id)]", "//div[@class='a' or @id='b']", "//*[contains(concat(' ',normalize-space(@class),' '),'a b')]"])(
    "reports %s", (xpath) => {
      const converted = xpathToCss(xpath);
      expect(converted.ok).toBe(false);
      if (!converted.ok) expect(converted.reason.length).toBeGreaterThan(10);
    },
  );
});

describe("npm run rules:import-ftr", () => {
  it("makes each config a RuleSet of version 2 that loads, and reports every other line with its file and line", () => {
    const result = spawnSync("npx", ["tsx", "scripts/rules-import-ftr.ts", "test/fixtures/ftr"], { cwd: REPO_ROOT, encoding: "utf8" });
    expect(result.status, result.stderr).toBe(0);
    const values = result.stdout.trim().split(/\n(?=\{)/).map((json) => JSON.parse(json) as RuleSet);
    for (const value of values) expect(parseRuleSet(value)).toEqual({ ok: true, ruleSet: value });
    const news = values.find((value) => value.site === "news.example");
    expect(news).toMatchObject({
      version: 2,
      source: "imported",
      rules: [],
      main: ["div#story-body", "article"],
      strip: ['div[class="related"], aside', '[id*="share"], [class*="share"]'],
      metadata: { title: ['h1[class="headline"]'], byline: ["span.byline"], date: ["time[datetime]"] },
    });
    const blog = values.find((value) => value.site === "blog.example");
    expect(blog).toMatchObject({ version: 2, main: ['div[class*="entry-content"]'] });
    expect(blog?.strip).toBeUndefined();
    expect(result.stderr).toContain("news.example.txt:8: strip: a predicate with no selector equivalent: [1]");
    expect(result.stderr).toContain("news.example.txt:10: strip_id_or_class");
    expect(result.stderr).toContain("news.example.txt:11: date:");
    expect(result.stderr).toContain(".blog.example.txt:3: strip: a function with no selector equivalent: text()");
    expect(result.stderr).toContain(".blog.example.txt: written for blog.example (the config is for its sub-domains");
    expect(result.stderr).toContain("2 config(s): 8 selector(s) converted, 4 line(s) reported");
  });

  it("writes <site>.json files to --out that clean a page with their selectors", async () => {
    const out = mkdtempSync(join(tmpdir(), "ftr-"));
    const result = spawnSync("npx", ["tsx", "scripts/rules-import-ftr.ts", "test/fixtures/ftr", "--out", out], { cwd: REPO_ROOT, encoding: "utf8" });
    expect(result.status, result.stderr).toBe(0);
    expect(readdirSync(out).sort()).toEqual(["blog.example.json", "news.example.json"]);
    const parsed = parseRuleSetText(readFileSync(join(out, "news.example.json"), "utf8"));
    if (!parsed.ok) throw new Error(parsed.problems.join("; "));
    const html = '<body><nav>Home</nav><div id="story-body"><h1 class="headline">Harbour</h1><p>The harbour wall was rebuilt.</p><div class="related">Related: boats</div><div class="share-bar">Share</div></div><footer>Footer</footer></body>';
    const cleaned = await clean({ html, site: "news.example", format: "text", ruleSet: compileRuleSet(parsed.ruleSet), model: null, rewriter: createWasmBackend(HTMLRewriter), options: { textScope: "all" } });
    expect(cleaned.ok && cleaned.body).toBe("Harbour\n\nThe harbour wall was rebuilt.");
  });

  it("says what is wrong with a missing folder, without a stack", () => {
    const result = spawnSync("npx", ["tsx", "scripts/rules-import-ftr.ts", "/nonexistent/configs"], { cwd: REPO_ROOT, encoding: "utf8" });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("not a folder: /nonexistent/configs");
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
