import { describe, expect, it } from "vitest";
import { TRAIN_FOLDS } from "../../src/config";
import { hasData, scoreText } from "../../src/evaluation/index";
import {
  ALL_DECISION_RULES, analyseSet, bestCandidate, CALIBRATION_TIE, calibrateKindSettings, harmless, candidateSettings, collectExamples, compileModel, fitFolds, fitModel, foldKeys, keptText, keptTextNodes, LABEL_NONE, labelMetrics, labelsOf, pageScorer, scoreKept,
  type AnalysedPage, type DecisionSettings, type KindSetting, type LabelSource,
} from "../../src/training/index";
import { scoreBlocks } from "../../src/classify/index";
import { normalisePlan } from "../../src/plan/index";
import { seededRandom } from "../../scripts/lib/seeded-random";

const SETTINGS: DecisionSettings = { threshold: 0.5, penaltyScale: 0.003, charsPerUnit: 100, keepChars: 0, keepMargin: 0, mainOnly: 0, keepProse: 0 };

/** Log-loss of always answering the training share of templates (what a model must beat). */
function priorLogLoss(training: readonly AnalysedPage[], held: readonly AnalysedPage[], source: LabelSource): number {
  const examples = collectExamples(training, source);
  const share = examples.labels.reduce((sum, label) => sum + label, 0) / examples.count;
  let loss = 0;
  let count = 0;
  for (const page of held) {
    const labels = labelsOf(page, source)!;
    for (let b = 1; b < labels.length; b++) {
      if (labels[b] === LABEL_NONE) continue;
      loss -= labels[b] === 1 ? Math.log(share) : Math.log(1 - share);
      count++;
    }
  }
  return loss / count;
}

describe("choosing decision settings", () => {
  // Two sets of one page each; a candidate's counts per page are normalised (tp + fp + fn = 1).
  const pages = [{ page: { set: "news" }, fold: 0 }, { page: { set: "blogs" }, fold: 1 }] as unknown as AnalysedPage[];
  const counts = (tp: number, fp: number) => ({ tp, fp, fn: 1 - tp - fp });
  const everyPage = () => true;

  it("takes the candidate with the best F1 averaged over the sets", () => {
    const table = [[counts(0.8, 0.1), counts(0.8, 0.1)], [counts(0.9, 0.05), counts(0.9, 0.05)]];
    expect(bestCandidate(table, pages, everyPage)).toBe(1);
  });

  it("breaks a tie (estimates closer than CALIBRATION_TIE) for the candidate that keeps more, and only a tie", () => {
    const best = counts(0.9, 0.05);
    // With normalised counts F1 is 2tp / (1 + tp): the same F1, or a hair lower, with more output (tp + fp).
    const f1 = (c: { tp: number }) => (2 * c.tp) / (1 + c.tp);
    const tied = counts(0.89995, 0.08);
    expect(f1(best) - f1(tied)).toBeLessThan(CALIBRATION_TIE);
    expect(bestCandidate([[best, best], [tied, tied]], pages, everyPage)).toBe(1);
    const lower = counts(0.899, 0.08); // the same output, F1 lower by 0.0006
    expect(bestCandidate([[best, best], [lower, lower]], pages, everyPage)).toBe(0);
  });

  it("tunes the article guard's share but never offers it off, except to the ablation that asks", () => {
    const shares = new Set(candidateSettings().map((settings) => settings.keepProse));
    expect(shares.has(0)).toBe(false);
    expect(shares.size).toBeGreaterThan(1);
    expect(new Set(candidateSettings([0]).map((settings) => settings.keepProse))).toEqual(new Set([0]));
  });

  it("offers a per-kind value only where no set does worse than without it", () => {
    // Candidate 1 lifts blogs a lot and costs news a little: the mean prefers it, and no set may get worse.
    const table = [[counts(0.9, 0.05), counts(0.5, 0.1)], [counts(0.89, 0.05), counts(0.9, 0.05)], [counts(0.9, 0.04), counts(0.6, 0.1)]];
    expect(bestCandidate(table, pages, everyPage)).toBe(1);
    expect(harmless(table, pages, everyPage)).toEqual([0, 2]);
    // Only blogs' page in use: nothing gets worse.
    expect(harmless(table, pages, (page) => page.fold === 1)).toEqual([0, 1, 2]);
  });

  it("reads only the pages it is given", () => {
    const table = [[counts(0.9, 0.05), counts(0.1, 0.1)], [counts(0.5, 0.1), counts(0.9, 0.05)]];
    expect(bestCandidate(table, pages, (page) => page.fold === 0)).toBe(0);
    expect(bestCandidate(table, pages, (page) => page.fold === 1)).toBe(1);
  });
});

describe.skipIf(!hasData())("model fitting on automatic and gold labels (skipped without ../shared/data)", () => {
  const pages = hasData() ? analyseSet("cleanportaleval").pages : [];

  for (const kind of ["logistic", "boosted-trees"] as const) {
    for (const source of ["auto", "gold"] as const) {
      it(`${kind} on ${source} labels: beats the label prior on sites it never saw, deterministically, in kilobytes`, () => {
        const heldFold = pages[0].fold;
        const training = pages.filter((page) => page.fold !== heldFold);
        const held = pages.filter((page) => page.fold === heldFold && labelsOf(page, source) !== null);
        expect(training.length).toBeGreaterThan(0);
        expect(held.length).toBeGreaterThan(0);
        const json = fitModel(kind, collectExamples(training, source), SETTINGS);
        expect(JSON.stringify(fitModel(kind, collectExamples(training, source), SETTINGS))).toBe(JSON.stringify(json));
        expect(JSON.stringify(json).length).toBeLessThan(100_000);
        const model = compileModel(json);
        const scores = new Map(held.map((page) => [page, scoreBlocks(page.features, model)]));
        const metrics = labelMetrics(held, scores, source);
        expect(metrics.examples).toBeGreaterThan(100);
        expect(metrics.logLoss).toBeLessThan(priorLogLoss(training, held, source));
        expect(metrics.accuracy).toBeGreaterThan(0.7);
      });
    }
  }

  it("balances the classes: each weighs half of the examples", () => {
    const examples = collectExamples(pages, "both");
    let template = 0;
    let content = 0;
    for (let i = 0; i < examples.count; i++) {
      if (examples.labels[i] === 1) template += examples.weights[i];
      else content += examples.weights[i];
    }
    expect(template).toBeCloseTo(examples.count / 2, 3);
    expect(content).toBeCloseTo(examples.count / 2, 3);
  });

  it("puts every page of a site in one fold", () => {
    const foldOf = new Map<string, number>();
    for (const page of pages) {
      expect(page.fold).toBeGreaterThanOrEqual(0);
      expect(page.fold).toBeLessThan(TRAIN_FOLDS);
      expect(foldOf.get(page.page.site) ?? page.fold).toBe(page.fold);
      foldOf.set(page.page.site, page.fold);
    }
  });

  it("the fast calibration scorer agrees with the benchmark scorer on random plans, removed whole text nodes included", () => {
    const random = seededRandom(7);
    let compared = 0;
    for (const page of pages.slice(0, 30)) {
      const scorer = pageScorer(page.model, page.page.gold);
      const { textStart, textEnd } = page.model.textNodes;
      for (let trial = 0; trial < 5; trial++) {
        const removedBlocks = new Uint8Array(page.model.blockCount);
        for (let b = 1; b < removedBlocks.length; b++) removedBlocks[b] = random() < 0.1 ? 1 : 0;
        const removedText: number[] = [];
        for (let t = 0; t < page.model.textNodeCount; t++) if (random() < 0.02) removedText.push(textStart[t], textEnd[t]);
        const plan = normalisePlan(page.model, { removedBlocks, removedText: Int32Array.from(removedText) });
        const fast = scoreKept(scorer, keptTextNodes(page.model, plan));
        const exact = scoreText(keptText(page.model, plan), page.page.gold).shingles;
        // Shingles across a cut are the only difference: a few per cut, so the two stay close.
        expect(Math.abs(fast.tp - exact.tp)).toBeLessThan(0.05);
        compared++;
      }
      // Removed text over every text node leaves nothing, for both scorers.
      const everything = normalisePlan(page.model, { removedBlocks: new Uint8Array(page.model.blockCount), removedText: Int32Array.of(0, page.model.text.length) });
      const nothing = scoreKept(scorer, keptTextNodes(page.model, everything));
      expect(nothing.fp).toBe(0);
      expect(nothing.tp).toBe(scoreText("", page.page.gold).shingles.tp);
    }
    expect(compared).toBe(150);
  });

  it("chooses a per-kind setting for each fold without that fold's pages, and only on pages of the kind", () => {
    const fitted = fitFolds(pages, "logistic", "gold", () => {});
    const heldFold = pages[0].fold;
    const threshold: KindSetting = {
      name: "threshold",
      values: [0.05, 0.3, 0.9],
      kindOf: (page) => (page.page.site.length % 2 === 0 ? "even" : null),
      apply: (settings, _kind, value) => ({ ...settings, threshold: value }),
    };
    const start = { foldSettings: Array.from({ length: TRAIN_FOLDS }, () => SETTINGS), settings: SETTINGS };
    const chosen = calibrateKindSettings(pages, fitted, start, [threshold], ALL_DECISION_RULES, () => {});
    // The held fold's own pages told to keep nothing (empty gold): its value stays, the shipped one (all pages) may move.
    const emptied = pages.map((page) => (page.fold === heldFold ? { ...page, page: { ...page.page, gold: "" } } : page));
    const fittedEmptied = { ...fitted, scores: new Map(emptied.map((page, index) => [page, fitted.scores.get(pages[index])!])) };
    const again = calibrateKindSettings(emptied, fittedEmptied, start, [threshold], ALL_DECISION_RULES, () => {});
    expect(again.foldSettings[heldFold].threshold).toBe(chosen.foldSettings[heldFold].threshold);
    expect(threshold.values).toContain(chosen.settings.threshold);
    // No page of the kind: nothing is chosen, every setting stays as it started.
    const none = calibrateKindSettings(pages, fitted, start, [{ ...threshold, kindOf: () => null }], ALL_DECISION_RULES, () => {});
    expect(none.foldSettings).toEqual(start.foldSettings);
    expect(none.settings).toEqual(SETTINGS);
  });

  it("folds a site a later set shares with an earlier one with the earlier set's pages, and keeps the older sets' own folds", () => {
    const key = foldKeys(new Map([["dragnet", new Set(["a.example"])], ["l3s-gn1", new Set(["a.example", "b.example"])]]));
    expect(key("l3s-gn1", "a.example")).toBe("l3s-gn1/a.example");
    expect(key("scrapinghub", "a.example")).toBe("dragnet/a.example");
    expect(key("wceb2026", "b.example")).toBe("l3s-gn1/b.example");
    expect(key("wceb2026", "c.example")).toBe("wceb2026/c.example");
  });
});
