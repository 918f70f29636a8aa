// The cross-site table in Durable Objects (src/consumer/cross-site-table.ts, src/durable-objects/cross-site-shard.ts), inside workerd
// with the control Worker's real SQLite-backed objects: a job's contribution applied idempotently, replaced and
// removed; its cost counted in rows, whatever the number of sites; and the R2 table of an earlier deployment moved
// with its counts. The filter's decisions on every dev site, the same as the R2 table's: cross-site-parity.test.ts (a gate).
import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { CROSS_SITE_SHARDS } from "../../src/config";
import control from "../../src/control";
import { applyContributions, crossSiteSiteId, mergeContribution, migrateLegacyTable, ngramHash, readCounts, removeContribution } from "../../src/consumer";
import { LEGACY_CROSS_SITE_PREFIXES } from "../../src/learning";
import { crossSite, mineDevSite, tableSnapshot } from "../support/cross-site";
import { dataSites } from "../support/learning";
import { mergeContribution as legacyMerge, readCounts as legacyReadCounts } from "../support/legacy-cross-site-table";

const ORIGIN = inject("originUrl");
const HAS_DATA = (await fetch(`${ORIGIN}/data/README.md`)).ok;
if (!HAS_DATA) console.warn("cross-site table tests on dev sites skipped: ../shared/data is absent beside the repository");

const keysOf = (...names: string[]) => new Set(names.map((name) => `phrase\u0001${name}`));
const countsOf = async (names: string[], baseSites: number) => {
  const counts = await readCounts(crossSite(), keysOf(...names));
  return { ...Object.fromEntries(names.map((name) => [name, counts.countOf(`phrase\u0001${name}`)])), sites: counts.siteTotal - baseSites };
};

describe.skipIf(!HAS_DATA)("the migration from the R2 table", () => {
  it("moves an earlier deployment's learned sites with their counts, once, and a site learned after keeps its own", { timeout: 300_000 }, async () => {
    const dev = [...(await dataSites(ORIGIN, "dragnet", 10))].slice(0, 6);
    const learned = new Map<string, ReadonlySet<string>>();
    for (const [site, pages] of dev) {
      await mineDevSite(ORIGIN, site, pages, async (keys) => {
        learned.set(site, keys);
        return legacyMerge(env.PAGES!, site, keys);
      });
    }
    // One site learned again on the earlier version: its last contribution replaced its first.
    const [relearned, relearnedPages] = dev[0]!;
    await mineDevSite(ORIGIN, relearned, relearnedPages.slice(5), async (keys) => {
      learned.set(relearned, keys);
      return legacyMerge(env.PAGES!, relearned, keys);
    });
    const everyKey = new Set([...learned.values()].flatMap((keys) => [...keys]));
    const before = await legacyReadCounts(env.PAGES!);
    expect(before.siteTotal).toBeGreaterThanOrEqual(6);

    // The control Worker's cron moves it.
    const context = createExecutionContext();
    await control.scheduled(createScheduledController({ cron: "*/10 * * * *", scheduledTime: new Date() }), env, context);
    await waitOnExecutionContext(context);
    const after = await readCounts(crossSite(), everyKey);
    expect(after.siteTotal).toBe(before.siteTotal);
    expect([...everyKey].filter((key) => after.countOf(key) !== before.countOf(key))).toEqual([]);
    expect([...everyKey].some((key) => after.countOf(key) >= 3)).toBe(true);
    expect((await env.PAGES!.list({ prefix: LEGACY_CROSS_SITE_PREFIXES.shards })).objects).toEqual([]);
    expect((await env.PAGES!.list({ prefix: LEGACY_CROSS_SITE_PREFIXES.contributions })).objects).toEqual([]);

    // Again: nothing left to move, nothing changed.
    const snapshot = await tableSnapshot();
    expect(await migrateLegacyTable(env.PAGES!, crossSite())).toBeNull();
    expect(await tableSnapshot()).toEqual(snapshot);

    // A migrated site learned again replaces its migrated keys; the R2 table moved once more (an older copy
    // restored, or a second isolate migrating late) does not bring them back over the job's.
    const [site] = dev[1]!;
    const kept = new Set([...learned.get(site)!].slice(0, 10));
    const gone = [...learned.get(site)!].filter((key) => !kept.has(key));
    expect(gone.length).toBeGreaterThan(100);
    await mergeContribution(crossSite(), site, kept, Date.now());
    for (const [other, keys] of learned) if (other !== site) await legacyMerge(env.PAGES!, other, keys);
    await legacyMerge(env.PAGES!, site, learned.get(site)!);
    expect(await migrateLegacyTable(env.PAGES!, crossSite())).toMatchObject({ sites: 6 });
    const final = await readCounts(crossSite(), everyKey);
    expect(final.siteTotal).toBe(before.siteTotal);
    expect(gone.map((key) => final.countOf(key))).toEqual(gone.map((key) => before.countOf(key) - 1));
  });
});

describe("a job's contribution", () => {
  it("counts each site once, replaces it when the site is learned again, ignores an older job's, and removes it", async () => {
    const table = crossSite();
    const { siteTotal: base } = await readCounts(table);
    const first = await mergeContribution(table, "a.table.example", keysOf("a", "b", "c"), 10);
    expect(first.cost).toMatchObject({ keys: 3, shards: CROSS_SITE_SHARDS, retries: 0 });
    await mergeContribution(table, "b.table.example", keysOf("b", "c", "d"), 11);
    expect(await countsOf(["a", "b", "c", "d"], base)).toEqual({ a: 1, b: 2, c: 2, d: 1, sites: 2 });
    // The same job again (a redelivery or a retry): nothing written, the same counts.
    const again = await mergeContribution(table, "a.table.example", keysOf("a", "b", "c"), 10);
    expect(again.cost.rowsWritten).toBe(0);
    expect(["a", "b", "c"].map((name) => again.countOf(`phrase\u0001${name}`))).toEqual([1, 2, 2]);
    // Learned again: its keys are replaced, not added.
    await mergeContribution(table, "a.table.example", keysOf("c", "e"), 20);
    expect(await countsOf(["a", "b", "c", "d", "e"], base)).toEqual({ a: 0, b: 1, c: 2, d: 1, e: 1, sites: 2 });
    // The first job delivered late: ignored, as older than what the table holds.
    await mergeContribution(table, "a.table.example", keysOf("a", "b", "c"), 10);
    expect(await countsOf(["a", "b", "c", "d", "e"], base)).toEqual({ a: 0, b: 1, c: 2, d: 1, e: 1, sites: 2 });
    // Removed: its keys and its place in the number of sites go, and an older job cannot bring them back.
    await removeContribution(table, "b.table.example", 30);
    await mergeContribution(table, "b.table.example", keysOf("b", "c", "d"), 11);
    expect(await countsOf(["a", "b", "c", "d", "e"], base)).toEqual({ a: 0, b: 0, c: 1, d: 0, e: 1, sites: 1 });
  });

  it("costs a job the rows of its own keys, whatever the number of sites in the table", async () => {
    const table = crossSite();
    const probe = new Set(Array.from({ length: 300 }, (_unused, index) => `probe\u0001key\u0001${index}`));
    const shared = [...probe].slice(0, 100);
    const { siteTotal: base } = await readCounts(table);
    const quiet = await mergeContribution(table, "quiet.cost.example", probe, 1);
    // 2,000 more sites, each with the probe's first 100 keys and 200 of its own.
    const sharedHashes = await Promise.all(shared.map(ngramHash));
    const sites = new Map<string, number[]>();
    for (let site = 0; site < 2000; site++) {
      const own = await Promise.all(Array.from({ length: 200 }, (_unused, index) => ngramHash(`own\u0001${site}\u0001${index}`)));
      sites.set(await crossSiteSiteId(`synthetic-${site}.example`), [...sharedHashes, ...own]);
    }
    await applyContributions(table, sites, 1);
    const busy = await mergeContribution(table, "busy.cost.example", probe, 2);
    expect(busy.siteTotal).toBe(base + 2002);
    expect(busy.countOf(shared[0]!)).toBe(2002);
    expect(busy.countOf([...probe][299]!)).toBe(2);
    // The same shards and keys, and rows in proportion to the keys: a table of (n-gram, site) rows counted per
    // call would read 2,000 rows for each shared key.
    expect(busy.cost).toMatchObject({ keys: 300, shards: CROSS_SITE_SHARDS, retries: 0 });
    expect(busy.cost.rowsRead).toBeLessThanOrEqual(quiet.cost.rowsRead + 300);
    expect(busy.cost.rowsWritten).toBeLessThanOrEqual(quiet.cost.rowsWritten + 300);
  });
});
