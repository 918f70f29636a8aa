import { describe, expect, it } from "vitest";
import { candidateKeys, DEFAULT_MINING_OPTIONS, mineSite, reduceContained } from "../../src/mining/index";

/** A generous cutoff, so that the reduction decides what stays. */
const OPTIONS = { ...DEFAULT_MINING_OPTIONS, energyTolerance: 1000 };

function keptKeys(texts: string[]) {
  const mining = mineSite(texts, OPTIONS);
  const keys = candidateKeys(mining).map((tokens) => tokens.join(" "));
  const ordinal = new Map(Array.from(mining.candidates, (repeat, index) => [repeat, index]));
  const kept = Array.from(reduceContained(mining, mining.candidates), (repeat) => keys[ordinal.get(repeat)!]!);
  return { candidates: keys, kept };
}

describe("contained strings", () => {
  it("drops a string whose occurrences all lie inside longer kept strings", () => {
    // "Alpha Beta Gamma Delta" is maximal (two left contexts) but always inside one of the two longer strings.
    const texts = Array.from({ length: 8 }, (_, p) =>
      ["Up north\nAlpha Beta Gamma Delta\nEast side", `story${p} body${p}`, "Down south\nAlpha Beta Gamma Delta\nWest end"].join("\n"),
    );
    const { candidates, kept } = keptKeys(texts);
    expect(candidates).toContain("Alpha Beta Gamma Delta");
    expect(kept).not.toContain("Alpha Beta Gamma Delta");
    expect(kept).toEqual(expect.arrayContaining(["Up north Alpha Beta Gamma Delta East side", "Down south Alpha Beta Gamma Delta West end"]));
  });

  it("keeps a contained string that also occurs on its own", () => {
    const texts = Array.from({ length: 8 }, (_, p) => {
      const lines = ["Menu Home News Sport Weather Contact us now", `story${p} body${p}`];
      if (p % 2 === 0) lines.push("Contact us now", `tail${p} end${p}`);
      return lines.join("\n");
    });
    const { candidates, kept } = keptKeys(texts);
    expect(candidates).toContain("Contact us now");
    expect(kept).toEqual(expect.arrayContaining(["Menu Home News Sport Weather Contact us now", "Contact us now"]));
  });
});
