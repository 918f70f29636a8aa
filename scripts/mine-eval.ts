/**
 * npm run mine:eval -- [<input>...] [--direct] [--mode rules|auto|…] [--min-pages N] [--folds K]
 *
 * The end-to-end table of mined rules (the same measure as test/node/mined-rules-e2e.test.ts): per site with
 * 8+ pages, rules mined on every other page clean the held-out pages, scored against gold beside the
 * uncleaned page text. By default the held-out pages go through the Worker in workerd (POST
 * /v1/clean?site=…&format=text&mode=…, default mode auto: rules plus the classifier) with the rules in its
 * local KV; --mode rules measures the mined rules alone through the Worker; --direct applies the rules to the page text
 * in Node instead (the rules alone, no classifier; fast, for tuning the miner).
 * Inputs default to the dragnet and cleanportaleval sets of ../shared/data.
 */
import { parseArgs } from "node:util";
import { hasData } from "../src/evaluation/index";
import { DEFAULT_FOLDS, directCleaner, evaluateMinedRules, formatEvaluation } from "./mining-evaluation";
import { loadSites } from "./mining-input";
import { workerCleaner } from "./mining-worker-cleaner";

const EVALUATION_MIN_PAGES = 8;

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: { direct: { type: "boolean", default: false }, mode: { type: "string", default: "auto" }, "min-pages": { type: "string" }, folds: { type: "string" } },
  });
  if (positionals.length === 0 && !hasData()) {
    console.error("../shared/data is absent: name the inputs (index.jsonl files with gold)");
    return 1;
  }
  const minimumPages = Number(values["min-pages"] ?? EVALUATION_MIN_PAGES);
  // 2 folds: every other page mined (the split); k folds: mine on (k - 1) / k of the pages.
  const folds = Math.max(2, Number(values.folds ?? DEFAULT_FOLDS));
  const loaded = loadSites(positionals.length > 0 ? positionals : ["dragnet", "cleanportaleval"]);
  const sites = loaded.sites.filter((site) => site.pages.length >= minimumPages);
  const worker = values.direct ? null : await workerCleaner(values.mode);
  const cleaner = worker ?? { cleaner: directCleaner(), dispose: async () => {} };
  try {
    const evaluation = await evaluateMinedRules(sites, cleaner.cleaner, undefined, (site, fold) =>
      process.stderr.write(`fold ${fold + 1}: ${site}\n`),
      folds,
    );
    console.log(formatEvaluation(evaluation, values.direct ? "rules on text" : `Worker (${values.mode})`));
    if (worker !== null) {
      console.log(`Worker responses: x-clean-rules ${JSON.stringify(Object.fromEntries(worker.rulesStatuses))}, x-clean-mode ${JSON.stringify(Object.fromEntries(worker.modes))}`);
    }
    return 0;
  } finally {
    await cleaner.dispose();
  }
}

process.exitCode = await main();
