/**
 * Readability (Mozilla's, on linkedom) as the reference system of the mining evaluation: the same extraction
 * `npm run eval` scores (scripts/eval.ts), here per page of a site.
 */
import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import type { ReferenceSystem } from "./mining-evaluation";

export function readabilityReference(): ReferenceSystem {
  return {
    name: "readability",
    text(page) {
      try {
        const { document } = parseHTML(page.html);
        return new Readability(document as unknown as ConstructorParameters<typeof Readability>[0]).parse()?.textContent ?? "";
      } catch {
        return ""; // Readability gives up on some pages; an empty output scores as such
      }
    },
  };
}
