/**
 * npm run eval: per dev set, shingle P/R/F1 and token F1 of the uncleaned text, the classifier without
 * and with smoothing, site rules and rules plus classifier (held-out pages of sites with 8+ pages), and
 * Readability (with linkedom) on the same pages.
 *
 * Pages and models never overlap: see src/training/evaluate.ts (cross-validation by site for the training
 * sites, the shipped model for every other page) and siteRulePlans below (rules mined on the other half
 * of the site's pages).
 *
 * Options: --write-floors writes the classifier scores to test/eval-floors.json (the eval gate's floors);
 * a floor is only ever raised by hand review of the diff, never quietly lowered.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import { mergePlans, parseModel } from "../src/classify/index";
import { hasData, type AggregateScore } from "../src/evaluation/index";
import { evaluationPlan, keptText, prepareEvaluation, scoreSystem, siteRulePlans, type AnalysedPage } from "../src/training/index";

const MODEL_PATH = resolve(import.meta.dirname, "../rules/model.json");
const FLOORS_PATH = resolve(import.meta.dirname, "../test/eval-floors.json");

function readabilityText(page: AnalysedPage): string {
  try {
    const { document } = parseHTML(page.page.html);
    return new Readability(document as unknown as ConstructorParameters<typeof Readability>[0]).parse()?.textContent ?? "";
  } catch {
    return ""; // Readability gives up on some pages; an empty output scores as such
  }
}

function row(set: string, system: string, score: AggregateScore): string {
  return [set, system, score.pages, score.precision.toFixed(4), score.recall.toFixed(4), score.f1.toFixed(4), score.tokenF1.toFixed(4)].join("\t");
}

async function main(): Promise<void> {
  if (!hasData()) {
    console.error("npm run eval: ../shared/data is absent; nothing to evaluate.");
    process.exitCode = 1;
    return;
  }
  const parsed = parseModel(JSON.parse(readFileSync(MODEL_PATH, "utf8")));
  if (!parsed.ok) throw new Error(`rules/model.json is invalid: ${parsed.problems.join("; ")}`);
  const corpus = prepareEvaluation(parsed.model, (line: string) => console.error(line));
  const floors: Record<string, Record<string, number>> = {};
  console.log(["set", "system", "pages", "precision", "recall", "F1", "token F1"].join("\t"));
  for (const { set, pages } of corpus.sets) {
    const raw = scoreSystem(pages, (page) => keptText(page.model, evaluationPlan(corpus, page, false))).aggregate;
    const smoothed = scoreSystem(pages, (page) => keptText(page.model, evaluationPlan(corpus, page, true))).aggregate;
    console.log(row(set, "uncleaned", scoreSystem(pages, (page) => page.model.text).aggregate));
    console.log(row(set, "classifier", raw));
    console.log(row(set, "classifier+smoothing", smoothed));
    console.log(row(set, "readability", scoreSystem(pages, readabilityText).aggregate));
    floors[set] = { classifierF1: raw.f1, classifierTokenF1: raw.tokenF1, smoothedF1: smoothed.f1, smoothedTokenF1: smoothed.tokenF1 };
    const rulePlans = siteRulePlans(pages, (line) => console.error(line));
    if (rulePlans.size === 0) continue;
    const ruled = pages.filter((page) => rulePlans.has(page));
    const label = `${set}[8+ page sites]`;
    console.log(row(label, "uncleaned", scoreSystem(ruled, (page) => page.model.text).aggregate));
    console.log(row(label, "classifier+smoothing", scoreSystem(ruled, (page) => keptText(page.model, evaluationPlan(corpus, page, true))).aggregate));
    console.log(row(label, "rules", scoreSystem(ruled, (page) => keptText(page.model, rulePlans.get(page)!)).aggregate));
    console.log(row(label, "rules+classifier", scoreSystem(ruled, (page) => keptText(page.model, mergePlans(page.model, rulePlans.get(page)!, evaluationPlan(corpus, page, true)))).aggregate));
    console.log(row(label, "readability", scoreSystem(ruled, readabilityText).aggregate));
  }
  if (process.argv.includes("--write-floors")) {
    writeFileSync(FLOORS_PATH, `${JSON.stringify(floors, null, 2)}\n`);
    console.error(`wrote ${FLOORS_PATH}`);
  }
}

await main();
