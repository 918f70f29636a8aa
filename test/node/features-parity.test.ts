import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATA_SETS, hasData, loadDataset } from "../../src/evaluation/index";
import { analysePage, computeFeatures } from "../../src/page/index";
import { startWorkerd, type WorkerdHandle } from "../support/workerd";

// Every dev page's features must be bit-identical in Node and in workerd: the model is trained on Node's.
describe.skipIf(!hasData())("block features: Node and workerd agree (skipped without ../shared/data)", () => {
  let worker: WorkerdHandle;
  beforeAll(async () => {
    worker = await startWorkerd({ entry: "test/support/features-entry.ts" });
  });
  afterAll(async () => {
    await worker?.dispose();
  });

  for (const set of DATA_SETS) {
    it(`features of every ${set} page are identical`, async () => {
      const { pages } = loadDataset(set);
      expect(pages.length).toBeGreaterThan(0);
      const mismatches: string[] = [];
      for (const page of pages) {
        const local = computeFeatures(analysePage(page.html));
        const response = await worker.fetch("/", { method: "POST", body: page.html, headers: { "content-type": "text/html; charset=utf-8" } });
        const remote = new Float32Array(await response.arrayBuffer());
        if (Number(response.headers.get("x-block-count")) !== local.blockCount || remote.length !== local.data.length) {
          mismatches.push(`${page.id}: ${response.headers.get("x-block-count")} blocks in workerd, ${local.blockCount} in Node`);
          continue;
        }
        // Compare bit patterns so that NaN and -0 differences count too.
        const localBits = new Uint32Array(local.data.buffer);
        const remoteBits = new Uint32Array(remote.buffer);
        const first = localBits.findIndex((bits, index) => bits !== remoteBits[index]);
        if (first >= 0) mismatches.push(`${page.id}: block ${Math.floor(first / local.featureCount)} feature ${first % local.featureCount}`);
      }
      expect(mismatches).toEqual([]);
    });
  }
});
