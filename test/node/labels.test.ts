import { describe, expect, it } from "vitest";
import { groupBySite, hasData, loadDataset } from "../../src/evaluation/index";
import { analysePage, type PageModel } from "../../src/page/index";
import { countLabels, LABEL_CONTENT, LABEL_NONE, LABEL_TEMPLATE, labelSite, normaliseBlockText } from "../../src/training/index";
import { LABEL_MIN_CHARS, LABEL_TEMPLATE_COVER_SHARE, LABEL_TEMPLATE_PAGE_SHARE } from "../../src/config";

function blockText(page: PageModel, block: number): string {
  return normaliseBlockText(page.text.slice(page.blocks.textStart[block], page.blocks.textEnd[block]));
}

describe("normalised block text", () => {
  it("folds case, digits and punctuation", () => {
    expect(normaliseBlockText("Posted 12 March 2012, by   Ann!")).toBe("posted 0 march 0 by ann");
    expect(normaliseBlockText("  «Événement» 3/4 ")).toBe("événement 0 0");
  });
});

describe.skipIf(!hasData())("automatic labels on dragnet sites with 8+ pages (skipped without ../shared/data)", () => {
  const { pages } = hasData() ? loadDataset("dragnet") : { pages: [] };
  const sites = [...groupBySite(pages)].filter(([, list]) => list.length >= 8).slice(0, 6);

  it("uses real multi-page sites", () => {
    expect(sites.length).toBe(6);
  });

  for (const [site, sitePages] of sites) {
    it(`${site}: templates are on >= 10% of pages, content on one page only, mixed blocks left out`, () => {
      const models = sitePages.map((page) => analysePage(page.html));
      const labels = labelSite(models);
      // Brute-force page counts of every normalised block text.
      const pagesWith = new Map<string, number>();
      for (const model of models) {
        const seen = new Set<string>();
        for (let b = 1; b < model.blockCount; b++) seen.add(blockText(model, b));
        for (const text of seen) pagesWith.set(text, (pagesWith.get(text) ?? 0) + 1);
      }
      const floor = Math.max(2, Math.ceil(LABEL_TEMPLATE_PAGE_SHARE * models.length));
      models.forEach((model, index) => {
        const pageLabels = labels[index];
        expect(pageLabels.length).toBe(model.blockCount);
        expect(pageLabels[0]).toBe(LABEL_NONE);
        for (let b = 1; b < model.blockCount; b++) {
          const text = blockText(model, b);
          const count = text.length >= LABEL_MIN_CHARS ? pagesWith.get(text)! : 0;
          if (pageLabels[b] === LABEL_CONTENT) {
            expect(count, `${site} block ${b} "${text.slice(0, 60)}"`).toBe(1);
            expect(holdsFrequentBlock(model, b, pagesWith)).toBe(false);
          }
          if (pageLabels[b] === LABEL_TEMPLATE && count < floor) {
            // Not frequent itself: most of its text must lie in frequent blocks below it.
            expect(templateShare(model, b, pagesWith, floor), `${site} block ${b}`).toBeGreaterThanOrEqual(LABEL_TEMPLATE_COVER_SHARE - 1e-9);
          }
        }
      });
      const counts = countLabels(site, labels);
      expect(counts.template).toBeGreaterThan(0);
      expect(counts.content).toBeGreaterThan(0);
    });
  }
});

/** True when some descendant's text (long enough to be fingerprinted) is on more than one page. */
function holdsFrequentBlock(model: PageModel, block: number, pagesWith: Map<string, number>): boolean {
  for (let b = block + 1; b < model.blockCount && isDescendant(model, b, block); b++) {
    const text = blockText(model, b);
    if (text.length >= LABEL_MIN_CHARS && pagesWith.get(text)! > 1) return true;
  }
  return false;
}

function isDescendant(model: PageModel, block: number, ancestor: number): boolean {
  for (let current = model.blocks.parent[block]; current >= 0; current = model.blocks.parent[current]) if (current === ancestor) return true;
  return false;
}

/** Share of a block's text inside its top-most descendants that are frequent enough to be template. */
function templateShare(model: PageModel, block: number, pagesWith: Map<string, number>, floor: number): number {
  const covered = coveredChars(model, block, pagesWith, floor);
  return covered / Math.max(1, model.blocks.textEnd[block] - model.blocks.textStart[block]);
}

function coveredChars(model: PageModel, block: number, pagesWith: Map<string, number>, floor: number): number {
  let total = 0;
  for (let b = block + 1; b < model.blockCount && isDescendant(model, b, block); b++) {
    if (model.blocks.parent[b] !== block) continue;
    const text = blockText(model, b);
    const chars = model.blocks.textEnd[b] - model.blocks.textStart[b];
    const frequent = text.length >= LABEL_MIN_CHARS && pagesWith.get(text)! >= floor;
    if (frequent) total += chars;
    else {
      const below = coveredChars(model, b, pagesWith, floor);
      total += below >= LABEL_TEMPLATE_COVER_SHARE * chars && chars > 0 ? chars : below;
    }
  }
  return total;
}
