/**
 * What a reader never sees: the blocks inside elements hidden from readers, as a browser or a screen reader shows the
 * page (Readability leaves them out too): schema.org copies of the story and its metadata, menus and dialogs a script
 * opens, share bars shown on hover.
 *
 * The classifier's inHidden feature keeps the cruder test it was trained with (page/features.ts); this is the decision,
 * and clean() applies it in every mode and every format that shows text (the html of mode none is the page as it
 * came: a browser hides these elements itself).
 *
 * A <details> body is not hidden: its element says a reader opens it, and its text is the page's (a FAQ's answers).
 * Tab panels and an accordion's sections that a script shows (role="tabpanel", a section a control names in
 * aria-controls) are hidden like any other element: keeping them was measured and not kept (docs/not-kept.md). It won
 * product, documentation and service pages (a product's specifications, a page's other tabs) and lost a collection, a
 * forum and a service page, whose hidden panels are mega-menus, site notices and every product's details.
 */
import { HIDDEN_MIN_VISIBLE_PROSE, PROSE_MIN_CHARS } from "../config";
import { readAttribute, tagId, type PageModel } from "../page/index";

const TAG_DIALOG = tagId("dialog");
/** Words one of the hiding attributes holds (hidden, aria-hidden, display:none, visibility:hidden, the classes): most tags hold none. */
const MAY_HIDE = /hid|none|invisible/i;
/** The CSS frameworks' classes that hide an element (Bootstrap's hidden, d-none and invisible, Tailwind's hidden, Bulma's is-hidden, Foundation's hide). */
const HIDING_CLASS = /(?:^|\s)(?:hidden|hide|d-none|is-hidden|invisible)(?:\s|$)/i;
/** An inline style that hides its element. */
const HIDING_STYLE = /(?:^|[;\s])(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!important\s*)?(?:;|$)/i;

/**
 * Block ordinal → 1 for the blocks inside a hidden element: the attribute hidden (not hidden="until-found", whose text
 * a find in page reveals), aria-hidden="true", an inline style display:none or visibility:hidden, a CSS framework's
 * class that hides (HIDING_CLASS), a <dialog> not open.
 * None where the page shows less prose than it hides and less than HIDDEN_MIN_VISIBLE_PROSE: a page that hides its
 * body until a script shows it hides the article too.
 */
export function hiddenBlocks(page: PageModel): Uint8Array {
  const hidden = new Uint8Array(page.blockCount);
  const { source, blocks } = page;
  let any = false;
  for (let b = 1; b < page.blockCount; b++) {
    if (hidden[blocks.parent[b]] === 1 || hides(source, blocks.sourceNameEnd[b], blocks.startTagEnd[b], blocks.tag[b] === TAG_DIALOG)) hidden[b] = 1, any = true;
  }
  if (!any) return hidden;
  let prose = 0;
  let hiddenProse = 0;
  const { block, textStart, textEnd, inLink } = page.textNodes;
  for (let t = 0; t < page.textNodeCount; t++) {
    const chars = textEnd[t] - textStart[t];
    if (chars < PROSE_MIN_CHARS || inLink[t] === 1) continue;
    prose += chars;
    if (hidden[block[t]] === 1) hiddenProse += chars;
  }
  const visibleProse = prose - hiddenProse;
  return visibleProse < hiddenProse && visibleProse < HIDDEN_MIN_VISIBLE_PROSE ? hidden.fill(0) : hidden;
}

/** Whether a start tag whose attributes are source[from, to) hides its element; most tags hold none of the words and are not parsed. */
function hides(source: string, from: number, to: number, dialog: boolean): boolean {
  if (dialog) return readAttribute(source, from, to, "open") === null;
  if (to - from <= 6 || !MAY_HIDE.test(source.slice(from, to))) return false;
  const hidden = readAttribute(source, from, to, "hidden");
  if (hidden !== null && hidden.trim().toLowerCase() !== "until-found") return true;
  if (readAttribute(source, from, to, "aria-hidden")?.trim().toLowerCase() === "true") return true;
  if (HIDING_CLASS.test(readAttribute(source, from, to, "class") ?? "")) return true;
  return HIDING_STYLE.test(readAttribute(source, from, to, "style") ?? "");
}
