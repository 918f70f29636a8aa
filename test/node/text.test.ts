import { describe, expect, it } from "vitest";
import { DATA_SETS, hasData, loadDataset } from "../../src/evaluation/index";
import { analysePage, type PageModel } from "../../src/page/index";
import { normalisePlan, type RemovalPlan } from "../../src/plan/index";
import { keepsText, writeText } from "../../src/rewrite/text-writer";
import { seededRandom as random } from "../../scripts/lib/seeded-random";
import { everyDevPage } from "../support/dev-data";

const dataPresent = hasData();
if (!dataPresent) console.warn("text writer tests on real pages skipped: ../shared/data is absent");

function emptyPlan(page: PageModel): RemovalPlan {
  return { removedBlocks: new Uint8Array(page.blockCount), removedText: new Int32Array(0) };
}

/** Random plan: some blocks removed whole, some text intervals cut from kept text. */
function randomPlan(page: PageModel, seed: number): RemovalPlan {
  const next = random(seed);
  const removedBlocks = new Uint8Array(page.blockCount);
  for (let block = 1; block < page.blockCount; block++) if (next() < 0.08) removedBlocks[block] = 1;
  const cuts: number[] = [];
  let position = 0;
  while (position < page.text.length) {
    const start = position + Math.floor(next() * 400);
    const end = Math.min(page.text.length, start + 1 + Math.floor(next() * 60));
    if (start >= page.text.length) break;
    cuts.push(start, end);
    position = end + 1;
  }
  return { removedBlocks, removedText: Int32Array.from(cuts) };
}

/** The naive reference: page text with every removed character blanked, white space folded. */
function referenceText(page: PageModel, plan: RemovalPlan): string {
  const characters = page.text.split("");
  const blank = (start: number, end: number) => characters.fill(" ", start, end);
  for (let block = 1; block < page.blockCount; block++) {
    if (plan.removedBlocks[block] === 1) blank(page.blocks.textStart[block], page.blocks.textEnd[block]);
  }
  for (let index = 0; index < plan.removedText.length; index += 2) blank(plan.removedText[index], plan.removedText[index + 1]);
  return fold(characters.join(""));
}

function fold(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

describe("writeText", () => {
  it("puts a blank line between blocks and keeps words of one block together", () => {
    const page = analysePage("<h1>Title</h1><p>One <b>bo</b>ld line<br>and more</p><ul><li>a</li><li>b</li></ul>");
    expect(writeText(page, normalisePlan(page, emptyPlan(page)))).toBe("Title\n\nOne bold line and more\n\na\n\nb");
  });

  it("drops removed blocks with their descendants and cut text, leaving a space where text was cut", () => {
    const page = analysePage("<div><p>Keep this</p><div class=nav><p>Menu</p><p>More menu</p></div><p>Read the rest here</p></div>");
    const plan = emptyPlan(page);
    const menu = Array.from({ length: page.blockCount }, (_, block) => block).find((block) => page.text.slice(page.blocks.textStart[block], page.blocks.textEnd[block]).startsWith("Menu\nMore"));
    plan.removedBlocks[menu as number] = 1;
    const cut = page.text.indexOf(" the rest");
    const withCut = { ...plan, removedText: Int32Array.from([cut, cut + " the rest".length]) };
    expect(writeText(page, normalisePlan(page, withCut))).toBe("Keep this\n\nRead here");
  });

  it("gives an empty string for an empty page or a page wholly removed", () => {
    const page = analysePage("<p>Only</p>");
    const empty = analysePage("");
    expect(writeText(empty, normalisePlan(empty, emptyPlan(empty)))).toBe("");
    const plan = emptyPlan(page);
    plan.removedBlocks[1] = 1;
    expect(writeText(page, normalisePlan(page, plan))).toBe("");
  });
});

describe.runIf(everyDevPage(dataPresent, "text.test.ts"))("writeText on the pages of ../shared/data", () => {
  for (const set of DATA_SETS) {
    it(`${set}: equals the naive reference for the whole page and for random plans`, () => {
      const { pages } = loadDataset(set);
      expect(pages.length).toBeGreaterThan(0);
      for (const [index, entry] of pages.entries()) {
        const page = analysePage(entry.html);
        const whole = writeText(page, normalisePlan(page, emptyPlan(page)));
        expect(fold(whole), entry.id).toBe(fold(page.text));
        expect(whole, entry.id).not.toMatch(/\n{3,}|[ \t]\n|\n[ \t]/);
        const plan = randomPlan(page, index + 1);
        expect(fold(writeText(page, normalisePlan(page, plan))), `${entry.id} seed ${index + 1}`).toBe(referenceText(page, plan));
      }
    });
  }
});

describe("keepsText", () => {
  it("tells whether the written text is more than white space, without writing it", () => {
    const page = analysePage("<div><p>\u00a0 \u2003</p><p>Word</p><p>\t\ufeff</p></div>");
    const plan = emptyPlan(page);
    expect(keepsText(page, normalisePlan(page, plan))).toBe(true);
    const word = [...Array(page.blockCount).keys()].find((b) => page.text.slice(page.blocks.textStart[b], page.blocks.textEnd[b]) === "Word")!;
    plan.removedBlocks[word] = 1;
    expect(writeText(page, normalisePlan(page, plan)).trim()).toBe("");
    expect(keepsText(page, normalisePlan(page, plan))).toBe(false);
    expect(keepsText(analysePage(""), normalisePlan(analysePage(""), emptyPlan(analysePage(""))))).toBe(false);
  });

  it.runIf(everyDevPage(dataPresent, "text.test.ts"))("agrees with writeText on every dev page under plans that remove almost everything", () => {
    for (const set of DATA_SETS) {
      for (const [index, entry] of loadDataset(set).pages.entries()) {
        const page = analysePage(entry.html);
        const next = random(index + 7);
        const plan = randomPlan(page, index + 7);
        for (let block = 1; block < page.blockCount; block++) plan.removedBlocks[block] = next() < 0.97 ? 1 : 0;
        const normalised = normalisePlan(page, plan);
        expect(keepsText(page, normalised), `${set}/${entry.id}`).toBe(writeText(page, normalised).trim() !== "");
      }
    }
  });
});
