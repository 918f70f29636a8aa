import { readFileSync } from "node:fs";
import { join } from "node:path";
import { HTMLRewriter } from "html-rewriter-wasm";
import { describe, expect, it } from "vitest";
import { clean } from "../../src/clean";
import { fallbackKind, parseModel, recognisePageKind, type ClassifierModel, type UnsureMargins } from "../../src/classify/index";
import { hasData, loadDataset, scoreText } from "../../src/evaluation/index";
import { analysePage, computeFeatures } from "../../src/page/index";
import { createWasmBackend } from "../../src/runtime/index";

const SHIPPED = JSON.parse(readFileSync(join(import.meta.dirname, "../../rules/model.json"), "utf8"));
const REWRITER = createWasmBackend(HTMLRewriter);

/** The shipped model with other fall-back margins. */
function withMargins(unsureMargins: UnsureMargins): ClassifierModel {
  const parsed = parseModel({ ...SHIPPED, unsureMargins });
  if (!parsed.ok) throw new Error(parsed.problems.join("; "));
  return parsed.model;
}

function fallbackOf(html: string): string | null {
  const page = analysePage(html);
  return fallbackKind(page, recognisePageKind(page).kind, computeFeatures(page));
}

async function text(html: string, model: ClassifierModel): Promise<string> {
  const result = await clean({ html, site: "", format: "text", ruleSet: null, model, rewriter: REWRITER, options: { mode: "classifier", textScope: "all" } });
  if (!result.ok) throw new Error(result.detail);
  return result.body;
}

describe("the fall-back's margins in the model file", () => {
  it("takes a margin per kind that is not an article, each from 0 to 1", () => {
    expect(parseModel({ ...SHIPPED, unsureMargins: { service: 0.4, unknown: 1, forum: 0 } }).ok).toBe(true);
    expect(parseModel({ ...SHIPPED, unsureMargins: { article: 0.2 } }).ok).toBe(false);
    expect(parseModel({ ...SHIPPED, unsureMargins: { service: 1.5 } }).ok).toBe(false);
    expect(parseModel({ ...SHIPPED, unsureMargins: { recipe: 0.2 } }).ok).toBe(false);
  });
});

describe("which pages fall back", () => {
  it("never an article, a recognised kind as itself", () => {
    const product = `<script type="application/ld+json">{"@type":"Product","name":"Tent"}</script><nav><a href="/">Home</a></nav><h1>Tent</h1><p>A tent for two.</p>`;
    const article = `<script type="application/ld+json">{"@type":"NewsArticle"}</script><nav><a href="/">Home</a></nav><h1>News</h1><p>It rained.</p>`;
    expect(fallbackOf(product)).toBe("product");
    expect(fallbackOf(article)).toBeNull();
  });

  it("not an article whose reader comments hold most of its prose: they go apart, and do not spread it", () => {
    const sentence = "The council voted on Tuesday to close the old bridge to cars for the whole of next summer. ";
    // Each comment in its own thread, as comment systems nest replies: no one block gathers them.
    const comment = (n: number): string => `<div class="thread"><div class="comment" id="comment-${n}"><p>${sentence.repeat(2)}</p></div></div>`;
    const links = ["About us", "Contact", "Careers", "Advertise", "Privacy policy", "Cookie policy", "Terms of use", "Accessibility", "Newsletters", "Subscriptions", "Archive", "Site map", "Corrections", "Press office"];
    const footer = `<footer><ul>${links.map((name) => `<li><a href="/${name}">${name} of the Bristol Evening Courier</a></li>`).join("")}</ul></footer>`;
    const html = `<article><h1>Bridge to close</h1><p>${sentence.repeat(2)}</p></article><div class="comments">${Array.from({ length: 20 }, (_, n) => comment(n)).join("")}</div>${footer}`;
    expect(fallbackOf(html)).toBeNull();
    // The same replies as a page's own notes spread it: it falls back.
    expect(fallbackOf(html.replaceAll('class="comment" id="comment-', 'class="note" id="note-').replace('class="comments"', 'class="notes"'))).toBe("unknown");
  });
});

describe.skipIf(!hasData())("the fall-back on real pages (skipped without ../shared/data)", () => {
  it("takes an unknown page only where it is shaped unlike an article and marks its frame: none of l3s-gn1's news pages", () => {
    const pages = loadDataset("l3s-gn1").pages;
    expect(pages.length).toBe(621);
    expect(pages.filter((page) => fallbackOf(page.html) !== null)).toEqual([]);
  });

  it("keeps a service page's sections that the classifier removed, and loses the page's marked frame (qburst.com)", async () => {
    const page = loadDataset("wceb2026").pages.find((entry) => entry.id === "0715")!;
    expect(page.kind).toBe("service");
    expect(fallbackOf(page.html)).toBe("unknown");
    const without = await text(page.html, withMargins({}));
    const fallen = await text(page.html, withMargins({ unknown: 0.6 }));
    // Shingles of the gold found (normalised counts: a share of gold and output together).
    const found = (output: string): number => scoreText(output, page.gold).shingles.tp;
    expect(found(fallen)).toBeGreaterThan(found(without) + 0.1);
    // Every line of the page's <footer> goes.
    const footer = /<footer\b[\s\S]*?<\/footer>/i.exec(page.html)![0].replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, "").replace(/<[^>]+>/g, "\n").split("\n").map((line) => line.trim()).filter((line) => line.length > 12);
    expect(footer.length).toBeGreaterThan(3);
    for (const line of footer) expect(fallen).not.toContain(line);
  });
});
