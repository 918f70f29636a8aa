/**
 * The selector subset: what parses (and what it means), what is refused and why, the limits on hostile input;
 * and pass 1's matcher against lol-html itself (html-rewriter-wasm) on snippets that test each part of the subset
 * and the tree rules (implied end tags, stray end tags, void and foreign elements).
 */
import { HTMLRewriter } from "html-rewriter-wasm";
import { describe, expect, it } from "vitest";
import { SELECTOR_MAX_ALTERNATIVES, SELECTOR_MAX_LENGTH, SELECTOR_MAX_STEPS } from "../../src/config";
import { analysePage } from "../../src/page/index";
import { createWasmBackend } from "../../src/runtime/index";
import { matchSelectors, parseSelector, SELECTOR_MATCH_MAX_DEPTH, type SelectorList } from "../../src/selectors/index";
import { lolHtmlMatchCounts } from "./selector-support";

const backend = createWasmBackend(HTMLRewriter);

function list(text: string): SelectorList {
  const parsed = parseSelector(text);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.list;
}

describe("parseSelector", () => {
  it("reads the subset into steps, outermost first", () => {
    const parsed = list('div#main > ul.a.b li[data-x="1 2"], *[href^=http]');
    expect(parsed.selectors).toHaveLength(2);
    const [first, second] = parsed.selectors;
    expect(first.steps.map((step) => [step.tag, step.ids, step.classes, step.childOf])).toEqual([
      ["div", ["main"], [], false], ["ul", [], ["a", "b"], true], ["li", [], [], false],
    ]);
    expect(first.steps[2].attributes).toEqual([{ name: "data-x", operator: 1, value: "1 2" }]);
    expect(second.steps[0]).toMatchObject({ tag: null, attributes: [{ name: "href", operator: 3, value: "http" }] });
  });

  it.each(["DIV.Story", "  nav ,footer  ", "a>b", "[ x ~= 'y' ]", "[x$=y][z*=\"w\"]", "-foo", "._a-b_", "é.ü"])("accepts %j", (text) => {
    expect(parseSelector(text).ok).toBe(true);
  });

  it("lower-cases element and attribute names, not values, ids or classes", () => {
    const step = list("DIV#Main.Story[DATA-X=Y]").selectors[0].steps[0];
    expect(step).toMatchObject({ tag: "div", ids: ["Main"], classes: ["Story"], attributes: [{ name: "data-x", value: "Y" }] });
  });

  it.each([
    ["", "a selector is missing"],
    ["div:not(.a)", "pseudo-classes"],
    ["p::before", "pseudo-classes"],
    ["a + b", "sibling combinators"],
    ["a ~ b", "sibling combinators"],
    ["a~b", "sibling combinators"],
    ["[lang|=en]", "|= operator"],
    ["svg|a", "namespaces"],
    ["[a=b i]", "attribute flags"],
    [".a\\:b", "escapes"],
    ["div,", "ends with a comma"],
    ["a,,b", "a selector is missing"],
    ["a >", "a selector is missing"],
    ["> a", "a selector is missing"],
    [".1a", "not an identifier"],
    ["#", "expected an id"],
    ["[a=\"b]", "unclosed quoted value"],
    ["[a", "expected ]"],
    ["[a!=b]", "expected ], =, ~=, ^=, $= or *="],
    ["div)", "unexpected"],
  ])("refuses %j: %s", (text, reason) => {
    const parsed = parseSelector(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.reason).toContain(reason);
      expect(parsed.reason).not.toContain("\n");
    }
  });

  it("bounds length, alternatives and steps", () => {
    expect(parseSelector("a".repeat(SELECTOR_MAX_LENGTH + 1))).toMatchObject({ ok: false, reason: expect.stringContaining("over the limit") });
    expect(parseSelector(Array(SELECTOR_MAX_ALTERNATIVES + 1).fill("a").join(","))).toMatchObject({ ok: false, reason: expect.stringContaining("selectors in one list") });
    expect(parseSelector(Array(SELECTOR_MAX_STEPS + 1).fill("a").join(" "))).toMatchObject({ ok: false, reason: expect.stringContaining("steps in one selector") });
    expect(parseSelector(Array(SELECTOR_MAX_STEPS).fill("a").join(" ")).ok).toBe(true);
  });

  it("reads hostile input of the largest accepted length once (every character is looked at a bounded number of times)", () => {
    // Long runs that a backtracking reader would retry: unclosed quotes, nested brackets, spaces, commas.
    for (const text of [`[a="${"x".repeat(SELECTOR_MAX_LENGTH - 5)}`, "[".repeat(SELECTOR_MAX_LENGTH), " ".repeat(SELECTOR_MAX_LENGTH), "a ".repeat(SELECTOR_MAX_LENGTH / 2), ".a".repeat(SELECTOR_MAX_LENGTH / 2)]) {
      const parsed = parseSelector(text);
      expect(parsed.ok).toBe(false);
    }
  });
});

/** Snippets and selectors whose matches lol-html and pass 1 must count alike. */
const SNIPPETS: readonly [string, readonly string[]][] = [
  ['<div id="a" class="x  y"><p class="y">1</p><span class="x">2</span></div><p id="a">3</p>', ["#a", ".x", ".y", ".x.y", "div .y", "div > .y", "p.y", "*", "div *", "[class]", "[class=x]", "[class~=y]", "[class^=x]", "[class$=y]", "[class*=\" \"]", "[id=A]"]],
  ["<ul><li>a<li>b<ul><li>c</ul><li>d</ul><p>e<p>f<div>g</div>", ["li", "ul > li", "ul li", "ul ul li", "p", "p div", "li + li, p"].filter((s) => !s.includes("+"))],
  ["<table><tr><td>a<td>b<tr><td>c</table><b><div>x</b>y</div>", ["td", "tr > td", "table td", "b div", "div", "b"]],
  ["<div><span>a</div>b</span><p>c</span>d</p></div></div>", ["span", "div span", "p", "div > p", "div div"]],
  ["<svg><g class=a><rect class=a /></g><foreignObject><div class=a>x</div></foreignObject></svg><div class=a><img class=a src=x><br class=a></div>", [".a", "svg .a", "g > .a", "div > .a", "img", "rect"]],
  ["<div data-x=\"a&amp;b\" title='q\"r'>t</div><div DATA-X=ab>u</div>", ["[data-x]", "[data-x=ab]", "[title*='\"']", "[data-x^=a]"]],
  ["<main><article><h1>T</h1><div class=body><p>1</p><aside><p>2</p></aside></div></article></main>", ["main p", "article > div > p", "div p", "main > article", "aside p, h1", "article aside"]],
  ["<div><div><div><p>x</p></div></div></div>", ["div > div", "div div div", "div > div > div > p", "div > p", "div div > p"]],
  // One-step selectors wait in buckets (by id, else class, else tag): a class written twice, ids with classes, lists sharing a bucket.
  ["<div id=a class='x x y'><p class=y id=b>t</p><span class=\"x\tz\">u</span></div><nav id=a class=y>v</nav><x-y id=b>w</x-y>", ["#a", "div#a.x", ".x.y", ".x", "p.y#b", "span.z", "nav", "*", "#a.y, .y, nav", "x-y#b", "#b"]],
];

describe("pass 1 matches what lol-html matches", () => {
  for (const [html, selectors] of SNIPPETS) {
    it(html.slice(0, 60), async () => {
      const page = analysePage(html);
      const ours = matchSelectors(page, selectors.map(list)).map((match) => match.elements);
      expect(ours).toEqual(await lolHtmlMatchCounts(backend, page, selectors));
    });
  }

  it("tells the blocks inside a matched element and the text inside the top-most ones", () => {
    const page = analysePage('<div class="a">one<p>two<span class="a">three</span></p></div><p>four <span class="a">five</span> six</p>');
    const [match] = matchSelectors(page, [list(".a")]);
    expect(match.elements).toBe(3);
    expect(Array.from(match.coveredBlocks)).toEqual([0, 1, 1, 0]);
    expect(Array.from(match.matchedBlocks)).toEqual([0, 1, 0, 0]);
    expect(Array.from(match.holderBlocks)).toEqual([0, 0, 1, 1]);
    const pieces: string[] = [];
    for (let index = 0; index < match.text.length; index += 2) pieces.push(page.text.slice(match.text[index], match.text[index + 1]));
    expect(pieces).toEqual(["one\ntwothree", "five"]);
  });

  it("matches nothing below SELECTOR_MATCH_MAX_DEPTH open elements, and still ends elements right", () => {
    const depth = SELECTOR_MATCH_MAX_DEPTH + 10;
    const page = analysePage(`${"<span>".repeat(depth)}x${"</span>".repeat(depth)}<p class=a>after</p>`);
    const [spans, after] = matchSelectors(page, [list("span"), list("p.a")]);
    expect(spans.elements).toBe(SELECTOR_MATCH_MAX_DEPTH);
    expect(after.elements).toBe(1);
  });

  it("matches a selector of the most steps on deeply nested elements (forward matching: no backtracking over ancestors)", () => {
    // A backtracking matcher would try every split of the ancestors among the steps here (3,000 choose 16).
    const depth = 3000;
    const page = analysePage(`${"<span class=a>".repeat(depth)}x`);
    const selector = Array(SELECTOR_MAX_STEPS).fill("span.a").join(" ");
    const [match] = matchSelectors(page, [list(selector)]);
    expect(match.elements).toBe(depth - SELECTOR_MAX_STEPS + 1);
  });
});
