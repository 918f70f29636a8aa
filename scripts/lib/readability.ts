/**
 * Readability (Mozilla's, on linkedom): the reference system the evaluations score beside ours (`npm run eval`,
 * `npm run mine:eval`), on the same pages.
 */
import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";

/** The text Readability extracts from a page; "" when it gives up (an empty output scores as such). */
export function readabilityText(html: string): string {
  try {
    const { document } = parseHTML(html);
    return new Readability(document as unknown as ConstructorParameters<typeof Readability>[0]).parse()?.textContent ?? "";
  } catch {
    return "";
  }
}
