/** lol-html's own selector matching, for comparing pass 1's matcher with it. */
import { tagName, type PageModel } from "../../src/page/index";
import type { HtmlRewriterBackend } from "../../src/runtime/index";

/** The page as pass 2 gives it to lol-html: with the end tags pass 1 implied written in (rewrite/remove.ts does the same). */
export function withImpliedEnds(page: PageModel): string {
  const { offset, tag } = page.impliedEnds;
  const pieces: string[] = [];
  let cursor = 0;
  for (let index = 0; index < page.impliedEndCount; index++) {
    pieces.push(page.source.slice(cursor, offset[index]), `</${tagName(tag[index])}>`);
    cursor = offset[index];
  }
  pieces.push(page.source.slice(cursor));
  return pieces.join("");
}

/** How many elements lol-html matches with each selector on the page. */
export async function lolHtmlMatchCounts(backend: HtmlRewriterBackend, page: PageModel, selectors: readonly string[]): Promise<number[]> {
  const counts = selectors.map(() => 0);
  const outcome = await backend.rewrite(withImpliedEnds(page), selectors.map((selector, index) => ({ selector, element: () => { counts[index]++; } })));
  if (!outcome.ok) throw new Error(`lol-html failed: ${outcome.detail}`);
  return counts;
}
