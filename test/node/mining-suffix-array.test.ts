import { describe, expect, it } from "vitest";
import {
  buildLcpArray,
  buildLcpArrayByComparison,
  buildSuffixArray,
  sortSuffixesByComparison,
} from "../../src/mining/index";
import { seededRandom } from "../../scripts/lib/seeded-random";

type Generator = (random: () => number, length: number) => { symbols: Int32Array; maxSymbol: number };

const GENERATORS: Record<string, Generator> = {
  "uniform, small alphabet": (random, length) => fill(length, 3, () => Math.floor(random() * 3)),
  "uniform, large alphabet": (random, length) => fill(length, 1000, () => Math.floor(random() * 1000)),
  "one symbol repeated": (_random, length) => fill(length, 0, () => 0),
  "short period repeated": (random, length) => {
    const period = Array.from({ length: 1 + Math.floor(random() * 4) }, () => Math.floor(random() * 4));
    return fill(length, 3, (i) => period[i % period.length]!);
  },
  "repeated block with rare mutations": (random, length) => {
    const block = Array.from({ length: 2 + Math.floor(random() * 12) }, () => Math.floor(random() * 6));
    return fill(length, 6, (i) => (random() < 0.03 ? 6 : block[i % block.length]!));
  },
  "documents with unique separators": (random, length) => {
    // Separators 0..k-1 unique, then a shared template and random content, as the miner builds it.
    const documents = 1 + Math.floor(random() * 6);
    const symbols: number[] = [];
    const template = [10, 11, 12, 13];
    for (let d = 0; d < documents && symbols.length < length; d++) {
      symbols.push(...template);
      const content = Math.floor(random() * 8);
      for (let i = 0; i < content; i++) symbols.push(10 + Math.floor(random() * 5));
      symbols.push(...template.slice(0, 2), d);
    }
    return { symbols: Int32Array.from(symbols), maxSymbol: 15 };
  },
};

function fill(length: number, maxSymbol: number, value: (i: number) => number) {
  const symbols = new Int32Array(length);
  for (let i = 0; i < length; i++) symbols[i] = value(i);
  return { symbols, maxSymbol };
}

describe("suffix array (SA-IS) and LCP (Kasai)", () => {
  for (const [name, generate] of Object.entries(GENERATORS)) {
    it(`equal the naive construction on 1,000 random inputs: ${name}`, () => {
      const random = seededRandom(name.length * 7919);
      for (let trial = 0; trial < 1000; trial++) {
        const length = trial < 50 ? trial : 1 + Math.floor(random() * 300);
        const { symbols, maxSymbol } = generate(random, length);
        const expected = sortSuffixesByComparison(symbols);
        const suffixArray = buildSuffixArray(symbols, maxSymbol);
        expect(Array.from(suffixArray), `trial ${trial}: ${Array.from(symbols).join(",")}`).toEqual(Array.from(expected));
        expect(Array.from(buildLcpArray(symbols, suffixArray))).toEqual(
          Array.from(buildLcpArrayByComparison(symbols, expected)),
        );
      }
    });
  }

  it("handles a long highly repetitive input (deep recursion) like the naive sort", () => {
    const random = seededRandom(42);
    const { symbols, maxSymbol } = GENERATORS["repeated block with rare mutations"]!(random, 20_000);
    const suffixArray = buildSuffixArray(symbols, maxSymbol);
    expect(Array.from(suffixArray)).toEqual(Array.from(sortSuffixesByComparison(symbols)));
  });

  it("gives empty and single results for tiny inputs", () => {
    expect(Array.from(buildSuffixArray(new Int32Array(0), 0))).toEqual([]);
    expect(Array.from(buildSuffixArray(Int32Array.of(5), 5))).toEqual([0]);
    expect(Array.from(buildLcpArray(Int32Array.of(1, 1), Int32Array.of(1, 0)))).toEqual([0, 1]);
  });
});
