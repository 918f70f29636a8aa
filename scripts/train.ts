/**
 * npm run train: labels on every dev page (automatic ones on sites with enough pages, gold ones where the
 * page has gold), cross-validation grouped by site, decision settings chosen inside the folds, then the
 * model fitted on every labelled page. Prints the label counts, the cross-validated comparison and a
 * smoothing micro-benchmark (with --ablation and --unseen-sets, more cross-validations); writes the model only
 * where told.
 */
import { existsSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { AnalysedPage, CrossValidation, FittedFolds, LabelSource, ModelKind } from "../src/training/index";
import { parseCommand, runCommand, usageError, usageText, type Command } from "./lib/cli";
import { modelText } from "./lib/model-text";
import { SHIPPED_MODEL } from "./lib/paths";

const COMMAND: Command = {
  name: "train",
  usage: usageText("train"),
};

const { values } = parseCommand(COMMAND, {
  options: { labels: { type: "string", default: "gold" }, kind: { type: "string", default: "ensemble" }, out: { type: "string" }, "write-shipped-model": { type: "boolean" }, ablation: { type: "boolean" }, "unseen-sets": { type: "boolean" } },
});
// Loaded after the arguments are read, so that --help and a mistyped option answer at once.
const { hasData } = await import("../src/evaluation/index");
const { analyseCorpus, benchmarkSmoothing, calibrateFolds, candidateSettings, fitFolds, fitShipped, LABEL_SOURCES, MODEL_KINDS } = await import("../src/training/index");
const { TRAIN_FOLDS } = await import("../src/config");

function listOption<T extends string>(value: string, allowed: readonly T[], name: string): T[] {
  const items = value.split(",").map((item) => item.trim());
  for (const item of items) if (!allowed.includes(item as T)) usageError(COMMAND, `--${name} ${item}: expected one of ${allowed.join(", ")}`);
  return items as T[];
}

/** Feature groups added beside the block's own features, each dropped in turn by --ablation. */
const FEATURE_GROUPS: Readonly<Record<string, readonly string[]>> = {
  "sequence context": ["previousLinkCharRatio", "previousLogChars", "nextLinkCharRatio", "nextLogChars"],
  "text quality": ["shortWordRatio"],
  "main-content candidates": ["mainContentScore"],
};

function printAblation(pages: readonly AnalysedPage[], full: CrossValidation, fitted: FittedFolds, log: (line: string) => void): void {
  const rows: [string, CrossValidation][] = [["everything", full]];
  rows.push(["without the article guard", calibrateFolds(pages, fitted, log, candidateSettings([0]))]);
  // The markup's decision rules, each off in turn (scored by the same fold models; clean() applies them on every page).
  rows.push(["without hidden elements going", calibrateFolds(pages, fitted, log, candidateSettings(), { hidden: false, articleEnd: true })]);
  rows.push(["without the articleBody's end", calibrateFolds(pages, fitted, log, candidateSettings(), { hidden: true, articleEnd: false })]);
  for (const [group, names] of Object.entries(FEATURE_GROUPS)) rows.push([`without ${group}`, calibrateFolds(pages, fitFolds(pages, full.kind, full.source, log, names), log)]);
  const sets = Object.keys(full.estimate.perSet);
  console.log(`\nAblation (${full.kind} on ${full.source} labels; out-of-fold shingle F1 of the fast scorer):`);
  console.log(["variant", "mean over sets", ...sets].join("\t"));
  for (const [name, result] of rows) console.log(estimateRow(name, result, sets));
}

/** A table row: the variant's name, its estimate's mean over sets, then each set's. */
function estimateRow(name: string, result: CrossValidation, sets: readonly string[]): string {
  return [name, result.estimate.all.toFixed(4), ...sets.map((set) => result.estimate.perSet[set].toFixed(4))].join("\t");
}

/**
 * Each dev set scored by a model and decision settings fitted on the other sets only (the folds are the sets): what a
 * set of another year and source sees, which the site-grouped folds, mixing every set into every fold, overstate.
 */
function printUnseenSets(pages: readonly AnalysedPage[], full: CrossValidation, log: (line: string) => void): void {
  const sets = [...new Set(pages.map((page) => page.page.set))];
  if (sets.length !== TRAIN_FOLDS) {
    console.log(`\nUnseen sets: needs ${TRAIN_FOLDS} dev sets, one a fold; found ${sets.length} (${sets.join(", ")})`);
    return;
  }
  const bySet = pages.map((page) => ({ ...page, fold: sets.indexOf(page.page.set) }));
  const result = calibrateFolds(bySet, fitFolds(bySet, full.kind, full.source, log), log);
  console.log(`\nUnseen sets (${full.kind} on ${full.source} labels; each set scored by a model and settings fitted on the other sets; fast scorer):`);
  console.log(["folds", "mean over sets", ...sets].join("\t"));
  console.log(estimateRow("by site", full, sets));
  console.log(estimateRow("by set", result, sets));
}

function main(): void {
  const sources = listOption(values.labels, LABEL_SOURCES, "labels");
  const kinds = listOption(values.kind, MODEL_KINDS, "kind");
  // Checked before the minutes of training, not after.
  if (values.out !== undefined && !existsSync(dirname(resolve(values.out)))) usageError(COMMAND, `--out ${values.out}: no such folder ${dirname(resolve(values.out))}`);
  if (!hasData()) usageError(COMMAND, "../shared/data is absent; nothing to train on");
  const started = performance.now();
  const log = (line: string): void => console.error(line);
  const { pages, labelCounts } = analyseCorpus(log);
  const totals = labelCounts.reduce((sum, row) => ({ template: sum.template + row.template, content: sum.content + row.content }), { template: 0, content: 0 });
  console.log(`Automatic labels: ${labelCounts.length} sites, ${totals.template} template and ${totals.content} content blocks`);
  const results: { validation: CrossValidation; fitted: FittedFolds }[] = [];
  console.log(["kind", "labels", "label log-loss", "label accuracy", "out-of-fold F1", "per fold", "threshold", "penalty", "keep chars", "keep margin", "keep prose"].join("\t"));
  for (const kind of kinds as ModelKind[]) {
    for (const source of sources as LabelSource[]) {
      const fitted = fitFolds(pages, kind, source, log);
      const result = calibrateFolds(pages, fitted, log);
      results.push({ validation: result, fitted });
      const { settings } = result;
      console.log([kind, source, result.labels.logLoss.toFixed(4), result.labels.accuracy.toFixed(4), result.estimate.all.toFixed(4),
        result.estimate.perFold.map((f1) => f1.toFixed(3)).join(" "), settings.threshold, settings.penaltyScale, settings.keepChars, settings.keepMargin, settings.keepProse].join("\t"));
    }
  }
  const { validation: best, fitted: bestFitted } = results.reduce((a, b) => (b.validation.estimate.all > a.validation.estimate.all ? b : a));
  console.log(`Chosen: ${best.kind} on ${best.source} labels (best out-of-fold shingle F1, mean over the dev sets, of the fast scorer: ${best.estimate.all.toFixed(4)})`);
  console.log(`Per set (fast scorer, out of fold): ${Object.entries(best.estimate.perSet).map(([set, f1]) => `${set} ${f1.toFixed(4)}`).join(", ")}`);
  const model = fitShipped(pages, best);
  const text = modelText(model);
  const targets = [values.out === undefined ? undefined : resolve(values.out), values["write-shipped-model"] ? SHIPPED_MODEL : undefined].filter((path): path is string => path !== undefined);
  for (const path of targets) {
    writeFileSync(path, text);
    console.log(`Wrote ${path} (${(text.length / 1024).toFixed(1)} KB)`);
  }
  if (targets.length === 0) console.log(`Model fitted (${(text.length / 1024).toFixed(1)} KB); not written (give --out FILE or --write-shipped-model)`);
  if (values.ablation) printAblation(pages, best, bestFitted, log);
  if (values["unseen-sets"]) printUnseenSets(pages, best, log);
  console.log(`Done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const bench = benchmarkSmoothing();
  console.log(`Smoothing micro-benchmark: ${bench.blocks} blocks, ${bench.levels} score levels: median ${bench.medianMs.toFixed(3)} ms, p95 ${bench.p95Ms.toFixed(3)} ms`);
}

await runCommand(COMMAND, main);
