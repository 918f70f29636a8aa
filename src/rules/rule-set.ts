/**
 * The RuleSet format: one per site, written by the miner to `rules/<site>.json` and to KV (key: the site).
 * Validated with a schema; a bad value is reported as a list of problems, never thrown.
 */
import * as z from "zod/mini";
import { RULES_MAX_RULE_COUNT, RULES_MAX_RULE_SET_CHARACTERS } from "../config";
import { checkPatternSafety } from "./pattern-safety";
import { parseSiteKey } from "./site-key";

/** Format version written by the miner and understood here; any other version is refused with a problem. */
export const RULESET_VERSION = 1;

/** A mutable pattern the miner replaced by a class token before indexing (paper 002, 3.3); recorded for the reader. */
export interface MutablePattern {
  /** Class name, such as "number", "date", "url". */
  readonly name: string;
  /** The regex that matched the values of the class (it also appears inside rule patterns). */
  readonly pattern: string;
}

export interface Rule {
  /** Regex in the safe subset of pattern-safety.ts, matched against page text (see src/page/types.ts). */
  readonly pattern: string;
  /** Number of mined pages that hold the string at least once. */
  readonly docFreq: number;
  /** Number of occurrences over all mined pages. */
  readonly count: number;
  /** Length of the mined string in tokens (at least 2 for a mined rule; hand-written rules may use 1). */
  readonly tokens: number;
}

/** How a rule set was made: `npm run mine` (mined), from sampled traffic (learned), by hand, or imported. */
export const RULE_SET_SOURCES = ["mined", "learned", "hand", "imported"] as const;
export type RuleSetSource = (typeof RULE_SET_SOURCES)[number];

export interface RuleSet {
  readonly version: typeof RULESET_VERSION;
  /** The site key (site-key.ts): host without "www.", lower case, optional port and path; the KV key. */
  readonly site: string;
  /** ISO 8601 timestamp of the mining run; with the version it identifies a rule set in caches. */
  readonly minedAt: string;
  /** Number of pages mined. */
  readonly pages: number;
  /** Document-frequency cutoff chosen by the miner (paper 002, eq. 3.1), as a share of pages in [0, 1]. */
  readonly cutoff: number;
  readonly mutablePatterns: readonly MutablePattern[];
  readonly rules: readonly Rule[];
  /** Optional: how the set was made (absent in sets written before it existed). */
  readonly source?: RuleSetSource;
  /** Optional: the publication number of a versioned set (1, 2, …; src/learning keeps the earlier ones). */
  readonly revision?: number;
}

export type RuleSetParse = { ok: true; ruleSet: RuleSet } | { ok: false; problems: string[] };

export interface ParseRuleSetOptions {
  /** Also report every pattern that fails checkPatternSafety (the publisher refuses such sets; the Worker skips the rule). */
  readonly checkPatterns?: boolean;
}

/** Date and time as the miner writes them (`Date.prototype.toISOString`), seconds and zone optional. */
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

const count = z.int().check(z.minimum(0));
const nonEmpty = z.string().check(z.minLength(1));

const RULE_SCHEMA = z.object({
  pattern: nonEmpty,
  docFreq: count,
  count: count,
  tokens: z.int().check(z.minimum(1)),
});

const RULE_SET_SCHEMA = z.object({
  version: z.literal(RULESET_VERSION),
  site: z.string().check(z.refine((value) => parseSiteKey(value) === value, "a site key: a lower-case host without www., an optional port and path (site-key.ts)")),
  minedAt: nonEmpty.check(
    z.refine((value) => ISO_TIMESTAMP.test(value) && !Number.isNaN(Date.parse(value)), "an ISO 8601 timestamp"),
  ),
  pages: count,
  cutoff: z.number().check(z.minimum(0), z.maximum(1)),
  mutablePatterns: z.array(z.object({ name: nonEmpty, pattern: nonEmpty })),
  rules: z.array(RULE_SCHEMA),
  source: z.optional(z.enum(RULE_SET_SOURCES)),
  revision: z.optional(z.int().check(z.minimum(1))),
});

export function parseRuleSet(value: unknown, options: ParseRuleSetOptions = {}): RuleSetParse {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, problems: ["a rule set must be a JSON object"] };
  }
  const version = (value as { version?: unknown }).version;
  if (version !== RULESET_VERSION) {
    return { ok: false, problems: [`version: unsupported rule set version ${JSON.stringify(version)} (expected ${RULESET_VERSION})`] };
  }
  const parsed = RULE_SET_SCHEMA.safeParse(value);
  if (!parsed.success) {
    return { ok: false, problems: parsed.error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`) };
  }
  const ruleSet = parsed.data as RuleSet;
  const problems = consistencyProblems(ruleSet, options);
  return problems.length === 0 ? { ok: true, ruleSet } : { ok: false, problems };
}

/** Parses the KV or file text of a rule set; JSON syntax errors become a problem. */
export function parseRuleSetText(text: string, options: ParseRuleSetOptions = {}): RuleSetParse {
  if (text.length > RULES_MAX_RULE_SET_CHARACTERS) {
    return { ok: false, problems: [`the rule set is ${text.length} characters long, over the limit of ${RULES_MAX_RULE_SET_CHARACTERS}`] };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, problems: [`not JSON: ${(error as Error).message}`] };
  }
  return parseRuleSet(value, options);
}

function consistencyProblems(ruleSet: RuleSet, options: ParseRuleSetOptions): string[] {
  const problems: string[] = [];
  // A stored set over the count still loads (its first rules compile); a set checked for publishing is refused.
  if (options.checkPatterns && ruleSet.rules.length > RULES_MAX_RULE_COUNT) {
    problems.push(`rules: ${ruleSet.rules.length} rules, over the limit of ${RULES_MAX_RULE_COUNT}`);
  }
  ruleSet.rules.forEach((rule, index) => {
    if (rule.docFreq > ruleSet.pages) problems.push(`rules.${index}.docFreq: ${rule.docFreq} exceeds pages (${ruleSet.pages})`);
    if (rule.count < rule.docFreq) problems.push(`rules.${index}.count: ${rule.count} is below docFreq (${rule.docFreq})`);
    if (options.checkPatterns) {
      const safety = checkPatternSafety(rule.pattern);
      if (!safety.safe) problems.push(`rules.${index}.pattern: unsafe (${safety.reason})`);
    }
  });
  return problems;
}
