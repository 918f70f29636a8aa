/**
 * clean(), the whole pipeline, in Node with html-rewriter-wasm: formats, modes, limits and bailouts on a
 * written page, and every page of two data sets cleaned by its site's mined rules or the classifier.
 */
import { HTMLRewriter } from "html-rewriter-wasm";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { classifyPage, parseModel, type ClassifierModel } from "../../src/classify/index";
import { clean, type CleanInput } from "../../src/clean";
import { hasData, loadDataset } from "../../src/evaluation/index";
import { analysePage } from "../../src/page/index";
import { writeText } from "../../src/rewrite/index";
import { compileRuleSet, parseRuleSet, type CompiledRuleSet } from "../../src/rules/index";
import { createWasmBackend, createWorkerdBackend } from "../../src/runtime/index";
import { everyDevPage } from "../support/dev-data";

const REPO_ROOT = join(import.meta.dirname, "../..");
const backend = createWasmBackend(HTMLRewriter);

function loadModel(): ClassifierModel {
  const parsed = parseModel(JSON.parse(readFileSync(join(REPO_ROOT, "rules/model.json"), "utf8")));
  if (!parsed.ok) throw new Error(parsed.problems.join("; "));
  return parsed.model;
}

function ruleSetOf(site: string, patterns: string[]): CompiledRuleSet {
  const parsed = parseRuleSet({
    version: 1, site, minedAt: "2026-11-21T00:00:00.000Z", pages: 8, cutoff: 0.5, mutablePatterns: [],
    rules: patterns.map((pattern) => ({ pattern, docFreq: 1, count: 8, tokens: 2 })),
  });
  if (!parsed.ok) throw new Error(parsed.problems.join("; "));
  return compileRuleSet(parsed.ruleSet);
}

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tide tables &amp; more</title>
<style>body{font-family:serif}</style><link rel="stylesheet" href="/site.css"></head>
<body><nav class="menu"><ul><li><a href="/">Home</a><li><a href="/news">News</a></ul></nav>
<article><h1>Tide tables</h1><p>The spring tide comes in at dawn.<img src="/tide.png" alt="tide"></p>
<p>Share this page: mail, print</p><p>Boats wait in the harbour until noon.</article>
<footer><p>Copyright Wrenmouth Gazette</footer></body></html>`;

function input(overrides: Partial<CleanInput>): CleanInput {
  return { html: PAGE, site: "wrenmouth.example", format: "html", ruleSet: null, model: null, rewriter: backend, ...overrides };
}

describe("clean() on a written page", () => {
  const rules = ruleSetOf("wrenmouth.example", ["Home\\s+News", "Share this page: mail, print", "Copyright Wrenmouth Gazette"]);

  it("removes rule matches as whole blocks and keeps head, styles and kept images", async () => {
    const result = await clean(input({ ruleSet: rules }));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.mode).toBe("rules");
    expect(result.contentType).toBe("text/html; charset=utf-8");
    expect(result.body).toContain("<title>Tide tables &amp; more</title>");
    expect(result.body).toContain("<style>body{font-family:serif}</style>");
    expect(result.body).toContain('<link rel="stylesheet" href="/site.css">');
    expect(result.body).toContain('<img src="/tide.png" alt="tide">');
    expect(result.body).not.toContain("Share this page");
    expect(result.body).not.toContain("<nav");
    expect(result.body).not.toContain("Copyright");
    expect(result.body).not.toContain("data-clean-remove");
    expect(analysePage(result.body).text).toBe("Tide tables\nThe spring tide comes in at dawn.\nBoats wait in the harbour until noon.");
    expect(result.removed.blocks).toBe(3);
    expect(Object.keys(result.timings)).toEqual(["analyse", "rules", "decide", "rewrite", "format"]);
  });

  it("writes text and markdown from the page model, and json with the html", async () => {
    const text = await clean(input({ ruleSet: rules, format: "text" }));
    expect(text.ok && text.body).toContain("The spring tide comes in at dawn.");
    expect(text.ok && text.body).not.toContain("Share this page");
    expect(text.ok && text.contentType).toBe("text/plain; charset=utf-8");
    const markdown = await clean(input({ ruleSet: rules, format: "markdown" }));
    expect(markdown.ok && markdown.body).toContain("The spring tide comes in at dawn.");
    expect(markdown.ok && markdown.body).not.toContain("Copyright");
    expect(markdown.ok && markdown.contentType).toBe("text/markdown; charset=utf-8");
    const json = await clean(input({ ruleSet: rules, format: "json" }));
    expect(json.ok).toBe(true);
    if (!json.ok) return;
    const document = JSON.parse(json.body) as { title: string; lang: string; html: string; mode: string };
    expect(document.title).toBe("Tide tables & more");
    expect(document.lang).toBe("en");
    expect(document.mode).toBe("rules");
    expect(document.html).not.toContain("<nav");
  });

  it("uses rules and the classifier together by default where there are rules, rules alone on request", async () => {
    const alone = await clean(input({ ruleSet: rules, model: loadModel(), options: { withRules: "rules" } }));
    expect(alone.ok && alone.mode).toBe("rules");
    const both = await clean(input({ ruleSet: rules, model: loadModel() }));
    expect(both.ok && both.mode).toBe("rules+classifier");
    expect(both.ok && Object.keys(both.timings)).toEqual(["analyse", "rules", "classify", "smooth", "decide", "rewrite", "format"]);
    const forced = await clean(input({ ruleSet: rules, model: loadModel(), options: { mode: "classifier" } }));
    expect(forced.ok && forced.mode).toBe("classifier");
  });

  it("cleans in mode auto with the mode the rule set chose (RuleSet.defaultMode), an asked mode over it", async () => {
    const chose = (mode: "rules" | "classifier" | "rules+classifier") => ({ ...rules, defaultMode: mode });
    for (const mode of ["rules", "classifier", "rules+classifier"] as const) {
      const result = await clean(input({ ruleSet: chose(mode), model: loadModel() }));
      expect(result.ok && result.mode).toBe(mode);
    }
    // Without the model, a set that chose the classifier is still cleaned by its rules.
    expect(await clean(input({ ruleSet: chose("classifier") })).then((result) => result.ok && result.mode)).toBe("rules");
    const asked = await clean(input({ ruleSet: chose("classifier"), model: loadModel(), options: { mode: "rules" } }));
    expect(asked.ok && asked.mode).toBe("rules");
  });

  it("drops a classifier plan that would leave no text at all (a fragment such as a feed item's menu)", async () => {
    const menu = '<ul><li><a href="/">Home</a></li><li><a href="/n">News</a></li><li><a href="/s">Sport</a></li></ul>';
    const model = loadModel();
    expect(writeText(analysePage(menu), classifyPage(analysePage(menu), model, { smoothing: true }).plan).trim()).toBe("");
    const result = await clean(input({ html: menu, model, format: "text" }));
    expect(result.ok && result.mode).toBe("none");
    expect(result.ok && result.body).toBe("Home\n\nNews\n\nSport");
  });

  it("uses the classifier when there are no rules, and passes the page through with neither", async () => {
    const classified = await clean(input({ model: loadModel() }));
    expect(classified.ok && classified.mode).toBe("classifier");
    expect(classified.ok && Object.keys(classified.timings)).toContain("smooth");
    const untouched = await clean(input({}));
    expect(untouched.ok && untouched.mode).toBe("none");
    expect(untouched.ok && untouched.body).toBe(PAGE);
  });

  it("declares UTF-8 in the html output of a page that declared another charset", async () => {
    const declared = PAGE.replace('<meta charset="utf-8">', '<meta http-equiv="content-type" content="text/html; charset=windows-1252">');
    const result = await clean(input({ html: declared }));
    expect(result.ok && result.body).toContain('content="text/html; charset=utf-8"');
    expect(result.ok && result.body).not.toContain("windows-1252");
    expect(result.ok && analysePage(result.body).text).toBe(analysePage(declared).text);
  });

  it("bails out past its limits, on a broken rule set and when the rewriter fails, without throwing", async () => {
    const large = await clean(input({ options: { maxBytes: 100 } }));
    expect(large).toMatchObject({ ok: false, bailout: "too-large" });
    const wide = await clean(input({ options: { maxBlocks: 3 } }));
    expect(wide).toMatchObject({ ok: false, bailout: "too-many-blocks" });
    const broken = { ...rules, rules: [{ index: 0, pattern: "x", regex: null }] } as unknown as CompiledRuleSet;
    expect(await clean(input({ ruleSet: broken }))).toMatchObject({ ok: false, bailout: "internal-error" });
    // workerd's backend outside workerd: its rewrite reports an error, which becomes a bailout. The rule takes a block
    // that an ancestor's end tag closes, which goes through HTMLRewriter (one its own end tag closes is cut before it).
    const closedByArticle = ruleSetOf("wrenmouth.example", ["Boats wait in the harbour until noon\\."]);
    expect(await clean(input({ ruleSet: closedByArticle, rewriter: createWorkerdBackend() }))).toMatchObject({ ok: false, bailout: "rewrite-failed" });
  });
});

describe("clean(): markdown with front matter", () => {
  const page = PAGE.replace("<article><h1>", '<article><p class="by">By Jo Reporter</p><h1>').replace("<title>", '<meta name="author" content="Meta Author"><title>');

  it("writes the block from the page model clean() read (no second analysis), the site's metadata selectors first", async () => {
    const url = "https://wrenmouth.example/tides";
    const plain = await clean(input({ html: page, url, format: "markdown", options: { mode: "none", frontMatter: true } }));
    if (!plain.ok) throw new Error(plain.detail);
    expect(plain.body).toMatch(/^---\ntitle: "Tide tables & more"\nurl: "https:\/\/wrenmouth\.example\/tides"\nbyline: "Meta Author"\n---\n\n/);
    const without = await clean(input({ html: page, url, format: "markdown", options: { mode: "none" } }));
    if (!without.ok) throw new Error(without.detail);
    expect(plain.body.endsWith(`---\n\n${without.body}`)).toBe(true);
    const parsed = parseRuleSet({ version: 2, site: "wrenmouth.example", minedAt: "2026-11-21T00:00:00.000Z", pages: 8, cutoff: 0.5, mutablePatterns: [], rules: [], metadata: { byline: [".by"] } });
    if (!parsed.ok) throw new Error(parsed.problems.join("; "));
    const ruled = await clean(input({ html: page, url, format: "markdown", ruleSet: compileRuleSet(parsed.ruleSet), options: { mode: "rules", frontMatter: true } }));
    if (!ruled.ok) throw new Error(ruled.detail);
    expect(ruled.body).toMatch(/^---\n(?:[a-z]+: "[^\n]*"\n)*byline: "By Jo Reporter"\n---\n/);
  });
});

describe.runIf(everyDevPage(hasData(), "rewrite-pipeline.test.ts"))("clean() on the pages of ../shared/data", () => {
  const model = hasData() ? loadModel() : null;
  for (const set of ["cleanportaleval", "cleaneval-dev"]) {
    it(`set ${set}: every page cleaned, by its site's rules or the classifier, output that parses to the kept text`, async () => {
      const problems: string[] = [];
      for (const page of loadDataset(set).pages) {
        const path = join(REPO_ROOT, "rules", `${page.site}.json`);
        const parsed = existsSync(path) ? parseRuleSet(JSON.parse(readFileSync(path, "utf8"))) : null;
        const ruleSet = parsed?.ok ? compileRuleSet(parsed.ruleSet) : null;
        const html = await clean({ html: page.html, site: page.site, format: "html", ruleSet, model, rewriter: backend });
        // All the kept text: the text format's default leaves the article's header and figures' captions out.
        const text = await clean({ html: page.html, site: page.site, format: "text", ruleSet, model, rewriter: backend, options: { textScope: "all" } });
        if (!html.ok || !text.ok) {
          problems.push(`${page.id}: ${html.ok ? "" : html.detail} ${text.ok ? "" : text.detail}`);
          continue;
        }
        // A set's chosen default mode (RuleSet.defaultMode), else rules plus the classifier; no set, the classifier.
        if (html.mode !== (ruleSet ? ruleSet.defaultMode ?? "rules+classifier" : "classifier")) problems.push(`${page.id}: mode ${html.mode}`);
        // The writers space words their own way; the characters must be the same.
        const outputCharacters = analysePage(html.body).text.replace(/\s+/g, "");
        const keptCharacters = text.body.replace(/\s+/g, "");
        if (outputCharacters !== keptCharacters) problems.push(`${page.id}: html output and text output differ`);
      }
      expect(problems.slice(0, 10)).toEqual([]);
    });
  }
});
