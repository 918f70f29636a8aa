/**
 * Hidden elements (the hidden attribute, inline display:none or visibility:hidden, aria-hidden="true") are left out
 * of every format that shows text, in every mode; a <details> body, which a reader opens, is not hidden.
 */
import { HTMLRewriter } from "html-rewriter-wasm";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hiddenBlocks, parseModel } from "../../src/classify/index";
import { clean, type CleanFormat, type RequestedMode } from "../../src/clean";
import { analysePage } from "../../src/page/index";
import { compileRuleSet } from "../../src/rules/index";
import { createWasmBackend } from "../../src/runtime/index";

const parsedModel = parseModel(JSON.parse(readFileSync(join(import.meta.dirname, "../../rules/model.json"), "utf8")));
if (!parsedModel.ok) throw new Error(parsedModel.problems.join("; "));
const rewriter = createWasmBackend(HTMLRewriter as never);
const PROSE = "The harbour board voted on Tuesday to dredge the channel before the winter storms, at a cost the council will share. ";
const SITE = "wrenmouth-gazette.example";
/** A rule set whose one rule matches the footer, so that the rules modes run. */
const RULES = compileRuleSet({ version: 2, site: SITE, minedAt: "2026-11-27T00:00:00Z", pages: 5, cutoff: 0.5, mutablePatterns: [], rules: [{ pattern: "Wrenmouth\\s+Gazette\\s+footer", docFreq: 5, count: 5, tokens: 3 }] });

const PAGE = `<!doctype html><html><head><title>Harbour dredging</title></head><body><article><h1>Harbour dredging approved by the board</h1>
<p>${PROSE.repeat(3)}</p>
<div hidden><p>Unseen one: a hidden attribute's paragraph, which no reader sees on the page.</p></div>
<p style="color: red; display: none">Unseen two: a paragraph hidden by its inline style display none.</p>
<p style="visibility:hidden">Unseen three: a paragraph hidden by its inline style visibility hidden.</p>
<div aria-hidden="true"><p>Unseen four: a paragraph that aria-hidden keeps from readers of every kind.</p></div>
<details><summary>Shown on a click</summary><p>Revealed one: the body of a details element, which a reader opens with a click.</p></details>
<p>${PROSE.repeat(2)}</p></article><footer>Wrenmouth Gazette footer</footer></body></html>`;

async function output(format: CleanFormat, mode: RequestedMode): Promise<string> {
  const result = await clean({ html: PAGE, site: SITE, format, ruleSet: mode === "rules" || mode === "rules+classifier" ? RULES : null, model: parsedModel.ok ? parsedModel.model : null, rewriter, options: { mode } });
  if (!result.ok) throw new Error(`${result.bailout}: ${result.detail}`);
  return result.body;
}

describe("hidden elements", () => {
  for (const mode of ["none", "rules", "classifier", "rules+classifier"] as const) {
    for (const format of ["text", "markdown", "article", "json"] as const) {
      it(`are left out of ${format} in mode ${mode}, and what a click reveals stays`, async () => {
        const body = await output(format, mode);
        expect(body).toContain("dredge the channel");
        expect(body).not.toContain("Unseen");
        expect(body).toContain("Revealed one");
        if (format === "json") {
          const document = JSON.parse(body) as { text: string; markdown: string; content: string };
          for (const field of [document.text, document.markdown, document.content]) expect(field).toContain("Revealed one");
        }
      });
    }
  }

  it("stay in the html of mode none, the page as it came (a browser hides them itself), and go from the html of every cleaning mode", async () => {
    expect(await output("html", "none")).toContain("Unseen four");
    for (const mode of ["rules", "classifier", "rules+classifier"] as const) expect(await output("html", mode)).not.toContain("Unseen");
  });

  it("hide a tab panel and an accordion's section that a script shows, as any hidden element (measured: docs/not-kept.md)", () => {
    const page = analysePage(`<body><p>${PROSE.repeat(12)}</p>
<div role="tablist"><button role="tab" aria-controls="specs">Specifications</button></div>
<div id="specs" role="tabpanel" hidden><p>Weight 2 kg, width 30 cm, a battery that lasts ten hours.</p></div>
<button aria-expanded="false" aria-controls="answer-2">How long is the warranty?</button>
<div id="answer-2" aria-hidden="true"><p>Two years from the day of purchase, parts and labour.</p></div>
<details><summary>Returns</summary><p>Thirty days, in the original box.</p></details></body>`);
    const hidden = hiddenBlocks(page);
    const hiddenTexts = [...hidden.keys()].filter((b) => hidden[b] === 1).map((b) => page.text.slice(page.blocks.textStart[b], page.blocks.textEnd[b])).join(" ");
    expect(hiddenTexts).toContain("Weight 2 kg");
    expect(hiddenTexts).toContain("Two years");
    expect(hiddenTexts).not.toContain("Thirty days");
  });
});
