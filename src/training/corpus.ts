/**
 * The training corpus: every dev page analysed once (page model, features), its labels (automatic ones on
 * sites with enough pages, gold ones on every page with gold), its site's fold for cross-validation by
 * site, and labelled examples for fitting.
 */
import { EVALUATED_SETS, EVALUATION_ONLY_SETS, goldWithoutHeader, groupBySite, loadDataset, type DatasetPage } from "../evaluation/index";
import { analysePage, computeFeatures, FEATURE_COUNT, headlineBlocks, tagId, titleWithoutSiteName, type FeatureMatrix, type PageModel } from "../page/index";
import type { NormalisedPlan } from "../plan/index";
import { labelFromGold } from "./gold-labels";
import { countLabels, LABEL_NONE, labelSite, type PageLabels, type SiteLabelCounts } from "./labels";
import type { ExampleSet } from "./fit";
import { TRAIN_FOLDS, TRAIN_MIN_SITE_PAGES } from "../config";

/** Which labels train the model: automatic (site-level templates), from the dev gold, or gold with automatic ones where gold leaves a block out. */
export type LabelSource = "auto" | "gold" | "both";
export const LABEL_SOURCES: readonly LabelSource[] = ["auto", "gold", "both"];

export interface AnalysedPage {
  readonly page: DatasetPage;
  readonly model: PageModel;
  readonly features: FeatureMatrix;
  /** Automatic labels (block ordinal → label) when the page belongs to a site with enough pages, else null. */
  readonly autoLabels: PageLabels | null;
  /** Labels from the page's gold text (all LABEL_NONE when it has none). */
  readonly goldLabels: PageLabels;
  /** Cross-validation fold of the page's site, 0..TRAIN_FOLDS-1: pages of one site always share a fold. */
  readonly fold: number;
}

/** Least pages of a site for automatic labels, per set: the data README's 8+ page sites, and every cleanportaleval site (2 to 30 pages, all of one kind of portal). */
export function minimumSitePages(set: string): number {
  if (set === "cleanportaleval") return 2;
  return set === "cleaneval-dev" ? Number.POSITIVE_INFINITY : TRAIN_MIN_SITE_PAGES;
}

/** Fold of a site: FNV-1a hash of "set/site" modulo TRAIN_FOLDS (stable across runs and machines). */
export function siteFold(site: string): number {
  let hash = 2166136261;
  for (let i = 0; i < site.length; i++) hash = Math.imul(hash ^ site.charCodeAt(i), 16777619) >>> 0;
  return hash % TRAIN_FOLDS;
}

/**
 * Sets folded by "set/site" alone, as before sites were grouped across sets: they keep those folds, so that the floors
 * measured on them stay comparable (dragnet and l3s-gn1 share 9 sites, each set's pages of them in a fold of their own).
 */
const SETS_FOLDED_ALONE: ReadonlySet<string> = new Set(["dragnet", "l3s-gn1", "cleanportaleval", "cleaneval-dev"]);

/**
 * The key a site's fold is hashed from: "set/site" for SETS_FOLDED_ALONE; for a later set, the first set in
 * EVALUATED_SETS that holds the site, so that a site a later set shares with an earlier one (scrapinghub and l3s-gn1
 * share 12, wceb2026 and scrapinghub 5) is in one fold: no model scores a site it was trained on. `sitesBySet` holds
 * the sites of the sets analysed so far.
 */
export function foldKeys(sitesBySet: ReadonlyMap<string, ReadonlySet<string>>): (set: string, site: string) => string {
  return (set, site) => {
    if (SETS_FOLDED_ALONE.has(set)) return `${set}/${site}`;
    const first = EVALUATED_SETS.find((candidate) => sitesBySet.get(candidate)?.has(site)) ?? set;
    return `${first}/${site}`;
  };
}

/** Loads and analyses a dev set: features, gold labels and fold of every page, automatic labels of its multi-page sites. */
export function analyseSet(set: string, foldKey: (set: string, site: string) => string = (own, site) => `${own}/${site}`): { pages: AnalysedPage[]; labelCounts: SiteLabelCounts[]; problems: string[] } {
  const { pages, problems } = loadDataset(set);
  const models = pages.map((page) => analysePage(page.html));
  const autoLabels = new Map<DatasetPage, PageLabels>();
  const labelCounts: SiteLabelCounts[] = [];
  const indexOf = new Map(pages.map((page, index) => [page, index]));
  for (const [site, sitePages] of groupBySite(pages)) {
    if (sitePages.length < minimumSitePages(set)) continue;
    const labels = labelSite(sitePages.map((page) => models[indexOf.get(page)!]));
    sitePages.forEach((page, index) => autoLabels.set(page, labels[index]));
    labelCounts.push(countLabels(`${set}/${site}`, labels));
  }
  const analysed = pages.map((page, index): AnalysedPage => ({
    page,
    model: models[index],
    features: computeFeatures(models[index]),
    autoLabels: autoLabels.get(page) ?? null,
    goldLabels: goldWithoutHeader(page) ? withoutHeadlineLabels(models[index], labelFromGold(models[index], page.gold), page.url) : labelFromGold(models[index], page.gold),
    fold: siteFold(foldKey(set, page.site)),
  }));
  return { pages: analysed, labelCounts, problems };
}

const TAG_H1 = tagId("h1");

/**
 * Gold that leaves the headline out (goldWithoutHeader) says nothing of the headline's blocks: they are the
 * article's, shown apart. Labelled template they would teach the model that headlines are template, which every
 * other set's gold contradicts; so the <h1> and the blocks that state the headline, with what they hold, are left out.
 */
function withoutHeadlineLabels(model: PageModel, labels: PageLabels, url: string): PageLabels {
  const stating = headlineBlocks(model, titleWithoutSiteName(model, url === "" ? undefined : url) ?? "");
  const out = labels.slice();
  const inHeadline = new Uint8Array(model.blockCount);
  for (let b = 1; b < model.blockCount; b++) {
    inHeadline[b] = inHeadline[model.blocks.parent[b]] | (model.blocks.tag[b] === TAG_H1 || stating?.[b] === 1 ? 1 : 0);
    if (inHeadline[b] === 1) out[b] = LABEL_NONE;
  }
  return out;
}

/** The labels of a page under a label source (null: the page gives no examples). */
export function labelsOf(page: AnalysedPage, source: LabelSource): PageLabels | null {
  if (EVALUATION_ONLY_SETS.has(page.page.set)) return null;
  if (source === "auto") return page.autoLabels;
  if (source === "gold" || page.autoLabels === null) return page.page.gold === "" ? null : page.goldLabels;
  const merged = page.goldLabels.slice();
  for (let b = 1; b < merged.length; b++) if (merged[b] === LABEL_NONE) merged[b] = page.autoLabels[b];
  return merged;
}

/**
 * Labelled examples of the given pages. Weights balance the classes (each class weighs half in total),
 * since template blocks outnumber content blocks about five to one and the threshold should sit mid-range.
 */
export function collectExamples(pages: readonly AnalysedPage[], source: LabelSource): ExampleSet {
  const pageLabels = pages.map((page) => labelsOf(page, source));
  let count = 0;
  for (const labels of pageLabels) if (labels) for (let b = 1; b < labels.length; b++) if (labels[b] !== LABEL_NONE) count++;
  const features = new Float32Array(count * FEATURE_COUNT);
  const labelOut = new Uint8Array(count);
  const weights = new Float32Array(count).fill(1);
  let next = 0;
  for (let p = 0; p < pages.length; p++) {
    const labels = pageLabels[p];
    const matrix = pages[p].features;
    if (!labels) continue;
    for (let b = 1; b < labels.length; b++) {
      if (labels[b] === LABEL_NONE) continue;
      features.set(matrix.data.subarray(b * FEATURE_COUNT, (b + 1) * FEATURE_COUNT), next * FEATURE_COUNT);
      labelOut[next++] = labels[b];
    }
  }
  const templates = labelOut.reduce((sum, label) => sum + label, 0);
  const perClass = [count / (2 * Math.max(1, count - templates)), count / (2 * Math.max(1, templates))];
  for (let i = 0; i < count; i++) weights[i] = perClass[labelOut[i]];
  return { count, width: FEATURE_COUNT, features, labels: labelOut, weights };
}

/**
 * The text a plan keeps: page text minus removed blocks and removed text ranges, with a line break
 * where something was cut out (so no two words run together).
 */
export function keptText(page: PageModel, plan: NormalisedPlan): string {
  const cuts: number[] = [];
  for (const block of plan.topBlocks) cuts.push(page.blocks.textStart[block], page.blocks.textEnd[block]);
  for (let i = 0; i < plan.removedText.length; i++) cuts.push(plan.removedText[i]);
  const pairs: [number, number][] = [];
  for (let i = 0; i + 1 < cuts.length; i += 2) pairs.push([cuts[i], cuts[i + 1]]);
  pairs.sort((a, b) => a[0] - b[0]);
  const parts: string[] = [];
  let position = 0;
  for (const [start, end] of pairs) {
    if (start > position) parts.push(page.text.slice(position, start));
    position = Math.max(position, end);
  }
  parts.push(page.text.slice(position));
  return parts.join("\n");
}

/** Analyses every evaluated set (EVALUATED_SETS); `log` gets progress lines. */
export function analyseCorpus(log: (line: string) => void): { pages: AnalysedPage[]; labelCounts: SiteLabelCounts[] } {
  const pages: AnalysedPage[] = [];
  const labelCounts: SiteLabelCounts[] = [];
  const sitesBySet = new Map<string, Set<string>>();
  const foldKey = foldKeys(sitesBySet);
  for (const set of EVALUATED_SETS) {
    const started = performance.now();
    // Sets are analysed in order, so foldKeys sees the sites of every earlier set (a set's own are added after it).
    const result = analyseSet(set, foldKey);
    sitesBySet.set(set, new Set(result.pages.map((page) => page.page.site)));
    for (const problem of result.problems) log(`${set}: ${problem}`);
    pages.push(...result.pages);
    labelCounts.push(...result.labelCounts);
    log(`${set}: ${result.pages.length} pages analysed and labelled in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  return { pages, labelCounts };
}
