/**
 * npm run train: automatic labels on the dev sets' multi-page sites, cross-validation by site of each
 * model kind, calibration of threshold and smoothing on out-of-fold pages, the final fit on all training
 * sites, written to rules/model.json. Prints label counts per site, the comparison, and a smoothing
 * micro-benchmark.
 */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { hasData } from "../src/evaluation/index";
import {
  analyseTrainingCorpus,
  benchmarkSmoothing,
  trainAndSelect,
} from "../src/training/index";

const OUTPUT = resolve(import.meta.dirname, "../rules/model.json");

function main(): void {
  if (!hasData()) {
    console.error("npm run train: ../shared/data is absent; nothing to train on.");
    process.exitCode = 1;
    return;
  }
  const started = performance.now();
  const corpus = analyseTrainingCorpus((line) => console.error(line));
  console.log("\nAutomatic labels per site (blocks):");
  console.log(["site", "pages", "template", "content", "left out"].join("\t"));
  for (const row of corpus.labelCounts) console.log([row.site, row.pages, row.template, row.content, row.leftOut].join("\t"));
  const totals = corpus.labelCounts.reduce((sum, row) => ({ template: sum.template + row.template, content: sum.content + row.content }), { template: 0, content: 0 });
  console.log(`total\t${corpus.labelCounts.reduce((sum, row) => sum + row.pages, 0)}\t${totals.template}\t${totals.content}`);
  const result = trainAndSelect(corpus.pages, (line) => console.error(line));
  console.log("\nModel comparison (cross-validation by site, out-of-fold pages of the training sites):");
  console.log(["kind", "label log-loss", "label accuracy", "raw F1", "smoothed F1", "threshold", "penalty", "chars/unit", "keep chars", "keep margin"].join("\t"));
  for (const row of result.candidates) {
    console.log([row.kind, row.labels.logLoss.toFixed(4), row.labels.accuracy.toFixed(4), row.raw.score.f1.toFixed(4), row.smoothed.score.f1.toFixed(4),
      row.smoothed.settings.threshold, row.smoothed.settings.penaltyScale, row.smoothed.settings.charsPerUnit,
      row.smoothed.settings.keepChars, row.smoothed.settings.keepMargin].join("\t"));
  }
  console.log(`\nChosen: ${result.model.kind} (${result.reason})`);
  const text = `${JSON.stringify(result.model)}\n`;
  writeFileSync(OUTPUT, text);
  console.log(`Wrote ${OUTPUT} (${(text.length / 1024).toFixed(1)} KB) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const bench = benchmarkSmoothing();
  console.log(`Smoothing micro-benchmark: ${bench.blocks} blocks, ${bench.levels} score levels: median ${bench.medianMs.toFixed(3)} ms, p95 ${bench.p95Ms.toFixed(3)} ms`);
}

main();
