/**
 * Automatic block labels from site-level templates (paper 000 section 3, paper 003 section 5.1).
 *
 * Per site: every block's normalised text gets a fingerprint; a fingerprint on at least
 * TEMPLATE_PAGE_SHARE of the site's pages (and on two pages at least) marks a template block, one on a
 * single page a content candidate, the rest are left out. An internal block whose text lies mostly in
 * template blocks is template too. A content candidate holding a template or frequent block is left out
 * (it mixes both), and of nested blocks with the same text only the top-most is kept as an example.
 */
import type { PageModel } from "../page/index";
import {
  LABEL_MIN_CHARS,
  LABEL_TEMPLATE_COVER_SHARE,
  LABEL_TEMPLATE_PAGE_SHARE,
} from "../config";

/** Label of a block: 1 template, 0 content, -1 left out. */
export const LABEL_TEMPLATE = 1;
export const LABEL_CONTENT = 0;
export const LABEL_NONE = -1;

/** Labels of one page: block ordinal → LABEL_TEMPLATE, LABEL_CONTENT or LABEL_NONE. */
export type PageLabels = Int8Array;

export interface SiteLabelCounts {
  readonly site: string;
  readonly pages: number;
  readonly template: number;
  readonly content: number;
  readonly leftOut: number;
}

/** Normalised block text: lower case, digit runs as "0", runs of anything else but letters as one space. */
export function normaliseBlockText(text: string): string {
  return text.toLowerCase().replace(/\d+/g, "0").replace(/[^\p{L}0]+/gu, " ").trim();
}

/**
 * Fingerprint of every block of a page (block ordinal → fingerprint string, "" when the block's
 * normalised text is shorter than LABEL_MIN_CHARS). Node-side training code: strings are fine here.
 */
function blockFingerprints(page: PageModel): string[] {
  const prints = new Array<string>(page.blockCount).fill("");
  for (let b = 1; b < page.blockCount; b++) {
    const normal = normaliseBlockText(page.text.slice(page.blocks.textStart[b], page.blocks.textEnd[b]));
    if (normal.length >= LABEL_MIN_CHARS) prints[b] = normal;
  }
  return prints;
}

/** Labels every page of one site; `pages` are the page models of that site's pages. */
export function labelSite(pages: readonly PageModel[]): PageLabels[] {
  const prints = pages.map(blockFingerprints);
  const pageCount = new Map<string, number>(); // fingerprint → pages holding it
  for (const list of prints) for (const print of new Set(list)) if (print !== "") pageCount.set(print, (pageCount.get(print) ?? 0) + 1);
  const templateFloor = Math.max(2, Math.ceil(LABEL_TEMPLATE_PAGE_SHARE * pages.length));
  return pages.map((page, index) => labelPage(page, prints[index], pageCount, templateFloor));
}

function labelPage(page: PageModel, prints: string[], pageCount: Map<string, number>, templateFloor: number): PageLabels {
  const count = page.blockCount;
  const { parent, textStart, textEnd } = page.blocks;
  const labels = new Int8Array(count).fill(LABEL_NONE);
  // frequency class: 2 template, 1 frequent but below the template floor, 0 unique, -1 too short
  const frequency = new Int8Array(count);
  for (let b = 1; b < count; b++) {
    const pagesWith = prints[b] === "" ? 0 : pageCount.get(prints[b]) ?? 0;
    frequency[b] = pagesWith === 0 ? -1 : pagesWith >= templateFloor ? 2 : pagesWith > 1 ? 1 : 0;
  }
  // Bottom-up: template characters under each block (from its top-most template descendants) and
  // whether a frequent or template block lies below.
  const templateChars = new Float64Array(count); // block ordinal → chars of its text inside template blocks
  const holdsFrequent = new Uint8Array(count); // block ordinal → 1 if a descendant is frequent or template
  for (let b = count - 1; b > 0; b--) {
    const chars = textEnd[b] - textStart[b];
    const isTemplate = frequency[b] === 2 || (chars > 0 && templateChars[b] >= LABEL_TEMPLATE_COVER_SHARE * chars);
    if (isTemplate) {
      labels[b] = LABEL_TEMPLATE;
      templateChars[b] = chars;
    } else if (frequency[b] === 0 && holdsFrequent[b] === 0) labels[b] = LABEL_CONTENT;
    const up = parent[b];
    templateChars[up] += templateChars[b];
    if (frequency[b] >= 1 || holdsFrequent[b] === 1 || isTemplate) holdsFrequent[up] = 1;
  }
  keepTopMost(page, labels);
  return labels;
}

/** Of a chain of nested blocks with the same text range and label, only the top-most stays labelled. */
export function keepTopMost(page: PageModel, labels: Int8Array): void {
  const { parent, textStart, textEnd } = page.blocks;
  for (let b = page.blockCount - 1; b > 0; b--) {
    const up = parent[b];
    if (up > 0 && labels[up] === labels[b] && textStart[up] === textStart[b] && textEnd[up] === textEnd[b]) labels[b] = LABEL_NONE;
  }
}

/** Label counts of one site, for the training report. */
export function countLabels(site: string, labels: readonly PageLabels[]): SiteLabelCounts {
  let template = 0;
  let content = 0;
  let leftOut = 0;
  for (const page of labels) {
    for (let b = 1; b < page.length; b++) {
      if (page[b] === LABEL_TEMPLATE) template++;
      else if (page[b] === LABEL_CONTENT) content++;
      else leftOut++;
    }
  }
  return { site, pages: labels.length, template, content, leftOut };
}
