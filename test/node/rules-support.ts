/** Shared checks of the rules tests: a naive reference of the gap-merged union, and removal-plan checks. */
import { expect } from "vitest";
import type { PageModel } from "../../src/page/index";
import type { RemovalPlan } from "../../src/plan/index";
import type { Rule } from "../../src/rules/index";

/** Reference: marks every matched character, then the short separator-only gaps between marked runs. */
export function referenceMarks(rules: readonly Rule[], text: string, gap: number): Uint8Array {
  const marks = new Uint8Array(text.length);
  for (const rule of rules) {
    for (const match of text.matchAll(new RegExp(rule.pattern, "g"))) {
      marks.fill(1, match.index, match.index + match[0].length);
    }
  }
  let previousEnd = -1;
  for (let position = 0; position < text.length; position += 1) {
    if (marks[position] === 0) continue;
    const between = text.slice(previousEnd, position);
    if (previousEnd >= 0 && position > previousEnd && between.length <= gap && !/[\p{L}\p{N}\p{M}]/u.test(between)) {
      marks.fill(1, previousEnd, position);
    }
    while (position < text.length && marks[position] === 1) position += 1;
    previousEnd = position;
  }
  return marks;
}

/** Text-node character → 1 if the plan removes it (inside a removed block, or in removedText). */
export function removedCharacters(page: PageModel, plan: RemovalPlan): number[] {
  const removed = new Uint8Array(page.text.length);
  for (let block = 0; block < page.blockCount; block += 1) {
    if (plan.removedBlocks[block] === 1) removed.fill(1, page.blocks.textStart[block], page.blocks.textEnd[block]);
  }
  for (let index = 0; index < plan.removedText.length; index += 2) removed.fill(1, plan.removedText[index], plan.removedText[index + 1]);
  return textNodeMarks(page, removed);
}

export function textNodeMarks(page: PageModel, marks: Uint8Array): number[] {
  const result: number[] = [];
  for (let node = 0; node < page.textNodeCount; node += 1) {
    for (let position = page.textNodes.textStart[node]; position < page.textNodes.textEnd[node]; position += 1) result.push(marks[position]);
  }
  return result;
}

/** Whole blocks go whole (and only those), no marks under a removed block, removedText sorted, disjoint, in kept nodes. */
export function checkPlanShape(page: PageModel, plan: RemovalPlan, marks: Uint8Array): void {
  const hidden = new Uint8Array(page.blockCount);
  for (let block = 1; block < page.blockCount; block += 1) {
    const parentHidden = hidden[page.blocks.parent[block]] === 1;
    const start = page.blocks.textStart[block];
    const end = page.blocks.textEnd[block];
    const covered = end > start && marks.subarray(start, end).every((mark) => mark === 1);
    expect(plan.removedBlocks[block]).toBe(!parentHidden && covered ? 1 : 0);
    hidden[block] = parentHidden || covered ? 1 : 0;
  }
  for (let index = 0; index < plan.removedText.length; index += 2) {
    expect(plan.removedText[index]).toBeLessThan(plan.removedText[index + 1]);
    if (index > 0) expect(plan.removedText[index]).toBeGreaterThanOrEqual(plan.removedText[index - 1]);
    const node = nodeAt(page, plan.removedText[index]);
    expect(hidden[page.textNodes.block[node]]).toBe(0);
    expect(plan.removedText[index + 1]).toBeLessThanOrEqual(page.textNodes.textEnd[node]);
  }
}

function nodeAt(page: PageModel, position: number): number {
  for (let node = 0; node < page.textNodeCount; node += 1) {
    if (page.textNodes.textStart[node] <= position && position < page.textNodes.textEnd[node]) return node;
  }
  return -1;
}
