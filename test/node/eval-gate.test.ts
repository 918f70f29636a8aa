import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { HTMLRewriter } from "html-rewriter-wasm";
import { describe, expect, it } from "vitest";
import { parseModel } from "../../src/classify/index";
import { belowFloors, carriedFloors, dataDigest, EVALUATED_SETS, hasData, type FloorsFile } from "../../src/evaluation/index";
import { createWasmBackend } from "../../src/runtime/index";
import { evaluateShipped, measuredFloors, prepareEvaluation } from "../../src/training/index";

/**
 * The eval gate: scores clean() out of fold on every evaluated set (EVALUATED_SETS) exactly as `npm run eval` does (without
 * Readability) and fails when a shipped system falls below its floor in test/eval-floors.json, or when the
 * floors were measured on other data. Where the dev data is absent the gate is skipped, except when
 * REQUIRE_DEV_DATA is set (CI sets it): there missing data fails the gate.
 */
const FLOORS_PATH = resolve(import.meta.dirname, "../eval-floors.json");
const MODEL_PATH = resolve(import.meta.dirname, "../../rules/model.json");
const required = process.env.REQUIRE_DEV_DATA === "1";

describe("eval gate", () => {
  it.runIf(required)("has the dev data where it is required", () => {
    expect(hasData(), "../shared/data is missing but REQUIRE_DEV_DATA=1").toBe(true);
  });

  it.skipIf(!hasData())("clean() stays at or above every floor, out of fold, on the data the floors were measured on", { timeout: 3_600_000 }, async () => {
    expect(existsSync(FLOORS_PATH)).toBe(true);
    // Floors measured before a set was added still hold where their sets' data is unchanged (carriedFloors).
    const floors = carriedFloors(JSON.parse(readFileSync(FLOORS_PATH, "utf8")) as FloorsFile, EVALUATED_SETS, dataDigest(EVALUATED_SETS), dataDigest);
    expect(floors, "the dev data changed: re-measure with npm run eval -- --write-floors").not.toBeNull();
    if (floors === null) return;
    const parsed = parseModel(JSON.parse(readFileSync(MODEL_PATH, "utf8")));
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const corpus = prepareEvaluation(parsed.model.json, () => {});
    const rows = await evaluateShipped(corpus.pages, corpus.validation.folds, corpus.ruleSets, { rewriter: createWasmBackend(HTMLRewriter), log: () => {} });
    expect(belowFloors(floors, measuredFloors(rows))).toEqual([]);
  });
});
