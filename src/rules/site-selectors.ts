/**
 * A rule set's selectors (version 2), parsed once when the set is compiled: strip and keep as one list each, main
 * as its ordered fallbacks, metadata per field. The set was validated on load, so an entry that does not parse
 * here cannot occur; one would be left out, not guessed.
 */
import { joinSelectorLists, parseSelector, type SelectorList } from "../selectors/index";
import type { RuleSet } from "./rule-set";

export interface SiteSelectors {
  /** Every strip entry as one list (null: none). */
  readonly strip: SelectorList | null;
  /** The main entries in order: the first that matches an element with text on a page wins (mainMatches). */
  readonly main: readonly SelectorList[];
  /** Every keep entry as one list (null: none). */
  readonly keep: SelectorList | null;
  readonly metadata: { readonly title: readonly SelectorList[]; readonly byline: readonly SelectorList[]; readonly date: readonly SelectorList[] };
}

/** The set's selectors, or null when it has none. */
export function compileSiteSelectors(ruleSet: RuleSet): SiteSelectors | null {
  const lists = (entries: readonly string[] | undefined): SelectorList[] =>
    (entries ?? []).flatMap((entry) => {
      const parsed = parseSelector(entry);
      return parsed.ok ? [parsed.list] : [];
    });
  const selectors: SiteSelectors = {
    strip: joinSelectorLists(lists(ruleSet.strip)),
    main: lists(ruleSet.main),
    keep: joinSelectorLists(lists(ruleSet.keep)),
    metadata: { title: lists(ruleSet.metadata?.title), byline: lists(ruleSet.metadata?.byline), date: lists(ruleSet.metadata?.date) },
  };
  return selectorsClean(selectors) || selectorsReadMetadata(selectors) ? selectors : null;
}

/**
 * Whether a main entry's match can hold the page's content: it matches an element with text. An empty wrapper (one
 * that another kind of page of the site fills) is passed over for the next entry, as is an entry that matches nothing.
 */
export function mainMatches(pageText: string, match: { readonly elements: number; readonly text: ArrayLike<number> }): boolean {
  if (match.elements === 0) return false;
  for (let k = 0; k < match.text.length; k += 2) if (pageText.slice(match.text[k], match.text[k + 1]).trim() !== "") return true;
  return false;
}

/** Whether the set's selectors change what is removed (strip, main or keep; metadata selectors only read). */
export function selectorsClean(selectors: SiteSelectors | null): boolean {
  return selectors !== null && (selectors.strip !== null || selectors.main.length > 0 || selectors.keep !== null);
}

/** Whether the set has metadata selectors (they only read, so they run whatever cleans the page). */
export function selectorsReadMetadata(selectors: SiteSelectors | null): boolean {
  if (selectors === null) return false;
  const { title, byline, date } = selectors.metadata;
  return title.length + byline.length + date.length > 0;
}
