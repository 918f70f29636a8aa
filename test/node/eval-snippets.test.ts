import { describe, expect, it } from "vitest";
import { scoreSnippets, sumSnippets } from "../../src/evaluation/index";

describe("snippet measure", () => {
  it("finds a snippet across case and runs of white space, and counts the boilerplate left out", () => {
    const output = "The Thread\n\nFirst   post says\thello World.\nSign in";
    const counts = scoreSnippets(output, { with: ["first post says HELLO world.", "a reply that was removed"], without: ["sign in", "Cookie settings"] });
    expect(counts).toEqual({ withFound: 1, withTotal: 2, withoutAbsent: 1, withoutTotal: 2 });
  });

  it("does not join words across a line break the output lacks, and sums over pages", () => {
    const a = scoreSnippets("hello world", { with: ["helloworld"], without: [] });
    const b = scoreSnippets("", { with: ["x"], without: ["y"] });
    expect(a.withFound).toBe(0);
    expect(sumSnippets([a, b])).toEqual({ withFound: 0, withTotal: 2, withoutAbsent: 1, withoutTotal: 1 });
  });
});
