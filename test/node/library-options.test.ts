// The library's options as a caller passes them: an option it does not read, or a value not among an option's
// choices, is the caller's mistake (a TypeError naming what it takes), never a page cleaned some other way and ok.
import { describe, expect, it } from "vitest";
import { clean } from "../../src/library-node";

const PAGE = "<html><head><title>Harbour</title></head><body><article><h1>Harbour reopens</h1><p>The harbour reopens on Monday after two years of works on the old quay.</p></article></body></html>";

describe("clean()'s options", () => {
  it("refuses a format it does not write, naming the formats", async () => {
    await expect(clean(PAGE, { format: "pdf" as never })).rejects.toThrow(new TypeError("edge-cleaner: format must be one of html, text, markdown, json, article, not \"pdf\""));
  });

  it("refuses a mode, a comments choice or a text scope that is not one, and a limit that is not a number above 0", async () => {
    await expect(clean(PAGE, { mode: "bogus" as never })).rejects.toThrow(/^edge-cleaner: mode must be one of auto, rules, classifier, rules\+classifier, none, not "bogus"$/);
    await expect(clean(PAGE, { comments: "some" as never })).rejects.toThrow(TypeError);
    await expect(clean(PAGE, { textScope: "page" as never })).rejects.toThrow(/textScope must be one of body, all/);
    await expect(clean(PAGE, { maxBytes: "1000" as never })).rejects.toThrow(/maxBytes must be a number above 0/);
    await expect(clean(PAGE, { frontMatter: "yes" as never })).rejects.toThrow(/frontMatter must be true or false/);
  });

  it("refuses an option it does not read, naming the ones it does", async () => {
    await expect(clean(PAGE, { fromat: "text" } as never)).rejects.toThrow(/^edge-cleaner: unknown option "fromat": clean\(\) reads url, format, contentType, rules, model, maxBytes/);
  });

  it("throws a TypeError, as for any invalid rule set, for rules given as text that is not JSON", async () => {
    await expect(clean(PAGE, { rules: "{not json" })).rejects.toThrow(TypeError);
    await expect(clean(PAGE, { rules: "{not json" })).rejects.toThrow(/^edge-cleaner: invalid rule set: not JSON/);
  });

  it("cleans with every option named right", async () => {
    const result = await clean(PAGE, { format: "text", mode: "classifier", comments: "include", articleTitle: "keep", textScope: "all", frontMatter: false, maxBytes: 1_000_000, url: undefined });
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.body).toContain("The harbour reopens on Monday");
  });
});
