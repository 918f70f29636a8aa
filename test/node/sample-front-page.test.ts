// The sample site's front page (a list of teasers) as `npm start` cleans it: every teaser keeps its headline, with the
// site's rule set and with the classifier alone. The page says what it is (schema.org's CollectionPage), as news front
// pages do, so the cleaning keeps each item's title and summary (classify/kind.ts); without that, the classifier took
// out the second teaser's headline, and the text format left out the first as if it were an article's header.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { clean } from "../../src/library-node";

const FOLDER = resolve(import.meta.dirname, "../../samples/wrenmouth-gazette.example");
const PAGE = readFileSync(resolve(FOLDER, "index.html"), "utf8");
const RULES = readFileSync(resolve(import.meta.dirname, "../../rules/wrenmouth-gazette.example.json"), "utf8");
const HEADLINES = [...PAGE.matchAll(/<li class="teaser">\s*<h2><a [^>]*>([^<]+)<\/a><\/h2>/g)].map((match) => match[1].replace("&amp;", "&"));

describe("the sample front page", () => {
  it("has six teasers", () => expect(HEADLINES).toHaveLength(6));

  it.each([["rules+classifier", RULES], ["classifier", undefined]])("keeps every teaser's headline (%s)", async (_mode, rules) => {
    // text: a collection has no article header to leave out, so the first teaser's headline stays too.
    for (const format of ["markdown", "html", "text"] as const) {
      const result = await clean(PAGE, { url: "https://wrenmouth-gazette.example/", format, rules });
      if (!result.ok) throw new Error(result.detail);
      expect(result.kind, format).toBe("collection");
      for (const headline of HEADLINES) expect(result.body, `${format}: ${headline}`).toContain(headline);
    }
  });
});
