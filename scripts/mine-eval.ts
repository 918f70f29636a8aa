/**
 * npm run mine:eval -- [<input>...] [--direct] [--mode rules|auto|…] [--no-readability] [--min-pages N] [--folds K]
 *
 * The end-to-end table of mined rules (the same measure as test/node/mined-rules-e2e.test.ts): per site with
 * 8+ pages, rules mined on every other page clean the held-out pages, scored against gold beside the
 * uncleaned page text. By default the held-out pages go through the Worker in workerd (POST
 * /v1/clean?site=…&format=text&mode=…) with the rules in its local KV, in three modes (rules alone, the
 * classifier alone, auto: the mode the site's rule set chose) beside Readability, and the table says per site
 * which wins; --mode M measures one mode; --direct applies the text rules to the page text in Node instead
 * (the text rules alone, no selectors, no classifier; fast, for tuning the miner).
 * Inputs default to the dragnet and cleanportaleval sets of ../shared/data.
 */
import { integerOption, parseCommand, runCommand, usageError, usageText, type Command } from "./lib/cli";

const COMMAND: Command = {
  name: "mine:eval",
  usage: usageText("mine-eval"),
};

const EVALUATION_MIN_PAGES = 8;
const { values, positionals } = parseCommand(COMMAND, {
  allowPositionals: true,
  options: { direct: { type: "boolean", default: false }, mode: { type: "string" }, "no-readability": { type: "boolean", default: false }, "min-pages": { type: "string" }, folds: { type: "string" } },
});
const minimumPages = integerOption(COMMAND, "min-pages", values["min-pages"], EVALUATION_MIN_PAGES, 2);
// Loaded after the arguments are read, so that --help and a mistyped option answer at once.
const { REQUESTED_MODES } = await import("../src/clean");
const { hasData } = await import("../src/evaluation/index");
const { DEFAULT_FOLDS, directCleaner, evaluateMinedRules, formatEvaluation } = await import("./mining-evaluation");
const { loadSites } = await import("./mining-input");
const { workerCleaner } = await import("./mining-worker-cleaner");
const { readabilityReference } = await import("./mining-readability");
/** Without --mode: the rules alone, the classifier alone and the default, side by side. */
const MODES = ["rules", "classifier", "auto"];
// 2 folds: every other page mined (the split); k folds: mine on (k - 1) / k of the pages.
const folds = integerOption(COMMAND, "folds", values.folds, DEFAULT_FOLDS, 2);
if (values.mode !== undefined && !REQUESTED_MODES.includes(values.mode as (typeof REQUESTED_MODES)[number])) usageError(COMMAND, `--mode must be one of ${REQUESTED_MODES.join(", ")}`);

async function main(): Promise<number> {
  if (positionals.length === 0 && !hasData()) usageError(COMMAND, "../shared/data is absent: name the inputs (index.jsonl files with gold)");
  const loaded = loadSites(positionals.length > 0 ? positionals : ["dragnet", "cleanportaleval"]);
  for (const problem of loaded.problems) console.error(`skipped: ${problem}`);
  const sites = loaded.sites.filter((site) => site.pages.length >= minimumPages);
  if (sites.length === 0) usageError(COMMAND, `no site with ${minimumPages}+ pages in ${positionals.join(", ") || "dragnet, cleanportaleval"}`);
  const modes = values.direct ? undefined : values.mode === undefined ? MODES : [values.mode];
  const worker = values.direct ? null : await workerCleaner(modes![0]);
  const cleaner = worker ?? { cleaner: directCleaner(), dispose: async () => {} };
  const reference = values.direct || values.mode !== undefined || values["no-readability"] ? undefined : readabilityReference();
  try {
    const onSite = (site: string, fold: number) => process.stderr.write(`fold ${fold + 1}: ${site}\n`);
    const evaluation = await evaluateMinedRules(sites, cleaner.cleaner, undefined, { modes, reference, onSite }, folds);
    console.log(formatEvaluation(evaluation, values.direct ? "rules on text" : `Worker (${modes![0]})`));
    if (worker !== null) {
      console.log(`Worker responses: x-clean-rules ${JSON.stringify(Object.fromEntries(worker.rulesStatuses))}, x-clean-mode ${JSON.stringify(Object.fromEntries(worker.modes))}`);
    }
    return 0;
  } finally {
    await cleaner.dispose();
  }
}

await runCommand(COMMAND, main);
