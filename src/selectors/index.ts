/**
 * CSS selectors as part of cleaning: the subset HTMLRewriter supports that picks elements by their markup,
 * parsed and validated (parse.ts), and matched in pass 1 against the page's elements (match.ts), so that a
 * plan built from them is what pass 2 removes.
 */
export {
  ATTRIBUTE_EQUALS, ATTRIBUTE_INCLUDES, ATTRIBUTE_PREFIX, ATTRIBUTE_PRESENT, ATTRIBUTE_SUBSTRING, ATTRIBUTE_SUFFIX,
  joinSelectorLists, parseSelector, type AttributeTest, type ComplexSelector, type SelectorList, type SelectorParse, type SelectorStep,
} from "./parse";
export { matchSelectors, SELECTOR_MATCH_MAX_DEPTH, SELECTOR_MATCH_MAX_LISTS, type InlineElements, type SelectorMatch } from "./match";
