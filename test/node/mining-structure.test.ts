/**
 * The structural miner (src/mining/structure.ts, page-structure.ts, mode-choice.ts) on a made-up site whose
 * template containers change their text from page to page (a related list of other stories' links) beside
 * containers whose text repeats (navigation, sidebar, footer), and an article of page-unique prose.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_MINING_OPTIONS, mineSites } from "../../src/mining/index";
import { isContentBlock, readStructures } from "../../src/mining/page-structure";
import { holdBackCheck } from "../../src/mining/structure";
import { mineSite } from "../../src/mining/mine-site";
import { LEVEL_TEMPLATE, LEVEL_WHEN, textLevels } from "../../src/mining/text-levels";
import { analysePage } from "../../src/page/index";
import { parseRuleSet } from "../../src/rules/index";

const WORDS = ["harbour", "dredging", "council", "vessel", "tide", "silt", "budget", "quay", "survey", "crew", "estuary", "permit",
  "ferry", "beacon", "channel", "pilot", "cargo", "storm", "mooring", "lock", "pier", "buoy", "gull", "reef", "sandbar", "keel"];

/** Page-unique words: a different run through the word list per page and sentence (no 2-word string repeats across pages). */
function prose(page: number, sentence: number, length: number): string {
  const words: string[] = [];
  for (let k = 0; k < length; k++) words.push(`${WORDS[(page * 7 + sentence * 3 + k * (page + 2)) % WORDS.length]}${page}x${sentence}y${k}`);
  return `${words.join(" ")}.`;
}

function sitePage(page: number, pages: number): string {
  // Each related story: its title as a link and a short teaser sentence of its own (an item of a list of links).
  const related = [1, 2, 3].map((offset) => `<li><a href="/s${(page + offset) % pages}">${prose((page + offset) % pages, 9, 8)}</a><p>${prose(page * 10 + offset, 8, 3)}</p></li>`).join("");
  return `<!doctype html><html><head><title>Story ${page}</title></head><body>
<div id="header"><ul class="nav"><li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/sport">Sport and leisure</a></li></ul></div>
<div id="content"><article class="post post-${1000 + page}"><h1>${prose(page, 0, 6)}</h1>
<p>${prose(page, 1, 30)}</p><p>${prose(page, 2, 25)}</p></article>
<div class="related"><h3>Related stories</h3><ul>${related}</ul></div></div>
<div class="sidebar"><p>About this paper: the harbour town's news since eighteen ninety, read by everyone on the quay.</p></div>
<div id="footer"><p>Copyright Wrenmouth News, all rights reserved. Contact the newsroom.</p></div>
</body></html>`;
}

describe("structural rules", () => {
  const pages = Array.from({ length: 9 }, (_unused, page) => analysePage(sitePage(page, 9)));
  const [report] = mineSites([{ site: "news.example", pageTexts: pages.map((page) => page.text), pages }], DEFAULT_MINING_OPTIONS, () => {}, "2026-11-25T12:00:00Z");

  it("strips template containers whose text changes (the related list) and keeps the article as main", () => {
    const ruleSet = report!.ruleSet;
    expect(parseRuleSet(ruleSet, { checkPatterns: true }).ok).toBe(true);
    expect(ruleSet.version).toBe(2);
    expect(ruleSet.strip).toContain("div.related");
    expect(ruleSet.strip).toContain("div.sidebar");
    expect(ruleSet.main?.[0]).toBe("article.post");
    // A volatile token (post-1003) is never part of a selector; no selector takes the article.
    expect([...(ruleSet.strip ?? []), ...(ruleSet.main ?? [])].join(" ")).not.toMatch(/\d{3}/);
    expect(ruleSet.strip?.some((selector) => /article|content/.test(selector))).toBe(false);
    expect(report!.structure?.heldBack).toBe(3);
  });

  it("records the default mode and how it was chosen", () => {
    expect(report!.ruleSet.defaultMode?.by).toBe("held-back");
    expect(report!.ruleSet.defaultMode?.mode).toBe("rules+classifier");
  });

  it("drops a strip selector that holds content and a main entry that leaves content out on a checked page", () => {
    const mining = mineSite(pages.map((page) => page.text), DEFAULT_MINING_OPTIONS);
    const structures = readStructures(pages, textLevels(mining, pages.map((page) => page.text)), pages.map((_page, index) => index));
    const check = holdBackCheck({ strip: ["div#content", "div.sidebar"], main: ["div.related", "article.post"], keep: [], stripShare: 0.5 }, structures);
    expect(check.strip).toEqual(["div.sidebar"]);
    expect(check.main).toEqual(["article.post"]);
    expect(check.dropped).toEqual(["strip div#content: holds content", "main div.related: leaves content out"]);
  });
});

describe("structural rules from two pages", () => {
  const pages = [0, 1].map((page) => analysePage(sitePage(page, 2)));
  const [report] = mineSites([{ site: "news.example", pageTexts: pages.map((page) => page.text), pages }], DEFAULT_MINING_OPTIONS, () => {}, "2026-11-25T12:00:00Z");

  it("are chosen on both pages and checked on both, none held back", () => {
    expect(report!.structure?.heldBack).toBe(0);
    expect(report!.ruleSet.strip).toEqual(expect.arrayContaining(["div.related", "div.sidebar"]));
    expect(report!.ruleSet.strip?.some((selector) => /article|content/.test(selector))).toBe(false);
    expect(report!.ruleSet.defaultMode?.mode).toBe("rules+classifier");
  });
});

/**
 * A page whose template holds prose of its own: readers' comments, a list of other stories (a linked heading and a
 * teaser sentence each), a list of dated links, an archive menu, the server's address; the article's title is listed as
 * a link on other pages.
 */
function richPage(page: number, pages: number): string {
  const stories = [1, 2].map((offset) => {
    const other = (page + offset) % pages;
    return `<div class="item"><h3><a href="/s${other}">${prose(other, 0, 6)}</a></h3><p>${prose(other * 10 + page, 7, 12)}</p></div>`;
  }).join("");
  const dated = [1, 2].map((offset) => `<li><a href="/s${(page + offset) % pages}">Tide</a><p>${1 + ((page + offset) % pages)} March 2026</p></li>`).join("");
  const comments = [1, 2].map((reader) => `<li class="comment"><p>${prose(page * 10 + reader, 5, 14)}</p></li>`).join("");
  const months = ["January", "February", "March", "April"].map((month, index) => `<option>${month} (${(page * 3 + index) % 17})</option>`).join("");
  return `<!doctype html><html><head><title>${prose(page, 0, 6).slice(0, -1)} | Wrenmouth News</title></head><body>
<div id="wrap"><div id="main"><div class="entry"><h1 class="entry-title">${prose(page, 0, 6).slice(0, -1)}</h1>
<p>${prose(page, 1, 30)}</p><p>${prose(page, 2, 25)}</p></div>
<div class="more-stories"><h2>More stories</h2>${stories}</div><ul class="see-also">${dated}</ul>
<div id="comments"><h3>Comments</h3><ol>${comments}</ol></div></div>
<div id="archive"><select name="archive">${months}</select></div><p>Served by http://static.wrenmouth.example/news</p></div>
</body></html>`;
}

describe("structural rules on text that is not the page's own", () => {
  const pages = Array.from({ length: 9 }, (_unused, page) => analysePage(richPage(page, 9)));
  const [report] = mineSites([{ site: "news.example", pageTexts: pages.map((page) => page.text), pages }], DEFAULT_MINING_OPTIONS, () => {}, "2026-11-25T12:00:00Z");

  it("strips the readers' comments and an archive menu; main is the article, without the lists of other stories or the server's address", () => {
    const ruleSet = report!.ruleSet;
    expect(ruleSet.strip).toEqual(expect.arrayContaining(["div#comments", "div#archive"]));
    expect(ruleSet.main?.[0]).toBe("div.entry");
  });

  it("keeps the title heading, whose text other pages list as a link", () => {
    expect(report!.ruleSet.keep).toEqual(["h1.entry-title"]);
    expect(report!.structure?.check.dropped).toEqual([]);
  });
});

/**
 * A page whose own facts sit in template: a masthead heading of the site's name (in every page's <title>), the headline
 * in a lower heading, a byline of the site's one writer with the page's date, and a stamp that fills the page's time and
 * date into a template sentence beside a desk's e-mail address.
 */
function factsPage(page: number): string {
  const headline = prose(page, 0, 6).slice(0, -1);
  return `<!doctype html><html><head><title>${headline} | Wrenmouth News</title></head><body>
<div id="masthead"><h1 class="site">Wrenmouth News</h1></div>
<div id="main"><div class="entry"><h2 class="headline">${headline}</h2><p class="byline">by Staff Writer on ${1 + page} March 2026</p>
<p>${prose(page, 1, 30)}</p><p>${prose(page, 2, 25)}</p></div></div>
<div id="stamp"><p>This story was published at ${10 + page}:${10 + page * 3} on ${1 + page} March 2026.</p><p>Write to desk${page % 3}@wrenmouth.example</p></div>
</body></html>`;
}

describe("structural rules on the page's own facts", () => {
  const pages = Array.from({ length: 9 }, (_unused, page) => analysePage(factsPage(page)));
  const texts = pages.map((page) => page.text);
  const mining = mineSite(texts, DEFAULT_MINING_OPTIONS);
  const levels = textLevels(mining, texts);
  const structures = readStructures(pages, levels, pages.map((_page, index) => index));
  const [report] = mineSites([{ site: "news.example", pageTexts: texts, pages }], DEFAULT_MINING_OPTIONS, () => {}, "2026-11-25T12:00:00Z");
  const blockOf = (page: number, text: string): number => {
    const at = pages[page]!.text.indexOf(text);
    let found = -1;
    for (let block = 1; block < pages[page]!.blockCount; block++) if (pages[page]!.blocks.textStart[block]! <= at && at < pages[page]!.blocks.textEnd[block]!) found = block;
    return found;
  };

  it("reads a value that a template sentence fills in as template, and a date at the byline's end as the page's", () => {
    const time = pages[4]!.text.indexOf("14:22");
    expect([...levels[4]!.slice(time, time + 5)].every((level) => level === LEVEL_TEMPLATE)).toBe(true);
    const date = pages[4]!.text.indexOf("5 March 2026");
    expect(levels[4]![date + 2]).toBe(LEVEL_WHEN);
  });

  it("takes the headline, not the site's name, for the title heading, and keeps it", () => {
    expect(structures[2]!.titles[blockOf(2, "Wrenmouth News")]).toBe(0);
    expect(structures[2]!.titles[blockOf(2, prose(2, 0, 6).slice(0, 20))]).toBe(1);
    expect(report!.ruleSet.keep).toEqual(["h2.headline"]);
  });

  it("counts the byline with the page's date as a content block however template its words, and a dot in an address as no sentence end", () => {
    expect(isContentBlock(structures[3]!, blockOf(3, "by Staff Writer"), 0.99)).toBe(true);
    expect(structures[3]!.stated[blockOf(3, "Write to")]).toBe(0);
    expect(report!.ruleSet.strip).toContain("div#stamp");
    expect(report!.ruleSet.strip?.some((selector) => /byline|entry|main/.test(selector))).toBe(false);
    // div#main holds div.entry alone: either is the article's container.
    expect(["div.entry", "div#main"]).toContain(report!.ruleSet.main?.[0]);
  });
});

/** A blog whose <title> is its name alone: each post's heading is a link, and a promo box teases one other post. */
function promoPage(page: number, pages: number): string {
  const other = (page + 1) % pages;
  return `<!doctype html><html><head><title>Wrenmouth Blog</title></head><body>
<div class="post"><h2><a href="/p${page}">${prose(page, 0, 6)}</a></h2><p>${prose(page, 1, 30)}</p><p>${prose(page, 2, 25)}</p></div>
<div class="promo"><h3><a href="/p${other}">${prose(other, 0, 6)}</a></h3><p>${prose(other * 10 + page, 3, 12)}</p></div>
</body></html>`;
}

describe("teasers of other stories", () => {
  const pages = Array.from({ length: 6 }, (_unused, page) => analysePage(promoPage(page, 6)));
  const texts = pages.map((page) => page.text);
  const structures = readStructures(pages, textLevels(mineSite(texts, DEFAULT_MINING_OPTIONS), texts), pages.map((_page, index) => index));
  const blockOf = (page: number, text: string): number => {
    let found = -1;
    const at = texts[page]!.indexOf(text);
    for (let block = 1; block < pages[page]!.blockCount; block++) if (pages[page]!.blocks.textStart[block]! <= at && at < pages[page]!.blocks.textEnd[block]!) found = block;
    return found;
  };

  it("reads a lone promo's teaser as the other story's, and the post holding the page's longest statement as the page's", () => {
    for (let page = 0; page < pages.length; page++) {
      expect(structures[page]!.stated[blockOf(page, prose((page + 1) % 6 * 10 + page, 3, 12).slice(0, 20))]).toBe(0);
      expect(isContentBlock(structures[page]!, blockOf(page, prose(page, 1, 30).slice(0, 20)), 0.5)).toBe(true);
      expect(isContentBlock(structures[page]!, blockOf(page, prose(page, 2, 25).slice(0, 20)), 0.5)).toBe(true);
    }
  });
});
