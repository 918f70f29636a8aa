// The removal plan's normal form and merging, on random pages and random raw plans (nested removed blocks,
// text intervals that run across text nodes, block edges and removed blocks), against naive references that
// mark characters of the page text.
import { describe, expect, it } from "vitest";
import { analysePage, type PageModel } from "../../src/page/index";
import { emptyPlan, keepWhole, mergePlans, normalisePlan, type NormalisedPlan, type RemovalPlan } from "../../src/plan/index";
import { seededRandom } from "../../scripts/lib/seeded-random";

const SEEDS = 40;

function randomPage(random: () => number): PageModel {
  const tags = ["div", "p", "section", "li", "span", "b", "a"];
  const parts: string[] = [];
  const open: string[] = [];
  for (let step = 0; step < 60; step++) {
    const draw = random();
    if (draw < 0.35) {
      const tag = tags[Math.floor(random() * tags.length)];
      parts.push(`<${tag}>`);
      open.push(tag);
    } else if (draw < 0.55 && open.length > 0) parts.push(`</${open.pop()}>`);
    else parts.push(`word${step} and more `.slice(0, 3 + Math.floor(random() * 14)));
  }
  return analysePage(`<body>${parts.join("")}</body>`);
}

function randomRawPlan(page: PageModel, random: () => number): RemovalPlan {
  const removedBlocks = new Uint8Array(page.blockCount);
  for (let block = 1; block < page.blockCount; block++) if (random() < 0.15) removedBlocks[block] = 1;
  const removedText: number[] = [];
  for (let position = 0; position < page.text.length; ) {
    const start = position + Math.floor(random() * 12);
    const end = Math.min(page.text.length, start + 1 + Math.floor(random() * 10));
    if (start >= page.text.length) break;
    removedText.push(start, end);
    position = end + 1;
  }
  return { removedBlocks, removedText: Int32Array.from(removedText) };
}

/** Page-text characters a raw plan removes: the text of every removed block, and its intervals inside the text nodes of kept blocks. */
function naiveRemoved(page: PageModel, plan: RemovalPlan): Uint8Array {
  const marks = new Uint8Array(page.text.length);
  const gone = (block: number): boolean => {
    for (let up = block; up > 0; up = page.blocks.parent[up]) if (plan.removedBlocks[up] === 1) return true;
    return false;
  };
  for (let block = 1; block < page.blockCount; block++) if (plan.removedBlocks[block] === 1) marks.fill(1, page.blocks.textStart[block], page.blocks.textEnd[block]);
  for (let node = 0; node < page.textNodeCount; node++) {
    if (gone(page.textNodes.block[node])) continue;
    for (let index = 0; index < plan.removedText.length; index += 2) {
      const from = Math.max(plan.removedText[index], page.textNodes.textStart[node]);
      const to = Math.min(plan.removedText[index + 1], page.textNodes.textEnd[node]);
      if (from < to) marks.fill(1, from, to);
    }
  }
  return marks;
}

function removedByNormalised(page: PageModel, plan: NormalisedPlan): Uint8Array {
  const marks = new Uint8Array(page.text.length);
  for (const block of plan.topBlocks) marks.fill(1, page.blocks.textStart[block], page.blocks.textEnd[block]);
  for (let index = 0; index < plan.removedText.length; index += 2) marks.fill(1, plan.removedText[index], plan.removedText[index + 1]);
  return marks;
}

function sum(marks: Uint8Array): number {
  return marks.reduce((total, mark) => total + mark, 0);
}

describe("normalisePlan", () => {
  it.each(Array.from({ length: SEEDS }, (_, index) => index + 1))("removes what the raw plan removes, in normal form (seed %i)", (seed) => {
    const random = seededRandom(seed);
    const page = randomPage(random);
    const raw = randomRawPlan(page, random);
    const plan = normalisePlan(page, raw);
    const { parent } = page.blocks;
    for (let block = 1; block < page.blockCount; block++) {
      const inherited = plan.removedWithAncestor[parent[block]] === 1;
      expect(plan.removedWithAncestor[block]).toBe(inherited || raw.removedBlocks[block] === 1 ? 1 : 0);
      expect(plan.removedBlocks[block]).toBe(!inherited && raw.removedBlocks[block] === 1 ? 1 : 0);
    }
    expect([...plan.topBlocks]).toEqual([...plan.removedBlocks.keys()].filter((block) => plan.removedBlocks[block] === 1));
    for (let index = 0; index + 1 < plan.removedText.length; index += 2) {
      expect(plan.removedText[index]).toBeLessThan(plan.removedText[index + 1]);
      if (index > 0) expect(plan.removedText[index]).toBeGreaterThanOrEqual(plan.removedText[index - 1]);
    }
    const expected = naiveRemoved(page, raw);
    expect(removedByNormalised(page, plan)).toEqual(expected);
    expect(plan.counts).toEqual({ blocks: plan.topBlocks.length, chars: sum(expected) });
    expect(normalisePlan(page, plan)).toEqual(plan);
  });

  it("never removes the document itself, and an empty plan removes nothing", () => {
    const page = analysePage("<div><p>Kept</p></div>");
    const marked = new Uint8Array(page.blockCount);
    marked[0] = 1;
    expect(normalisePlan(page, { removedBlocks: marked, removedText: new Int32Array(0) }).counts).toEqual({ blocks: 0, chars: 0 });
    expect(emptyPlan(page).counts).toEqual({ blocks: 0, chars: 0 });
  });
});

describe("mergePlans and keepWhole", () => {
  it.each(Array.from({ length: SEEDS }, (_, index) => index + 1))("a merge removes the union of what both remove (seed %i)", (seed) => {
    const random = seededRandom(seed * 7919);
    const page = randomPage(random);
    const first = randomRawPlan(page, random);
    const second = randomRawPlan(page, random);
    const merged = mergePlans(page, first, second);
    const union = naiveRemoved(page, first).map((mark, index) => mark | naiveRemoved(page, second)[index]);
    expect(removedByNormalised(page, merged)).toEqual(union);
    expect(merged).toEqual(normalisePlan(page, merged));
  });

  it.each(Array.from({ length: SEEDS }, (_, index) => index + 1))("keeping blocks whole keeps their text, and their removed ancestors' own text, and nothing else (seed %i)", (seed) => {
    const random = seededRandom(seed * 104729);
    const page = randomPage(random);
    const plan = normalisePlan(page, randomRawPlan(page, random));
    const { parent } = page.blocks;
    const kept = new Uint8Array(page.blockCount); // top-most blocks to keep whole
    const inside = new Uint8Array(page.blockCount); // in a kept block
    for (let block = 1; block < page.blockCount; block++) {
      inside[block] = inside[parent[block]];
      if (inside[block] === 0 && random() < 0.1) kept[block] = inside[block] = 1;
    }
    const holdsKept = new Uint8Array(page.blockCount); // a strict ancestor of a kept block: it stays, with its own text
    for (let block = 1; block < page.blockCount; block++) if (kept[block] === 1) for (let up = parent[block]; up > 0; up = parent[up]) holdsKept[up] = 1;
    const before = removedByNormalised(page, plan);
    const after = removedByNormalised(page, keepWhole(page, plan, kept));
    for (let node = 0; node < page.textNodeCount; node++) {
      const block = page.textNodes.block[node];
      for (let position = page.textNodes.textStart[node]; position < page.textNodes.textEnd[node]; position++) {
        const cutOnly = before[position] === 1 && plan.removedWithAncestor[block] === 0; // removed as text, not with a block
        const expected = inside[block] === 1 ? 0 : holdsKept[block] === 1 ? (cutOnly ? 1 : 0) : before[position];
        expect(after[position], `seed ${seed}, text node ${node}, position ${position}`).toBe(expected);
      }
    }
  });
});
