/**
 * The RuleSet format: one per site, written by the miner to `rules/<site>.json` and to KV (key: the site).
 * Version 1 holds text rules; version 2 may add CSS selectors (the subset of src/selectors): `strip` (removed),
 * `main` (ordered fallbacks: the first that matches is the only content kept), `keep` (never removed) and
 * `metadata` (where the title, byline and date are). Validated with a schema; a bad value is reported as a list
 * of problems, never thrown.
 */
import * as v from "../validation";
import {
  RULES_MAX_RULE_COUNT, RULES_MAX_RULE_SET_CHARACTERS, SELECTOR_MAX_MAIN_ENTRIES, SELECTOR_MAX_METADATA_ENTRIES, SELECTOR_MAX_PER_RULE_SET,
} from "../config";
import { parseSelector } from "../selectors/index";
import { checkFragmentSafety, checkPatternSafety } from "./pattern-safety";
import { parseSiteKey } from "./site-key";

/** Format version of a set of text rules alone, as the miner writes it. */
export const RULESET_VERSION = 1;
/** Format version of a set that may hold selectors (strip, main, keep, metadata) beside its text rules. */
export const RULESET_VERSION_SELECTORS = 2;
/** The versions understood here; any other version is refused with a problem. */
export const RULESET_VERSIONS = [RULESET_VERSION, RULESET_VERSION_SELECTORS] as const;
export type RuleSetVersion = (typeof RULESET_VERSIONS)[number];

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

/** Where a site's page states its title, byline and date: selector lists tried in order (version 2). */
export interface MetadataSelectors {
  readonly title?: readonly string[];
  readonly byline?: readonly string[];
  readonly date?: readonly string[];
}

export const METADATA_SELECTOR_FIELDS = ["title", "byline", "date"] as const;

/** The modes a rule set may choose for its site's requests in mode auto (clean.ts CLEAN_MODES with rules in them, or the classifier). */
export const DEFAULT_MODES = ["rules", "rules+classifier", "classifier"] as const;
export type DefaultMode = (typeof DEFAULT_MODES)[number];

/** The mode a site's pages are cleaned with when a request leaves the mode to the Worker, and how it was chosen. */
export interface DefaultModeChoice {
  readonly mode: DefaultMode;
  /** How: "held-back" (the miner measured it on pages held back from mining, no gold), "hand", or another word. */
  readonly by: string;
  /** What the choice rests on, in a line a person can read (the held-back measure, or why it was set by hand). */
  readonly note?: string;
}

export interface RuleSet {
  readonly version: RuleSetVersion;
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
  /** Version 2: selector lists of elements removed whole (template containers). */
  readonly strip?: readonly string[];
  /** Version 2: selector lists of the content's container, in order: the first that matches on a page is all that is
   * kept of it (then the text rules and the classifier clean inside it); none matching, the page is cleaned as usual. */
  readonly main?: readonly string[];
  /** Version 2: selector lists of elements never removed (by rules, classifier or strip). */
  readonly keep?: readonly string[];
  readonly metadata?: MetadataSelectors;
  /** Optional: the mode for requests in mode auto (absent: the Worker's own default, rules plus the classifier). */
  readonly defaultMode?: DefaultModeChoice;
}

export type RuleSetParse = { ok: true; ruleSet: RuleSet } | { ok: false; problems: string[] };

export interface ParseRuleSetOptions {
  /** Also report every pattern that fails checkPatternSafety (the publisher refuses such sets; the Worker skips the rule). */
  readonly checkPatterns?: boolean;
}

/** Date and time as the miner writes them (`Date.prototype.toISOString`), seconds and zone optional. */
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

const count = v.number({ integer: true, min: 0 });
const nonEmpty = v.string({ nonEmpty: true });

const RULE_SCHEMA = v.object({
  pattern: nonEmpty,
  docFreq: count,
  count: count,
  tokens: v.number({ integer: true, min: 1 }),
});

const SELECTOR_LISTS = v.optional(v.array(nonEmpty));

const RULE_SET_SCHEMA = v.object({
  version: v.picklist([RULESET_VERSION, RULESET_VERSION_SELECTORS]),
  site: v.check(v.string(), (value) => parseSiteKey(value) === value, "a site key: a lower-case host without www., an optional port and path (site-key.ts)"),
  minedAt: v.check(nonEmpty, (value) => ISO_TIMESTAMP.test(value) && !Number.isNaN(Date.parse(value)), "an ISO 8601 timestamp"),
  pages: count,
  cutoff: v.number({ min: 0, max: 1 }),
  mutablePatterns: v.array(v.object({ name: nonEmpty, pattern: nonEmpty })),
  rules: v.array(RULE_SCHEMA),
  source: v.optional(v.picklist(RULE_SET_SOURCES)),
  revision: v.optional(v.number({ integer: true, min: 1 })),
  strip: SELECTOR_LISTS,
  main: SELECTOR_LISTS,
  keep: SELECTOR_LISTS,
  metadata: v.optional(v.object({ title: SELECTOR_LISTS, byline: SELECTOR_LISTS, date: SELECTOR_LISTS })),
  defaultMode: v.optional(v.object({ mode: v.picklist(DEFAULT_MODES), by: nonEmpty, note: v.optional(v.string()) })),
});

/** The fields of a rule set and of its nested objects (null: a value with no fields of its own to check). */
interface FieldShape {
  readonly [field: string]: FieldShape | null;
}
const RULE_SET_FIELDS: FieldShape = {
  version: null, site: null, minedAt: null, pages: null, cutoff: null, source: null, revision: null, strip: null, main: null, keep: null,
  mutablePatterns: { name: null, pattern: null },
  rules: { pattern: null, docFreq: null, count: null, tokens: null },
  metadata: { title: null, byline: null, date: null },
  defaultMode: { mode: null, by: null, note: null },
};

/** "field: unknown field" for every key (of the object, or of each object in an array) that the shape does not name. */
function unknownFields(value: unknown, shape: FieldShape, path: string): string[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => unknownFields(item, shape, `${path}.${index}`));
  if (typeof value !== "object" || value === null) return [];
  const problems: string[] = [];
  for (const [field, inner] of Object.entries(value)) {
    const at = path === "" ? field : `${path}.${field}`;
    if (!Object.prototype.hasOwnProperty.call(shape, field)) problems.push(`${at}: unknown field (expected one of ${Object.keys(shape).join(", ")})`);
    else if (shape[field] !== null) problems.push(...unknownFields(inner, shape[field]!, at));
  }
  return problems;
}

export function parseRuleSet(value: unknown, options: ParseRuleSetOptions = {}): RuleSetParse {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, problems: ["a rule set must be a JSON object"] };
  }
  const version = (value as { version?: unknown }).version;
  if (!(RULESET_VERSIONS as readonly unknown[]).includes(version)) {
    return { ok: false, problems: [`version: unsupported rule set version ${JSON.stringify(version)} (expected ${RULESET_VERSIONS.join(" or ")})`] };
  }
  // A misspelt field would be stored and silently ignored (a "strp" list that strips nothing): refused, by name.
  const unknown = unknownFields(value as Record<string, unknown>, RULE_SET_FIELDS, "");
  const parsed = v.parse(RULE_SET_SCHEMA, value);
  if (!parsed.ok) return { ok: false, problems: [...unknown, ...parsed.problems] };
  const ruleSet: RuleSet = parsed.value;
  const problems = [...unknown, ...consistencyProblems(ruleSet, options), ...selectorProblems(ruleSet)];
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
  // Mutable patterns are fragments of the rules' patterns (a rule starts with a literal, a fragment need not): each is
  // held to the same determinism, so "(a+)+$" or "(?:a|ab)*" is refused here as it would be inside a rule.
  if (options.checkPatterns) {
    ruleSet.mutablePatterns.forEach((mutable, index) => {
      const safety = checkFragmentSafety(mutable.pattern);
      if (!safety.safe) problems.push(`mutablePatterns.${index}.pattern: unsafe (${safety.reason})`);
    });
  }
  return problems;
}

/** The selector fields of a set, each entry with its path ("strip.0", "metadata.byline.1"), in a fixed order. */
export function selectorEntries(ruleSet: RuleSet): { readonly path: string; readonly selector: string }[] {
  const entries: { path: string; selector: string }[] = [];
  const add = (path: string, selectors: readonly string[] | undefined): void => selectors?.forEach((selector, index) => entries.push({ path: `${path}.${index}`, selector }));
  add("strip", ruleSet.strip);
  add("main", ruleSet.main);
  add("keep", ruleSet.keep);
  for (const field of METADATA_SELECTOR_FIELDS) add(`metadata.${field}`, ruleSet.metadata?.[field]);
  return entries;
}

/** Selectors need version 2, must parse (src/selectors), and stay within SELECTOR_MAX_PER_RULE_SET in all. */
function selectorProblems(ruleSet: RuleSet): string[] {
  const entries = selectorEntries(ruleSet);
  if (entries.length === 0) return [];
  if (ruleSet.version !== RULESET_VERSION_SELECTORS) return [`version: selectors (strip, main, keep, metadata) need version ${RULESET_VERSION_SELECTORS}`];
  const problems: string[] = [];
  let alternatives = 0;
  for (const { path, selector } of entries) {
    const parsed = parseSelector(selector);
    if (parsed.ok) alternatives += parsed.list.selectors.length;
    else problems.push(`${path}: ${parsed.reason}`);
  }
  if (alternatives > SELECTOR_MAX_PER_RULE_SET) problems.push(`selectors: ${alternatives} in all, over the limit of ${SELECTOR_MAX_PER_RULE_SET}`);
  if ((ruleSet.main?.length ?? 0) > SELECTOR_MAX_MAIN_ENTRIES) problems.push(`main: ${ruleSet.main?.length} entries, over the limit of ${SELECTOR_MAX_MAIN_ENTRIES}`);
  for (const field of METADATA_SELECTOR_FIELDS) {
    const count = ruleSet.metadata?.[field]?.length ?? 0;
    if (count > SELECTOR_MAX_METADATA_ENTRIES) problems.push(`metadata.${field}: ${count} entries, over the limit of ${SELECTOR_MAX_METADATA_ENTRIES}`);
  }
  return problems;
}
