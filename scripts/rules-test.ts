/**
 * npm run rules:test -- <site> <page file | URL> [--rules DIR] [--all]
 *
 * Shows what each rule of a site's rule set does on one page: per rule, its matches, the text it removes, and the
 * text it matches but keeps because removing it would cut a sentence (src/rules/content-edges.ts); then what the
 * whole set removes as the Worker applies it; then, for a set of version 2, each selector (strip, main, keep, metadata):
 * the elements it matches and their text, and what cleaning with the set's rules alone (mode "rules") removes. The
 * rule set is read from rules/ (the file of the site's key, see
 * src/rules/site-key.ts). A URL is fetched as it is (a tool on a person's machine, not the service's guarded fetch).
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { PageModel } from "../src/page/index";
import type { CompiledRuleSet, RuleSet } from "../src/rules/index";
import { parseCommand, runCommand, usageError, usageText, type Command } from "./lib/cli";
import { RULES_FOLDER } from "./lib/paths";

const COMMAND: Command = {
  name: "rules:test",
  usage: usageText("rules-test"),
};

const parsed = parseCommand(COMMAND, { allowPositionals: true, options: { rules: { type: "string" }, all: { type: "boolean", default: false } } });
const [siteArgument, source] = parsed.positionals;
if (siteArgument === undefined || source === undefined || parsed.positionals.length > 2) usageError(COMMAND, "give a site and one page (a file or a URL)");
// Loaded after the arguments are read, so that --help and a mistyped option answer at once.
const { analysePage, decodeHtml } = await import("../src/page/index");
const { compileRuleSet, explainRules, explainSelectors, mainMatches, parseRuleSetText, parseSiteKey, ruleSetFileName } = await import("../src/rules/index");
const { clean } = await import("../src/clean");
const { createWasmBackend } = await import("../src/runtime/index");
const { HTMLRewriter } = await import("html-rewriter-wasm");
/** Characters of a removed or kept piece shown on one line. */
const SHOWN_CHARACTERS = 100;

async function readPage(source: string): Promise<string> {
  if (/^https?:\/\//i.test(source)) {
    const response = await fetch(source, { redirect: "follow" });
    if (!response.ok) throw new Error(`${source} answered ${response.status}`);
    const decoded = decodeHtml(new Uint8Array(await response.arrayBuffer()), response.headers.get("content-type"));
    if (!decoded.ok) throw new Error(`${source}: ${decoded.reason} (${decoded.charset})`);
    return decoded.html;
  }
  if (!existsSync(source)) throw new Error(`no such file: ${source}`);
  const decoded = decodeHtml(new Uint8Array(readFileSync(source)));
  if (!decoded.ok) throw new Error(`${source}: ${decoded.reason} (${decoded.charset})`);
  return decoded.html;
}

function pieces(text: string, pairs: Int32Array): string[] {
  const shown: string[] = [];
  for (let index = 0; index < pairs.length; index += 2) {
    const piece = text.slice(pairs[index], pairs[index + 1]).replace(/\s+/g, " ").trim();
    if (piece !== "") shown.push(piece.length > SHOWN_CHARACTERS ? `${piece.slice(0, SHOWN_CHARACTERS - 1)}…` : piece);
  }
  return shown;
}

function length(pairs: Int32Array): number {
  let sum = 0;
  for (let index = 0; index < pairs.length; index += 2) sum += pairs[index + 1] - pairs[index];
  return sum;
}

async function main(): Promise<number> {
  const site = parseSiteKey(siteArgument!);
  if (site === null) usageError(COMMAND, `"${siteArgument}" is not a site key (a host, optionally with a port and a path)`);
  const folder = resolve(parsed.values.rules ?? RULES_FOLDER);
  const file = join(folder, `${ruleSetFileName(site)}.json`);
  if (!existsSync(file)) {
    console.error(`no rule set for ${site} in ${folder} (looked for ${ruleSetFileName(site)}.json)`);
    return 1;
  }
  const ruleSet = parseRuleSetText(readFileSync(file, "utf8"));
  if (!ruleSet.ok) {
    console.error(`${file} is not a valid rule set:\n  ${ruleSet.problems.join("\n  ")}`);
    return 1;
  }
  let html: string;
  try {
    html = await readPage(source!);
  } catch (error) {
    console.error((error as Error).message);
    return 1;
  }
  const compiled = compileRuleSet(ruleSet.ruleSet);
  for (const skipped of compiled.skipped) console.log(`rule ${skipped.index} skipped (${skipped.reason}): ${skipped.pattern}`);
  const page = analysePage(html);
  const text = page.text;
  const explanation = explainRules(compiled, text);
  for (const rule of explanation.rules) {
    if (rule.matches === 0 && !parsed.values.all) continue;
    const pattern = rule.pattern.length > SHOWN_CHARACTERS ? `${rule.pattern.slice(0, SHOWN_CHARACTERS - 1)}…` : rule.pattern;
    console.log(`rule ${rule.index}: ${pattern}`);
    console.log(`  ${rule.matches} match(es); removes ${length(rule.removed)} characters; keeps ${length(rule.kept)} it matches, whose removal would cut a sentence`);
    for (const piece of pieces(text, rule.removed)) console.log(`  - removes: ${piece}`);
    for (const piece of pieces(text, rule.kept)) console.log(`  + keeps:   ${piece}`);
  }
  const silent = explanation.rules.filter((rule) => rule.matches === 0).length;
  console.log(`\n${site}: ${compiled.rules.length} rule(s), ${compiled.rules.length - silent} matching this page; together they remove ${length(explanation.removed)} of ${text.length} characters of page text (their matches cover ${length(explanation.matched)})`);
  if (compiled.selectors) await showSelectors(ruleSet.ruleSet, compiled, page, html, parsed.values.all === true);
  return 0;
}

/** What each selector entry matches on the page, then what cleaning with the whole set (mode "rules") removes. */
async function showSelectors(ruleSet: RuleSet, compiled: CompiledRuleSet, page: PageModel, html: string, all: boolean): Promise<void> {
  const effects = explainSelectors(ruleSet, page);
  console.log("");
  for (const effect of effects) {
    if (effect.elements === 0 && !all) {
      if (effect.path.startsWith("main.")) console.log(`${effect.path}: ${effect.selector}\n  matches nothing`);
      continue;
    }
    const field = effect.path.split(".")[0];
    const role = field === "strip" ? "removes" : field === "keep" ? "keeps" : field === "metadata" ? "reads" : effect.chosen ? "keeps only" : "would keep";
    const unused = mainMatches(page.text, effect) ? " (an earlier main entry matched: not used)" : " (no text in what it matches: passed over)";
    const note = field === "main" ? (effect.chosen ? " (the first main entry that matches: all that cleaning keeps of the page)" : unused) : "";
    console.log(`${effect.path}: ${effect.selector}`);
    console.log(`  ${effect.elements} element(s); ${role} ${length(effect.text)} characters${note}`);
    for (const piece of pieces(page.text, effect.text)) console.log(`  ${field === "strip" ? "-" : "+"} ${role}: ${piece}`);
  }
  const cleaned = await clean({ html, site: compiled.site, format: "text", ruleSet: compiled, model: null, rewriter: createWasmBackend(HTMLRewriter), options: { mode: "rules" } });
  if (cleaned.ok) console.log(`\n${compiled.site}: cleaning with the set's rules and selectors (mode rules) removes ${cleaned.removed.chars} of ${page.text.length} characters of page text`);
  else console.log(`\n${compiled.site}: cleaning with the set stopped: ${cleaned.bailout} (${cleaned.detail})`);
}

await runCommand(COMMAND, main);
