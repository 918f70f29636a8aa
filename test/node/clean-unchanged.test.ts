/**
 * Without selectors, cleaning is what it was: clean() output (text and html, every mode) on a sample of the dev
 * pages hashes to the digests in test/fixtures/clean-digests.json, which the pipeline wrote before selectors
 * existed (commit 331d5ae, with test/node/clean-digests.ts). A page cleaned with a version 1 rule set, or one
 * with no selector fields, may not change by one byte. After a deliberate change to the output, write the file
 * again with CLEAN_DIGESTS_WRITE=1 and say why in the commit.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { hasData } from "../../src/evaluation/index";
import { cleanDigests } from "./clean-digests";

const REPOSITORY_ROOT = resolve(import.meta.dirname, "../..");
const FIXTURE = resolve(REPOSITORY_ROOT, "test/fixtures/clean-digests.json");

describe.skipIf(!hasData())("clean() without selectors", () => {
  it("writes the same bytes as before selectors existed, on 210 dev pages in 4 modes as text and html", async () => {
    const digests = await cleanDigests(REPOSITORY_ROOT);
    if (process.env.CLEAN_DIGESTS_WRITE === "1") writeFileSync(FIXTURE, `${JSON.stringify(digests, null, 1)}\n`);
    const expected = JSON.parse(readFileSync(FIXTURE, "utf8")) as Record<string, string>;
    expect(Object.keys(digests).length).toBe(210);
    const changed = Object.keys(expected).filter((page) => digests[page] !== expected[page]);
    expect(changed, "pages whose output changed").toEqual([]);
  });
});
