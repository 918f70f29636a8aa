import { HTMLRewriter } from "html-rewriter-wasm";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseModel } from "../../src/classify/index";
import { clean } from "../../src/clean";
import { hasData, loadDataset } from "../../src/evaluation/index";
import { analysePage, type PageModel } from "../../src/page/index";
import { normalisePlan, type RemovalPlan } from "../../src/plan/index";
import { buildReaderDocument, writeJson, writeMarkdown, writeText } from "../../src/rewrite/index";
import { compileRuleSet, parseRuleSetText } from "../../src/rules/index";
import { createWasmBackend } from "../../src/runtime/index";
import { RULES_FOLDER, SAMPLE_FOLDER, SAMPLE_SITE, SHIPPED_MODEL } from "../../scripts/lib/paths";

const dataPresent = hasData();
if (!dataPresent) console.warn("reader JSON tests on real pages skipped: ../shared/data is absent");

function emptyPlan(page: PageModel): RemovalPlan {
  return { removedBlocks: new Uint8Array(page.blockCount), removedText: new Int32Array(0) };
}

const CONTEXT = { site: "example.com", mode: "rules", html: "<p>cleaned</p>", comments: "", removed: { blocks: 1, chars: 4 }, timings: { analyse: 0.5 } };

describe("reader JSON", () => {
  it("has every field, in the documented shape, with nulls for what the page does not say", () => {
    const page = analysePage("<html lang=de><head><title> Kurz </title></head><body><nav>Menü</nav><p>Text hier.</p></body></html>");
    const plan = emptyPlan(page);
    plan.removedBlocks[1] = 1; // the nav
    const document = JSON.parse(writeJson(page, normalisePlan(page, plan), CONTEXT));
    expect(document).toEqual({
      url: null,
      site: "example.com",
      title: "Kurz",
      lang: "de",
      dir: null,
      byline: null,
      published: null,
      leadImage: null,
      siteName: null,
      excerpt: null,
      wordCount: 2,
      readerable: false,
      text: "Text hier.",
      markdown: "Text hier.",
      html: "<p>cleaned</p>",
      content: "<p>Text hier.</p>",
      comments: "",
      mode: "rules",
      kind: "unknown",
      removed: { blocks: 1, chars: 4 },
      timings: { analyse: 0.5 },
    });
  });

  it.skipIf(!dataPresent)("carries a real page's metadata and the writers' text and Markdown (abcnews.go.com)", () => {
    const entry = loadDataset("dragnet").pages.find((candidate) => candidate.id === "110");
    if (entry === undefined) throw new Error("dragnet page 110 is missing");
    const page = analysePage(entry.html);
    const plan = normalisePlan(page, emptyPlan(page));
    const document = buildReaderDocument(page, plan, { ...CONTEXT, url: entry.url, site: entry.site });
    expect(document.url).toBe(entry.url);
    expect(document.title).toBe("Fred Willard on 'Lewd Conduct' Charge");
    expect(document.byline).toBe("ABC News");
    expect(document.published).toBe("2012-07-24");
    expect(document.leadImage).toBe("http://a.abcnews.go.com/images/Entertainment/ap_fred_willard_jef_120719_main.jpg");
    expect(document.text).toBe(writeText(page, plan));
    expect(document.markdown).toBe(writeMarkdown(page, plan, { baseUrl: entry.url }));
    expect(document.text).toContain("Fred Willard");
    expect(document.excerpt).toMatch(/^Fred Willard is commenting online/);
    expect(document.readerable).toBe(true);
    // Words by white space, within 2%: the count joins "don't" and "3.5" and splits "word—word" as readers count them.
    const spaced = document.text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
    expect(Math.abs(document.wordCount - spaced)).toBeLessThanOrEqual(spaced * 0.02);
  });
});

describe("reader JSON from clean()", () => {
  it("times every stage it ran, the writing of the document (format) included, as the server-timing header does", async () => {
    const parsed = parseRuleSetText(readFileSync(`${RULES_FOLDER}/${SAMPLE_SITE}.json`, "utf8"));
    const model = parseModel(JSON.parse(readFileSync(SHIPPED_MODEL, "utf8")));
    if (!parsed.ok || !model.ok) throw new Error("the sample site's rule set or the shipped model does not load");
    const result = await clean({
      html: readFileSync(`${SAMPLE_FOLDER}/harbour-dredging-approved.html`, "utf8"), url: `https://${SAMPLE_SITE}/harbour-dredging-approved.html`, site: SAMPLE_SITE,
      format: "json", ruleSet: compileRuleSet(parsed.ruleSet), model: model.model, rewriter: createWasmBackend(HTMLRewriter),
    });
    if (!result.ok) throw new Error(`bailout: ${result.bailout}`);
    const timings = JSON.parse(result.body).timings as Record<string, number>;
    expect(Object.keys(timings)).toEqual(["analyse", "rules", "classify", "smooth", "decide", "rewrite", "format"]);
    expect(Object.keys(timings)).toEqual(Object.keys(result.timings));
    for (const value of Object.values(timings)) expect(value).toBeGreaterThanOrEqual(0);
  });
});
