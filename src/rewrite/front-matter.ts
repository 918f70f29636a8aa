/**
 * Markdown with a YAML front matter block (title, url, byline, published), as static-site tools and agents
 * read it. Values are written as double-quoted scalars (JSON strings are valid YAML ones), so no value can
 * end the block or start another key.
 */
export interface FrontMatterFields {
  readonly title: string | null;
  readonly url: string | null;
  readonly byline: string | null;
  readonly published: string | null;
}

export function withFrontMatter(markdown: string, fields: FrontMatterFields): string {
  const lines = ["---"];
  for (const [name, value] of Object.entries(fields) as [string, string | null][]) {
    if (value !== null && value !== "") lines.push(`${name}: ${JSON.stringify(value).replace(/[\u2028\u2029]/g, (character) => `\\u${character.charCodeAt(0).toString(16)}`)}`);
  }
  lines.push("---", "", markdown);
  return lines.join("\n");
}
