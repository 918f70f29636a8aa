import { RULES_CACHE_TTL_SECONDS } from "../../config";
import { compileRuleSet, createRuleSetCache, parseRuleSetText, siteKeyCandidates, type CompiledRuleSet, type RuleSet } from "../../rules";
import type { Env, RulesCacheVars } from "./bindings";
import { ttlSeconds } from "./settings";

/**
 * A site's rule set from KV (key = site), validated and compiled once per isolate and cached with a TTL
 * (the rules module's cache). Whatever is wrong with it, the page is still cleaned, without rules; `status`
 * says why and goes out as the `x-clean-rules` header.
 */
export type RulesStatus =
  | "applied" // a valid rule set, every rule compiled
  | "unsafe-skipped" // a valid rule set, some patterns refused (unsafe, invalid, duplicate, over the limit)
  | "missing" // no rule set for this site
  | "invalid" // the stored value is not JSON, or fails the RuleSet schema
  | "unavailable" // KV could not be read
  | "no-site"; // the request named no site

export interface SiteRules {
  readonly site: string;
  readonly status: RulesStatus;
  /** The compiled rules to clean with; null when none apply. */
  readonly compiled: CompiledRuleSet | null;
  /** Schema problems (invalid), refused patterns with their reasons (unsafe-skipped), or the KV failure. */
  readonly problems: readonly string[];
}

/** The KV namespace of rule sets, and the var of how long an isolate keeps one it read. */
export type RulesBindings = Pick<Env, "RULES" | "RULES_CACHE_TTL">;

/** One cache per isolate: rule sets are compiled once and re-read from KV after the TTL (RULES_CACHE_TTL). */
const cache = createRuleSetCache();

/** The rules cache's TTL in milliseconds, from the Worker var RULES_CACHE_TTL (seconds). */
export function rulesCacheTtlMilliseconds(env: RulesCacheVars): number {
  return ttlSeconds(env.RULES_CACHE_TTL, RULES_CACHE_TTL_SECONDS) * 1000;
}

/**
 * The rules of `site`. With the page's URL, when the site is the URL's own, a key naming a path of it
 * (`bbc.co.uk/news`) wins over the host: the longest present key, read in one parallel round.
 */
export async function loadSiteRules(env: RulesBindings, named: string, url?: URL | string): Promise<SiteRules> {
  if (named === "") return { site: named, status: "no-site", compiled: null, problems: [] };
  const namespace = env.RULES;
  const ttl = rulesCacheTtlMilliseconds(env);
  const site = url === undefined ? named : await longestPresentKey(namespace, named, url, ttl);
  const read = await readValue(namespace, site, () => cache.load(site, () => namespace.get(site, "text"), ttl));
  if (!read.ok) return { site, status: "unavailable", compiled: null, problems: [read.message] };
  const load = read.value;
  if (load.status === "missing") return { site, status: "missing", compiled: null, problems: [] };
  if (load.status === "invalid") return { site, status: "invalid", compiled: null, problems: load.problems };
  const { compiled } = load;
  return {
    site,
    status: compiled.skipped.length > 0 ? "unsafe-skipped" : "applied",
    compiled: compiled.rules.length > 0 || compiled.selectors != null ? compiled : null, // a set of selectors alone cleans too
    problems: compiled.skipped.map((rule) => `rule ${rule.index} skipped (${rule.reason}): ${rule.pattern}`),
  };
}

async function longestPresentKey(namespace: KVNamespace, site: string, url: URL | string, ttlMilliseconds: number): Promise<string> {
  let parsed: URL;
  try {
    parsed = typeof url === "string" ? new URL(url) : url;
  } catch {
    return site; // a page sent without a valid URL keeps the named site
  }
  const candidates = siteKeyCandidates(parsed);
  if (candidates.length === 1 || candidates[candidates.length - 1] !== site) return site;
  const longer = candidates.slice(0, -1);
  const reads = await Promise.all(longer.map((key) => readValue(namespace, key, () => cache.load(key, () => namespace.get(key, "text"), ttlMilliseconds))));
  const found = reads.findIndex((read) => read.ok && read.value.status !== "missing");
  return found < 0 ? site : longer[found];
}

/**
 * After a publish or a rollback run by this isolate: its cached copy of the site's rules becomes `text` at once
 * (other isolates follow within the cache TTL, and KV's own propagation delay).
 */
export function refreshSiteRules(site: string, text: string | null): void {
  cache.store(site, text);
}

/** The debugging view: the stored rule set read afresh (no cache), with what validation and compiling say of it. */
export interface SiteRulesReport extends SiteRules {
  readonly ruleSet: RuleSet | null;
}

export async function inspectSiteRules(namespace: KVNamespace, site: string): Promise<SiteRulesReport> {
  const read = await readValue(namespace, site, () => namespace.get(site, "text"));
  if (!read.ok) return { site, status: "unavailable", compiled: null, problems: [read.message], ruleSet: null };
  if (read.value === null) return { site, status: "missing", compiled: null, problems: [], ruleSet: null };
  const parsed = parseRuleSetText(read.value);
  if (!parsed.ok) return { site, status: "invalid", compiled: null, problems: parsed.problems, ruleSet: null };
  const compiled = compileRuleSet(parsed.ruleSet);
  return {
    site,
    status: compiled.skipped.length > 0 ? "unsafe-skipped" : "applied",
    compiled,
    problems: compiled.skipped.map((rule) => `rule ${rule.index} skipped (${rule.reason}): ${rule.pattern}`),
    ruleSet: parsed.ruleSet,
  };
}

/** A KV read that failed (an outage, a limit) is reported, not thrown; the page is then cleaned without rules. */
async function readValue<T>(namespace: KVNamespace, site: string, read: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; message: string }> {
  try {
    return { ok: true, value: await read() };
  } catch (error) {
    console.error("KV read failed", site, error);
    return { ok: false, message: `reading the rules of ${site} from KV failed` };
  }
}
