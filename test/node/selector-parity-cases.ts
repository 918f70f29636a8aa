/**
 * The selectors the selector parity tests (Node and workerd) run on every dev page: lists whose matches lol-html
 * and pass 1 must count alike, and the plans built from them that pass 2 must apply exactly.
 */
import type { PageModel } from "../../src/page/index";
import { planKeepingOnlySelected, planRemovingSelected, withRemovedElements, type NormalisedPlan } from "../../src/plan/index";
import { matchSelectors, parseSelector, type SelectorList } from "../../src/selectors/index";

/** Counted against lol-html: every kind of step and combinator of the subset. */
export const COUNTED_SELECTORS = [
  "nav", "div.content, div#content", "[id*=comment]", "ul > li", "header a", "div p", "[class~=nav]", "a[href^=http]",
  "[id$=er]", "table td > a", "body > div > div", "img[alt]", "*",
] as const;

/** What the plans remove or keep: template containers, inline elements (their text cut from kept blocks, then the
 * elements whole with their markup), the content. */
const REMOVED_CONTAINERS = "nav, footer, aside, header, form, [class*=share], [id*=comment], [class*=related]";
const REMOVED_INLINE = "a, span, em, img, svg";
const KEPT_ONLY = "article, [role=main], [id*=content], [class*=content]";

function list(text: string): SelectorList {
  const parsed = parseSelector(text);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.list;
}

/** The plans of one page, by name (a list that matches nothing gives an empty plan, which is checked too). */
export function selectorPlans(page: PageModel): [string, NormalisedPlan][] {
  const [containers, inline, content] = matchSelectors(page, [list(REMOVED_CONTAINERS), list(REMOVED_INLINE), list(KEPT_ONLY)]);
  return [
    ["remove containers", planRemovingSelected(page, containers)],
    ["remove inline text", planRemovingSelected(page, inline)],
    ["remove inline elements", withRemovedElements(page, planRemovingSelected(page, inline), inline.inline, 1 << 1, 0)],
    ["keep only content", planKeepingOnlySelected(page, content)],
  ];
}

/** The elements pass 2 must remove for a plan: its top-most blocks and its elements removed whole. */
export function plannedRemovals(plan: NormalisedPlan): number {
  return plan.topBlocks.length + (plan.removedElements?.count ?? 0);
}

export function countedLists(): SelectorList[] {
  return COUNTED_SELECTORS.map(list);
}
