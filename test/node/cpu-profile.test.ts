import { describe, expect, it } from "vitest";
import { functionTimes, profileReport, type CpuProfile } from "../../scripts/lib/cpu-profile";

/** root → main → work → work (recursion), and idle beside main. */
const PROFILE: CpuProfile = {
  nodes: [
    { id: 1, callFrame: { functionName: "(root)", url: "", lineNumber: -1 }, children: [2, 5] },
    { id: 2, callFrame: { functionName: "main", url: "worker.js", lineNumber: 9 }, children: [3] },
    { id: 3, callFrame: { functionName: "work", url: "worker.js", lineNumber: 19 }, children: [4] },
    { id: 4, callFrame: { functionName: "work", url: "worker.js", lineNumber: 19 }, children: [6] },
    { id: 5, callFrame: { functionName: "(idle)", url: "", lineNumber: -1 } },
    { id: 6, callFrame: { functionName: "", url: "worker.js", lineNumber: 29 } },
  ],
  samples: [3, 4, 4, 2, 5, 6],
  timeDeltas: [100, 100, 100, 50, 1000, 150],
};

describe("CPU profile summary", () => {
  it("sums self time per function and total time once per sample however deep the recursion, idle left out", () => {
    const { functions, busy } = functionTimes(PROFILE);
    expect(busy).toBe(500);
    expect(functions).toEqual([
      { name: "work:20", self: 300, total: 450 },
      { name: "(anonymous):30", self: 150, total: 150 },
      { name: "main:10", self: 50, total: 500 },
    ]);
  });

  it("reports both orders as shares of the busy time", () => {
    const report = profileReport(PROFILE, 2).split("\n");
    expect(report[0]).toMatch(/^1 ms of samples/);
    expect(report.slice(1)).toEqual([
      "by self time:",
      "   60.0%  90.0%  work:20",
      "   30.0%  30.0%  (anonymous):30",
      "by total time (with what it calls):",
      "   10.0% 100.0%  main:10",
      "   60.0%  90.0%  work:20",
    ]);
  });
});
