/**
 * The front door's admission (scripts/lib/admission.ts): lanes by body size with large bodies held to their slots,
 * clients taking turns within a lane, bounded lanes that refuse (the front door answers 503 with Retry-After), and a
 * client under its share pushing out the newest request of the client holding most. Counted, in order: no clock.
 */
import { describe, expect, it } from "vitest";
import { Admission, laneOf, type AdmissionLimits, type LaneName, type Refusal, type Ticket } from "../../scripts/lib/admission";

const LIMITS: AdmissionLimits = { slots: 4, heavySlots: 2, largeBodyBytes: 256 * 1024, hugeBodyBytes: 1024 * 1024, queueBound: { small: 8, large: 16, huge: 4 } };

/** An admission whose tickets record, in one list, when each was admitted or refused. */
function recorder(limits: AdmissionLimits = LIMITS) {
  const events: string[] = [];
  const admission = new Admission(limits);
  const ticket = (name: string, client: string, lane: LaneName): Ticket => ({
    client, lane, admit: () => events.push(`admit ${name}`), refuse: (why: Refusal) => events.push(`refuse ${name} ${why}`),
  });
  return { admission, events, ticket };
}

describe("admission", () => {
  it("puts bodies in lanes by size: URL requests and ordinary pages small, 900 KB large, 4 MB huge", () => {
    expect(laneOf(0, LIMITS)).toBe("small");
    expect(laneOf(100_000, LIMITS)).toBe("small");
    expect(laneOf(900_000, LIMITS)).toBe("large");
    expect(laneOf(4_000_000, LIMITS)).toBe("huge");
  });

  it("admits a small request before 16 large posts that wait: large bodies hold only their own slots", () => {
    const { admission, events, ticket } = recorder();
    const large = Array.from({ length: 16 }, (_, index) => ticket(`large${index}`, `poster${index}`, "large"));
    for (const posted of large) admission.enter(posted);
    expect(events).toEqual(["admit large0", "admit large1"]);
    admission.enter(ticket("get", "reader", "small"));
    expect(events.at(-1)).toBe("admit get");
    expect(admission.counts().waiting.large).toBe(14);
    // Small requests have their 4 slots whatever the large ones hold: 3 more go at once, the fourth waits.
    for (let index = 0; index < 4; index++) admission.enter(ticket(`small${index}`, `reader${index}`, "small"));
    expect(admission.counts().running).toEqual({ small: 4, large: 2, huge: 0 });
    expect(admission.counts().waiting.small).toBe(1);
    // A large one done frees a heavy slot: the next large post goes, not before.
    admission.release("large");
    expect(events.at(-1)).toBe("admit large2");
  });

  it("runs huge bodies one at a time, and large and huge together within the heavy slots", () => {
    const { admission, events, ticket } = recorder();
    admission.enter(ticket("huge0", "a", "huge"));
    admission.enter(ticket("huge1", "b", "huge"));
    admission.enter(ticket("large0", "c", "large"));
    admission.enter(ticket("large1", "d", "large"));
    expect(events).toEqual(["admit huge0", "admit large0"]);
    admission.release("huge");
    expect(events.at(-1)).toBe("admit huge1");
    expect(admission.counts().running).toEqual({ small: 0, large: 1, huge: 1 });
  });

  it("lets clients take turns within a lane: one client's burst does not hold another's request", () => {
    const { admission, events, ticket } = recorder({ ...LIMITS, slots: 1, queueBound: { ...LIMITS.queueBound, small: 64 } });
    for (let index = 0; index < 20; index++) admission.enter(ticket(`burst${index}`, "key bursty", "small"));
    admission.enter(ticket("other", "key other", "small"));
    admission.release("small"); // burst0 done
    admission.release("small"); // burst1 done
    expect(events).toEqual(["admit burst0", "admit burst1", "admit other"]);
  });

  it("refuses a request to a full lane; a client under its share pushes out the newest of the client holding most", () => {
    const { admission, events, ticket } = recorder({ ...LIMITS, slots: 1, queueBound: { ...LIMITS.queueBound, small: 4 } });
    for (let index = 0; index < 6; index++) admission.enter(ticket(`a${index}`, "key a", "small"));
    // a0 runs, a1-a4 wait (the bound), a5 is refused.
    expect(events).toEqual(["admit a0", "refuse a5 lane-full"]);
    admission.enter(ticket("b0", "key b", "small"));
    expect(events.at(-1)).toBe("refuse a4 over-share");
    admission.enter(ticket("b1", "key b", "small"));
    expect(events.at(-1)).toBe("refuse a3 over-share");
    // b holds its share (4 / 2 clients): its third is refused, a keeps its two.
    admission.enter(ticket("b2", "key b", "small"));
    expect(events.at(-1)).toBe("refuse b2 lane-full");
    expect(admission.counts().waiting.small).toBe(4);
    for (let done = 0; done < 4; done++) admission.release("small");
    expect(events.slice(-4)).toEqual(["admit a1", "admit b0", "admit a2", "admit b1"]);
  });

  it("takes a cancelled ticket out of its lane, and admits nothing for it", () => {
    const { admission, events, ticket } = recorder({ ...LIMITS, slots: 1 });
    const first = ticket("first", "a", "small");
    const left = ticket("left", "b", "small");
    admission.enter(first);
    admission.enter(left);
    admission.enter(ticket("stays", "c", "small"));
    expect(admission.cancel(left)).toBe(true);
    expect(admission.cancel(first)).toBe(false); // admitted already
    admission.release("small");
    expect(events).toEqual(["admit first", "admit stays"]);
  });
});
