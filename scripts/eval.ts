/**
 * npm run eval: what ships, scored on every dev set out of fold. Each page goes through clean() with the
 * model of its cross-validation fold (trained without the page's site, the way the shipped model was
 * trained, with decision settings chosen without the fold); pages of sites with 8+ pages also go through
 * clean() with rules mined on the other half of their site. Readability (with linkedom) and the uncleaned
 * text are scored on the same pages.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import type { AnalysedPage, EvaluationRow } from "../src/training/index";
import type { FloorsFile } from "../src/evaluation/index";
import { fail, parseCommand, runCommand, usageError, usageText, type Command } from "./lib/cli";
import { EVAL_FLOORS, SHIPPED_MODEL } from "./lib/paths";

const COMMAND: Command = {
  name: "eval",
  usage: usageText("eval"),
};

const { values } = parseCommand(COMMAND, {
  options: { "no-readability": { type: "boolean" }, "list-lost": { type: "boolean" }, "write-floors": { type: "boolean" }, "lower-floors": { type: "string" } },
});
if (values["lower-floors"] !== undefined && !values["write-floors"]) usageError(COMMAND, "--lower-floors needs --write-floors");
// Loaded after the arguments are read, so that --help and a mistyped option answer at once.
const { HTMLRewriter } = await import("html-rewriter-wasm");
const { readabilityText } = await import("./lib/readability");
const { parseModel } = await import("../src/classify/index");
const { belowFloors, DATA_SETS, dataDigest, GOLD_WITHOUT_HEADER, hasData, nextFloors } = await import("../src/evaluation/index");
const { createWasmBackend } = await import("../src/runtime/index");
const { evaluateShipped, LOST_PAGE_F1, measuredFloors, pageF1, prepareEvaluation, shippedProtocol, SYSTEM_CLASSIFIER } = await import("../src/training/index");


function printRows(rows: readonly EvaluationRow[]): void {
  console.log(["set", "text", "system", "pages", "precision", "recall", "F1", "token F1", "pages < 0.3", "F1 per fold"].join("\t"));
  for (const { set, system, score } of rows) {
    // Each set is scored by its gold's convention (GOLD_WITHOUT_HEADER): the article's body, or all the kept text.
    const scope = GOLD_WITHOUT_HEADER.has(set.split("[")[0]) ? "body" : "all";
    const { aggregate } = score;
    const folds = score.perFold.map((f1) => (Number.isNaN(f1) ? "-" : f1.toFixed(3))).join(" ");
    console.log([set, scope, system, aggregate.pages, aggregate.precision.toFixed(4), aggregate.recall.toFixed(4), aggregate.f1.toFixed(4), aggregate.tokenF1.toFixed(4), score.lostPages, folds].join("\t"));
  }
}

/** Pages of each set where clean()'s classifier scores below LOST_PAGE_F1, with the reference's score on the same page. */
function printLost(rows: readonly EvaluationRow[], pages: readonly AnalysedPage[]): void {
  console.log(["set", "page", "site", "clean() F1", "readability F1", "page chars", "gold chars"].join("\t"));
  for (const row of rows.filter((entry) => entry.system === SYSTEM_CLASSIFIER && !entry.set.includes("["))) {
    const setPages = pages.filter((page) => page.page.set === row.set && page.page.gold !== "");
    const reference = rows.find((entry) => entry.set === row.set && entry.system === "readability");
    row.score.perPage.forEach((score, index) => {
      const f1 = pageF1(score);
      if (f1 >= LOST_PAGE_F1) return;
      const page = setPages[index];
      const other = reference ? pageF1(reference.score.perPage[index]).toFixed(3) : "-";
      console.log([row.set, page.page.id, page.page.site, f1.toFixed(3), other, page.model.text.length, page.page.gold.length].join("\t"));
    });
  }
}

async function main(): Promise<void> {
  if (!hasData()) usageError(COMMAND, "../shared/data is absent; nothing to evaluate");
  const parsed = parseModel(JSON.parse(readFileSync(SHIPPED_MODEL, "utf8")));
  if (!parsed.ok) fail(COMMAND, `rules/model.json is invalid: ${parsed.problems.join("; ")}`);
  const log = (line: string): void => console.error(line);
  const corpus = prepareEvaluation(parsed.model.json, log);
  const rows = await evaluateShipped(corpus.pages, corpus.validation.folds, corpus.ruleSets, {
    rewriter: createWasmBackend(HTMLRewriter),
    reference: values["no-readability"] ? undefined : { name: "readability", text: (page: AnalysedPage) => readabilityText(page.page.html) },
    log,
  });
  printRows(rows);
  if (values["list-lost"]) printLost(rows, corpus.pages);
  const measured = measuredFloors(rows);
  const digest = dataDigest(DATA_SETS);
  const old = existsSync(EVAL_FLOORS) ? (JSON.parse(readFileSync(EVAL_FLOORS, "utf8")) as FloorsFile) : null;
  const below = old && old.digest === digest ? belowFloors(old, measured) : [];
  for (const line of below) console.error(`below its floor: ${line}`);
  if (!values["write-floors"]) return;
  const { kind, source } = shippedProtocol(parsed.model.json);
  const { file, refused } = nextFloors(old, measured, digest, `clean() out of fold: ${kind} on ${source} labels, cross-validated by site`, values["lower-floors"] ?? null);
  for (const line of refused) console.error(`kept (would fall; give --lower-floors WHY to allow): ${line}`);
  writeFileSync(EVAL_FLOORS, `${JSON.stringify(file, null, 2)}\n`);
  console.error(`wrote ${EVAL_FLOORS}`);
}

await runCommand(COMMAND, main);
