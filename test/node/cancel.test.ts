/**
 * A page whose client hung up stops: clean() takes the request's signal, and once it aborts, the page's work stops at
 * the next check (between stages, and between a large page's slices), counted in units of work, not timed.
 */
import { readFileSync } from "node:fs";
import { HTMLRewriter } from "html-rewriter-wasm";
import { describe, expect, it } from "vitest";
import { parseModel } from "../../src/classify/index";
import { clean, type CleanResult } from "../../src/clean";
import { createWasmBackend } from "../../src/runtime/index";
import { FAMILIES } from "../../scripts/lib/hostile-pages";
import { SHIPPED_MODEL } from "../../scripts/lib/paths";

const parsed = parseModel(JSON.parse(readFileSync(SHIPPED_MODEL, "utf8")));
if (!parsed.ok) throw new Error("rules/model.json is invalid");
const model = parsed.model;
const rewriter = createWasmBackend(HTMLRewriter);
/** 50,000 links, about 1 MB: a page cleaned in slices, with the isolate given back between them. */
const PAGE = FAMILIES.links(50_000);

function cleanWith(signal?: AbortSignal): Promise<CleanResult> {
  return clean({ html: PAGE, site: "", format: "json", ruleSet: null, model, rewriter, signal });
}

/** The units of work a stopped page had spent, from its detail. */
function unitsSpent(result: CleanResult): number {
  if (result.ok) throw new Error("the page was cleaned to its end");
  const units = /after (\d+) units of work/.exec(result.detail);
  if (units === null) throw new Error(`no units in ${JSON.stringify(result.detail)}`);
  return Number(units[1]);
}

describe("clean() with the request's signal", () => {
  it("stops a page mid-clean once the client hangs up: a fraction of the whole page's work is done", async () => {
    const whole = await cleanWith();
    if (!whole.ok) throw new Error(`the page bailed out: ${whole.bailout}`);
    const hangUp = new AbortController();
    const stopped = cleanWith(hangUp.signal);
    // The first slice of pass 1 runs at once; the client leaves during the pause after it.
    await new Promise((turn) => setImmediate(turn));
    hangUp.abort();
    const result = await stopped;
    expect(result).toMatchObject({ ok: false, bailout: "time-budget" });
    expect(result.ok ? "" : result.detail).toMatch(/the client left/);
    expect(unitsSpent(result)).toBeLessThan(whole.work / 2);
  });

  it("does no work for a client already gone", async () => {
    const gone = AbortSignal.abort();
    const result = await cleanWith(gone);
    expect(unitsSpent(result)).toBe(0);
  });

  it("cleans the page whole while the client stays", async () => {
    const staying = new AbortController();
    const result = await cleanWith(staying.signal);
    expect(result.ok).toBe(true);
  });
});
