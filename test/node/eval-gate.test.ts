import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parseModel } from "../../src/classify/index";
import { hasData } from "../../src/evaluation/index";
import { classifierScores, prepareEvaluation } from "../../src/training/index";

/**
 * The eval gate: re-computes the classifier's scores on every dev set exactly as `npm run eval` does
 * (fold models for training sites, the shipped model elsewhere) and fails when one drops below its floor
 * in test/eval-floors.json by more than EPSILON. Floors are raised when scores rise, never quietly lowered.
 */
const EPSILON = 0.002;
const FLOORS_PATH = resolve(import.meta.dirname, "../eval-floors.json");
const MODEL_PATH = resolve(import.meta.dirname, "../../rules/model.json");

type Floors = Record<string, { classifierF1: number; classifierTokenF1: number; smoothedF1: number; smoothedTokenF1: number }>;

describe.skipIf(!hasData())("eval gate: classifier scores stay at or above their floors (skipped without ../shared/data)", () => {
  it("every dev set, without and with smoothing", { timeout: 600_000 }, () => {
    expect(existsSync(FLOORS_PATH)).toBe(true);
    const floors = JSON.parse(readFileSync(FLOORS_PATH, "utf8")) as Floors;
    const parsed = parseModel(JSON.parse(readFileSync(MODEL_PATH, "utf8")));
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const scores = classifierScores(prepareEvaluation(parsed.model, () => {}));
    const below: string[] = [];
    for (const [set, floor] of Object.entries(floors)) {
      const score = scores[set];
      expect(score, `set ${set} was not evaluated`).toBeDefined();
      const pairs: [string, number, number][] = [
        ["classifier F1", score.raw.f1, floor.classifierF1],
        ["classifier token F1", score.raw.tokenF1, floor.classifierTokenF1],
        ["smoothed F1", score.smoothed.f1, floor.smoothedF1],
        ["smoothed token F1", score.smoothed.tokenF1, floor.smoothedTokenF1],
      ];
      for (const [name, value, minimum] of pairs) if (value < minimum - EPSILON) below.push(`${set} ${name}: ${value.toFixed(4)} < floor ${minimum.toFixed(4)}`);
    }
    expect(below).toEqual([]);
  });
});
