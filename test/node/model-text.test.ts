/**
 * The shipped model is written compactly (scripts/lib/model-text.ts: leaf values and logistic weights to 4
 * significant digits; thresholds as training chose them, the shortest number between two training values), and
 * rounding at that precision does not change what the Worker removes: perturbing every rounded number by the
 * largest error of 4-digit rounding keeps the scores within 1e-3 (a smoothing level is 1/31) and every page's
 * removal plan identical, on the sample site and on dev pages.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { classifyPage, isLeafValue, parseModel, scoreBlocks, type ClassifierModel, type ModelJson } from "../../src/classify/index";
import { DATA_SETS, hasData, loadDataset } from "../../src/evaluation/index";
import { analysePage, computeFeatures } from "../../src/page/index";
import { compactModel, modelText } from "../../scripts/lib/model-text";
import { shortestIn } from "../../src/training/index";
import { everyDevPage } from "../support/dev-data";
import { seededRandom } from "../../scripts/lib/seeded-random";

const REPO_ROOT = resolve(import.meta.dirname, "../..");
const SHIPPED = readFileSync(join(REPO_ROOT, "rules", "model.json"), "utf8");
/** Largest relative error of rounding to 4 significant digits (half a unit of the 4th digit, at the smallest mantissa). */
const ROUNDING_ERROR = 5e-4;

function model(json: ModelJson): ClassifierModel {
  const parsed = parseModel(json);
  if (!parsed.ok) throw new Error(parsed.problems.join("; "));
  return parsed.model;
}

/** The model with every number the compact text rounds moved by the largest rounding error, up and down in turn. */
function perturbed(json: ModelJson): ModelJson {
  let turn = 0;
  const move = (value: number): number => (Number.isInteger(value) ? value : value * (1 + (turn++ % 2 === 0 ? ROUNDING_ERROR : -ROUNDING_ERROR)));
  return {
    ...json,
    ...(json.logistic && { logistic: { ...json.logistic, weights: json.logistic.weights.map(move), bias: move(json.logistic.bias) } }),
    ...(json.boosted && { boosted: { ...json.boosted, value: json.boosted.value.map((value, index) => (isLeafValue(json.boosted!, index) ? move(value) : value)) } }),
  };
}

const planOf = (page: ReturnType<typeof analysePage>, classifier: ClassifierModel): string =>
  JSON.stringify(classifyPage(page, classifier).plan, (_key, value) => (ArrayBuffer.isView(value) ? Array.from(value as Uint8Array) : value));

function samplePages(): string[] {
  const sampleFolder = join(REPO_ROOT, "samples", "wrenmouth-gazette.example");
  return readdirSync(sampleFolder).filter((name) => name.endsWith(".html")).map((name) => readFileSync(join(sampleFolder, name), "utf8"));
}

/** Every 8th dev page: about 200 pages of every set, enough blocks to meet the trees' splits often. */
function devPages(): string[] {
  return DATA_SETS.flatMap((set) => loadDataset(set).pages.filter((_page, index) => index % 8 === 0).map((page) => page.html));
}

/** Perturbs the shipped model by the rounding error: no removal plan of these pages moves, no score by 1e-3 or more. */
function expectRoundingHarmless(pages: readonly string[], minimumBlocks: number): void {
  const json = JSON.parse(SHIPPED) as ModelJson;
  const shipped = model(json);
  const moved = model(perturbed(json));
  let blocks = 0;
  let largest = 0;
  for (const html of pages) {
    const page = analysePage(html);
    const features = computeFeatures(page);
    const a = scoreBlocks(features, shipped);
    const b = scoreBlocks(features, moved);
    for (let block = 0; block < a.length; block++) largest = Math.max(largest, Math.abs(a[block] - b[block]));
    blocks += a.length;
    expect(planOf(page, moved)).toBe(planOf(page, shipped));
  }
  expect(blocks).toBeGreaterThan(minimumBlocks);
  expect(largest).toBeGreaterThan(0); // the perturbation reached the scores
  expect(largest).toBeLessThan(1e-3);
}

describe("the shipped model's text", () => {
  it("is the compact form (npm run train writes it so)", () => {
    expect(modelText(JSON.parse(SHIPPED) as ModelJson)).toBe(SHIPPED);
    const json = JSON.parse(SHIPPED) as ModelJson;
    expect(compactModel(json).normalisation).toEqual(json.normalisation);
  });

  it("rounds only where the decision cannot tell, on the sample site: every removal plan stays the same, scores within 1e-3", () => {
    expectRoundingHarmless(samplePages(), 300);
  });

  it.runIf(everyDevPage(hasData(), "model-text.test.ts"))("rounds only where the decision cannot tell, on dev pages", () => {
    expectRoundingHarmless(devPages(), 1000);
  });
});

describe("tree thresholds (shortestIn)", () => {
  it("lie in [low, high) with no more significant digits than low, on random and edge-case intervals", () => {
    const random = seededRandom(7);
    const digits = (value: number): number => value.toExponential().replace(/e.*$/, "").replace(/[-.]/g, "").length;
    const cases: [number, number][] = [[0, 1], [-1e-9, 0], [2.885, Infinity], [-0.5, -0.4999], [0.35642145247775, 0.35642145247776], [1234.5, 1300]];
    for (let trial = 0; trial < 2000; trial++) {
      const low = (random() - 0.5) * 10 ** Math.floor(random() * 8 - 4);
      cases.push([low, low + Math.abs(low) * 10 ** -Math.floor(random() * 15) + Number.MIN_VALUE]);
    }
    for (const [low, high] of cases) {
      const chosen = shortestIn(low, high);
      expect(chosen >= low && chosen < high, `${low} ${high} -> ${chosen}`).toBe(true);
      expect(digits(chosen), `${low} ${high} -> ${chosen}`).toBeLessThanOrEqual(digits(low));
    }
  });
});
