/**
 * End to end (issue 3): for every site of ../shared/data with 8+ pages, rules mined on every other page
 * (two folds, all sites of a fold mined together for the cross-site filter) clean the held-out pages through
 * the Worker in workerd, rules read from its real local KV; the cleaned text is scored against gold (shingle
 * F1) beside the uncleaned page text. `npm run mine:eval` prints the same table outside the test.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasData } from "../../src/evaluation/index";
import { evaluateMinedRules, formatEvaluation } from "../../scripts/mining-evaluation";
import { loadSites } from "../../scripts/mining-input";
import { workerCleaner, type WorkerCleaner } from "../../scripts/mining-worker-cleaner";

const MIN_PAGES = 8;
const dataPresent = hasData();
if (!dataPresent) console.warn("mined-rules e2e skipped: ../shared/data is absent");

describe.skipIf(!dataPresent)("mined rules end to end through the Worker", () => {
  let worker: WorkerCleaner;
  beforeAll(async () => {
    // The mined rules alone (?mode=rules): what they do without the classifier's help.
    worker = await workerCleaner("rules");
  }, 120_000);
  afterAll(async () => {
    await worker?.dispose();
  });

  it("cleans held-out pages of every 8+ page site better than the uncleaned text", { timeout: 600_000 }, async () => {
    const sites = loadSites(["dragnet", "cleanportaleval"]).sites.filter((site) => site.pages.length >= MIN_PAGES);
    expect(sites.length).toBeGreaterThanOrEqual(20);
    const evaluation = await evaluateMinedRules(sites, worker.cleaner);
    console.log(formatEvaluation(evaluation, "Worker (rules)"));
    // Every page went through the rules read from KV, and the rules alone.
    expect([...worker.rulesStatuses.keys()]).toEqual(["applied"]);
    expect([...worker.modes.keys()]).toEqual(["rules"]);
    expect(evaluation.meanCleanedF1).toBeGreaterThan(evaluation.meanUncleanedF1);
    expect(evaluation.allCleaned.f1).toBeGreaterThan(evaluation.allUncleaned.f1);
    // Rules remove template, not content: recall stays close to the uncleaned text's.
    expect(evaluation.allCleaned.recall).toBeGreaterThan(evaluation.allUncleaned.recall - 0.1);
    const improved = evaluation.sites.filter((site) => site.cleaned.f1 > site.uncleaned.f1).length;
    expect(improved).toBeGreaterThan(evaluation.sites.length * 0.8);
  });
});
