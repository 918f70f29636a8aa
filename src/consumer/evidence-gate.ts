/**
 * What a learned set must pass before it is published, checks a forger cannot meet with pages of their own (the
 * pages themselves are the site's own: src/learning/sample.ts keeps no other):
 * 1. Over time: the sampled pages span LEARN_MIN_SPAN_HOURS, so that text the site showed for a while is not taken
 *    for its template (sampling keeps one page per LEARN_SAMPLE_SPACING_MINUTES, so a burst adds one page).
 * 2. Template only: each text rule, strip and main selector must remove text on LEARNING_RULE_MIN_PAGES pages and
 *    LEARNING_RULE_MIN_PAGE_SHARE of them, pages that span as long; the others are dropped. Text on one page never goes.
 * 3. No sudden growth: cleaned with the set alone, the pages lose at most LEARN_REVIEW_MARGIN more of their text than
 *    with what it replaces (the current set, or the classifier for a site without one); a set past that waits for an
 *    admin (src/learning/review.ts).
 */
import { clean, type CleanFormat } from "../clean";
import { parseModel, type ClassifierModel } from "../classify";
import { LEARNING_RULE_MIN_PAGE_SHARE, LEARNING_RULE_MIN_PAGES } from "../config";
import type { LearningSettings, RemovalMeasure } from "../learning";
import { analysePage, type PageModel } from "../page";
import { compileRuleSet, explainRules, explainSelectors, type RuleSet } from "../rules";
import { createWorkerdBackend } from "../runtime";
import MODEL_JSON from "../../rules/model.json";

export interface GatePage {
  readonly html: string;
  readonly url: string;
  /** Milliseconds since the epoch. */
  readonly sampledAt: number;
}

export type GateOutcome =
  | { readonly kind: "held"; readonly reason: string }
  | { readonly kind: "empty"; readonly dropped: DroppedParts }
  | { readonly kind: "publish" | "review"; readonly ruleSet: RuleSet; readonly measure: RemovalMeasure; readonly dropped: DroppedParts };

/** What the template check left out: rule patterns and selector paths ("strip.2"). */
export interface DroppedParts {
  readonly rules: number;
  readonly selectors: readonly string[];
}

const HOUR = 3600 * 1000;

export async function gateLearnedSet(pages: readonly GatePage[], ruleSet: RuleSet, current: RuleSet | null, settings: LearningSettings): Promise<GateOutcome> {
  const span = timeSpan(pages.map((page) => page.sampledAt));
  if (span < settings.minSpanMilliseconds) {
    return { kind: "held", reason: `the ${pages.length} sampled pages span ${hours(span)} hours; a learned set needs pages over ${hours(settings.minSpanMilliseconds)} hours` };
  }
  const models = pages.map((page) => analysePage(page.html));
  const { kept, dropped } = templateParts(ruleSet, models, pages, settings);
  if (kept.rules.length === 0 && (kept.strip?.length ?? 0) === 0 && (kept.main?.length ?? 0) === 0) return { kind: "empty", dropped };
  const measure = await measureRemoval(pages, models, kept, current);
  return { kind: measure.removedShare - measure.baselineShare > settings.reviewMargin ? "review" : "publish", ruleSet: kept, measure, dropped };
}

/** The set without the rules and selectors that remove text on too few pages, or on pages too close in time. */
function templateParts(ruleSet: RuleSet, models: readonly PageModel[], pages: readonly GatePage[], settings: LearningSettings): { kept: RuleSet; dropped: DroppedParts } {
  const needed = Math.max(LEARNING_RULE_MIN_PAGES, Math.ceil(LEARNING_RULE_MIN_PAGE_SHARE * pages.length));
  const compiled = compileRuleSet(ruleSet);
  // Page indexes on which each rule (by its index in ruleSet.rules) and each selector entry (by path) removes text.
  const rulePages = new Map<number, number[]>();
  const selectorPages = new Map<string, number[]>();
  models.forEach((model, page) => {
    for (const effect of explainRules(compiled, model.text).rules) if (effect.removed.length > 0) push(rulePages, effect.index, page);
    for (const effect of explainSelectors(ruleSet, model)) if (effect.elements > 0 && effect.text.length > 0) push(selectorPages, effect.path, page);
  });
  const template = (found: readonly number[] | undefined): boolean =>
    found !== undefined && found.length >= needed && timeSpan(found.map((page) => pages[page].sampledAt)) >= settings.minSpanMilliseconds;
  const rules = ruleSet.rules.filter((_rule, index) => template(rulePages.get(index)));
  const selectors = (field: "strip" | "main"): string[] | undefined => ruleSet[field]?.filter((_selector, index) => template(selectorPages.get(`${field}.${index}`)));
  const strip = selectors("strip");
  const main = selectors("main");
  const droppedSelectors = [
    ...(ruleSet.strip ?? []).flatMap((_selector, index) => (strip?.includes(ruleSet.strip![index]) ? [] : [`strip.${index}`])),
    ...(ruleSet.main ?? []).flatMap((_selector, index) => (main?.includes(ruleSet.main![index]) ? [] : [`main.${index}`])),
  ];
  const kept: RuleSet = { ...ruleSet, rules, ...(strip === undefined ? {} : { strip }), ...(main === undefined ? {} : { main }) };
  return { kept, dropped: { rules: ruleSet.rules.length - rules.length, selectors: droppedSelectors } };
}

/** Shares of the pages' text removed by the set alone and by what it replaces, over all pages. */
async function measureRemoval(pages: readonly GatePage[], models: readonly PageModel[], ruleSet: RuleSet, current: RuleSet | null): Promise<RemovalMeasure> {
  const text = models.reduce((sum, model) => sum + model.text.length, 0);
  const removed = await removedCharacters(pages, ruleSet);
  const baseline = await removedCharacters(pages, current);
  const share = (characters: number) => (text === 0 ? 0 : Math.round((characters / text) * 10_000) / 10_000);
  return {
    removedShare: share(removed),
    baselineShare: share(baseline),
    baseline: current === null ? "classifier" : current.revision === undefined ? "current set" : `revision ${current.revision}`,
    pages: pages.length,
  };
}

const TEXT: CleanFormat = "text";

/** The control Worker runs in workerd; the text format reads the page model and never rewrites, but clean() takes one. */
const REWRITER = createWorkerdBackend();

/** Characters the set removes from the pages on its own (mode rules); with no set, what the classifier removes. */
async function removedCharacters(pages: readonly GatePage[], ruleSet: RuleSet | null): Promise<number> {
  const compiled = ruleSet === null ? null : compileRuleSet(ruleSet);
  const model = ruleSet === null ? classifierModel() : null;
  let removed = 0;
  for (const page of pages) {
    const result = await clean({
      html: page.html, url: page.url, site: ruleSet?.site ?? "", format: TEXT, ruleSet: compiled, model, rewriter: REWRITER, options: { mode: ruleSet === null ? "classifier" : "rules" },
    });
    if (result.ok) removed += result.removed.chars;
  }
  return removed;
}

let model: { readonly value: ClassifierModel | null } | null = null;

/** rules/model.json, as the edge Worker bundles it (src/http/shared/model.ts): the classifier a site without rules gets. */
function classifierModel(): ClassifierModel | null {
  if (model === null) {
    const parsed = parseModel(MODEL_JSON);
    model = { value: parsed.ok ? parsed.model : null };
  }
  return model.value;
}

function timeSpan(times: readonly number[]): number {
  return times.length === 0 ? 0 : Math.max(...times) - Math.min(...times);
}

function hours(milliseconds: number): string {
  return (milliseconds / HOUR).toFixed(1);
}

function push<K>(map: Map<K, number[]>, key: K, page: number): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [page]);
  else if (list.at(-1) !== page) list.push(page);
}
