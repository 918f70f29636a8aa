/**
 * Child of bench-memory.ts: `node --import tsx bench-memory-child.ts <set> <page id> bare|clean` reads the page,
 * runs a bare HTMLRewriter pass, and with `clean` also cleans it in every output format; prints its own peak RSS
 * in kilobytes.
 */
import { readFileSync } from "node:fs";
import { HTMLRewriter } from "html-rewriter-wasm";
import { parseModel } from "../../src/classify/index";
import { clean, OUTPUT_FORMATS } from "../../src/clean";
import { loadDataset } from "../../src/evaluation/index";
import { createWasmBackend } from "../../src/runtime/index";
import { SHIPPED_MODEL } from "./paths";

const [set, id, kind] = process.argv.slice(2);
const page = loadDataset(set).pages.find((candidate) => candidate.id === id);
if (page === undefined) throw new Error(`no page ${set}/${id}`);
const backend = createWasmBackend(HTMLRewriter);
const outcome = await backend.rewrite(page.html, []);
if (!outcome.ok) throw new Error(outcome.detail);
if (kind === "clean") {
  const parsed = parseModel(JSON.parse(readFileSync(SHIPPED_MODEL, "utf8")));
  for (const format of OUTPUT_FORMATS) {
    const result = await clean({ html: page.html, site: page.site, format, ruleSet: null, model: parsed.ok ? parsed.model : null, rewriter: backend });
    if (!result.ok) throw new Error(`${page.id} (${format}): ${result.bailout} ${result.detail}`);
  }
}
process.stdout.write(`${process.resourceUsage().maxRSS}\n`);
