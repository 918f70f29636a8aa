import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../scripts/lib/paths";
import { linesMatch, linesOf, readmeExamples, shellWords } from "../support/readme-examples";

// The README's shell examples (`npm run` commands on the shipped samples/ and rules/), run as written from the
// repository's folder; fails when what the README shows drifts from what the command prints on stdout.
const examples = readmeExamples(readFileSync(resolve(REPO_ROOT, "README.md"), "utf8")).filter((example) => example.kind === "shell");

describe("README examples from the shell", () => {
  it("the README marks the tour's commands", () => {
    expect(examples.length).toBeGreaterThanOrEqual(2);
  });

  it.each(examples.map((example) => [example.line, example] as const))("README line %i", (_line, example) => {
    const words = shellWords(example.command);
    expect(words.slice(0, 2), "a README shell example is an npm run command").toEqual(["npm", "run"]);
    const stdout = execFileSync("npm", words.slice(1), { cwd: REPO_ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1" } });
    const matches = linesMatch(linesOf(example.expected), linesOf(stdout));
    expect(matches, `README.md line ${example.line}: ${example.command}\nprinted:\n${stdout}`).toBe(true);
  }, 120_000);
});
