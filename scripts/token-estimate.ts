/**
 * npm run eval:tokens: how far the edge's token estimate (x-markdown-tokens, src/http/shared/tokens.ts, the
 * tokenx heuristic) is from a real tokenizer's count (gpt-tokenizer, o200k_base: GPT-4o's and later models'
 * encoding) on the Markdown that clean() writes for dev pages. Prints, per set and over all, the median and
 * 90th percentile of the absolute relative error, and the mean signed error (positive: the estimate is high),
 * beside the same for characters / 4 (what many Markdown-for-Agents servers send).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { countTokens } from "gpt-tokenizer";
import { integerOption, parseCommand, runCommand, usageText, type Command } from "./lib/cli";
import { SHIPPED_MODEL } from "./lib/paths";

const { HTMLRewriter } = await import("html-rewriter-wasm");
const { parseModel } = await import("../src/classify/index");
const { clean } = await import("../src/clean");
const { createWasmBackend } = await import("../src/runtime/index");
const { estimateMarkdownTokens } = await import("../src/http/index");

const COMMAND: Command = { name: "eval:tokens", usage: usageText("token-estimate") };
const DATA = join(import.meta.dirname, "../../shared/data");
const SETS = ["cleaneval-dev", "cleanportaleval", "dragnet", "l3s-gn1", "scrapinghub"];

interface Errors {
  readonly estimate: number[];
  readonly quarter: number[];
}

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

function describe(name: string, pages: number, errors: readonly number[]): string {
  const absolute = errors.map(Math.abs);
  const mean = errors.reduce((sum, value) => sum + value, 0) / errors.length;
  const percent = (value: number): string => `${(100 * value).toFixed(1)}%`;
  return `${name.padEnd(24)} ${String(pages).padStart(5)}  median |error| ${percent(quantile(absolute, 0.5)).padStart(6)}  p90 ${percent(quantile(absolute, 0.9)).padStart(6)}  mean ${percent(mean).padStart(6)}`;
}

async function main(): Promise<number> {
  const { values } = parseCommand(COMMAND, { options: { every: { type: "string" } } });
  const every = integerOption(COMMAND, "every", values.every, 5);
  const parsed = parseModel(JSON.parse(readFileSync(SHIPPED_MODEL, "utf8")));
  const model = parsed.ok ? parsed.model : null;
  const rewriter = createWasmBackend(HTMLRewriter);
  const all: Errors = { estimate: [], quarter: [] };
  for (const set of SETS) {
    let index: string;
    try {
      index = readFileSync(join(DATA, set, "index.jsonl"), "utf8");
    } catch {
      console.log(`${set}: not found under ${DATA}, skipped`);
      continue;
    }
    const errors: Errors = { estimate: [], quarter: [] };
    const entries = index.split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line) as { page: string; url?: string; site?: string });
    for (const [position, entry] of entries.entries()) {
      if (position % every !== 0) continue;
      const html = readFileSync(join(DATA, set, entry.page), "utf8");
      const result = await clean({ html, url: entry.url, site: entry.site ?? "", format: "markdown", ruleSet: null, model, rewriter });
      if (!result.ok || result.body.trim() === "") continue;
      const truth = countTokens(result.body);
      if (truth === 0) continue;
      errors.estimate.push(estimateMarkdownTokens(result.body) / truth - 1);
      errors.quarter.push(Math.ceil(result.body.length / 4) / truth - 1);
    }
    console.log(describe(`${set} tokenx`, errors.estimate.length, errors.estimate));
    console.log(describe(`${set} chars/4`, errors.quarter.length, errors.quarter));
    all.estimate.push(...errors.estimate);
    all.quarter.push(...errors.quarter);
  }
  if (all.estimate.length === 0) return 1;
  console.log(describe("all tokenx", all.estimate.length, all.estimate));
  console.log(describe("all chars/4", all.quarter.length, all.quarter));
  return 0;
}

await runCommand(COMMAND, main);
