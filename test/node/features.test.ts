import { describe, expect, it } from "vitest";
import { DATA_SETS, hasData, loadDataset } from "../../src/evaluation/index";
import { analysePage, computeFeatures, FEATURE_COUNT, FEATURE_NAMES, type FeatureMatrix, type FeatureName, type PageModel } from "../../src/page/index";
import { everyDevPage } from "../support/dev-data";

/** The own hint features (class and id words), not those inherited from ancestors. */
const HINT_NAMES = FEATURE_NAMES.filter((name) => name.startsWith("hint"));

function value(matrix: FeatureMatrix, block: number, name: FeatureName): number {
  return matrix.data[block * matrix.featureCount + FEATURE_NAMES.indexOf(name)];
}

/** A small page the project wrote: header navigation, an article, a share bar, a footer. */
const SAMPLE = `<!doctype html><html><head><title>Otters return to the river Wey</title></head><body>
<header class="site-header"><nav id="main-nav"><ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/about">About</a></li></ul></nav></header>
<article class="post-content"><h1>Otters return to the river Wey</h1>
<p>Otters have returned to the river Wey after forty years, volunteers said on Tuesday. The animals were seen near Guildford in 2024.</p>
<p>Local groups counted 12 sightings. "It is a good sign for the whole river," one of them said.</p></article>
<div class="share-bar social"><a href="/s/1">Share</a> <a href="/s/2">Tweet</a></div>
<footer><p>Copyright 2026 River News. <a href="/terms">Terms</a></p></footer>
</body></html>`;

function blockWithText(page: PageModel, start: string): number {
  for (let b = page.blockCount - 1; b > 0; b--) if (page.text.slice(page.blocks.textStart[b], page.blocks.textEnd[b]).startsWith(start)) return b;
  return -1;
}

describe("block features", () => {
  const page = analysePage(SAMPLE);
  const matrix = computeFeatures(page);

  it("gives one row per block and one column per feature name", () => {
    expect(matrix.featureCount).toBe(FEATURE_COUNT);
    expect(matrix.data.length).toBe(page.blockCount * FEATURE_COUNT);
    expect(new Set(FEATURE_NAMES).size).toBe(FEATURE_COUNT);
  });

  it("describes links, containers, class hints and the title on a written page", () => {
    const navItem = blockWithText(page, "Home");
    expect(value(matrix, navItem, "linkCharRatio")).toBe(1);
    expect(value(matrix, navItem, "inNav")).toBe(1);
    expect(value(matrix, navItem, "inHeader")).toBe(1);
    expect(value(matrix, navItem, "inHintNavigation")).toBe(1);
    expect(value(matrix, navItem, "tagListItem")).toBe(1);
    const paragraph = blockWithText(page, "Otters have returned");
    expect(value(matrix, paragraph, "linkCharRatio")).toBe(0);
    expect(value(matrix, paragraph, "inArticle")).toBe(1);
    expect(value(matrix, paragraph, "inHintContent")).toBe(1);
    expect(value(matrix, paragraph, "tagParagraph")).toBe(1);
    expect(value(matrix, paragraph, "logSentences")).toBeCloseTo(Math.log1p(2), 5);
    expect(value(matrix, paragraph, "titleWordRatio")).toBeGreaterThan(0);
    const share = blockWithText(page, "Share");
    expect(value(matrix, share, "hintShare")).toBe(1);
    expect(value(matrix, share, "linksPerWord")).toBe(1);
    const footer = blockWithText(page, "Copyright");
    expect(value(matrix, footer, "inFooter")).toBe(1);
    expect(value(matrix, footer, "digitRatio")).toBeGreaterThan(0);
    const heading = blockWithText(page, "Otters return");
    expect(value(matrix, heading, "tagHeading")).toBe(1);
    expect(value(matrix, heading, "textRepeats")).toBeCloseTo(Math.log1p(0), 5);
    expect(value(matrix, 0, "pageTextShare")).toBeGreaterThan(0.9);
  });

  it("reads class and id hints word by word: a stem starts a word, an exact word is the whole word", () => {
    const cases: [string, FeatureName | null][] = [
      [`class="Site-Header2"`, "hintHeader"], // stem, any case, digits run on
      [`class="x topbar"`, "hintNavigation"], // the stem topbar; "top" is an exact word of headers
      [`id="top"`, "hintHeader"],
      [`class="ad-slot"`, "hintAd"],
      [`class="adjust"`, null], // "ad" is exact, "adjust" is another word
      [`class="load-more"`, "hintRelated"],
      [`class="promotion"`, "hintAd"], // the stem promo
      [`class="xnav"`, null], // a stem inside a word is not a start
      [`data-class="nav" class="body"`, "hintContent"], // only class and id
      [`class="\u212Alaro-box"`, "hintCookie"], // the Kelvin sign lower-cases to k
      [`class="café-nav"`, "hintNavigation"], // a letter outside ASCII ends a word
    ];
    for (const [attributes, hint] of cases) {
      const one = analysePage(`<body><div ${attributes}><p>Some words of text here.</p></div></body>`);
      const features = computeFeatures(one);
      const block = blockWithText(one, "Some words") - 1; // the div
      const set = HINT_NAMES.filter((name) => value(features, block, name) === 1);
      expect(set, attributes).toEqual(hint === null ? [] : [hint]);
    }
  });

  it("knows the consent platforms whose ids name neither cookies nor consent", () => {
    for (const id of ["CybotCookiebotDialog", "usercentrics-root", "qc-cmp2-container", "didomi-host", "BorlabsCookieBox", "onetrust-consent-sdk"]) {
      const banner = analysePage(`<body><p>An article that says something.</p><div id="${id}"><p>We and our partners store information on your device.</p></div></body>`);
      expect(value(computeFeatures(banner), blockWithText(banner, "We and our partners"), "inHintCookie"), id).toBe(1);
    }
  });

  it("takes the main content from a post named as one over a longer text beside it, and never from a list of options", () => {
    const paragraph = (words: string): string => `<p>${words}, which the reader came for, and more of it, told at length here.</p>`;
    const options = Array.from({ length: 40 }, (_, i) => `<option value="${i}">The best of the city, list number ${i}, all of it, again</option>`).join("");
    const written = analysePage(`<body><div id="page">
<div class="post-body entry-content">${paragraph("The council met on Monday")}${paragraph("The vote was close")}</div>
<div id="sidebar"><dl class="profile"><dd>${paragraph("I write about the city")}${paragraph("I worked in banks")}${paragraph("I live by the river")}</dd></dl></div>
<div class="links"><form><select name="lists">${options}</select></form></div>
</div></body>`);
    const features = computeFeatures(written);
    const post = blockWithText(written, "The council met");
    expect(value(features, post, "inMainContent")).toBe(1);
    expect(value(features, blockWithText(written, "I write about"), "inMainContent")).toBe(0);
    expect(value(features, blockWithText(written, "The best of the city"), "inMainContent")).toBe(0);
    expect(value(features, blockWithText(written, "The best of the city"), "mainContentScore")).toBe(0);
  });

  it("counts repeats of the same text on the page", () => {
    const repeated = analysePage("<body><div><p>Read more</p></div><p>Other text here</p><div><p>Read more</p></div></body>");
    const features = computeFeatures(repeated);
    const block = blockWithText(repeated, "Read more");
    expect(value(features, block, "textRepeats")).toBeCloseTo(Math.log1p(1), 5);
  });

  it("counts a page word that runs across touching text nodes once, as the whole word", () => {
    // The page text reads "Foobar-x foobarbaz. Foobar foobar Bar"; its words are foobar (3 times), x, foobarbaz, bar.
    // Each text node's own words (foo, bar, baz...) are scored by how often the page has them.
    const touching = analysePage("<body><p>Foo<b>bar</b>-x foo<i>bar</i><i>baz</i>.</p><p>Foobar foobar <b>Bar</b></p></body>");
    const features = computeFeatures(touching);
    const pageCounts = new Map<string, number>();
    for (const word of touching.text.toLowerCase().match(/\w+/g)!) pageCounts.set(word, (pageCounts.get(word) ?? 0) + 1);
    expect(Object.fromEntries(pageCounts)).toEqual({ foobar: 3, x: 1, foobarbaz: 1, bar: 1 });
    const total = 6;
    const surprise = (word: string): number => Math.log(total + 1) - Math.log(Math.max(1, pageCounts.get(word) ?? 0));
    const nodeWords = (block: number): string[] => {
      const words: string[] = [];
      for (let t = 0; t < touching.textNodeCount; t++) {
        let inside = touching.textNodes.block[t];
        while (inside > 0 && inside !== block) inside = touching.blocks.parent[inside];
        if (inside === block) words.push(...(touching.text.slice(touching.textNodes.textStart[t], touching.textNodes.textEnd[t]).toLowerCase().match(/\w+/g) ?? []));
      }
      return words;
    };
    for (const start of ["Foobar-x", "Foobar foobar"]) {
      const block = blockWithText(touching, start);
      const words = nodeWords(block);
      const expected = words.reduce((sum, word) => sum + surprise(word), 0) / words.length;
      expect(value(features, block, "pageCrossEntropy")).toBeCloseTo(expected, 5);
    }
  });
});

describe("words and sentences of other scripts", () => {
  // Chinese and Japanese: one word per ideograph or kana, sentences end at 。！？ with no space after them.
  const page = analysePage(`<html><body><p>今天天气很好。我们去公园散步！你来吗？</p><p>東京は雨です。</p><p>Two words.</p></body></html>`);
  const matrix = computeFeatures(page);

  it("counts each ideograph and kana as a word, and its sentence ends", () => {
    const chinese = blockWithText(page, "今天");
    expect(value(matrix, chinese, "logWords")).toBeCloseTo(Math.log1p(16), 5);
    expect(value(matrix, chinese, "logSentences")).toBeCloseTo(Math.log1p(3), 5);
    const japanese = blockWithText(page, "東京");
    expect(value(matrix, japanese, "logWords")).toBeCloseTo(Math.log1p(6), 5);
    expect(value(matrix, blockWithText(page, "Two"), "logWords")).toBeCloseTo(Math.log1p(2), 5);
  });

  it("counts the sentence ends and commas of Hindi and Arabic", () => {
    const other = analysePage(`<html><body><p>परिषद की बैठक हुई। सड़क, पुल और बंदरगाह पर चर्चा हुई।</p><p>اجتمع المجلس، وناقش الميناء. هل وافق؟</p></body></html>`);
    const row = computeFeatures(other);
    const hindi = blockWithText(other, "परिषद");
    expect(value(row, hindi, "logSentences")).toBeCloseTo(Math.log1p(2), 5);
    expect(value(row, hindi, "commasPerWord")).toBeGreaterThan(0);
    const arabic = blockWithText(other, "اجتمع");
    expect(value(row, arabic, "logSentences")).toBeCloseTo(Math.log1p(2), 5);
    expect(value(row, arabic, "commasPerWord")).toBeGreaterThan(0);
  });

  it("does not count fullwidth punctuation as letters of a word", () => {
    const mixed = analysePage(`<html><body><p>ＡＢＣ，ｄｅｆ！１２</p></body></html>`);
    const row = computeFeatures(mixed);
    expect(value(row, blockWithText(mixed, "ＡＢＣ"), "logWords")).toBeCloseTo(Math.log1p(3), 5);
  });
});

describe.runIf(everyDevPage(hasData(), "features.test.ts"))("block features on every dev page (skipped without ../shared/data)", () => {
  for (const set of DATA_SETS) {
    it(`${set}: finite values, characters and link share equal a per-block recount`, () => {
      const { pages } = loadDataset(set);
      for (const source of pages) {
        const page = analysePage(source.html);
        const matrix = computeFeatures(page);
        expect(matrix.data.every(Number.isFinite), source.id).toBe(true);
        // Reference: sum each text node into every ancestor block (quadratic, fine for a test).
        const chars = new Float64Array(page.blockCount);
        const linked = new Float64Array(page.blockCount);
        for (let t = 0; t < page.textNodeCount; t++) {
          const length = page.textNodes.textEnd[t] - page.textNodes.textStart[t];
          for (let b = page.textNodes.block[t]; b >= 0; b = page.blocks.parent[b]) {
            chars[b] += length;
            if (page.textNodes.inLink[t] === 1) linked[b] += length;
          }
        }
        for (let b = 0; b < page.blockCount; b++) {
          expect(value(matrix, b, "logChars"), `${source.id} block ${b}`).toBeCloseTo(Math.fround(Math.log1p(chars[b])), 5);
          expect(value(matrix, b, "linkCharRatio"), `${source.id} block ${b}`).toBeCloseTo(Math.fround(chars[b] > 0 ? linked[b] / chars[b] : 0), 5);
        }
      }
    });
  }
});
