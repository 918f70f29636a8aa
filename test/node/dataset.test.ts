import { describe, expect, it } from "vitest";
import { goldWithoutHeader, hasData, loadDataset } from "../../src/evaluation/index";

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

describe.skipIf(!hasData())("wceb2026: page kinds and snippets (skipped without ../shared/data)", () => {
  const { pages, problems } = hasData() ? loadDataset("wceb2026") : { pages: [], problems: [] };

  it("reads every page with its kind from the index and its snippets", () => {
    expect(problems).toEqual([]);
    expect(pages).toHaveLength(480);
    const kinds = new Map<string, number>();
    for (const page of pages) kinds.set(page.kind ?? "none", (kinds.get(page.kind ?? "none") ?? 0) + 1);
    expect(Object.fromEntries(kinds)).toEqual({ article: 199, forum: 67, product: 54, documentation: 54, service: 47, listing: 30, collection: 28, blog: 1 });
    const first = pages.find((page) => page.id === "0006")!;
    expect(first.snippets?.with).toContain("Mondly is the up-and-comer among language learning apps.");
    expect(first.snippets?.without.length).toBeGreaterThan(0);
    expect(pages.every((page) => page.snippets !== null && page.gold !== "")).toBe(true);
  });

  it("scores articles on the body and other kinds on all the kept text, as the set's gold is written", () => {
    expect(goldWithoutHeader(pages.find((page) => page.kind === "article")!)).toBe(true);
    expect(goldWithoutHeader(pages.find((page) => page.kind === "forum")!)).toBe(false);
    expect(goldWithoutHeader({ set: "scrapinghub", kind: null })).toBe(true);
    expect(goldWithoutHeader({ set: "dragnet", kind: null })).toBe(false);
  });

  it("gives pages of sets without kinds or snippets null for both", () => {
    const dragnet = loadDataset("dragnet").pages[0];
    expect(dragnet.kind).toBeNull();
    expect(dragnet.snippets).toBeNull();
  });
});
