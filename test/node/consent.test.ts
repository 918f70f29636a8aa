import { readFileSync } from "node:fs";
import { join } from "node:path";
import { HTMLRewriter } from "html-rewriter-wasm";
import { describe, expect, it } from "vitest";
import { clean } from "../../src/clean";
import { consentBlocks } from "../../src/classify/consent";
import { parseModel } from "../../src/classify/index";
import { hasData, loadDataset } from "../../src/evaluation/index";
import { analysePage, computeFeatures } from "../../src/page/index";
import { createWasmBackend } from "../../src/runtime/index";

/** The opening tags of the blocks consentBlocks marks on `html`. */
function consentTags(html: string): string[] {
  const page = analysePage(html);
  const marked = consentBlocks(page, computeFeatures(page));
  const tags: string[] = [];
  for (let b = 1; b < page.blockCount; b++) if (marked[b] === 1) tags.push(page.source.slice(page.blocks.sourceStart[b], page.blocks.startTagEnd[b]));
  return tags;
}

const PROSE = "<p>We use cookies and similar technologies to measure how this site is used and to show you offers.</p>";

describe("consent banners", () => {
  it("are named by consent platforms and cookie notices", () => {
    expect(consentTags(`<div id="cmpbox">${PROSE}</div><div class="qc-cmp2-container">${PROSE}</div><div class="cookie-banner">${PROSE}</div><main><h1>News</h1>${PROSE}</main>`)).toEqual([
      '<div id="cmpbox">',
      '<div class="qc-cmp2-container">',
      '<div class="cookie-banner">',
    ]);
  });

  it("are not the components of Adobe Experience Manager, whose classes start cmp- (cmp-container wraps whole pages)", () => {
    expect(consentTags(`<main class="cmp-container"><div class="cmp-text">${PROSE}</div></main>`)).toEqual([]);
  });
});

describe.skipIf(!hasData())("consent banners on real pages (skipped without ../shared/data)", () => {
  it("keeps a service page whose <main> is an AEM cmp-container (aws.amazon.com's Lambda page)", async () => {
    const entry = loadDataset("wceb2026").pages.find((page) => page.id === "0700")!;
    const parsed = parseModel(JSON.parse(readFileSync(join(import.meta.dirname, "../../rules/model.json"), "utf8")));
    if (!parsed.ok) throw new Error(parsed.problems.join("; "));
    const result = await clean({ html: entry.html, url: entry.url, site: entry.site, format: "text", ruleSet: null, model: parsed.model, rewriter: createWasmBackend(HTMLRewriter), options: { mode: "classifier" } });
    expect(result.ok && result.body).toContain("Real-time data processing involves processing continuous data instantly");
  });
});
