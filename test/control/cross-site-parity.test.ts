// A gate (npm run test:gates): the cross-site table in Durable Objects (src/consumer/cross-site-table.ts), inside
// workerd with the control Worker's real SQLite-backed objects, against the R2 table it replaced
// (test/support/legacy-cross-site-table.ts), on every dev site with enough pages (about 80, minutes): each site's
// n-gram counts the same, so the filter drops the same candidates. The table's own behaviour: cross-site-table.test.ts.
import { env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { MINING_MIN_PAGES_PER_SITE } from "../../src/config";
import { mergeContribution } from "../../src/consumer";
import { crossSite, mineDevSite } from "../support/cross-site";
import { devDataPresent } from "../support/dev-data";
import { dataSites, type DataPage } from "../support/learning";
import { mergeContribution as legacyMerge } from "../support/legacy-cross-site-table";

const ORIGIN = inject("originUrl");
const HAS_DATA = devDataPresent((await fetch(`${ORIGIN}/data/README.md`)).ok, "../shared/data", inject("requireDevData"), "cross-site-parity.test.ts");

// A file's tests share the objects' storage, and this file starts on two empty tables.
describe.skipIf(!HAS_DATA)("the cross-site filter on the dev sites", () => {
  it("sees the same counts for every dev site as the R2 table did, site after site, so it drops the same candidates", { timeout: 900_000 }, async () => {
    const sites: [string, DataPage[]][] = [];
    for (const set of ["dragnet", "cleanportaleval", "l3s-gn1"]) {
      for (const [site, pages] of await dataSites(ORIGIN, set, MINING_MIN_PAGES_PER_SITE)) sites.push([`${set}.${site}`, pages]);
    }
    expect(sites.length).toBeGreaterThanOrEqual(70);
    let shared = 0;
    for (const [index, [site, pages]] of sites.entries()) {
      await mineDevSite(ORIGIN, site, pages, async (keys) => {
        const before = await legacyMerge(env.PAGES!, site, keys);
        const after = await mergeContribution(crossSite(), site, keys, index + 1);
        expect(after.siteTotal, site).toBe(before.siteTotal);
        const differing = [...keys].filter((key) => after.countOf(key) !== before.countOf(key));
        expect(differing, site).toEqual([]);
        shared += [...keys].filter((key) => after.countOf(key) >= 3).length;
        return after;
      });
    }
    // The filter had work: n-grams on three sites or more (its least) among the later sites' keys.
    expect(shared).toBeGreaterThan(100);
  });
});
