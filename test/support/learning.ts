/**
 * Shared steps of the learning tests (test/worker/learning-sampling.test.ts, test/control/learning-jobs.test.ts), inside workerd: pages of the development
 * data read from the tests' origin server, sent to the Worker as a client would, and the learning state read
 * back from the real local R2 bucket.
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { hexDigest } from "../../src/digest";
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

/**
 * The Worker's env for a test: the real bindings plus `vars` (the admin key always, learning switched on, and pages
 * sampled and learned from however close in time: tests of the spacing and the span set them).
 */
export function learningEnv(vars: Readonly<Record<string, string>> = {}): typeof env {
  return { ...env, ADMIN_KEY, LEARN_SITES: "*", LEARN_SAMPLE_RATE: "1", LEARN_SAMPLE_SPACING_MINUTES: "0", LEARN_MIN_SPAN_HOURS: "0", ...vars };
}

/** The site key of a dev site's pages as the origin server serves them under /sites/<name>/ (its own path key there). */
export function servedSite(origin: string, name: string): string {
  return `${new URL(origin).hostname}/sites/${name}`;
}

/** GET /v1/clean?url= of a dev page served under /sites/<name>/ (fetched by the Worker from the origin), named as that site. */
export async function readPage(origin: string, page: DataPage, name: string, vars: Readonly<Record<string, string>> = {}): Promise<Response> {
  const query = new URLSearchParams({ url: `${origin}/sites/${name}${page.path}`, site: servedSite(origin, name), format: "text" });
  const response = await callWorker(`/v1/clean?${query}`, { headers: { "x-api-key": API_KEY, "cache-control": "no-cache" } }, vars);
  await response.arrayBuffer();
  return response;
}

/** PUT /admin/keys/<id of the test key>/sites: the test key's posted pages teach these sites. */
export async function allowPosting(sites: readonly string[], vars: Readonly<Record<string, string>> = {}): Promise<Response> {
  const keyId = await hexDigest(API_KEY, 16);
  return callWorker(`/admin/keys/${keyId}/sites`, { method: "PUT", body: JSON.stringify({ sites }), headers: { "x-api-key": ADMIN_KEY, "content-type": "application/json" } }, vars);
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
