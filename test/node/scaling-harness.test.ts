/**
 * The scaling tests' measure (test/support/scaling.ts) tells linear from quadratic work on a loaded machine: in Node
 * it reads CPU time, which other processes move far less than the wall clock, and it keeps the least of interleaved
 * rounds. Checked on two loops whose work is known: one linear, one quadratic in n.
 */
import { describe, expect, it } from "vitest";
import { CLOCK, MAX_RATIO, scalingRatio } from "../support/scaling";

/** Sums over an array, `passes` times: the work is passes × length. */
function linearWork(values: Float64Array, passes: number): number {
  let sum = 0;
  for (let pass = 0; pass < passes; pass++) for (let index = 0; index < values.length; index++) sum += values[index];
  return sum;
}

/** Every pair of values once: the work is length² / 2. */
function quadraticWork(values: Float64Array): number {
  let sum = 0;
  for (let left = 0; left < values.length; left++) for (let right = left + 1; right < values.length; right++) sum += values[left] * values[right];
  return sum;
}

const values = (n: number): Float64Array => Float64Array.from({ length: n }, (_, index) => (index % 17) / 17);

describe("the scaling measure", () => {
  it("reads CPU time in Node, so that other processes on the machine do not move it", () => {
    expect(CLOCK).toBe("cpu");
  });

  it("passes linear work", async () => {
    const measured = await scalingRatio(values, 20_000, (array) => linearWork(array, 5));
    console.log("linear", measured);
    // About 4; the bound only tells a measure that grows with n from one that does not (1). CPU time is not load-free
    // on a shared core: in a full CI run the small runs measured slower per item than the large ones (2.27).
    expect(measured.ratio).toBeGreaterThan(1.5);
    expect(measured.ratio).toBeLessThan(MAX_RATIO);
  });

  it("fails quadratic work", async () => {
    const measured = await scalingRatio(values, 400, quadraticWork);
    console.log("quadratic", measured);
    expect(measured.ratio).toBeGreaterThan(MAX_RATIO * 1.5);
  });
});
