/**
 * Pages of 5-10 MB that are mostly inline data (a framework's state, JSON-LD, inlined bundles) are cleaned: the size
 * cap (config CLEAN_MAX_BYTES) admits them, and the counted work budget, not the clock, is what bounds a page.
 */
import { HTMLRewriter } from "html-rewriter-wasm";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseModel } from "../../src/classify/index";
import { clean, type CleanInput } from "../../src/clean";
import { CLEAN_MAX_BYTES, HTTP_MAX_BODY_BYTES } from "../../src/config";
import { createWasmBackend } from "../../src/runtime/index";

const parsedModel = parseModel(JSON.parse(readFileSync(join(import.meta.dirname, "../../rules/model.json"), "utf8")));
if (!parsedModel.ok) throw new Error(parsedModel.problems.join("; "));
const rewriter = createWasmBackend(HTMLRewriter);

const STORY = [
  "The harbour board voted on Tuesday to dredge the channel before the winter storms, at a cost the council will share.",
  "Fishermen had asked for the work for three years, since the sandbar first closed the channel at low tide.",
  "The dredger arrives from Rotterdam next month and the work should take six weeks, weather allowing.",
];

/** A page of about `megabytes` MB (10^6 bytes): a short story and inline scripts of JSON state, as modern frameworks inline it. */
function pageWithInlineData(megabytes: number): string {
  const item = JSON.stringify({ id: 123456, title: "Harbour dredging approved", tags: ["harbour", "council"], html: "<p>a teaser</p>" });
  const script = `[${Array.from({ length: Math.ceil((megabytes * 1_000_000) / 4 / (item.length + 1)) }, () => item).join(",")}]`;
  const scripts = Array.from({ length: 4 }, (_, i) => `<script id="state-${i}" type="application/json">${script}</script>`).join("\n");
  return `<!doctype html><html><head><title>Harbour dredging approved</title>${scripts}</head><body><nav><a href="/">Home</a></nav><article><h1>Harbour dredging approved</h1>${STORY.map((p) => `<p>${p}</p>`).join("")}</article></body></html>`;
}

function input(html: string, options: CleanInput["options"] = {}): CleanInput {
  return { html, site: "", format: "text", ruleSet: null, model: parsedModel.ok ? parsedModel.model : null, rewriter, options };
}

describe("large pages of inline data", () => {
  it("the API and the pipeline take the same cap, 10 MiB", () => {
    expect(CLEAN_MAX_BYTES).toBe(10 * 1024 * 1024);
    expect(HTTP_MAX_BODY_BYTES).toBe(CLEAN_MAX_BYTES);
  });

  it("cleans a 9 MB page whose bulk is inline scripts, and the work counted is what bounds it (no clock: the time budget is unbounded)", async () => {
    const html = pageWithInlineData(9);
    expect(html.length).toBeGreaterThan(9_000_000);
    const result = await clean(input(html, { timeBudgetMs: Number.POSITIVE_INFINITY }));
    if (!result.ok) throw new Error(`${result.bailout}: ${result.detail}`);
    expect(result.body).toContain(STORY[0]);
    expect(result.body).toContain(STORY[2]);
    expect(result.body).not.toContain("teaser");
    // Its scripts are counted as scanned characters: well within the budget, yet one unit less than it took stops it.
    expect(result.work).toBeGreaterThan(html.length / 64);
    const stopped = await clean(input(html, { timeBudgetMs: Number.POSITIVE_INFINITY, workBudget: result.work - 1 }));
    expect(stopped).toMatchObject({ ok: false, bailout: "time-budget" });
    expect(!stopped.ok && stopped.detail).toMatch(/^over \d+ units of work at /);
  });

  it("still refuses a page over the cap, without reading it", async () => {
    const result = await clean(input(pageWithInlineData(11)));
    expect(result).toMatchObject({ ok: false, bailout: "too-large" });
  });
});
