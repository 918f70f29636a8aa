import { describe, expect, it } from "vitest";
import { buildLcpArray, buildSuffixArray, findMaximalRepeats } from "../../src/mining/index";
import { seededRandom } from "../../scripts/lib/seeded-random";

/** Documents of token ids ≥ 0 → corpus with separator ids 0..D-1 and token ids shifted past them. */
function buildCorpus(documents: number[][]) {
  const tokens: number[] = [];
  const documentOf: number[] = [];
  let maxToken = documents.length - 1;
  documents.forEach((document, d) => {
    for (const token of document) {
      tokens.push(token + documents.length);
      documentOf.push(d);
      maxToken = Math.max(maxToken, token + documents.length);
    }
    tokens.push(d);
    documentOf.push(d);
  });
  return { tokens: Int32Array.from(tokens), documentOf: Int32Array.from(documentOf), maxToken };
}

interface Statistics {
  occurrences: number;
  documents: number;
}

/** Every maximal repeated string by enumeration: no one-token extension has the same occurrence count. */
function bruteForce(documents: number[][], minimumTokens: number, minimumDocuments: number): Map<string, Statistics> {
  const occurrences = new Map<string, number>();
  const documentSets = new Map<string, Set<number>>();
  documents.forEach((document, d) => {
    for (let start = 0; start < document.length; start++) {
      for (let end = start + 1; end <= document.length; end++) {
        const key = document.slice(start, end).join(",");
        occurrences.set(key, (occurrences.get(key) ?? 0) + 1);
        if (!documentSets.has(key)) documentSets.set(key, new Set());
        documentSets.get(key)!.add(d);
      }
    }
  });
  const alphabet = new Set(documents.flat());
  const result = new Map<string, Statistics>();
  for (const [key, count] of occurrences) {
    if (count < 2) continue;
    const length = key.split(",").length;
    if (length < minimumTokens || documentSets.get(key)!.size < minimumDocuments) continue;
    let maximal = true;
    for (const token of alphabet) {
      if (occurrences.get(`${token},${key}`) === count || occurrences.get(`${key},${token}`) === count) maximal = false;
    }
    if (maximal) result.set(key, { occurrences: count, documents: documentSets.get(key)!.size });
  }
  return result;
}

function mined(documents: number[][], minimumTokens: number, minimumDocuments: number): Map<string, Statistics> {
  const { tokens, documentOf, maxToken } = buildCorpus(documents);
  const suffixArray = buildSuffixArray(tokens, maxToken);
  const lcp = buildLcpArray(tokens, suffixArray);
  const table = findMaximalRepeats(
    { tokens, documentOf, documentCount: documents.length, suffixArray, lcp },
    { minimumTokens, minimumDocuments },
  );
  const result = new Map<string, Statistics>();
  for (let r = 0; r < table.size; r++) {
    const start = table.position[r]!;
    const key = Array.from(tokens.subarray(start, start + table.length[r]!), (t) => t - documents.length).join(",");
    expect(result.has(key), `reported twice: ${key}`).toBe(false);
    expect(table.lastRank[r]! - table.firstRank[r]! + 1).toBe(table.occurrences[r]);
    result.set(key, { occurrences: table.occurrences[r]!, documents: table.documents[r]! });
  }
  return result;
}

function randomDocuments(random: () => number, planted: boolean): number[][] {
  const count = 1 + Math.floor(random() * 7);
  const alphabet = 2 + Math.floor(random() * 5);
  const template = Array.from({ length: 3 + Math.floor(random() * 4) }, () => Math.floor(random() * alphabet));
  return Array.from({ length: count }, () => {
    const document = Array.from({ length: Math.floor(random() * 25) }, () => Math.floor(random() * alphabet));
    if (planted && random() < 0.8) document.splice(Math.floor(random() * document.length), 0, ...template);
    return document;
  });
}

describe("maximal repeats with occurrence count and document frequency", () => {
  it("equal brute force on 1,500 small random corpora (with and without a planted template)", () => {
    const random = seededRandom(2024);
    for (let trial = 0; trial < 1500; trial++) {
      const documents = randomDocuments(random, trial % 2 === 0);
      const minimumTokens = 1 + (trial % 3);
      const minimumDocuments = 1 + (trial % 4);
      const expected = bruteForce(documents, minimumTokens, minimumDocuments);
      const actual = mined(documents, minimumTokens, minimumDocuments);
      expect(Object.fromEntries(actual), `trial ${trial}: ${JSON.stringify(documents)}`).toEqual(Object.fromEntries(expected));
    }
  });

  it("finds a template planted on every document with the right document frequency", () => {
    const template = [7, 8, 9, 7, 8];
    const documents = [
      [1, 2, ...template, 3],
      [...template, 4, 4, 1],
      [5, ...template, 6, ...template],
    ];
    const actual = mined(documents, 2, 2);
    expect(actual.get(template.join(","))).toEqual({ occurrences: 4, documents: 3 });
  });

  it("returns an empty table for a corpus without repeats", () => {
    expect(mined([[1, 2, 3], [4, 5]], 2, 1).size).toBe(0);
    expect(mined([], 2, 1).size).toBe(0);
  });
});
