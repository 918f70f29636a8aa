/**
 * The article's headline survives the site rules: a post's title repeats on the site's other pages in lists of
 * popular posts, so text rules and strip selectors mined there take the post's own title too.
 */
import { HTMLRewriter } from "html-rewriter-wasm";
import { describe, expect, it } from "vitest";
import { clean } from "../../src/clean";
import { groupBySite, hasData, loadDataset } from "../../src/evaluation/index";
import { mineSites } from "../../src/mining/index";
import { analysePage, headlineBlocks, titleWithoutSiteName } from "../../src/page/index";
import { compileRuleSet, type RuleSet } from "../../src/rules/index";
import { createWasmBackend } from "../../src/runtime/index";

const rewriter = createWasmBackend(HTMLRewriter as never);
const TITLE = "Council approves harbour dredging";

function page(title: string): string {
  return `<!doctype html><html><head><title>${title}</title></head><body>
<div class="banner"><p>Wrenmouth Gazette</p></div>
<div class="post"><div class="post-title"><a href="/p/1">${TITLE}</a></div>
<p>The harbour board voted on Tuesday to dredge the channel before the winter storms, at a cost the council will share.</p></div>
<ul class="popular"><li>${TITLE}</li><li>Ferry timetable changes for the spring</li></ul></body></html>`;
}

function lines(body: string): string[] {
  return body.split("\n").map((line) => line.trim()).filter((line) => line !== "");
}

describe("headline blocks", () => {
  it("are the blocks stating the <title> without the site's name, punctuation and case aside", () => {
    const model = analysePage(page(`${TITLE} | Wrenmouth Gazette`));
    expect(titleWithoutSiteName(model, "https://www.wrenmouth-gazette.example/p/1")).toBe(TITLE);
    expect(titleWithoutSiteName(model)).toBe(`${TITLE} | Wrenmouth Gazette`);
    const blocks = headlineBlocks(model, "Council approves harbour-dredging!")!;
    const texts = [...blocks.keys()].filter((block) => blocks[block] === 1).map((block) => model.text.slice(model.blocks.textStart[block], model.blocks.textEnd[block]));
    expect(texts).toEqual([TITLE, TITLE]);
  });

  it("compare letters and digits of any script, case folded, and take no block whose letters outrun the title's", () => {
    const html = `<title>Ünïcode Straße: 2x faster — Now</title><h1>ünïcode STRASSE 2x faster now</h1><h2>Ünïcode  Straße, 2x faster… now!</h2>
<p>Unicode Strasse 2x faster now</p><h3>ÜNÏCODE STRAßE: 2X FASTER — NOW, and more words than the title holds</h3>`;
    const model = analysePage(html);
    const blocks = headlineBlocks(model, "Ünïcode Straße: 2x faster — Now")!;
    const texts = [...blocks.keys()].filter((block) => blocks[block] === 1).map((block) => model.text.slice(model.blocks.textStart[block], model.blocks.textEnd[block]));
    // "STRASSE" and "Strasse" spell another key than "straße"; the h3 holds the headline but is longer than the <title>.
    expect(texts).toEqual(["Ünïcode Straße, 2x faster… now!"]);
  });

  it("keep the site's banner out: when the host does not name a part, the whole <title> is the headline", () => {
    const model = analysePage(page(`Wrenmouth Gazette - ${TITLE}`));
    expect(titleWithoutSiteName(model, "https://news.example/p/1")).toBe(`Wrenmouth Gazette - ${TITLE}`);
    expect(headlineBlocks(model, titleWithoutSiteName(model, "https://news.example/p/1")!)).toBeNull();
  });

  it("are none for a headline too short to name one page", () => {
    const model = analysePage(page("News | Wrenmouth Gazette"));
    expect(headlineBlocks(model, "News")).toBeNull();
  });
});

describe("site rules keep the headline", () => {
  const html = page(`${TITLE} | Wrenmouth Gazette`);
  const run = async (parts: Partial<RuleSet>): Promise<string[]> => {
    const ruleSet: RuleSet = { version: 2, site: "wrenmouth-gazette.example", minedAt: "2026-11-27T00:00:00Z", pages: 5, cutoff: 0.5, mutablePatterns: [], rules: [], ...parts };
    // The text keeps its headline here (textScope "all"), so that it shows which block the plan kept.
    const result = await clean({ html, site: "wrenmouth-gazette.example", format: "text", ruleSet: compileRuleSet(ruleSet), model: null, rewriter, options: { textScope: "all" } });
    if (!result.ok) throw new Error(result.detail);
    return lines(result.body);
  };

  it("a text rule that matches the title takes the popular list's copy and leaves the article's", async () => {
    const kept = await run({ rules: [{ pattern: "Council\\s+approves\\s+harbour\\s+dredging", docFreq: 5, count: 5, tokens: 4 }] });
    expect(kept.filter((line) => line === TITLE)).toHaveLength(1);
    expect(kept[1]).toBe(TITLE); // after the banner, before the article's first paragraph
  });

  it("a strip selector on the title's container leaves the title", async () => {
    const kept = await run({ strip: ["div.post-title", "ul.popular"] });
    expect(kept).toContain(TITLE);
    expect(kept).not.toContain("Ferry timetable changes for the spring");
  });

  it("a main selector that leaves the title out keeps it", async () => {
    const kept = await run({ main: ["div.post > p"] });
    expect(kept).toEqual([TITLE, expect.stringMatching(/^The harbour board voted/)]);
  });
});

describe.skipIf(!hasData())("a real blog whose posts list each other's titles (skipped without ../shared/data)", () => {
  it("rules mined on blog.facebook.com's other pages keep each held-out post's title", async () => {
    const sitePages = groupBySite(loadDataset("dragnet").pages).get("blog.facebook.com")!;
    const held = sitePages.filter((_entry, index) => index % 2 === 1);
    const mined = sitePages.filter((_entry, index) => index % 2 === 0).map((entry) => analysePage(entry.html));
    const [report] = mineSites([{ site: "blog.facebook.com", pageTexts: mined.map((model) => model.text), pages: mined }]);
    const ruleSet = compileRuleSet(report!.ruleSet);
    for (const entry of held) {
      const title = entry.gold.split("\n").find((line) => line.trim() !== "")!.trim();
      const result = await clean({ html: entry.html, url: entry.url, site: entry.site, format: "text", ruleSet, model: null, rewriter, options: { mode: "rules", textScope: "all" } });
      expect(result.ok && result.body.includes(title), `${entry.id}: ${title}`).toBe(true);
    }
  });
});
