/**
 * Section headings, as comment sections (comments.ts) and related-content sections (related.ts) find them: a block
 * whose whole text says what follows, and the outermost wrapper around it that holds nothing else.
 */
import { FEATURE_NAMES, type FeatureMatrix, type PageModel } from "../page/index";

const LINK_CHARS_COLUMN = FEATURE_NAMES.indexOf("linkCharRatio");

/**
 * Whether block `b`'s whole text, at most `maxChars` long, matches `heading`, and is not a link (a "5 comments"
 * link leads to its section, it does not head it).
 */
export function isHeading(page: PageModel, features: FeatureMatrix, b: number, heading: RegExp, maxChars: number): boolean {
  const { textStart, textEnd } = page.blocks;
  const length = textEnd[b] - textStart[b];
  if (length === 0 || length > maxChars) return false;
  if (features.data[b * features.featureCount + LINK_CHARS_COLUMN] > 0.5) return false;
  return heading.test(page.text.slice(textStart[b], textEnd[b]).trim());
}

/** The outermost block around `heading` that holds the same text and nothing else (`heading` itself when none). */
export function headingWrapper(page: PageModel, heading: number): number {
  const { parent, textStart, textEnd } = page.blocks;
  let top = heading;
  while (parent[top] > 0 && textStart[parent[top]] === textStart[top] && textEnd[parent[top]] === textEnd[top]) top = parent[top];
  return top;
}
