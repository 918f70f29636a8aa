import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../scripts/lib/paths";

// Every relative link and #anchor in README.md, CHANGELOG.md and docs/*.md resolves: the file exists, and the
// anchor is a heading of the target page as GitHub names it (lower case, punctuation dropped, spaces as hyphens,
// -1, -2 for repeats) or an explicit id. And docs/cli.md's table names every npm script.
const DOCS = resolve(REPO_ROOT, "docs");
const PAGES = [resolve(REPO_ROOT, "README.md"), resolve(REPO_ROOT, "CHANGELOG.md"), ...readdirSync(DOCS).filter((name) => name.endsWith(".md")).map((name) => resolve(DOCS, name))];

/** The lines of a Markdown text outside fenced code blocks, with inline code spans blanked. */
function proseLines(markdown: string): string[] {
  const lines: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split("\n")) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line);
    if (marker !== null) {
      if (fence === null) fence = marker[1];
      else if (line.trim().startsWith(fence)) fence = null;
      lines.push("");
      continue;
    }
    lines.push(fence === null ? line.replace(/(`+)[^`]*?\1/g, (span) => " ".repeat(span.length)) : "");
  }
  return lines;
}

/** GitHub's anchor for a heading's text. */
function headingSlug(text: string): string {
  const plain = text
    .replace(/`([^`]*)`/g, "$1")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "");
  return plain.trim().toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "").replace(/ /g, "-");
}

/** Every anchor a page offers: its headings (outside code blocks) and explicit ids. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | null = null;
  for (const line of markdown.split("\n")) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line);
    if (marker !== null) {
      if (fence === null) fence = marker[1];
      else if (line.trim().startsWith(fence)) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading !== null) {
      const slug = headingSlug(heading[1]);
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
    }
    for (const id of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id[1]);
  }
  return anchors;
}

/** The link targets of a page: inline links and images, outside code. */
function linkTargets(markdown: string): Array<{ target: string; line: number }> {
  const targets: Array<{ target: string; line: number }> = [];
  proseLines(markdown).forEach((line, index) => {
    for (const link of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push({ target: link[1], line: index + 1 });
  });
  return targets;
}

/** What is wrong with one link of a page, or null. */
function brokenLink(page: string, target: string, read: (path: string) => string | null): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null; // http:, https:, mailto:: not this test's to fetch
  const hash = target.indexOf("#");
  const path = hash < 0 ? target : target.slice(0, hash);
  const anchor = hash < 0 ? null : decodeURIComponent(target.slice(hash + 1));
  const file = path === "" ? page : resolve(dirname(page), decodeURIComponent(path));
  if (!existsSync(file)) return `${target}: no such file`;
  if (anchor === null) return null;
  if (!file.endsWith(".md")) return `${target}: an anchor into a file that is not Markdown`;
  const text = read(file);
  if (text === null || !anchorsOf(text).has(anchor)) return `${target}: no heading or id "${anchor}" in ${relative(REPO_ROOT, file)}`;
  return null;
}

describe("docs/cli.md", () => {
  it("names every npm script of package.json in its table", () => {
    const scripts = Object.keys((JSON.parse(readFileSync(resolve(REPO_ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts);
    const listed = [...readFileSync(resolve(DOCS, "cli.md"), "utf8").matchAll(/^\| `([\w:-]+)` \|/gm)].map((match) => match[1]);
    expect(scripts.filter((name) => !listed.includes(name)), "add a row to docs/cli.md for each new script").toEqual([]);
    expect(listed.filter((name) => !scripts.includes(name)), "docs/cli.md names scripts package.json does not have").toEqual([]);
  });
});

describe("links in the documentation", () => {
  const read = (path: string): string | null => (existsSync(path) ? readFileSync(path, "utf8") : null);

  it("finds the pages and their links", () => {
    expect(PAGES.map((page) => relative(REPO_ROOT, page))).toEqual(expect.arrayContaining(["README.md", "CHANGELOG.md", "docs/api.md"]));
    expect(linkTargets(readFileSync(PAGES[0], "utf8")).length).toBeGreaterThan(5);
  });

  it("names headings as GitHub does", () => {
    expect(headingSlug("Load: `npm run load`")).toBe("load-npm-run-load");
    expect(headingSlug("Reader API: negotiation, URL forms, cache, CORS, limits")).toBe("reader-api-negotiation-url-forms-cache-cors-limits");
    expect([...anchorsOf("# A\n```\n# not a heading\n```\n## A\n")]).toEqual(["a", "a-1"]);
  });

  it("refuses a missing file and a missing anchor", () => {
    const page = resolve(REPO_ROOT, "README.md");
    expect(brokenLink(page, "docs/no-such-page.md", read)).toMatch(/no such file/);
    expect(brokenLink(page, "docs/api.md#no-such-heading", read)).toMatch(/no heading/);
    expect(brokenLink(page, "https://example.com/", read)).toBeNull();
  });

  it.each(PAGES.map((page) => [relative(REPO_ROOT, page), page] as const))("every relative link of %s resolves", (_name, page) => {
    const problems = linkTargets(readFileSync(page, "utf8"))
      .map(({ target, line }) => {
        const problem = brokenLink(page, target, read);
        return problem === null ? null : `line ${line}: ${problem}`;
      })
      .filter((problem) => problem !== null);
    expect(problems).toEqual([]);
  });
});
