import { describe, expect, it } from "vitest";
import { filterAcrossSites, mineSites, type SiteInput } from "../../src/mining/index";
import { seededRandom } from "../../scripts/lib/seeded-random";

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

function pseudoWord(random: () => number): string {
  let word = "";
  const length = 3 + Math.floor(random() * 6);
  for (let i = 0; i < length; i++) word += LETTERS[Math.floor(random() * LETTERS.length)];
  return word;
}

const IDIOM = "as much as we can";
const LOCAL_PHRASE = "the fabled unicorn of";

/** Sites with their own template, random content, an idiom in most pages of every site, a phrase on one site. */
function plantedSites(siteCount: number, pagesPerSite: number): SiteInput[] {
  const random = seededRandom(77);
  // Zipf-distributed words, as in real text: frequent pairs give the histogram its power-law mode.
  const vocabulary = Array.from({ length: 5000 }, () => pseudoWord(random));
  const cumulative = new Float64Array(vocabulary.length);
  for (let rank = 0, total = 0; rank < vocabulary.length; rank++) cumulative[rank] = total += 1 / (rank + 1);
  const pick = (): string => {
    const target = random() * cumulative[cumulative.length - 1]!;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (cumulative[middle]! < target) low = middle + 1;
      else high = middle;
    }
    return vocabulary[low]!;
  };
  const sentence = (length: number) => Array.from({ length }, pick).join(" ");
  return Array.from({ length: siteCount }, (_, s) => {
    const navigation = `${sentence(5)} | ${sentence(3)}`;
    const footer = `Copyright site${s} ${sentence(6)}`;
    const pageTexts = Array.from({ length: pagesPerSite }, (_page, p) => {
      const paragraphs = [sentence(150), sentence(150)];
      // Both phrases open a paragraph, as a phrase must (touch a block edge) to be a template candidate at all.
      if (p % 5 !== 0) paragraphs.splice(1, 0, `${IDIOM} ${sentence(8)}`);
      if (s === 0 && p % 5 !== 0) paragraphs.push(`${LOCAL_PHRASE} ${sentence(4)}`);
      return [navigation, ...paragraphs, footer].join("\n");
    });
    return { site: `site${s}.example`, pageTexts };
  });
}

function matchesAnyRule(patterns: readonly string[], text: string): boolean {
  return patterns.some((pattern) => new RegExp(pattern).test(text));
}

describe("cross-site filter", () => {
  it("drops a phrase planted on many sites and keeps one planted on one site", () => {
    const sites = plantedSites(10, 20);
    const reports = mineSites(sites);
    for (const report of reports) {
      const patterns = report.ruleSet.rules.map((rule) => rule.pattern);
      expect(report.problems).toEqual([]);
      // Each site keeps its own template.
      const footer = sites.find((site) => site.site === report.site)!.pageTexts[0]!.split("\n").at(-1)!;
      expect(matchesAnyRule(patterns, footer), report.site).toBe(true);
      expect(matchesAnyRule(patterns, IDIOM), `${report.site} keeps the idiom`).toBe(false);
      expect(report.droppedAcrossSites).toBeGreaterThan(0);
    }
    const first = reports[0]!.ruleSet.rules.map((rule) => rule.pattern);
    expect(matchesAnyRule(first, LOCAL_PHRASE)).toBe(true);
  });

  it("keeps the idiom when it is mined on one site only (the filter needs several sites)", () => {
    const reports = mineSites(plantedSites(1, 20));
    const patterns = reports[0]!.ruleSet.rules.map((rule) => rule.pattern);
    expect(matchesAnyRule(patterns, IDIOM)).toBe(true);
    expect(reports[0]!.droppedAcrossSites).toBe(0);
  });

  it("drops a candidate only when all its n-grams are shared", () => {
    const shared = ["as", "much", "as"];
    const sites = Array.from({ length: 6 }, (_, s) => ({
      candidates: [shared, [`by${s}`, ...shared], [`own${s}`, "words", "here"]],
    }));
    const dropped = filterAcrossSites(sites, { ngramTokens: 3, minimumSites: 3, siteShare: 0.25 });
    for (const flags of dropped) expect(Array.from(flags)).toEqual([1, 0, 0]);
  });
});
