/**
 * Reading the cross-site table's shards from inside the control Worker's tests: the rows of each Durable Object
 * (runInDurableObject runs the callback in the object itself, on its real SQLite storage).
 */
import { env, runInDurableObject } from "cloudflare:test";
import { CROSS_SITE_SHARDS } from "../../src/config";
import { mineSampledSite, shardStub, type CrossSiteCounts, type CrossSiteNamespace } from "../../src/consumer";
import type { DataPage } from "./learning";

/** Pages mined a dev site: enough for its template candidates, few enough for every dev site in one test. */
const PAGES_A_SITE = 10;

export function crossSite(): CrossSiteNamespace {
  if (env.CROSS_SITE === undefined) throw new Error("CROSS_SITE is bound in the control Worker's project only");
  return env.CROSS_SITE;
}

/** Mines a dev site's first pages (read from the tests' origin server) as a job does, with `contribute` given its template candidates' n-gram keys. */
export async function mineDevSite(origin: string, site: string, pages: readonly DataPage[], contribute: (keys: ReadonlySet<string>) => Promise<Pick<CrossSiteCounts, "countOf" | "siteTotal">>): Promise<void> {
  const htmls: string[] = [];
  for (const page of pages.slice(0, PAGES_A_SITE)) htmls.push(new TextDecoder().decode(await (await fetch(`${origin}${page.path}`)).arrayBuffer()));
  await mineSampledSite(site, htmls, contribute, "2026-01-01T00:00:00.000Z");
}

/** Every shard's rows, as text: the counts and the contributions (site, stamp, home, keys in hex). */
export async function tableSnapshot(): Promise<string[]> {
  const snapshot: string[] = [];
  for (let shard = 0; shard < CROSS_SITE_SHARDS; shard++) {
    snapshot.push(await runInDurableObject(shardStub(crossSite(), shard), (_instance, state) => {
      const sql = state.storage.sql;
      const counts = sql.exec("SELECT ngram, sites FROM counts ORDER BY ngram").toArray();
      const contributions = sql.exec("SELECT site, stamp, home, hex(keys) AS keys FROM contributions ORDER BY site").toArray();
      return JSON.stringify({ counts, contributions });
    }));
  }
  return snapshot;
}

/** Stores a contribution of `siteId` that cannot be read (its keys' bytes cut short) in a shard: every job of the site fails there. */
export async function corruptContribution(siteId: string, shard = 0): Promise<void> {
  await runInDurableObject(shardStub(crossSite(), shard), (_instance, state) => {
    state.storage.sql.exec("INSERT INTO contributions (site, stamp, home, keys) VALUES (?, 0, 0, ?) ON CONFLICT (site) DO UPDATE SET keys = excluded.keys", siteId, new Uint8Array([1, 2, 3]).buffer);
  });
}
