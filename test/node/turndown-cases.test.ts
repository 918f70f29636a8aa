/**
 * turndown's HTML → Markdown case file (../shared/turndown-tests/index.html, 147 cases) run through the
 * Markdown writer. A case passes exactly (the same text, line-end spaces aside), or equivalently (CommonMark
 * renders both to the same HTML, white space between tags aside: turndown's options choose setext headings,
 * "_" emphasis, "*" bullets, indented code or reference links where we write their CommonMark equals), or
 * it is listed below as a deliberate difference with the reason. Anything else fails, and so does a listed
 * case that no longer differs (the list must stay true).
 */
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { HtmlRenderer, Parser } from "commonmark";
import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { analysePage, type PageModel } from "../../src/page/index";
import { normalisePlan, type RemovalPlan } from "../../src/plan/index";
import { writeMarkdown } from "../../src/rewrite/index";
import { devDataPresent } from "../support/dev-data";

const CASE_FILE = resolve(import.meta.dirname, "../../../shared/turndown-tests/index.html");
const present = devDataPresent(existsSync(CASE_FILE), "../shared/turndown-tests", process.env.REQUIRE_DEV_DATA === "1", "turndown-cases.test.ts");

/** Cases whose output differs from turndown's on purpose, by case name, with why. */
const DELIBERATE: Readonly<Record<string, string>> = {
  "escaping ~~~": "a <pre> without <code> stays a fenced code block (its line breaks and spaces are the content); turndown writes it as an escaped paragraph",
};

interface Case {
  readonly name: string;
  readonly input: string;
  readonly expected: string;
}

function readCases(): Case[] {
  const { document } = parseHTML(readFileSync(CASE_FILE, "utf8"));
  return [...document.querySelectorAll(".case")].map((element) => ({
    name: element.getAttribute("data-name") ?? "",
    input: element.querySelector(".input")?.innerHTML ?? "",
    expected: element.querySelector(".expected")?.textContent ?? "",
  }));
}

function emptyPlan(page: PageModel): RemovalPlan {
  return { removedBlocks: new Uint8Array(page.blockCount), removedText: new Int32Array(0) };
}

function markdown(html: string): string {
  const page = analysePage(html);
  return writeMarkdown(page, normalisePlan(page, emptyPlan(page)));
}

const parser = new Parser();
const renderer = new HtmlRenderer();

/** CommonMark's HTML for a Markdown text, white space runs as one space and none between tags. */
function rendered(text: string): string {
  return renderer.render(parser.parse(text)).replace(/\s+/g, " ").replace(/>\s+</g, "><").replace(/\s+</g, "<").replace(/>\s+/g, ">").trim();
}

function withoutLineEndSpaces(text: string): string {
  return text.split("\n").map((line) => line.trimEnd()).join("\n").trim();
}

type Verdict = "exact" | "equivalent" | "deliberate" | "failing";

function judge(testCase: Case, output: string): Verdict {
  const differs = withoutLineEndSpaces(output) !== withoutLineEndSpaces(testCase.expected);
  if (!differs) return "exact";
  if (rendered(output) === rendered(testCase.expected)) return "equivalent";
  return testCase.name in DELIBERATE ? "deliberate" : "failing";
}

describe.skipIf(!present)("turndown's cases", () => {
  const cases = present ? readCases() : [];

  it("reads all 147 cases", () => {
    expect(cases).toHaveLength(147);
    for (const name of Object.keys(DELIBERATE)) expect(cases.map((testCase) => testCase.name), name).toContain(name);
  });

  it("passes every case exactly or equivalently, or lists it as a deliberate difference", () => {
    const counts: Record<Verdict, number> = { exact: 0, equivalent: 0, deliberate: 0, failing: 0 };
    const failures: string[] = [];
    const noLongerDifferent: string[] = [];
    for (const testCase of cases) {
      const output = markdown(testCase.input);
      const verdict = judge(testCase, output);
      counts[verdict]++;
      if (verdict === "failing") failures.push(`${testCase.name}\n--- expected\n${testCase.expected}\n--- written\n${output}\n`);
      if (verdict !== "deliberate" && testCase.name in DELIBERATE) noLongerDifferent.push(testCase.name);
    }
    console.log(`turndown cases: ${counts.exact} exact, ${counts.equivalent} equivalent, ${counts.deliberate} deliberate, ${counts.failing} failing (of ${cases.length})`);
    expect(failures.join("\n")).toBe("");
    expect(noLongerDifferent).toEqual([]);
  });
});
