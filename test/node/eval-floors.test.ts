import { describe, expect, it } from "vitest";
import { belowFloors, FLOOR_EPSILON, nextFloors, type FloorsFile } from "../../src/evaluation/index";

const OLD: FloorsFile = { digest: "d1", protocol: "p", floors: { dragnet: { classifier: { f1: 0.9, tokenF1: 0.91 } } }, lowered: [] };

describe("eval floors", () => {
  it("fails a score below its floor by more than the epsilon, and a row not measured", () => {
    expect(belowFloors(OLD, { dragnet: { classifier: { f1: 0.9 - FLOOR_EPSILON / 2, tokenF1: 0.91 } } })).toEqual([]);
    expect(belowFloors(OLD, { dragnet: { classifier: { f1: 0.89, tokenF1: 0.91 } } })).toHaveLength(1);
    expect(belowFloors(OLD, {})).toEqual(["dragnet classifier: not measured"]);
  });

  it("raises floors to 4 digits, refuses to lower one without a reason, records the reason when given", () => {
    const raised = nextFloors(OLD, { dragnet: { classifier: { f1: 0.923456, tokenF1: 0.93 } } }, "d1", "p", null);
    expect(raised.refused).toEqual([]);
    expect(raised.file.floors.dragnet.classifier).toEqual({ f1: 0.9234, tokenF1: 0.93 });
    const refused = nextFloors(OLD, { dragnet: { classifier: { f1: 0.85, tokenF1: 0.93 } } }, "d1", "p", null);
    expect(refused.refused).toHaveLength(1);
    expect(refused.file.floors.dragnet.classifier).toEqual(OLD.floors.dragnet.classifier);
    const lowered = nextFloors(OLD, { dragnet: { classifier: { f1: 0.85, tokenF1: 0.93 } } }, "d1", "p", "a reason");
    expect(lowered.file.floors.dragnet.classifier.f1).toBe(0.85);
    expect(lowered.file.lowered).toEqual([expect.objectContaining({ row: "dragnet classifier", from: 0.9, to: 0.85, why: "a reason" })]);
    // A token F1 that falls while the F1 rises is recorded under its own name, with its own figures.
    const tokenOnly = nextFloors(OLD, { dragnet: { classifier: { f1: 0.95, tokenF1: 0.9 } } }, "d1", "p", "why");
    expect(tokenOnly.file.lowered).toEqual([expect.objectContaining({ row: "dragnet classifier token F1", from: 0.91, to: 0.9 })]);
  });

  it("starts afresh on other data (a new digest)", () => {
    const fresh = nextFloors(OLD, { dragnet: { classifier: { f1: 0.5, tokenF1: 0.5 } } }, "d2", "p", null);
    expect(fresh.refused).toEqual([]);
    expect(fresh.file.digest).toBe("d2");
  });
});
