/**
 * Hostile pages that the load scenario, `npm run bench:hostile` and the scaling tests share (no Node API: the
 * Worker tests load it too).
 */

/** n links with relative URLs and nothing else, about 20 bytes each: n = 200,000 is the 4 MB page of the hostile load scenario. */
export function linkPage(n: number): string {
  const links: string[] = [];
  for (let index = 0; index < n; index++) links.push(`<a href=/${index}>${index % 10}</a>`);
  return `<html><body>${links.join("")}</body></html>`;
}

/**
 * n empty `<div>` and a script after them: past the block limit (config CLEAN_MAX_BLOCKS), so cleaning bails out
 * (too-many-blocks); n = 120,000 is the page of issue 44, whose bail-out answered the raw page, script included, where
 * safe HTML was promised. The script's text is SCRIPT_MARKER, for a check that no answer carries it as markup.
 */
export function divsWithScript(n: number): string {
  return `<html><body>${"<div>".repeat(n)}<script>${SCRIPT_MARKER}</script></body></html>`;
}
export const SCRIPT_MARKER = "window.hostileScriptRan = true";

/** An ordinary article page of about `paragraphs` × 400 characters, which the pathological prefixes sit before. */
export function articlePage(paragraphs: number): string {
  const sentence = "The harbour board approved the dredging plan after a long meeting on Tuesday evening. ";
  const body = Array.from({ length: paragraphs }, (_, index) => `<p>${index}: ${sentence.repeat(4)}</p>`).join("\n");
  return `<!doctype html><html><head><title>Harbour</title></head><body><nav><a href="/">Home</a></nav><article>${body}</article></body></html>`;
}

/**
 * A page past the pipeline's block limit (CLEAN_MAX_BLOCKS, 60,000) with active markup before it: `divs` unclosed
 * <div> of one word each after a script and a paragraph with an event handler. Cleaning gives up on it
 * (too-many-blocks), which anyone can make happen on purpose: every format's fallback must still keep its promise
 * (issue 44 measured 120,000 answered as the raw page, script included, in format=article and Readability's content).
 */
export function manyBlocksPage(divs = 120_000): string {
  return `<html><head><title>Many</title></head><body><script>document.title = 'ran'</script><p onclick="alert(1)">The harbour board approved the dredging plan after a long meeting on Tuesday evening.</p>${"<div>word ".repeat(divs)}</body></html>`;
}

/** The families: name → input of size n (the unit repeated n times, before or around the rest). */
export const FAMILIES = {
  unclosedLists: (n: number): string => "<ul><li>".repeat(n) + articlePage(60),
  repeatedBody: (n: number): string => "<body".repeat(n),
  feedItemLessThan: (n: number): string => "<".repeat(n),
  feedItemComments: (n: number): string => "<!--".repeat(n),
  /** A page of n links and nothing else (n = 200,000 is the page of the hostile load scenario). */
  links: (n: number): string => linkPage(n),
  /** One list of n short items, each a block of its own (issue 44's worst page per byte, as json). */
  flatListItems: (n: number): string => `<html><body><ul>${Array.from({ length: n }, (_, index) => `<li>item ${index}</li>`).join("")}</ul></body></html>`,
} as const;
