/**
 * The global bound on sampling: one Durable Object per site (SAMPLE_GATE, named by the site key) counts the
 * samples it has let through in the site's current period, and lets at most LEARN_MAX_PAGES through a period,
 * however many isolates serve the site. A busy site so costs the writes of a quiet one.
 *
 * The period: the rules the page was cleaned with (a new set starts a new sample) and the staleness period since
 * them (a site whose mining found nothing, or whose rules were not replaced, gets a new allowance a period later).
 */
import type { SampleGate } from "../durable-objects";

export type SampleGateNamespace = DurableObjectNamespace<SampleGate>;

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
