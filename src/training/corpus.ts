/**
 * The training corpus: dev pages analysed once (page model, features), automatic labels for the pages
 * of training sites, site folds for cross-validation by site, and labelled examples for fitting.
 */
import { groupBySite, loadDataset, type DatasetPage } from "../evaluation/index";
import { analysePage, computeFeatures, FEATURE_COUNT, type FeatureMatrix, type PageModel, type RemovalPlan } from "../page/index";
import { countLabels, LABEL_NONE, labelSite, type PageLabels, type SiteLabelCounts } from "./labels";
import type { ExampleSet } from "./fit";
import { TRAIN_FOLDS, TRAIN_MIN_SITE_PAGES } from "../config";

export interface AnalysedPage {
  readonly page: DatasetPage;
  readonly model: PageModel;
  readonly features: FeatureMatrix;
  /** Automatic labels (block ordinal → label) when the page belongs to a training site, else null. */
  labels: PageLabels | null;
  /** Cross-validation fold of the page's site (0..TRAIN_FOLDS-1) for training sites, -1 otherwise. */
  fold: number;
}

/** Minimum pages per site for automatic labels, per set: dragnet's sites with 8+ pages, every cleanportaleval site. */
export function minimumSitePages(set: string): number {
  return set === "dragnet" ? TRAIN_MIN_SITE_PAGES : set === "cleanportaleval" ? 2 : Number.POSITIVE_INFINITY;
}

/** Fold of a site: FNV-1a hash of its name modulo TRAIN_FOLDS (stable across runs and machines). */
export function siteFold(site: string): number {
  let hash = 2166136261;
  for (let i = 0; i < site.length; i++) hash = Math.imul(hash ^ site.charCodeAt(i), 16777619) >>> 0;
  return hash % TRAIN_FOLDS;
}

/** Loads and analyses a dev set; labels the pages of its training sites. */
export function analyseSet(set: string): { pages: AnalysedPage[]; labelCounts: SiteLabelCounts[]; problems: string[] } {
  const { pages, problems } = loadDataset(set);
  const analysed: AnalysedPage[] = pages.map((page) => {
    const model = analysePage(page.html);
    return { page, model, features: computeFeatures(model), labels: null, fold: -1 };
  });
  const labelCounts: SiteLabelCounts[] = [];
  const bySite = groupBySite(pages);
  const indexOf = new Map(pages.map((page, index) => [page, index]));
  for (const [site, sitePages] of bySite) {
    if (sitePages.length < minimumSitePages(set)) continue;
    const members = sitePages.map((page) => analysed[indexOf.get(page)!]);
    const labels = labelSite(members.map((member) => member.model));
    members.forEach((member, index) => {
      member.labels = labels[index];
      member.fold = siteFold(`${set}/${site}`);
    });
    labelCounts.push(countLabels(`${set}/${site}`, labels));
  }
  return { pages: analysed, labelCounts, problems };
}

/**
 * Labelled examples of the given pages. Weights balance the classes (each class weighs half in total),
 * since template blocks outnumber content blocks about five to one and the threshold should sit mid-range.
 */
export function collectExamples(pages: readonly AnalysedPage[]): ExampleSet {
  let count = 0;
  for (const { labels } of pages) if (labels) for (let b = 1; b < labels.length; b++) if (labels[b] !== LABEL_NONE) count++;
  const features = new Float32Array(count * FEATURE_COUNT);
  const labelOut = new Uint8Array(count);
  const weights = new Float32Array(count).fill(1);
  let next = 0;
  for (const { labels, features: matrix } of pages) {
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
export function keptText(page: PageModel, plan: RemovalPlan): string {
  const cuts: number[] = [];
  const { parent, textStart, textEnd } = page.blocks;
  const removed = new Uint8Array(page.blockCount); // block ordinal → 1 if it or an ancestor is removed whole
  for (let b = 1; b < page.blockCount; b++) {
    removed[b] = plan.removedBlocks[b] === 1 || removed[parent[b]] === 1 ? 1 : 0;
    if (plan.removedBlocks[b] === 1 && removed[parent[b]] === 0) cuts.push(textStart[b], textEnd[b]);
  }
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

/** The sets whose multi-page sites give automatic labels. */
export const TRAINING_SETS = ["dragnet", "cleanportaleval"] as const;

/** Analyses the training sets (labels on their training sites); `log` gets progress lines. */
export function analyseTrainingCorpus(log: (line: string) => void): { pages: AnalysedPage[]; labelCounts: SiteLabelCounts[] } {
  const pages: AnalysedPage[] = [];
  const labelCounts: SiteLabelCounts[] = [];
  for (const set of TRAINING_SETS) {
    const started = performance.now();
    const result = analyseSet(set);
    for (const problem of result.problems) log(`${set}: ${problem}`);
    pages.push(...result.pages);
    labelCounts.push(...result.labelCounts);
    log(`${set}: ${result.pages.length} pages analysed and labelled in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  return { pages, labelCounts };
}
