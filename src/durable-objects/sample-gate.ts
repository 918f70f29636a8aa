/**
 * The Durable Object behind the per-site sample bound (src/learning/sample-gate.ts says what it bounds and why):
 * one object per site holds the current period and how many samples it let through.
 */
import { DurableObject } from "cloudflare:workers";

interface GateState {
  readonly period: string;
  readonly admitted: number;
}

const STATE_KEY = "gate";

export class SampleGate extends DurableObject {
  /** Lets one sample through unless `limit` have been in `period`; answers whether it did and the count after. */
  async admit(period: string, limit: number): Promise<{ admitted: boolean; count: number }> {
    // One call at a time: the storage read and write of a call are not interleaved with another's (input gates).
    const stored = await this.ctx.storage.get<GateState>(STATE_KEY);
    const admitted = stored === undefined || stored.period !== period ? 0 : stored.admitted;
    if (admitted >= limit) return { admitted: false, count: admitted };
    await this.ctx.storage.put<GateState>(STATE_KEY, { period, admitted: admitted + 1 });
    return { admitted: true, count: admitted + 1 };
  }
}
