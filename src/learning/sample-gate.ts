/**
 * The global bound on sampling: one Durable Object per site (SAMPLE_GATE, named by the site key) counts the
 * samples it has let through in the site's current period, and lets at most LEARN_MAX_PAGES through a period,
 * however many isolates serve the site. A busy site so costs the writes of a quiet one.
 *
 * The period: the rules the page was cleaned with (a new set starts a new sample) and the staleness period since
 * them (a site whose mining found nothing, or whose rules were not replaced, gets a new allowance a period later).
 */
import { DurableObject } from "cloudflare:workers";

export type SampleGateNamespace = DurableObjectNamespace<SampleGate>;

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

/**
 * The period a page of a site belongs to: its rules' minedAt ("none" without rules) and the number of whole
 * staleness periods since (since the epoch without rules).
 */
export function samplePeriod(rulesMinedAt: string | undefined, staleMilliseconds: number, now: number): string {
  const since = rulesMinedAt === undefined ? 0 : Date.parse(rulesMinedAt);
  const window = staleMilliseconds > 0 && Number.isFinite(since) ? Math.floor((now - since) / staleMilliseconds) : 0;
  return `${rulesMinedAt ?? "none"}#${window}`;
}

export function admitSample(namespace: SampleGateNamespace, site: string, period: string, limit: number): Promise<{ admitted: boolean; count: number }> {
  return namespace.get(namespace.idFromName(site)).admit(period, limit);
}
