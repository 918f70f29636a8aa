/**
 * Compiling a RuleSet into RegExp objects once, and an isolate-level cache of compiled rule sets.
 */
import {
  RULES_CACHE_MAX_ENTRIES,
  RULES_CACHE_TTL_SECONDS,
  RULES_MAX_PATTERN_LENGTH,
  RULES_MAX_RULE_COUNT,
} from "../config";
import { checkPatternSafety } from "./pattern-safety";
import type { CharSet } from "./char-set";
import { isSeparatorCode, literalStart, requiredWords } from "./prefilter";
import { parseRuleSetText, type DefaultMode, type RuleSet } from "./rule-set";
import { compileSiteSelectors, type SiteSelectors } from "./site-selectors";

/** Flags of every compiled rule: global scan only (case-sensitive, code units; the safety proof assumes exactly this). */
export const RULE_FLAGS = "g";
/** The same, sticky instead of global: a rule tried at one position (CompiledRule.prefixed). */
const STICKY_RULE_FLAGS = "y";

export interface CompiledRule {
  /** Position of the rule in the RuleSet's `rules`. */
  readonly index: number;
  readonly pattern: string;
  /** Global regex; its lastIndex is reset before every use (rules run synchronously, so sharing is safe). */
  readonly regex: RegExp;
  /** Words every match holds as whole words (prefilter.ts): a page without one of them is not scanned by the rule. */
  readonly words: readonly string[];
  /**
   * Where every match starts with a literal (most mined rules: "Share\\s+this") of two code units or more, or of one
   * that is punctuation or a symbol ("—", "|", "»": rarer in text than a letter, where trying the rule at each one
   * would cost more than the engine's own scan): the literal, the code units that can follow it in a match (null: any,
   * or none), and a sticky twin of `regex` tried where the literal stands and is so followed (prefixed-rules.ts).
   * Null for other rules.
   */
  readonly prefixed: { readonly prefix: string; readonly follows: CharSet | null; readonly sticky: RegExp } | null;
}

export interface SkippedRule {
  readonly index: number;
  readonly pattern: string;
  readonly reason: string;
}

export interface CompiledRuleSet {
  readonly site: string;
  readonly version: number;
  readonly minedAt: string;
  readonly rules: readonly CompiledRule[];
  /** Rules left out, with why: unsafe, invalid, duplicate, or over the rule count limit. */
  readonly skipped: readonly SkippedRule[];
  /** The set's selectors (version 2), parsed; null when it has none. Optional so that hand-built sets need not give it. */
  readonly selectors?: SiteSelectors | null;
  /** The mode the set chose for requests in mode auto (RuleSet.defaultMode); absent: the Worker's default. */
  readonly defaultMode?: DefaultMode;
}

export interface CompileOptions {
  readonly maxRules: number;
  readonly maxPatternLength: number;
}

export const DEFAULT_COMPILE_OPTIONS: CompileOptions = Object.freeze({
  maxRules: RULES_MAX_RULE_COUNT,
  maxPatternLength: RULES_MAX_PATTERN_LENGTH,
});

export function compileRuleSet(ruleSet: RuleSet, options: Partial<CompileOptions> = {}): CompiledRuleSet {
  const resolved: CompileOptions = { ...DEFAULT_COMPILE_OPTIONS, ...options };
  const rules: CompiledRule[] = [];
  const skipped: SkippedRule[] = [];
  const seen = new Map<string, number>();
  ruleSet.rules.forEach(({ pattern }, index) => {
    const reason = refusal(pattern, rules.length, seen, resolved);
    if (reason !== null) {
      skipped.push({ index, pattern, reason });
      return;
    }
    const regex = buildRegex(pattern);
    if (typeof regex === "string") {
      skipped.push({ index, pattern, reason: regex });
      return;
    }
    seen.set(pattern, index);
    const { prefix, follows } = literalStart(pattern);
    const searched = prefix.length >= 2 || (prefix.length === 1 && isSeparatorCode(prefix.charCodeAt(0)));
    const prefixed = searched ? { prefix, follows, sticky: new RegExp(pattern, STICKY_RULE_FLAGS) } : null;
    rules.push({ index, pattern, regex, words: requiredWords(pattern), prefixed });
  });
  return { site: ruleSet.site, version: ruleSet.version, minedAt: ruleSet.minedAt, rules, skipped, selectors: compileSiteSelectors(ruleSet),
    ...(ruleSet.defaultMode === undefined ? {} : { defaultMode: ruleSet.defaultMode.mode }) };
}

function refusal(pattern: string, compiled: number, seen: Map<string, number>, options: CompileOptions): string | null {
  const duplicate = seen.get(pattern);
  if (duplicate !== undefined) return `duplicate of rule ${duplicate}`;
  if (compiled >= options.maxRules) return `over the limit of ${options.maxRules} rules`;
  const safety = checkPatternSafety(pattern, options.maxPatternLength);
  return safety.safe ? null : `unsafe: ${safety.reason}`;
}

/** The engine is the final judge of syntax; the subset parser should already have refused anything it rejects. */
function buildRegex(pattern: string): RegExp | string {
  try {
    return new RegExp(pattern, RULE_FLAGS);
  } catch (error) {
    return `invalid: ${(error as Error).message}`;
  }
}

// ── isolate cache ──────────────────────────────────────────────────────────────────────────────────

/** What is known of a site's rules: compiled, absent from the store, or present but invalid (with why). */
export type RuleSetLoad =
  | { readonly status: "compiled"; readonly compiled: CompiledRuleSet }
  | { readonly status: "missing" }
  | { readonly status: "invalid"; readonly problems: readonly string[] };

export interface RuleSetCacheOptions {
  /** How long an entry is served, unless a lookup gives its own TTL. */
  readonly ttlMilliseconds: number;
  readonly maxEntries: number;
  /** Milliseconds since some fixed origin (Date.now in production; a test clock in tests). */
  readonly now: () => number;
}

export interface RuleSetCache {
  /** The site's entry if it is younger than the TTL (`ttlMilliseconds`, else the cache's: a deployment's var wins). */
  lookup(site: string, ttlMilliseconds?: number): RuleSetLoad | undefined;
  /** Records the stored text of a site's rule set (null: none); recompiles only if site, version or minedAt changed. */
  store(site: string, text: string | null): RuleSetLoad;
  /** lookup, else read (e.g. from KV) and store. */
  load(site: string, read: () => Promise<string | null>, ttlMilliseconds?: number): Promise<RuleSetLoad>;
  readonly size: number;
}

interface CacheEntry {
  readonly load: RuleSetLoad;
  readonly storedAt: number;
}

export function createRuleSetCache(options: Partial<RuleSetCacheOptions> = {}): RuleSetCache {
  const resolved: RuleSetCacheOptions = {
    ttlMilliseconds: RULES_CACHE_TTL_SECONDS * 1000,
    maxEntries: RULES_CACHE_MAX_ENTRIES,
    now: Date.now,
    ...options,
  };
  const entries = new Map<string, CacheEntry>();
  const lookup = (site: string, ttlMilliseconds = resolved.ttlMilliseconds): RuleSetLoad | undefined => {
    const entry = entries.get(site);
    return entry !== undefined && entry.storedAt + ttlMilliseconds > resolved.now() ? entry.load : undefined;
  };
  const store = (site: string, text: string | null): RuleSetLoad => {
    const load = toLoad(text, entries.get(site)?.load);
    entries.delete(site);
    entries.set(site, { load, storedAt: resolved.now() });
    while (entries.size > resolved.maxEntries) entries.delete(entries.keys().next().value as string);
    return load;
  };
  return {
    lookup,
    store,
    async load(site, read, ttlMilliseconds) {
      return lookup(site, ttlMilliseconds) ?? store(site, await read());
    },
    get size() {
      return entries.size;
    },
  };
}

function toLoad(text: string | null, previous: RuleSetLoad | undefined): RuleSetLoad {
  if (text === null) return { status: "missing" };
  const parsed = parseRuleSetText(text);
  if (!parsed.ok) return { status: "invalid", problems: parsed.problems };
  const { ruleSet } = parsed;
  if (
    previous?.status === "compiled" &&
    previous.compiled.site === ruleSet.site &&
    previous.compiled.version === ruleSet.version &&
    previous.compiled.minedAt === ruleSet.minedAt
  ) {
    return previous;
  }
  return { status: "compiled", compiled: compileRuleSet(ruleSet) };
}
