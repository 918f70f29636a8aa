// The learning loop's jobs inside workerd, with the real local R2 bucket, KV namespace and Queues: pages of
// real sites (../shared/data) are sampled through POST /v1/clean, a job goes through MINE_QUEUE to the
// Worker's own queue() handler, which mines the site and publishes a versioned rule set to KV.
import { env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { readJobState, type JobState } from "../../src/learning";
import { adminCall, callWorker, dataSites, eventually, postPage, sampledKeys, API_KEY } from "../support/learning";

const ORIGIN = inject("originUrl");
const HAS_DATA = (await fetch(`${ORIGIN}/data/README.md`)).ok;
if (!HAS_DATA) console.warn("learning job tests skipped: ../shared/data is absent beside the repository");
const SITES = HAS_DATA ? await dataSites(ORIGIN, "dragnet", 10) : new Map();

async function jobDone(site: string, jobId: string): Promise<JobState | null> {
  const state = await readJobState(env.PAGES!, site);
  return state !== null && state.jobId === jobId && (state.status === "done" || state.status === "dead") ? state : null;
}

describe.skipIf(!HAS_DATA)("a mining job through the real queue", () => {
  it("mines the sampled pages of a site and publishes a learned rule set, revision 1", async () => {
    const site = "queue.guardian.example";
    const pages = SITES.get("guardian.co.uk")!;
    for (const page of pages.slice(0, 10)) expect((await postPage(ORIGIN, page, site)).status).toBe(200);
    expect(await sampledKeys(site)).toHaveLength(10);
    const enqueued = await adminCall(`/admin/learn/${site}`, "POST");
    expect(enqueued.status).toBe(202);
    const { jobId } = (await enqueued.json()) as { jobId: string };
    const state = await eventually("the job to finish", () => jobDone(site, jobId));
    expect(state).toMatchObject({ status: "done", pages: 10, revision: 1 });
    const rules = (await (await callWorker(`/v1/rules/${site}`, { headers: { "x-api-key": API_KEY } })).json()) as Record<string, unknown>;
    expect(rules).toMatchObject({ site, status: "applied", source: "learned", revision: 1, pages: 10 });
  });
});
