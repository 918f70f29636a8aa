/**
 * Whether a site's rules help, decided per site on the pages held back from choosing its selectors (issue 10,
 * build item 4), with no gold: the page-unique content (page-structure.ts) stands in for it. On each held-back
 * page the rule set's plan is read as pass 1 reads it (main, strip, the text rules' intervals):
 * - the rules cut content on a held-back page (content removed from a content block, one whose own text is over the
 *   strip cut's content share and states something, structure.ts): they do not help there, "classifier";
 * - otherwise both, "rules+classifier" (the classifier removes what the rules left). "rules" alone is not chosen:
 *   measured with gold (npm run mine:eval), the held-back pages' "no template block left" picked it on sites where
 *   the classifier still removed template the page-unique text cannot tell apart (0.88-0.91 against 0.95-0.99).
 */
import type { DefaultModeChoice, RuleSet } from "../rules/index";
import { compileRuleSet, findRuleIntervals, mainMatches, type CompiledRuleSet } from "../rules/index";
import { matchSelectors } from "../selectors/index";
import { isContentBlock, type PageStructure } from "./page-structure";

export function chooseDefaultMode(ruleSet: RuleSet, heldBack: readonly PageStructure[], stripShare: number): DefaultModeChoice {
  if (heldBack.length === 0) return { mode: "rules+classifier", by: "held-back", note: "no page held back: the Worker's default" };
  const compiled = compileRuleSet(ruleSet);
  let cut = 0;
  let leftTemplate = 0;
  for (const structure of heldBack) {
    const effect = blockEffects(structure, removedText(structure, compiled), stripShare);
    if (effect.cutContent) cut++;
    if (effect.leftTemplate) leftTemplate++;
  }
  const pages = `${heldBack.length} held-back page(s)`;
  if (cut > 0) return { mode: "classifier", by: "held-back", note: `the rules removed page-unique text on ${cut} of ${pages}` };
  return { mode: "rules+classifier", by: "held-back", note: `the rules kept all page-unique text on ${pages} (template blocks left on ${leftTemplate})` };
}

/**
 * Page-text character → 1 where the rule set removes it: outside the first main entry that matches, in a strip match,
 * in a text rule's interval; never in a keep match.
 */
function removedText(structure: PageStructure, compiled: CompiledRuleSet): Uint8Array {
  const { page } = structure;
  const removed = new Uint8Array(page.text.length);
  // The set's selectors as cleaning uses them (compileSiteSelectors): the main entries in order, every strip entry as one list.
  const main = compiled.selectors?.main ?? [];
  const strip = compiled.selectors?.strip ?? null;
  const keep = compiled.selectors?.keep ?? null;
  const matches = matchSelectors(page, [...main, ...(strip === null ? [] : [strip]), ...(keep === null ? [] : [keep])]);
  const first = matches.slice(0, main.length).find((match) => mainMatches(page.text, match));
  if (first !== undefined) {
    removed.fill(1);
    for (let k = 0; k < first.text.length; k += 2) removed.fill(0, first.text[k], first.text[k + 1]);
  }
  const fill = (pairs: ArrayLike<number>) => {
    for (let k = 0; k < pairs.length; k += 2) removed.fill(1, pairs[k], pairs[k + 1]);
  };
  if (strip !== null) fill(matches[main.length]!.text);
  fill(findRuleIntervals(compiled, page.text));
  if (keep !== null) {
    const kept = matches.at(-1)!.text;
    for (let k = 0; k < kept.length; k += 2) removed.fill(0, kept[k], kept[k + 1]);
  }
  return removed;
}

/**
 * Whether the rules remove content from a content block (its own text over the cut's content share), and whether a
 * template block (its own kept text at or under it) stays.
 */
function blockEffects(structure: PageStructure, removed: Uint8Array, share: number): { cutContent: boolean; leftTemplate: boolean } {
  const { page } = structure;
  const keptCounted = new Int32Array(page.blockCount);
  const keptContent = new Int32Array(page.blockCount);
  const removedContent = new Int32Array(page.blockCount);
  for (let node = 0; node < page.textNodeCount; node++) {
    const block = page.textNodes.block[node]!;
    for (let at = page.textNodes.textStart[node]!; at < page.textNodes.textEnd[node]!; at++) {
      const content = structure.content[at + 1]! - structure.content[at]!;
      if (removed[at] === 1) {
        removedContent[block] += content;
        continue;
      }
      keptCounted[block] += structure.counted[at + 1]! - structure.counted[at]!;
      keptContent[block] += content;
    }
  }
  let cutContent = false;
  let leftTemplate = false;
  for (let block = 1; block < page.blockCount; block++) {
    if (removedContent[block]! > 0 && isContentBlock(structure, block, share)) cutContent = true;
    if (keptCounted[block]! > 0 && keptContent[block]! <= share * keptCounted[block]!) leftTemplate = true;
  }
  return { cutContent, leftTemplate };
}
