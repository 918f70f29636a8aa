/**
 * What each rule of a set does on one page, for a person fixing rules (`npm run rules:test`): every rule alone,
 * its matches, what of them would go (content-edges.ts) and what is kept because it would cut a sentence;
 * then the set as a whole, as cleaning applies it (the union, merged, then the same edge check). And each
 * selector of a version 2 set alone: the elements it matches and the page text inside them.
 */
import type { PageModel } from "../page/index";
import { matchSelectors, parseSelector, SELECTOR_MATCH_MAX_LISTS, type SelectorList } from "../selectors/index";
import type { CompiledRuleSet } from "./compile";
import { contentEdgeIntervals } from "./content-edges";
import { matchRules } from "./intervals";
import { selectorEntries, type RuleSet } from "./rule-set";
import { mainMatches } from "./site-selectors";

export interface RuleEffect {
  /** Position of the rule in the set's `rules`. */
  readonly index: number;
  readonly pattern: string;
  /** Matches of the rule alone on the page text. */
  readonly matches: number;
  /** Sorted [start, end) pairs, flattened: what the rule alone removes. */
  readonly removed: Int32Array;
  /** Sorted [start, end) pairs, flattened: what it matches but keeps (the piece would cut a sentence). */
  readonly kept: Int32Array;
}

export interface RulesExplanation {
  readonly rules: readonly RuleEffect[];
  /** What the whole set removes (as clean() applies it), and what its matches would have removed without the edge check. */
  readonly removed: Int32Array;
  readonly matched: Int32Array;
}

export function explainRules(compiled: CompiledRuleSet, text: string): RulesExplanation {
  const rules = compiled.rules.map((rule): RuleEffect => {
    const single: CompiledRuleSet = { ...compiled, rules: [{ ...rule, words: [] }] };
    const matched = matchRules(single, text, { contentEdges: false }).intervals;
    const removed = contentEdgeIntervals(text, matched);
    let matches = 0;
    rule.regex.lastIndex = 0;
    for (let match = rule.regex.exec(text); match !== null; match = rule.regex.exec(text)) matches += 1;
    return { index: rule.index, pattern: rule.pattern, matches, removed, kept: subtract(matched, removed) };
  });
  return { rules, removed: matchRules(compiled, text).intervals, matched: matchRules(compiled, text, { contentEdges: false }).intervals };
}

/** Sorted disjoint pairs of `from` minus those of `minus` (flattened), dropping pieces of separators only. */
function subtract(from: Int32Array, minus: Int32Array): Int32Array {
  const output: number[] = [];
  let other = 0;
  for (let pair = 0; pair < from.length; pair += 2) {
    let start = from[pair];
    const end = from[pair + 1];
    while (other < minus.length && minus[other + 1] <= start) other += 2;
    for (let index = other; index < minus.length && minus[index] < end; index += 2) {
      if (minus[index] > start) output.push(start, minus[index]);
      start = Math.max(start, minus[index + 1]);
    }
    if (start < end) output.push(start, end);
  }
  return Int32Array.from(output);
}

/** What one selector entry of a set matches on a page. */
export interface SelectorEffect {
  /** Where it is in the set: "strip.0", "main.1", "keep.0", "metadata.byline.0". */
  readonly path: string;
  readonly selector: string;
  /** Elements it matches. */
  readonly elements: number;
  /** Sorted [start, end) pairs of page text inside the top-most matched elements, flattened: what strip removes,
   * what main keeps (for the first main entry that matches), what keep keeps, where metadata is read. */
  readonly text: Int32Array;
  /** For main entries: whether this is the one cleaning uses (the first that matches an element with text). */
  readonly chosen: boolean;
}

/** Each selector entry of the set alone on the page, in the set's order (an entry that does not parse matches nothing). */
export function explainSelectors(ruleSet: RuleSet, page: PageModel): SelectorEffect[] {
  const entries = selectorEntries(ruleSet);
  const effects: SelectorEffect[] = [];
  for (let start = 0; start < entries.length; start += SELECTOR_MATCH_MAX_LISTS) {
    const batch = entries.slice(start, start + SELECTOR_MATCH_MAX_LISTS);
    const lists = batch.map(({ selector }): SelectorList => {
      const parsed = parseSelector(selector);
      return parsed.ok ? parsed.list : { source: selector, selectors: [] };
    });
    matchSelectors(page, lists).forEach((match, index) => {
      effects.push({ path: batch[index].path, selector: batch[index].selector, elements: match.elements, text: match.text, chosen: false });
    });
  }
  const chosen = effects.findIndex((effect) => effect.path.startsWith("main.") && mainMatches(page.text, effect));
  return chosen < 0 ? effects : effects.map((effect, index) => (index === chosen ? { ...effect, chosen: true } : effect));
}
