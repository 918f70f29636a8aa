/**
 * Site rules for the evaluation: per set, the sites with TRAIN_MIN_SITE_PAGES or more pages are split in
 * two halves (pages alternating by index order); rules mined on one half (all sites of the set mined
 * together, so the cross-site filter sees them all) clean the other half, and the other way round. A page
 * is never cleaned by rules mined on itself.
 */
import { TRAIN_MIN_SITE_PAGES } from "../config";
import { groupBySite } from "../evaluation/index";
import { mineSites, siteKey } from "../mining/index";
import type { RemovalPlan } from "../page/index";
import { compileRuleSet, findRuleIntervals, planFromIntervals } from "../rules/index";
import type { AnalysedPage } from "./corpus";

/** Page → plan of the rules mined on the other half of its site's pages (pages of smaller sites absent). */
export function siteRulePlans(pages: readonly AnalysedPage[], log: (line: string) => void): Map<AnalysedPage, RemovalPlan> {
  const plans = new Map<AnalysedPage, RemovalPlan>();
  const sites = [...groupBySite(pages.map((page) => page.page))].filter(([, list]) => list.length >= TRAIN_MIN_SITE_PAGES);
  if (sites.length === 0) return plans;
  const byPage = new Map(pages.map((page) => [page.page, page]));
  const halves = [0, 1].map((parity) => sites.map(([site, list]) => ({ site, pages: list.filter((_, index) => index % 2 === parity).map((page) => byPage.get(page)!) })));
  for (let half = 0; half < 2; half++) {
    const started = performance.now();
    const mined = mineSites(halves[half].map(({ site, pages: sitePages }) => ({ site: siteKey(site), pageTexts: sitePages.map((page) => page.model.text) })));
    const cleaned = halves[1 - half];
    mined.forEach((report, index) => {
      const compiled = compileRuleSet(report.ruleSet);
      for (const page of cleaned[index].pages) plans.set(page, planFromIntervals(page.model, findRuleIntervals(compiled, page.model.text)));
    });
    log(`site rules: half ${half + 1} of ${sites.length} sites mined and applied in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  return plans;
}
