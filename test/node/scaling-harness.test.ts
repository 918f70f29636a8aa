/**
 * The scaling tests' measure (test/support/work-count.ts) tells linear from quadratic work by counting the steps the
 * code takes, not by timing it: checked on two loops whose work is known, one linear, one quadratic in n. The counts
 * are exact, so the same input counts the same steps on every run, however loaded the machine.
 */
import { describe, expect, it } from "vitest";
import { countedSteps, MAX_STEP_RATIO, MIN_STEP_RATIO, stepRatio } from "../support/work-count";

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

describe("the scaling measure counts steps", () => {
  it("passes linear work with a ratio of about 4", async () => {
    const measured = await stepRatio(values, 20_000, (array) => linearWork(array, 5));
    console.log("linear", measured);
    expect(measured.ratio).toBeGreaterThan(MIN_STEP_RATIO);
    expect(measured.ratio).toBeLessThan(MAX_STEP_RATIO);
    expect(measured.ratio).toBeCloseTo(4, 1);
  });

  it("fails quadratic work with a ratio of about 16", async () => {
    const measured = await stepRatio(values, 400, quadraticWork);
    console.log("quadratic", measured);
    expect(measured.ratio).toBeGreaterThan(MAX_STEP_RATIO * 2);
    expect(measured.ratio).toBeCloseTo(16, 0);
  });

  it("counts the same steps for the same input, run after run", async () => {
    const input = values(5_000);
    const counts = [];
    for (let run = 0; run < 3; run++) counts.push(await countedSteps(() => linearWork(input, 3)));
    expect(new Set(counts).size).toBe(1);
    expect(counts[0]).toBeGreaterThanOrEqual(3 * 5_000); // every pass over every value is a counted step
  });
});
