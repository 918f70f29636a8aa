import { describe, expect, it } from "vitest";
import { candidateKeys, DEFAULT_MINING_OPTIONS, mineSite } from "../../src/mining/index";

/** Pages whose content differs, with a phrase inside running text and one that forms a block, on every page. */
function pages(count: number): string[] {
  return Array.from({ length: count }, (_, p) => {
    const filler = (n: number) => Array.from({ length: n }, (_, k) => `w${p}x${k}`).join(" ");
    return [
      "Main menu: Home , Politics , Sport",
      `${filler(10)} , and as a matter of fact ${filler(10)} .`,
      `${filler(20)}`,
      "Follow us on Twitter",
    ].join("\n");
  });
}

function candidateTexts(texts: string[], options = DEFAULT_MINING_OPTIONS): string[] {
  const mining = mineSite(texts, options);
  return candidateKeys(mining).map((keys) => keys.join(" "));
}

describe("string filters (paper 002, step 7)", () => {
  it("keeps strings at block edges and drops the same frequency of string inside running text", () => {
    const candidates = candidateTexts(pages(10));
    expect(candidates).toContain("Follow us on Twitter");
    expect(candidates.some((text) => text.startsWith("Main menu"))).toBe(true);
    expect(candidates.filter((text) => text.includes("matter of fact"))).toEqual([]);
  });

  it("keeps the running-text string when the boundary share is not required", () => {
    const candidates = candidateTexts(pages(10), { ...DEFAULT_MINING_OPTIONS, minimumBoundaryShare: 0 });
    expect(candidates.some((text) => text.includes("as a matter of fact"))).toBe(true);
  });

  it("keeps a string that spans a block boundary even when both its ends sit inside running text", () => {
    const texts = Array.from({ length: 10 }, (_, p) =>
      [`story${p} headline${p} The Reliable Source`, "Entertainment", "Books", `Comics and more${p} rotating${p}`].join("\n"),
    );
    const candidates = candidateTexts(texts);
    expect(candidates).toContain("The Reliable Source Entertainment Books Comics and");
  });

  it("does not count punctuation as words", () => {
    const texts = Array.from({ length: 8 }, (_, p) => `Alpha${p} , . ; Beta${p}\n, .\nGamma${p}`);
    expect(candidateTexts(texts)).toEqual([]);
    expect(candidateTexts(texts, { ...DEFAULT_MINING_OPTIONS, minimumWordTokens: 0, minimumBoundaryShare: 0 }).length).toBeGreaterThan(0);
  });
});
