/**
 * Linear work of selector matching on hostile pages and hostile selectors: each family at n and 4n, the ratio of
 * the steps counted (work-count.ts) bounded as in the other scaling tests, never a time. Matching alone is counted:
 * the page is analysed before.
 */
// First: steps are counted in the functions compiled after it loads.
import { MAX_STEP_RATIO, MIN_STEP_RATIO, stepRatio } from "../support/work-count";
import { describe, expect, it } from "vitest";
import { SELECTOR_MAX_LENGTH, SELECTOR_MAX_STEPS } from "../../src/config";
import { analysePage, type PageModel } from "../../src/page/index";
import { matchSelectors, parseSelector, SELECTOR_MATCH_MAX_DEPTH, type SelectorList } from "../../src/selectors/index";

function list(text: string): SelectorList {
  const parsed = parseSelector(text);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.list;
}

/** The longest word a selector can hold, and selectors that test every step, combinator and operator at their limits. */
const LONG_WORD = "a".repeat(SELECTOR_MAX_LENGTH - 16);
const HOSTILE: SelectorList[] = [
  list(Array(SELECTOR_MAX_STEPS).fill("span.a").join(" ")),
  list(Array(SELECTOR_MAX_STEPS).fill("span.a").join(" > ")),
  list(`.${LONG_WORD}`),
  list(`[class*=${LONG_WORD}]`),
  list('[data-k~=v], [id^=d], [id$=x], [data-k=v] span, div > p[id^=a], *[class~="b"]'),
];

const FAMILIES: Record<string, [number, (n: number) => string]> = {
  "nested elements below the depth limit": [SELECTOR_MATCH_MAX_DEPTH / 5, (n) => '<span class="a b">'.repeat(n)],
  "flat elements with attributes": [10_000, (n) => '<div class="x y b" id=d data-k="v w"><span>t</span></div>'.repeat(n)],
  "one long class of near-matching words": [20_000, (n) => `<p class="${`${"a".repeat(SELECTOR_MAX_LENGTH - 3)} `.repeat(Math.ceil(n / 100))}">t</p>`],
  "stray end tags and implied ends": [10_000, (n) => "<p class=a>x</span><li>y</div>".repeat(n)],
};

describe("selectors: n and 4n stay near linear", () => {
  for (const [name, [n, make]] of Object.entries(FAMILIES)) {
    it(name, async () => {
      const measured = await stepRatio((size: number): PageModel => analysePage(make(size)), n, (page) => matchSelectors(page, HOSTILE));
      console.log(`selector matching, ${name}`, measured);
      expect(measured.ratio).toBeGreaterThan(MIN_STEP_RATIO);
      expect(measured.ratio).toBeLessThan(MAX_STEP_RATIO);
    });
  }
});
