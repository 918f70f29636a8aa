/**
 * Bench-only Worker entry for `npm run bench:learn`, run in workerd by Miniflare with a local R2 bucket, KV
 * namespace and queue. Two requests:
 *   POST /mine   {site, pages, repeat}: the CPU of mining the pages (mineSampledSite, the queue consumer's own
 *                code) with the cross-site counts in memory, so nothing but computation is timed;
 *   POST /learn  {site, pages: [{url, html}], minPages}: the real loop on real bindings, every call counted —
 *                each page sampled (samplePage), then the site's job run (runMineJob) — and what it stored.
 * Timing: a batch of runs between two awaited timers (I/O boundaries), so the clock is read fresh even where
 * workerd advances it only across I/O; the batch time divided by the runs.
 */
import { mineSampledSite, runMineJob } from "../src/consumer/index";
import { enqueueJob, readJobState, resolveLearningSettings, samplePage, storagePrefixes, type LearningBindings } from "../src/learning/index";

interface BenchEnv extends LearningBindings {
  PAGES: R2Bucket;
  MINE_QUEUE: Queue;
}

/** Calls per binding method, e.g. "R2.put" → 3. */
type Counts = Record<string, number>;

function ioBoundary(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** The binding with every method call counted under `label.method`. */
function counted<T extends object>(binding: T, label: string, counts: Counts): T {
  return new Proxy(binding, {
    get(target, name) {
      const value = Reflect.get(target, name) as unknown;
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        const key = `${label}.${String(name)}`;
        counts[key] = (counts[key] ?? 0) + 1;
        return (value as (...rest: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

async function timeMining(site: string, pages: readonly string[], repeat: number): Promise<Response> {
  const inMemory = async () => ({ countOf: () => 1, siteTotal: 1 });
  const minedAt = new Date().toISOString();
  const first = await mineSampledSite(site, pages, inMemory, minedAt);
  await ioBoundary();
  const start = performance.now();
  for (let run = 0; run < repeat; run++) await mineSampledSite(site, pages, inMemory, minedAt);
  await ioBoundary();
  const milliseconds = (performance.now() - start) / repeat;
  return Response.json({ milliseconds, stages: first.milliseconds, candidates: first.candidates, rules: first.ruleSet?.rules.length ?? 0, problems: first.problems });
}

async function learn(env: BenchEnv, site: string, pages: readonly { url: string; html: string }[], minPages: string): Promise<Response> {
  const sampling: Counts = {};
  const job: Counts = {};
  const learning = (counts: Counts): BenchEnv => ({
    ...env,
    LEARN_SITES: "*",
    LEARN_SAMPLE_RATE: "1",
    LEARN_MIN_PAGES: minPages,
    PAGES: counted(env.PAGES, "R2", counts),
    RULES: counted(env.RULES, "KV", counts),
    MINE_QUEUE: counted(env.MINE_QUEUE, "Queue", counts),
  });
  const settings = resolveLearningSettings(learning(sampling));
  let time = Date.UTC(2026, 0, 1);
  // Fetched pages, three hours apart: past the sample's spacing, and spanning the day a learned set's evidence needs.
  for (const page of pages) await samplePage(learning(sampling), settings, { ...page, site, evidence: { kind: "fetched" } }, new Date((time += 3 * 3600_000)));
  const state = await readJobState(env.PAGES, site);
  const mineJob = state?.status === "queued" ? state : await enqueueJob(learning(job), site, "admin", new Date((time += 1000)));
  const done = await runMineJob(learning(job), settings, mineJob, 1, () => new Date((time += 1000)));
  const stored: Record<string, number> = {};
  for (const [kind, prefix] of Object.entries(storagePrefixes(site))) {
    let bytes = 0;
    let cursor: string | undefined;
    do {
      const listed = await env.PAGES.list({ prefix, cursor });
      for (const object of listed.objects) bytes += object.size;
      cursor = listed.truncated ? listed.cursor : undefined;
    } while (cursor !== undefined);
    stored[kind] = bytes;
  }
  const kvValue = (await env.RULES.get(site, "text")) ?? "";
  return Response.json({ sampling, job, state: done, stored, kvBytes: new TextEncoder().encode(kvValue).length });
}

export default {
  async fetch(request: Request, env: BenchEnv): Promise<Response> {
    const url = new URL(request.url);
    if (request.method === "POST" && url.pathname === "/mine") {
      const body = (await request.json()) as { site: string; pages: string[]; repeat: number };
      return timeMining(body.site, body.pages, body.repeat);
    }
    if (request.method === "POST" && url.pathname === "/learn") {
      const body = (await request.json()) as { site: string; pages: { url: string; html: string }[]; minPages: string };
      return learn(env, body.site, body.pages, body.minPages);
    }
    return new Response("not found", { status: 404 });
  },
};
