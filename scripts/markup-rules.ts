/**
 * node scripts/run.mjs markup-rules: each markup rule of src/classify turned off alone, on every set and wceb2026
 * page kind (scripts/usage/markup-rules.txt). The classifier path of clean() for the text format: classifyPage with
 * one rule's blocks emptied (the page's scores and smoothing computed once), comments apart, the text by each gold's
 * convention.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import type { ClassifierModel } from "../src/classify/index";
import type { AnalysedPage } from "../src/training/index";
import type { PageScore } from "../src/evaluation/index";
import { fail, parseCommand, runCommand, usageError, usageText, type Command } from "./lib/cli";
import { SHIPPED_MODEL } from "./lib/paths";

const COMMAND: Command = { name: "eval:markup-rules", usage: usageText("markup-rules") };
const { values } = parseCommand(COMMAND, { options: { folds: { type: "string" }, shipped: { type: "boolean" } } });
if ((values.folds === undefined) === (values.shipped !== true)) usageError(COMMAND, "give either --folds PATH or --shipped");
const { articleBodyMarks, classifyPage, commentPlan, hiddenBlocks, parseModel, unreadBlocks } = await import("../src/classify/index");
const { TRAIN_FOLDS } = await import("../src/config");
const { aggregateScores, goldWithoutHeader, hasData, scoreText } = await import("../src/evaluation/index");
const { titleWithoutSiteName } = await import("../src/page/index");
const { mergePlans } = await import("../src/plan/index");
const { articleBody, keepsText, writeText } = await import("../src/rewrite/index");
const { analyseCorpus, crossValidate, shippedProtocol } = await import("../src/training/index");
if (!hasData()) usageError(COMMAND, "../shared/data is absent; nothing to measure");

const RULES = ["hidden", "consent", "articleBody", "related", "comments", "header"] as const;
type Rule = (typeof RULES)[number];
const log = (line: string): void => console.error(line);
const shipped = parseModel(JSON.parse(readFileSync(SHIPPED_MODEL, "utf8")));
if (!shipped.ok) fail(COMMAND, `rules/model.json is invalid: ${shipped.problems.join("; ")}`);
const { pages } = analyseCorpus(log);

/** The models that score each fold's pages: the shipped one, or fold models read from the cache or fitted. */
function foldModels(): ClassifierModel[] {
  if (values.shipped || !shipped.ok) return Array.from({ length: TRAIN_FOLDS }, () => (shipped as { model: ClassifierModel }).model);
  const cache = values.folds!;
  if (!existsSync(cache)) {
    const { kind, source } = shippedProtocol(shipped.model.json);
    const fitted = [...crossValidate(pages, kind, source, log).folds];
    writeFileSync(cache, JSON.stringify(fitted.map((fold) => fold.json)));
    return fitted;
  }
  return (JSON.parse(readFileSync(cache, "utf8")) as unknown[]).map((json) => {
    const parsed = parseModel(json);
    if (!parsed.ok) fail(COMMAND, `${cache} holds an invalid model: ${parsed.problems.join("; ")}`);
    return parsed.model;
  });
}
const folds = foldModels();

/** The texts of one page with all rules on and with each of `offs` off; scores and smoothing computed once. */
function texts(page: AnalysedPage, offs: readonly (Rule | null)[]): string[] {
  const model = page.model;
  const features = page.features;
  const fold = folds[page.fold];
  const empty = new Uint8Array(model.blockCount);
  const hiddenOnly = hiddenBlocks(model);
  const unreadAll = unreadBlocks(model, features);
  const base = classifyPage(model, fold, { smoothing: true, features });
  return offs.map((off) => {
    // Consent banners alone: unreadBlocks (hidden | consent) outside hidden elements (a banner inside one is rare).
    const unread = off === "hidden" ? unreadAll.map((v, b) => (hiddenOnly[b] === 1 ? 0 : v)) : off === "consent" ? hiddenOnly : unreadAll;
    const options = {
      smoothing: true, features, scores: base.scores, smoothed: base.smoothed, hidden: unread,
      ...(off === "articleBody" ? { articleBody: null } : off === "hidden" ? { articleBody: articleBodyMarks(model, empty) } : {}),
      ...(off === "related" ? { related: empty } : {}),
      ...(off === "comments" ? { comments: empty } : {}),
    };
    const classified = off === null ? base : classifyPage(model, fold, options);
    const trusted = keepsText(model, classified.plan) || model.text.trim() === "";
    let plan = trusted ? classified.plan : null;
    if (plan !== null && classified.comments.includes(1)) plan = mergePlans(model, plan, commentPlan(classified.comments));
    if (plan === null) return model.text;
    if (!goldWithoutHeader(page.page)) return writeText(model, plan);
    const body = articleBody(model, plan, titleWithoutSiteName(model, page.page.url));
    return writeText(model, plan, undefined, off === "header" ? { header: null, captions: body.captions } : body);
  });
}

const scored = pages.filter((page) => page.page.gold !== "");
const groups = new Map<string, AnalysedPage[]>();
for (const page of scored) {
  const keys = [page.page.set, ...(page.page.kind ? [`${page.page.set}/${page.page.kind}`] : [])];
  for (const key of keys) groups.set(key, [...(groups.get(key) ?? []), page]);
}
const offs: (Rule | null)[] = [null, ...RULES];
const results = new Map<string, Map<AnalysedPage, PageScore>>(offs.map((off) => [off === null ? "all on" : `${off} off`, new Map()]));
let done = 0;
for (const page of scored) {
  const outputs = texts(page, offs);
  offs.forEach((off, i) => results.get(off === null ? "all on" : `${off} off`)!.set(page, scoreText(outputs[i], page.page.gold)));
  if (++done % 200 === 0) log(`${done} pages`);
}
async function main(): Promise<void> {
const names = [...results.keys()];
console.log(["set", "pages", ...names].join("\t"));
for (const [key, group] of groups) {
  const row = names.map((name) => aggregateScores(group.map((page) => results.get(name)!.get(page)!)).f1.toFixed(4));
  console.log([key, group.length, ...row].join("\t"));
}
}

await runCommand(COMMAND, main);
