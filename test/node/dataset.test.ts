import { describe, expect, it } from "vitest";
import { hasData, loadDataset } from "../../src/evaluation/index";

describe.skipIf(!hasData())("dev set gold (skipped without ../shared/data)", () => {
  const { pages } = hasData() ? loadDataset("dragnet") : { pages: [] };

  it("reads the UTF-16 gold files as text, and their gold is the article without its reader comments", () => {
    const page = pages.find((candidate) => candidate.id === "158")!;
    expect(page.gold).toMatch(/^\s*Forgiving your enemies/);
    expect(page.gold).toContain("Those who practice forgiveness wash and perfume their own hearts.");
    expect(page.gold).not.toContain("COMMENTS");
    expect(page.gold).not.toContain("Mohammad Ali Gaad");
  });

  it("ends each article at the comments separator, whichever slip it was typed with", () => {
    const marked = pages.filter((page) => /\$%\^&|COMMENTS|COMMNENTS/.test(page.gold)).map((page) => page.id);
    expect(marked).toEqual([]);
    const split = pages.find((page) => page.id === "R162")!;
    expect(split.gold.trimEnd()).toMatch(/rather than being the result of a performance error\.$/);
  });
});
