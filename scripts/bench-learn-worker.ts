/**
 * Bench-only Worker entry for `npm run bench:learn`, run in workerd by Miniflare with a local R2 bucket, KV
 * namespace, queue and the two Durable Object classes (SQLite-backed). Requests:
 *   POST /mine       {site, pages, repeat}: the CPU of mining the pages (mineSampledSite, the queue consumer's own
 *                    code) with the cross-site counts in memory, so nothing but computation is timed;
 *   POST /keys       {site, pages}: the n-gram keys a job of the site would send the cross-site table;
 *   POST /learn      {site, pages: [{url, html}], minPages}: the real loop on real bindings, every call counted —
 *                    each page sampled (samplePage), then the site's job run (runMineJob) — and what it stored;
 *   POST /synthetic  {table, size, from, count, seed, profile}: adds synthetic sites' contributions to a cross-site table;
 *   POST /sample     {site, pages}: samples a site's pages (for /jobs);
 *   POST /jobs       {table, sites}: runs one job per site against a cross-site table, all at once, each measured.
 * A table is a name: its shards are the CROSS_SITE objects named "<table>/shard-N", so that tables of different
 * sizes stand side by side in one workerd and their jobs can be measured in turns.
 * Timing: a batch of runs between two awaited timers (I/O boundaries), so the clock is read fresh even where
 * workerd advances it only across I/O; the batch time divided by the runs.
 */
import { applyContributions, mineSampledSite, ngramHash, runMineJob, type ConsumerBindings, type CrossSiteNamespace, type ShardAnswer } from "../src/consumer/index";
import { enqueueJob, readJobState, resolveLearningSettings, samplePage, storagePrefixes } from "../src/learning/index";
import { seededRandom } from "./lib/seeded-random";

export { CrossSiteShard, SampleGate } from "../src/durable-objects/index";

interface BenchEnv extends ConsumerBindings {
  PAGES: R2Bucket;
  MINE_QUEUE: Queue;
  CROSS_SITE: CrossSiteNamespace;
}

/** What a job's calls to the cross-site table cost, as seen from the job. */
interface TableMeasure {
  keys: number;
  objects: Set<string>;
  calls: number;
  bytesSent: number;
  bytesReceived: number;
  rowsRead: number;
  rowsWritten: number;
  first: number;
  last: number;
}

function newMeasure(): TableMeasure {
  return { keys: 0, objects: new Set(), calls: 0, bytesSent: 0, bytesReceived: 0, rowsRead: 0, rowsWritten: 0, first: Number.POSITIVE_INFINITY, last: 0 };
}

const jsonBytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value) ?? "").length;

/** `target` with every call of one of its methods handed to `hook`: the method's name, its arguments, and the call itself. */
function intercepted<T extends object>(target: T, hook: (name: string | symbol, args: unknown[], call: () => unknown) => unknown): T {
  return new Proxy(target, {
    get(object, name) {
      const value = Reflect.get(object, name) as unknown;
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => hook(name, args, () => Reflect.apply(value as (...rest: unknown[]) => unknown, object, args));
    },
  });
}

/** The cross-site table `name`: the same class and code, its objects under names of its own. */
function tableNamed(namespace: CrossSiteNamespace, name: string): CrossSiteNamespace {
  return intercepted(namespace, (method, args, call) => (method === "idFromName" ? namespace.idFromName(`${name}/${String(args[0])}`) : call()));
}

/**
 * The table's binding with every shard call measured: the object called, the keys and bytes of its arguments and
 * answer (as JSON, the size they have on the wire give or take the encoding), the rows it reports, and the time
 * from the job's first call to its last answer; and each call's method handed to `onCall`.
 */
function measuredTable(namespace: CrossSiteNamespace, measure: TableMeasure, onCall: (method: string) => void = () => {}): CrossSiteNamespace {
  return intercepted(namespace, (name, args, call) => {
    if (name !== "get") return call();
    const id = args[0] as DurableObjectId;
    return intercepted(call() as object, async (method, shardArgs, shardCall) => {
      onCall(String(method));
      measure.objects.add(id.toString());
      measure.calls += 1;
      measure.bytesSent += jsonBytes(shardArgs);
      const keys = (shardArgs[0] as { keys?: unknown[] } | undefined)?.keys;
      if (Array.isArray(keys)) measure.keys += keys.length;
      measure.first = Math.min(measure.first, performance.now());
      const answer = (await shardCall()) as ShardAnswer;
      measure.last = Math.max(measure.last, performance.now());
      measure.bytesReceived += jsonBytes(answer);
      measure.rowsRead += answer.rowsRead ?? 0;
      measure.rowsWritten += answer.rowsWritten ?? 0;
      return answer;
    });
  });
}

/** Calls per binding method, e.g. "R2.put" → 3. */
type Counts = Record<string, number>;

function ioBoundary(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** The binding with every method call counted under `label.method`. */
function counted<T extends object>(binding: T, label: string, counts: Counts): T {
  return intercepted(binding, (name, _args, call) => {
    const key = `${label}.${String(name)}`;
    counts[key] = (counts[key] ?? 0) + 1;
    return call();
  });
}

/**
 * A number uniform in the table's slice of site `site` of `sites` within [0, 2^bits): the sites' slices in the
 * order of the sites, so that the values drawn, uniform over the whole range as SHA-256's hashes are, come in
 * rising order as sites are added. Two draws, since one has 32 bits (one alone left the low bits 0, which put
 * every own n-gram in shard 0: hash % 32).
 */
function inSlice(random: () => number, site: number, sites: number, bits: number): number {
  const fraction = random() + random() * 2 ** -32;
  return Math.min(2 ** bits - 1, Math.floor(((site + fraction) / sites) * 2 ** bits));
}

/** How the dev sites' keys are spread: keys a site, and the keys on two dev sites or more with how many have each. */
interface Profile {
  readonly keyCounts: readonly number[];
  readonly shared: readonly { readonly key: string; readonly sites: number }[];
  /** Share of a site's keys that are on two dev sites or more (mean over the dev sites). */
  readonly sharedShare: number;
}

/**
 * Adds synthetic sites `from`…`from + count - 1` of the table's `size`: each takes a dev site's number of keys,
 * each key a shared one (drawn by how many dev sites have it) with the dev sites' share, else one of its own.
 * A site's own keys and its id are drawn in its slice of their ranges (inSlice): the table (bench setup, not
 * measured) is built by writing each shard's B-trees from left to right rather than all over them, and ends
 * with the same rows, its keys spread as evenly as random ones.
 */
async function addSynthetic(env: BenchEnv, table: string, size: number, from: number, count: number, seed: number, profile: Profile): Promise<Response> {
  const random = seededRandom(seed + from); // the same synthetic sites for the same seed
  const sharedHashes = await Promise.all(profile.shared.map((entry) => ngramHash(entry.key)));
  const cumulative: number[] = [];
  let total = 0;
  for (const entry of profile.shared) cumulative.push((total += entry.sites));
  const pick = (): number => {
    const target = random() * total;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (cumulative[middle]! > target) high = middle;
      else low = middle + 1;
    }
    return sharedHashes[low]!;
  };
  const sites = new Map<string, number[]>();
  let keys = 0;
  for (let site = from; site < from + count; site++) {
    const keyCount = profile.keyCounts[Math.floor(random() * profile.keyCounts.length)]!;
    const hashes = new Set<number>();
    while (hashes.size < keyCount) hashes.add(random() < profile.sharedShare && total > 0 ? pick() : inSlice(random, site, size, 53));
    const id = inSlice(random, site, size, 48).toString(16).padStart(12, "0");
    sites.set(id, [...hashes]);
    keys += hashes.size;
  }
  await ioBoundary();
  const start = performance.now();
  const rowsWritten = await applyContributions(tableNamed(env.CROSS_SITE, table), sites, 1);
  await ioBoundary();
  return Response.json({ sites: count, keys, rowsWritten, milliseconds: performance.now() - start });
}

/** The n-gram keys a job of the site sends the table. */
async function siteKeys(site: string, pages: readonly string[]): Promise<Response> {
  let keys: string[] = [];
  await mineSampledSite(site, pages, async (sent) => ((keys = [...sent]), { countOf: () => 0, siteTotal: 0 }), new Date().toISOString());
  return Response.json({ keys });
}

async function sampleSite(env: BenchEnv, site: string, pages: readonly { url: string; html: string }[]): Promise<Response> {
  const vars = { ...env, LEARN_SITES: "*", LEARN_SAMPLE_RATE: "1", LEARN_MIN_PAGES: "1000" };
  const settings = resolveLearningSettings(vars);
  // Three hours apart, as /learn samples: past the sampling spacing, and over the span the evidence gate asks.
  let time = Date.now() - pages.length * 3 * 3600_000;
  for (const page of pages) await samplePage(vars, settings, { ...page, site, evidence: { kind: "fetched" } }, new Date((time += 3 * 3600_000)));
  return Response.json({ sampled: pages.length });
}

/** One job per site, all started at once (one isolate, as a control Worker's concurrent invocations would share). */
async function runJobs(env: BenchEnv, table: string, sites: readonly string[]): Promise<Response> {
  const results = await Promise.all(sites.map(async (site) => {
    const measure = newMeasure();
    const jobEnv: BenchEnv = { ...env, LEARN_SITES: "*", CROSS_SITE: measuredTable(tableNamed(env.CROSS_SITE, table), measure) };
    const settings = resolveLearningSettings(jobEnv);
    const job = await enqueueJob(jobEnv, site, "admin", new Date());
    const start = performance.now();
    let state: { status: string; error?: string; rules?: number } = { status: "failed" };
    try {
      state = await runMineJob(jobEnv, settings, job, 1);
    } catch (error) {
      state = { status: "failed", error: error instanceof Error ? error.message : String(error) };
    }
    const jobMilliseconds = performance.now() - start;
    return {
      site, status: state.status, error: state.error, rules: state.rules, keys: measure.keys, objects: measure.objects.size, calls: measure.calls,
      bytesSent: measure.bytesSent, bytesReceived: measure.bytesReceived, rowsRead: measure.rowsRead, rowsWritten: measure.rowsWritten,
      retries: measure.calls - measure.objects.size, tableMilliseconds: measure.last - measure.first, jobMilliseconds,
    };
  }));
  return Response.json({ jobs: results });
}

/** The table's binding with its shard calls counted under "DO.<method>". */
function countedTable(namespace: CrossSiteNamespace, counts: Counts): CrossSiteNamespace {
  return measuredTable(namespace, newMeasure(), (method) => {
    counts[`DO.${method}`] = (counts[`DO.${method}`] ?? 0) + 1;
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
    CROSS_SITE: countedTable(env.CROSS_SITE, counts),
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
    if (request.method === "POST" && url.pathname === "/keys") {
      const body = (await request.json()) as { site: string; pages: string[] };
      return siteKeys(body.site, body.pages);
    }
    if (request.method === "POST" && url.pathname === "/synthetic") {
      const body = (await request.json()) as { table: string; size: number; from: number; count: number; seed: number; profile: Profile };
      return addSynthetic(env, body.table, body.size, body.from, body.count, body.seed, body.profile);
    }
    if (request.method === "POST" && url.pathname === "/sample") {
      const body = (await request.json()) as { site: string; pages: { url: string; html: string }[] };
      return sampleSite(env, body.site, body.pages);
    }
    if (request.method === "POST" && url.pathname === "/jobs") {
      const body = (await request.json()) as { table: string; sites: string[] };
      return runJobs(env, body.table, body.sites);
    }
    if (request.method === "POST" && url.pathname === "/learn") {
      const body = (await request.json()) as { site: string; pages: { url: string; html: string }[]; minPages: string };
      return learn(env, body.site, body.pages, body.minPages);
    }
    return new Response("not found", { status: 404 });
  },
};
