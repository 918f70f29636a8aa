/**
 * Who goes next through the front door of `npm start` (scripts/front-door.ts): bounded queues in lanes by a request's
 * cost, round robin between clients within a lane, and a refusal (the caller answers 503 with Retry-After) when a
 * lane is full. No I/O and no clock here, so that tests count admissions and their order.
 *
 * - Lanes by body size: `small` (URL requests and ordinary pages), `large`, and `huge`. Small requests have `slots`
 *   of their own; large and huge bodies share `heavySlots` others (huge ones one at a time), so however many large
 *   posts wait, small requests never wait for them, and the heavy pages in the isolate at once stay few.
 * - Within a lane, clients take turns (one request each, in the order they first queued), so one client's burst
 *   waits behind its own requests, not in front of others'.
 * - A lane holds at most its bound of waiting requests. A newcomer to a full lane is refused, unless it has fewer
 *   waiting there than its fair share (the bound over the clients waiting there, itself included): then the newest
 *   request of the client with the most waiting is refused in its place.
 */

export type LaneName = "small" | "large" | "huge";

export interface AdmissionLimits {
  /** Small requests handed upstream at once. */
  readonly slots: number;
  /** Requests of the large and huge lanes handed upstream at once, beside them (at least 1). */
  readonly heavySlots: number;
  /** Bodies from this many bytes go in the large lane. */
  readonly largeBodyBytes: number;
  /** Bodies from this many bytes go in the huge lane (one in flight at a time). */
  readonly hugeBodyBytes: number;
  /** Waiting requests each lane holds at most. */
  readonly queueBound: Readonly<Record<LaneName, number>>;
}

/** Why a request was not admitted: its lane was full (`lane-full`), or it was pushed out for a client under its share. */
export type Refusal = "lane-full" | "over-share";

/** One request's place: `admit` runs when it may go upstream, `refuse` when it will not. Exactly one of them runs, once, unless it is cancelled first. */
export interface Ticket {
  readonly client: string;
  readonly lane: LaneName;
  readonly admit: () => void;
  readonly refuse: (why: Refusal) => void;
}

const LANES: readonly LaneName[] = ["small", "large", "huge"];

/** The lane of a request with a body of `bytes` (0 for none). */
export function laneOf(bytes: number, limits: AdmissionLimits): LaneName {
  return bytes >= limits.hugeBodyBytes ? "huge" : bytes >= limits.largeBodyBytes ? "large" : "small";
}

export class Admission {
  /** Per lane, each client's waiting tickets; a Map's order is the order of turns (a client served goes to the back). */
  private readonly waiting: Record<LaneName, Map<string, Ticket[]>> = { small: new Map(), large: new Map(), huge: new Map() };
  private readonly waitingCount: Record<LaneName, number> = { small: 0, large: 0, huge: 0 };
  private readonly running: Record<LaneName, number> = { small: 0, large: 0, huge: 0 };
  /** The lane served last, so that lanes take turns for a freed slot. */
  private lastLane = 0;

  constructor(private readonly limits: AdmissionLimits) {}

  /** Queues `ticket` (admitted at once where a slot is free), or refuses it; a ticket pushed out is refused here too. */
  enter(ticket: Ticket): void {
    const lane = this.waiting[ticket.lane];
    if (this.waitingCount[ticket.lane] >= this.limits.queueBound[ticket.lane] && !this.pushOutFor(ticket)) {
      ticket.refuse("lane-full");
      return;
    }
    const own = lane.get(ticket.client);
    if (own === undefined) lane.set(ticket.client, [ticket]);
    else own.push(ticket);
    this.waitingCount[ticket.lane]++;
    this.dispatch();
  }

  /** Takes a waiting ticket out (its client left); false if it was not waiting (admitted already, or refused). */
  cancel(ticket: Ticket): boolean {
    const own = this.waiting[ticket.lane].get(ticket.client);
    const index = own?.indexOf(ticket) ?? -1;
    if (own === undefined || index < 0) return false;
    own.splice(index, 1);
    if (own.length === 0) this.waiting[ticket.lane].delete(ticket.client);
    this.waitingCount[ticket.lane]--;
    return true;
  }

  /** An admitted request of `lane` is done (answered, failed or its client left): its slot goes to the next. */
  release(lane: LaneName): void {
    this.running[lane]--;
    this.dispatch();
  }

  /** Requests waiting and running, per lane (for tests and the front door's figures). */
  counts(): { readonly waiting: Readonly<Record<LaneName, number>>; readonly running: Readonly<Record<LaneName, number>> } {
    return { waiting: { ...this.waitingCount }, running: { ...this.running } };
  }

  /** In a full lane, refuses the newest ticket of the client with most waiting, if `ticket`'s client is under its fair share there. */
  private pushOutFor(ticket: Ticket): boolean {
    const lane = this.waiting[ticket.lane];
    const clients = lane.size + (lane.has(ticket.client) ? 0 : 1);
    const share = Math.floor(this.limits.queueBound[ticket.lane] / clients);
    if ((lane.get(ticket.client)?.length ?? 0) >= share) return false;
    let largest: Ticket[] | null = null;
    for (const tickets of lane.values()) if (largest === null || tickets.length > largest.length) largest = tickets;
    if (largest === null || largest.length <= share) return false;
    const pushed = largest[largest.length - 1];
    this.cancel(pushed);
    pushed.refuse("over-share");
    return true;
  }

  /** Admits waiting tickets while slots are free, lanes taking turns, clients taking turns within a lane. */
  private dispatch(): void {
    for (;;) {
      const lane = this.nextLane();
      if (lane === null) return;
      const clients = this.waiting[lane];
      const [client, tickets] = clients.entries().next().value as [string, Ticket[]];
      const ticket = tickets.shift() as Ticket;
      clients.delete(client);
      if (tickets.length > 0) clients.set(client, tickets); // to the back of the turns
      this.waitingCount[lane]--;
      this.running[lane]++;
      ticket.admit();
    }
  }

  /** The next lane, after the one served last, with a request waiting and a slot of its own free; null if none. */
  private nextLane(): LaneName | null {
    const heavyRunning = this.running.large + this.running.huge;
    for (let step = 1; step <= LANES.length; step++) {
      const index = (this.lastLane + step) % LANES.length;
      const lane = LANES[index];
      if (this.waitingCount[lane] === 0) continue;
      if (lane === "small" ? this.running.small >= this.limits.slots : heavyRunning >= Math.max(1, this.limits.heavySlots)) continue;
      if (lane === "huge" && this.running.huge >= 1) continue;
      this.lastLane = index;
      return lane;
    }
    return null;
  }
}
