/**
 * Hostile pages that the load scenario and the scaling tests share (no Node API: the Worker tests load it too).
 */

/** n links with relative URLs and nothing else, about 20 bytes each: n = 200,000 is the 4 MB page of the hostile load scenario. */
export function linkPage(n: number): string {
  const links: string[] = [];
  for (let index = 0; index < n; index++) links.push(`<a href=/${index}>${index % 10}</a>`);
  return `<html><body>${links.join("")}</body></html>`;
}
