/**
 * The text of a model file (rules/model.json, bundled into the Worker, so its size is paid at every isolate
 * start): JSON with the leaf values of the trees and the logistic weights written to 4 significant digits.
 * Scores then move by at most about 2e-4, far inside one of the 32 levels the smoothing quantises them to (on
 * the 1,553 dev pages one block of one page changes side), for 2 KiB less. Thresholds are left as they are:
 * training already chose each as the shortest number between two training values (src/training/fit.ts
 * shortestIn), where any other rounding would move blocks that sit on a split.
 */
import { isLeafValue, type ModelJson } from "../../src/classify/index";

const SIGNIFICANT_DIGITS = 4;

const round = (value: number): number => (Number.isInteger(value) ? value : Number(value.toPrecision(SIGNIFICANT_DIGITS)));

/** The model with its leaf values and logistic weights rounded (everything else as it is). */
export function compactModel(model: ModelJson): ModelJson {
  return {
    ...model,
    ...(model.logistic && { logistic: { ...model.logistic, weights: model.logistic.weights.map(round), bias: round(model.logistic.bias) } }),
    ...(model.boosted && { boosted: { ...model.boosted, value: model.boosted.value.map((value, index) => (isLeafValue(model.boosted!, index) ? round(value) : value)) } }),
  };
}

/** The file text: compact JSON of compactModel, one line. */
export function modelText(model: ModelJson): string {
  return `${JSON.stringify(compactModel(model))}\n`;
}
