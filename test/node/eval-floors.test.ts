import { describe, expect, it } from "vitest";
import { belowFloors, carriedFloors, FLOOR_EPSILON, nextFloors, setOfRow, type FloorsFile } from "../../src/evaluation/index";

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

  it("carries the floors of unchanged sets to a digest with a set added, and drops them where a set's data changed", () => {
    const old: FloorsFile = { ...OLD, digest: "old", floors: { dragnet: OLD.floors.dragnet, "dragnet[8+ page sites]": OLD.floors.dragnet } };
    const digests: Record<string, string> = { dragnet: "old", "dragnet,wceb2026": "new" };
    const digestOf = (sets: readonly string[]): string => digests[sets.join(",")] ?? "other";
    const carried = carriedFloors(old, ["dragnet", "wceb2026"], "new", digestOf);
    expect(carried?.digest).toBe("new");
    expect(carried?.floors).toEqual(old.floors);
    // The added set's rows are floored afresh; the carried ones may not fall.
    const next = nextFloors(carried, { dragnet: { classifier: { f1: 0.85, tokenF1: 0.91 } }, "wceb2026/forum": { classifier: { f1: 0.5, tokenF1: 0.6 } } }, "new", "p", null);
    expect(next.refused).toHaveLength(1);
    expect(next.file.floors.dragnet.classifier.f1).toBe(0.9);
    expect(next.file.floors["wceb2026/forum"].classifier.f1).toBe(0.5);
    // dragnet's own data changed: its digest is no longer the old one.
    expect(carriedFloors(old, ["dragnet", "wceb2026"], "new", () => "changed")).toBeNull();
    expect(carriedFloors(null, ["dragnet"], "new", digestOf)).toBeNull();
  });

  it("names a row's set before its kind or ruled-site suffix", () => {
    expect(["wceb2026/forum", "dragnet[8+ page sites]", "l3s-gn1"].map(setOfRow)).toEqual(["wceb2026", "dragnet", "l3s-gn1"]);
  });
});
