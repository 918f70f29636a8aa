/**
 * npm run eval: what ships, scored on every dev set out of fold. Each page goes through clean() with the
 * model of its cross-validation fold (trained without the page's site, the way the shipped model was
 * trained, with decision settings chosen without the fold); pages of sites with 8+ pages also go through
 * clean() with rules mined on the other half of their site. Readability (with linkedom) and the uncleaned
 * text (all the page's visible text) are scored on the same pages. A set whose index gives each page's kind
 * (wceb2026) is printed per kind too, with a table of the three systems side by side, the fold spread and the
 * snippet measure.
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
const { belowFloors, carriedFloors, dataDigest, EVALUATED_SETS, hasData, nextFloors } = await import("../src/evaluation/index");
const { createWasmBackend } = await import("../src/runtime/index");
const { evaluateShipped, foldSpread, LOST_PAGE_F1, measuredFloors, pageF1, prepareEvaluation, shippedProtocol, SYSTEM_CLASSIFIER, SYSTEM_UNCLEANED } = await import("../src/training/index");

const READABILITY = "readability";


/** A share as 3 digits, "-" where there is nothing to count. */
const share = (part: number, total: number): string => (total === 0 ? "-" : (part / total).toFixed(3));

/** The snippet measure of a row: share of `with` snippets found, share of `without` snippets absent. */
function snippetCells(row: EvaluationRow): string[] {
  const { withFound, withTotal, withoutAbsent, withoutTotal } = row.score.snippets;
  return [share(withFound, withTotal), share(withoutAbsent, withoutTotal)];
}

function printRows(rows: readonly EvaluationRow[]): void {
  console.log(["set", "text", "system", "pages", "precision", "recall", "F1", "token F1", "pages < 0.3", "F1 per fold", "fold min-max", "fold sd", "with found", "without absent"].join("\t"));
  for (const row of rows) {
    // Each page is scored by its gold's convention (goldWithoutHeader): the article's body, or all the kept text.
    const { set, system, score, textScope } = row;
    const { aggregate } = score;
    const folds = score.perFold.map((f1) => (Number.isNaN(f1) ? "-" : f1.toFixed(3))).join(" ");
    const spread = foldSpread(score.perFold);
    console.log([set, textScope, system, aggregate.pages, aggregate.precision.toFixed(4), aggregate.recall.toFixed(4), aggregate.f1.toFixed(4), aggregate.tokenF1.toFixed(4), score.lostPages, folds,
      `${spread.min.toFixed(3)}-${spread.max.toFixed(3)}`, spread.sd.toFixed(3), ...snippetCells(row)].join("\t"));
  }
}

/** For each set with page kinds: the set and each kind, clean()'s classifier beside Readability and all the visible text. */
function printKinds(rows: readonly EvaluationRow[]): void {
  const sets = [...new Set(rows.filter((row) => row.kind !== null).map((row) => row.pages[0].page.set))];
  for (const set of sets) {
    const labels = [set, ...new Set(rows.filter((row) => row.kind !== null && row.pages[0].page.set === set).map((row) => row.set))];
    console.log(`\n${set} by page kind (shingle F1, out of fold; snippets: with found / without absent):`);
    console.log(["kind", "pages", "clean()", "readability", "all text", "clean() token F1", "clean() fold min-max", "clean() fold sd", "clean() snippets", "readability snippets", "all text snippets"].join("\t"));
    for (const label of labels) {
      const of = (system: string): EvaluationRow | undefined => rows.find((row) => row.set === label && row.system === system);
      const ours = of(SYSTEM_CLASSIFIER)!;
      const spread = foldSpread(ours.score.perFold);
      const f1 = (row: EvaluationRow | undefined): string => (row ? row.score.aggregate.f1.toFixed(4) : "-");
      const snippets = (row: EvaluationRow | undefined): string => (row ? snippetCells(row).join(" / ") : "-");
      console.log([label === set ? "all" : ours.kind, ours.score.aggregate.pages, f1(ours), f1(of(READABILITY)), f1(of(SYSTEM_UNCLEANED)), ours.score.aggregate.tokenF1.toFixed(4),
        `${spread.min.toFixed(3)}-${spread.max.toFixed(3)}`, spread.sd.toFixed(3), snippets(ours), snippets(of(READABILITY)), snippets(of(SYSTEM_UNCLEANED))].join("\t"));
    }
  }
}

/** Pages of each set where clean()'s classifier scores below LOST_PAGE_F1, with the reference's score on the same page. */
function printLost(rows: readonly EvaluationRow[]): void {
  console.log(["set", "page", "site", "clean() F1", "readability F1", "page chars", "gold chars"].join("\t"));
  for (const row of rows.filter((entry) => entry.system === SYSTEM_CLASSIFIER && !entry.set.includes("[") && entry.kind === null)) {
    const setPages = row.pages;
    const reference = rows.find((entry) => entry.set === row.set && entry.system === READABILITY);
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
    reference: values["no-readability"] ? undefined : { name: READABILITY, text: (page: AnalysedPage) => readabilityText(page.page.html) },
    log,
  });
  printRows(rows);
  printKinds(rows);
  if (values["list-lost"]) printLost(rows);
  const measured = measuredFloors(rows);
  const digest = dataDigest(EVALUATED_SETS);
  const written = existsSync(EVAL_FLOORS) ? (JSON.parse(readFileSync(EVAL_FLOORS, "utf8")) as FloorsFile) : null;
  // Floors of sets whose data is unchanged still hold when a set is added (carriedFloors).
  const old = carriedFloors(written, EVALUATED_SETS, digest, dataDigest);
  const below = old ? belowFloors(old, measured) : [];
  for (const line of below) console.error(`below its floor: ${line}`);
  if (!values["write-floors"]) return;
  const { kind, source } = shippedProtocol(parsed.model.json);
  const { file, refused } = nextFloors(old, measured, digest, `clean() out of fold: ${kind} on ${source} labels, cross-validated by site`, values["lower-floors"] ?? null);
  for (const line of refused) console.error(`kept (would fall; give --lower-floors WHY to allow): ${line}`);
  writeFileSync(EVAL_FLOORS, `${JSON.stringify(file, null, 2)}\n`);
  console.error(`wrote ${EVAL_FLOORS}`);
}

await runCommand(COMMAND, main);
