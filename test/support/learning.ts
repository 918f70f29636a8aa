/**
 * Shared steps of the learning tests (test/worker/learning-sampling.test.ts, test/control/learning-jobs.test.ts), inside workerd: pages of the development
 * data read from the tests' origin server, sent to the Worker as a client would, and the learning state read
 * back from the real local R2 bucket.
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import worker from "../../src/worker";

export const API_KEY = "test-key";
export const ADMIN_KEY = "test-admin-key";

export interface DataPage {
  readonly id: string;
  readonly site: string;
  readonly url: string;
  /** The page's path on the origin server (/data/<set>/pages/<id>.html). */
  readonly path: string;
}

/** Sites of a development set with at least `minimumPages` pages, largest first, each with its pages in index order. */
export async function dataSites(origin: string, set: string, minimumPages: number): Promise<Map<string, DataPage[]>> {
  const text = new TextDecoder().decode(await (await fetch(`${origin}/data/${set}/index.jsonl`)).arrayBuffer());
  const bySite = new Map<string, DataPage[]>();
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const entry = JSON.parse(line) as { id: string; site: string | null; url: string; page: string };
    if (entry.site === null || entry.url === "") continue;
    const pages = bySite.get(entry.site) ?? [];
    pages.push({ id: entry.id, site: entry.site, url: entry.url, path: `/data/${set}/${entry.page}` });
    bySite.set(entry.site, pages);
  }
  return new Map([...bySite].filter(([, pages]) => pages.length >= minimumPages).sort((a, b) => b[1].length - a[1].length));
}

/** The Worker's env for a test: the real bindings plus `vars` (the admin key always, learning switched on). */
export function learningEnv(vars: Readonly<Record<string, string>> = {}): typeof env {
  return { ...env, ADMIN_KEY, LEARN_SITES: "*", LEARN_SAMPLE_RATE: "1", ...vars };
}

/** One request through the Worker's fetch handler; resolves once the answer is there and, unless `settle` is false, its waitUntil work is done. */
export async function callWorker(path: string, init: RequestInit = {}, vars: Readonly<Record<string, string>> = {}, settle = true): Promise<Response> {
  const context = createExecutionContext();
  const request = new Request(`https://cleaner.test${path}`, init);
  const response = await worker.fetch(request, learningEnv(vars), context);
  if (settle) await waitOnExecutionContext(context);
  return response;
}

/** POST /v1/clean?url=…&site=… with the page's bytes as the body, as a client that fetched it would. */
export async function postPage(origin: string, page: DataPage, site: string, vars: Readonly<Record<string, string>> = {}, headers: Record<string, string> = {}): Promise<Response> {
  const body = await (await fetch(`${origin}${page.path}`)).arrayBuffer();
  const query = new URLSearchParams({ url: page.url, site, format: "text" });
  const response = await callWorker(`/v1/clean?${query}`, { method: "POST", body, headers: { "x-api-key": API_KEY, "content-type": "text/html", ...headers } }, vars);
  await response.arrayBuffer();
  return response;
}

export function adminCall(path: string, method: string, vars: Readonly<Record<string, string>> = {}): Promise<Response> {
  return callWorker(path, { method, headers: { "x-api-key": ADMIN_KEY } }, vars);
}

/** Keys of a site's sampled pages in R2. */
export async function sampledKeys(site: string): Promise<string[]> {
  const listed = await env.PAGES!.list({ prefix: `pages/${encodeURIComponent(site)}/` });
  return listed.objects.map((object) => object.key);
}

/** Waits for `check` to return a value (polling real queue delivery); fails with `what` after `attempts` tries. */
export async function eventually<T>(what: string, check: () => Promise<T | null>, attempts = 120, pauseMilliseconds = 500): Promise<T> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    const value = await check();
    if (value !== null) return value;
    await new Promise((done) => setTimeout(done, pauseMilliseconds));
  }
  throw new Error(`still waiting for ${what}`);
}
