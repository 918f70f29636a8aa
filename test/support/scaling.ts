/**
 * The pathological input families of the scaling tests (each built at size n and 4n) and the rule sets they run.
 * The tests count work on them, never time: steps in Node (work-count.ts), clean()'s work meter in workerd
 * (test/worker/scaling.test.ts).
 */
import { compileRuleSet, parseRuleSet, type CompiledRuleSet } from "../../src/rules/index";

/** The families (name → input of size n) and the article page they sit before live with the other hostile pages. */
export { articlePage, FAMILIES } from "../../scripts/lib/hostile-pages";

const RULE_WORDS = Array.from({ length: 400 }, (_, index) => `w${index.toString(36)}q`);

/** Page text of about `characters` code units made of the rule words (every rule's words are on the page). */
export function ruleText(characters: number): string {
  const parts: string[] = [];
  let length = 0;
  for (let index = 0; length < characters; index++) {
    const word = RULE_WORDS[(index * 7919) % RULE_WORDS.length] + (index % 13 === 0 ? ".\n" : " ");
    parts.push(word);
    length += word.length;
  }
  return parts.join("");
}

/** `count` accepted, linear rules whose required words are all on ruleText's pages (so the prefilter runs them all). */
export function manyRules(count: number): CompiledRuleSet {
  return rulesOf(Array.from({ length: count }, (_, index) =>
    `${RULE_WORDS[index % RULE_WORDS.length]}\\s+${RULE_WORDS[(index * 31 + 1) % RULE_WORDS.length]}\\s+\\d+`));
}

/** A compiled rule set of these patterns (each must pass validation). */
export function rulesOf(patterns: readonly string[]): CompiledRuleSet {
  const rules = patterns.map((pattern) => ({ pattern, docFreq: 1, count: 1, tokens: 3 }));
  const parsed = parseRuleSet({ version: 1, site: "scaling.test", minedAt: "2026-01-01T00:00:00Z", pages: 1, cutoff: 0.5, mutablePatterns: [], rules });
  if (!parsed.ok) throw new Error(parsed.problems.join("; "));
  return compileRuleSet(parsed.ruleSet);
}
