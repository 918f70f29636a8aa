/**
 * Linear work on hostile input, in workerd: the pathological page families at n and 4n through the Worker's own
 * pipeline on the platform's HTMLRewriter, asserting that the counted work (clean()'s work meter: scanner events,
 * blocks, smoothing levels, the writers' walks and the characters they copy) grows near linearly. Work is
 * counted, not timed: workerd's clock moves only between events, and on a busy machine its wall clock says more
 * about the other processes than about this code. The same families, and the feed item and rule families (plain
 * JavaScript, the same code in both runtimes), are timed on CPU time in test/node/scaling.test.ts.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { parseModel } from "../../src/classify/index";
import { clean, type CleanFormat } from "../../src/clean";
import { createWorkerdBackend } from "../../src/runtime/index";
import app from "../../src/worker";
import MODEL_JSON from "../../rules/model.json";
import { FAMILIES } from "../support/scaling";

/** Ratio bound for 4x the input on counted work: linear gives 4, quadratic 16. */
const MAX_WORK_RATIO = 5;

const parsed = parseModel(MODEL_JSON);
if (!parsed.ok) throw new Error(parsed.problems.join("; "));
const model = parsed.model;
const rewriter = createWorkerdBackend();

async function workOf(html: string, format: CleanFormat): Promise<number> {
  const result = await clean({ html, site: "", format, ruleSet: null, model, rewriter });
  if (!result.ok) throw new Error(`bailout ${result.bailout}: ${result.detail}`);
  return result.work;
}

async function cleanThroughWorker(html: string, format: string): Promise<void> {
  const response = await app.request(`https://cleaner.test/v1/clean?format=${format}`, {
    method: "POST",
    headers: { "x-api-key": "test-key", "content-type": "text/html; charset=utf-8" },
    body: html,
  }, env);
  await response.text();
  if (response.status !== 200 || response.headers.has("x-clean-bailout")) {
    throw new Error(`status ${response.status}, bailout ${response.headers.get("x-clean-bailout")}`);
  }
}

describe("scaling in workerd: n and 4n, counted work stays near linear", () => {
  it.each([
    ["unclosedLists", 1500, "markdown"],
    ["unclosedLists", 1500, "json"],
    ["unclosedLists", 1500, "html"],
    ["repeatedBody", 100_000, "text"],
  ] as const)("%s at n = %i, %s", async (_name, n, format) => {
    const family = FAMILIES[_name];
    const small = await workOf(family(n), format);
    const large = await workOf(family(4 * n), format);
    console.log(`${_name} ${format}`, { small, large, ratio: large / small });
    expect(large / small).toBeGreaterThan(3);
    expect(large / small).toBeLessThan(MAX_WORK_RATIO);
    await cleanThroughWorker(family(4 * n), format); // the route cleans the large input, no bailout
  });
});
