/**
 * Readability as the reference system of the mining evaluation: the same extraction `npm run eval` scores
 * (scripts/lib/readability.ts), here per page of a site.
 */
import { readabilityText } from "./lib/readability";
import type { ReferenceSystem } from "./mining-evaluation";

export function readabilityReference(): ReferenceSystem {
  return { name: "readability", text: (page) => readabilityText(page.html) };
}
