// A gate (npm run test:gates): the review margin's calibration (src/config.ts LEARNING_REVIEW_MARGIN) on every
// dragnet site with 10+ pages (minutes): the set learned from its pages, through the consumer's own mining and
// evidence gate inside workerd, is published at the shipped margin and stays well inside it. The gate itself on a
// few sites: learning-evidence.test.ts.
import { describe, expect, inject, it } from "vitest";
import { LEARNING_REVIEW_MARGIN } from "../../src/config";
import { gateLearnedSet, mineSampledSite } from "../../src/consumer";
import { resolveLearningSettings } from "../../src/learning";
import { devDataPresent } from "../support/dev-data";
import { dataSites, learningEnv, type DataPage } from "../support/learning";

const ORIGIN = inject("originUrl");
const HAS_DATA = devDataPresent((await fetch(`${ORIGIN}/data/README.md`)).ok, "../shared/data", inject("requireDevData"), "learning-margin.test.ts");
const SITES = HAS_DATA ? await dataSites(ORIGIN, "dragnet", 10) : new Map<string, DataPage[]>();

describe.skipIf(!HAS_DATA)("the review margin", () => {
  it("publishes the set of every dragnet site with 10+ pages at the shipped margin, each far inside it", async () => {
    const outcomes: string[] = [];
    let largest = -1;
    for (const [name, pages] of SITES) {
      const sampled = [];
      for (const [index, page] of pages.slice(0, 20).entries()) sampled.push({ html: await (await fetch(`${ORIGIN}${page.path}`)).text(), url: page.url, sampledAt: index * 3600_000 });
      const mining = await mineSampledSite(`margin.${name}`, sampled.map((page) => page.html), async () => ({ countOf: () => 0, siteTotal: 0 }), new Date().toISOString());
      const outcome = await gateLearnedSet(sampled, mining.ruleSet!, null, resolveLearningSettings(learningEnv()));
      if (outcome.kind !== "publish" && outcome.kind !== "review") continue; // no template found: nothing to publish
      const growth = outcome.measure.removedShare - outcome.measure.baselineShare;
      largest = Math.max(largest, growth);
      outcomes.push(`${name} ${outcome.kind} ${outcome.measure.removedShare} vs ${outcome.measure.baselineShare}`);
      expect(outcome.kind, name).toBe("publish");
    }
    console.log(`${outcomes.length} dragnet sites, learned share of text removed vs the classifier's; largest growth ${largest.toFixed(4)}:\n${outcomes.join("\n")}`);
    expect(outcomes.length).toBeGreaterThanOrEqual(20);
    expect(largest).toBeLessThan(LEARNING_REVIEW_MARGIN / 2);
  }, 600_000);
});
