/**
 * Site rules for the evaluation: per set, the sites with TRAIN_MIN_SITE_PAGES or more pages are split in
 * two halves (pages alternating by index order); rules mined on one half (all sites of the set mined
 * together, so the cross-site filter sees them all) clean the other half, and the other way round. A page
 * is never cleaned by rules mined on itself. The rules are what `npm run mine` ships: text rules, and the
 * structural selectors and default mode mined from the same pages' models.
 */
import { TRAIN_MIN_SITE_PAGES } from "../config";
import { groupBySite } from "../evaluation/index";
import { mineSites, siteKey } from "../mining/index";
import { compileRuleSet, type CompiledRuleSet } from "../rules/index";
import type { AnalysedPage } from "./corpus";

/** Page → the rule set mined on the other half of its site's pages (pages of smaller sites absent). */
export function siteRuleSets(pages: readonly AnalysedPage[], log: (line: string) => void): Map<AnalysedPage, CompiledRuleSet> {
  const ruleSets = new Map<AnalysedPage, CompiledRuleSet>();
  const sets = new Set(pages.map((page) => page.page.set));
  for (const set of sets) {
    const setPages = pages.filter((page) => page.page.set === set);
    const sites = [...groupBySite(setPages.map((page) => page.page))].filter(([, list]) => list.length >= TRAIN_MIN_SITE_PAGES);
    if (sites.length === 0) continue;
    const byPage = new Map(setPages.map((page) => [page.page, page]));
    const halves = [0, 1].map((parity) => sites.map(([site, list]) => ({ site, pages: list.filter((_, index) => index % 2 === parity).map((page) => byPage.get(page)!) })));
    for (let half = 0; half < 2; half++) {
      const started = performance.now();
      const mined = mineSites(halves[half].map(({ site, pages: sitePages }) => ({ site: siteKey(site), pageTexts: sitePages.map((page) => page.model.text), pages: sitePages.map((page) => page.model) })));
      mined.forEach((report, index) => {
        const compiled = compileRuleSet(report.ruleSet);
        for (const page of halves[1 - half][index].pages) ruleSets.set(page, compiled);
      });
      log(`${set}: site rules of half ${half + 1} mined on ${sites.length} sites in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
  }
  return ruleSets;
}
