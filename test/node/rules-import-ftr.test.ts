/** XPath to CSS for imported site configs, and `npm run rules:import-ftr` on configs written for the tests (test/fixtures/ftr). */
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { xpathToCss } from "../../src/rules/index";

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
  it("converts what maps to selectors and reports every other line with its file and line", () => {
    const result = spawnSync("npx", ["tsx", "scripts/rules-import-ftr.ts", "test/fixtures/ftr"], { cwd: REPO_ROOT, encoding: "utf8" });
    expect(result.status, result.stderr).toBe(0);
    const values = result.stdout.trim().split(/\n(?=\{)/).map((json) => JSON.parse(json) as { site: string; subdomains: boolean; main: string[]; strip: string[]; metadata: Record<string, string[]> });
    const news = values.find((value) => value.site === "news.example");
    expect(news).toMatchObject({
      subdomains: false,
      main: ["div#story-body", "article"],
      strip: ['div[class="related"], aside', '[id*="share"], [class*="share"]'],
      metadata: { title: ['h1[class="headline"]'], byline: ["span.byline"], date: ["time[datetime]"] },
    });
    expect(values.find((value) => value.site === "blog.example")).toMatchObject({ subdomains: true, main: ['div[class*="entry-content"]'], strip: [] });
    expect(result.stderr).toContain("news.example.txt:8: strip: a predicate with no selector equivalent: [1]");
    expect(result.stderr).toContain("news.example.txt:10: strip_id_or_class");
    expect(result.stderr).toContain("news.example.txt:11: date:");
    expect(result.stderr).toContain(".blog.example.txt:3: strip: a function with no selector equivalent: text()");
    expect(result.stderr).toContain("2 config(s): 8 selector(s) converted, 4 line(s) reported");
  });

  it("says what is wrong with a missing folder, without a stack", () => {
    const result = spawnSync("npx", ["tsx", "scripts/rules-import-ftr.ts", "/nonexistent/configs"], { cwd: REPO_ROOT, encoding: "utf8" });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("not a folder: /nonexistent/configs");
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
