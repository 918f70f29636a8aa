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

/** The families: name → input of size n (the unit repeated n times, before or around the rest). */
export const FAMILIES = {
  unclosedLists: (n: number): string => "<ul><li>".repeat(n) + articlePage(60),
  repeatedBody: (n: number): string => "<body".repeat(n),
  feedItemLessThan: (n: number): string => "<".repeat(n),
  feedItemComments: (n: number): string => "<!--".repeat(n),
  /** A page of n links and nothing else (n = 200,000 is the page of the hostile load scenario). */
  links: (n: number): string => linkPage(n),
} as const;
