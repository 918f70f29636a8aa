/**
 * Peak memory of cleaning one page: two fresh Node processes read the same page from its data set; one runs only
 * a bare HTMLRewriter pass (the baseline: modules, the data set's strings, the rewriter), the other also cleans it
 * in every output format. Each reports its peak resident set (process.resourceUsage().maxRSS); the difference is
 * what cleaning adds. Child processes, because a process's peak cannot be reset.
 */
import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { DatasetPage } from "../../src/evaluation/index";

const CHILD = join(dirname(fileURLToPath(import.meta.url)), "bench-memory-child.ts");

function peakKilobytes(page: DatasetPage, kind: "bare" | "clean"): number {
  const output = execFileSync(process.execPath, ["--import", "tsx", CHILD, page.set, page.id, kind], { encoding: "utf8" });
  return Number(output.trim());
}

/** Prints the peak memory of cleaning the largest of the pages. */
export async function peakMemory(pages: readonly DatasetPage[]): Promise<void> {
  const largest = pages.reduce((best, page) => (page.bytes > best.bytes ? page : best));
  const bare = peakKilobytes(largest, "bare");
  const cleaned = peakKilobytes(largest, "clean");
  const mebibytes = (kilobytes: number) => (kilobytes / 1024).toFixed(1);
  console.log(`\npeak memory, largest page (${largest.set}/${largest.id}, ${(largest.bytes / 1024).toFixed(0)} KB), Node: ` +
    `${mebibytes(cleaned)} MiB peak RSS cleaning it in every format, ${mebibytes(bare)} MiB for a bare pass alone: ` +
    `cleaning adds ${mebibytes(cleaned - bare)} MiB (${((cleaned - bare) / (largest.bytes / 1024)).toFixed(1)}× the page's bytes)`);
}
