import { describe, expect, it } from "vitest";
import { hasData } from "../../src/evaluation/index";
import { LABEL_NONE, analyseSet, collectExamples, compileModel, fitModel, labelMetrics, type AnalysedPage, type DecisionSettings } from "../../src/training/index";
import { TRAIN_FOLDS } from "../../src/config";

const SETTINGS: DecisionSettings = { threshold: 0.5, penaltyScale: 0.003, charsPerUnit: 100, keepChars: 0, keepMargin: 0, mainOnly: 0 };

/** Log-loss of always answering the training share of templates (what a model must beat). */
function priorLogLoss(training: readonly AnalysedPage[], held: readonly AnalysedPage[]): number {
  const examples = collectExamples(training);
  const share = examples.labels.reduce((sum, label) => sum + label, 0) / examples.count;
  let loss = 0;
  let count = 0;
  for (const page of held) {
    for (let b = 1; b < page.labels!.length; b++) {
      if (page.labels![b] === LABEL_NONE) continue;
      loss -= page.labels![b] === 1 ? Math.log(share) : Math.log(1 - share);
      count++;
    }
  }
  return loss / count;
}

describe.skipIf(!hasData())("model fitting on automatic labels (skipped without ../shared/data)", () => {
  const pages = hasData() ? analyseSet("cleanportaleval").pages.filter((page) => page.labels !== null) : [];

  for (const kind of ["logistic", "boosted-trees"] as const) {
    it(`${kind}: beats the label prior on sites it never saw, deterministically, in kilobytes`, () => {
      const heldFold = pages[0].fold;
      const training = pages.filter((page) => page.fold !== heldFold);
      const held = pages.filter((page) => page.fold === heldFold);
      expect(training.length).toBeGreaterThan(0);
      expect(held.length).toBeGreaterThan(0);
      const json = fitModel(kind, collectExamples(training), SETTINGS);
      expect(JSON.stringify(fitModel(kind, collectExamples(training), SETTINGS))).toBe(JSON.stringify(json));
      expect(JSON.stringify(json).length).toBeLessThan(100_000);
      const model = compileModel(json);
      const folds = Array.from({ length: TRAIN_FOLDS }, () => model);
      const metrics = labelMetrics(held, folds);
      expect(metrics.examples).toBeGreaterThan(100);
      expect(metrics.logLoss).toBeLessThan(priorLogLoss(training, held));
      expect(metrics.accuracy).toBeGreaterThan(0.7);
    });
  }

  it("balances the classes: each weighs half of the examples", () => {
    const examples = collectExamples(pages);
    let template = 0;
    let content = 0;
    for (let i = 0; i < examples.count; i++) {
      if (examples.labels[i] === 1) template += examples.weights[i];
      else content += examples.weights[i];
    }
    expect(template).toBeCloseTo(examples.count / 2, 3);
    expect(content).toBeCloseTo(examples.count / 2, 3);
  });
});
