/**
 * The package's library: `clean(page, options)` on a string or bytes, the same pipeline as the Worker (src/clean.ts)
 * with the shipped classifier and, when given, a site's rule set. The HTMLRewriter is the caller's choice:
 * src/library-node.ts binds html-rewriter-wasm (Node, Bun, Deno), src/library-workerd.ts the platform's own
 * (Cloudflare Workers), and createCleaner() takes any other backend. No Node API here.
 */
import { parseModel, type ClassifierModel, type ModelJson } from "./classify";
import {
  ARTICLE_TITLES, clean as cleanPage, COMMENTS_CHOICES, DEFAULT_CLEAN_OPTIONS, OUTPUT_FORMATS, REQUESTED_KINDS, REQUESTED_MODES, TEXT_SCOPES, type CleanOptions, type CleanResult,
  type OutputFormat,
} from "./clean";
import { decodeHtml } from "./page";
import { compileRuleSet, parseRuleSet, siteKeyCandidates, siteOfHost, type CompiledRuleSet } from "./rules";
import type { HtmlRewriterBackend } from "./runtime";
import MODEL_JSON from "../rules/model.json";

export type { CleanOptions, CleanResult, OutputFormat } from "./clean";
export { OUTPUT_FORMATS, REQUESTED_MODES } from "./clean";
export type { ModelJson } from "./classify";
export type { RuleSet } from "./rules";

export interface CleanPageOptions extends Partial<CleanOptions> {
  /** The page's URL: links are resolved against it, and its host names the site whose rules apply. */
  readonly url?: string;
  /** Output format (default "html"). */
  readonly format?: OutputFormat;
  /** For bytes: the Content-Type the page came with (its charset is read from it, else from the page). */
  readonly contentType?: string;
  /** A site's rule set (a RuleSet, as `npm run mine` writes to rules/<site>.json), parsed or as JSON text. */
  readonly rules?: unknown;
  /** The classifier model: the shipped one by default (rules/model.json); null cleans with rules alone. */
  readonly model?: unknown;
}

/** A clean() bound to one HTMLRewriter backend. */
export type Cleaner = (page: string | Uint8Array | ArrayBuffer, options?: CleanPageOptions) => Promise<CleanResult | DecodeFailure>;

/** Bytes that cannot be decoded (a charset the platform lacks): nothing was cleaned. */
export interface DecodeFailure {
  readonly ok: false;
  readonly bailout: "unsupported-charset";
  readonly detail: string;
}

let shippedModel: ClassifierModel | null = null;

function modelOf(value: unknown): ClassifierModel | null {
  if (value === null) return null;
  if (value === undefined && shippedModel !== null) return shippedModel;
  const parsed = parseModel((value ?? MODEL_JSON) as ModelJson);
  if (!parsed.ok) throw new TypeError(`edge-cleaner: invalid model: ${parsed.problems.slice(0, 3).join("; ")}`);
  if (value === undefined) shippedModel = parsed.model;
  return parsed.model;
}

function rulesOf(value: unknown): CompiledRuleSet | null {
  if (value === undefined || value === null) return null;
  const parsed = parseRuleSet(typeof value === "string" ? ruleSetJson(value) : value);
  if (!parsed.ok) throw new TypeError(`edge-cleaner: invalid rule set: ${parsed.problems.slice(0, 3).join("; ")}`);
  return compileRuleSet(parsed.ruleSet);
}

/** Rule-set JSON text, parsed; text that is not JSON is the caller's mistake, a TypeError as for any invalid rule set. */
function ruleSetJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new TypeError(`edge-cleaner: invalid rule set: not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** The options the library reads besides the pipeline's (CleanOptions, whose names come from its defaults). */
const LIBRARY_OPTIONS = ["url", "format", "contentType", "rules", "model"] as const;
/** Each option whose value is one of a list: the list (`withRules` as CleanOptions types it). */
const OPTION_CHOICES: Readonly<Record<string, readonly unknown[]>> = {
  format: OUTPUT_FORMATS, mode: REQUESTED_MODES, kind: REQUESTED_KINDS, comments: COMMENTS_CHOICES, articleTitle: ARTICLE_TITLES, textScope: TEXT_SCOPES,
  withRules: ["rules", "rules+classifier"] satisfies readonly CleanOptions["withRules"][],
};

/**
 * Refuses (TypeError) an option the library does not read, or a value not among an option's choices, naming what it
 * takes: `{format: "pdf"}` or `{mode: "bogus"}` would otherwise clean as html, or as auto, and say ok.
 */
function checkOptions(options: object): void {
  const known: readonly string[] = [...LIBRARY_OPTIONS, ...Object.keys(DEFAULT_CLEAN_OPTIONS)];
  for (const [name, value] of Object.entries(options)) {
    if (!known.includes(name)) throw new TypeError(`edge-cleaner: unknown option ${JSON.stringify(name)}: clean() reads ${known.join(", ")}`);
    if (value === undefined) continue;
    const choices = OPTION_CHOICES[name];
    if (choices !== undefined && !choices.includes(value)) throw new TypeError(`edge-cleaner: ${name} must be one of ${choices.join(", ")}, not ${JSON.stringify(value)}`);
    const fallback: unknown = (DEFAULT_CLEAN_OPTIONS as unknown as Record<string, unknown>)[name];
    if (typeof fallback === "number" && !(typeof value === "number" && value > 0)) throw new TypeError(`edge-cleaner: ${name} must be a number above 0, not ${JSON.stringify(value)}`);
    if (typeof fallback === "boolean" && typeof value !== "boolean") throw new TypeError(`edge-cleaner: ${name} must be true or false, not ${JSON.stringify(value)}`);
  }
}

function absoluteUrl(url: string): URL {
  try {
    return new URL(url);
  } catch {
    throw new TypeError(`edge-cleaner: not an absolute URL: ${url}`);
  }
}

/** The site key the rules belong to: the rule set's own, else the URL's host (without www.), else none. */
function siteOf(rules: CompiledRuleSet | null, url: string | undefined): string {
  if (rules !== null) return rules.site;
  if (url === undefined) return "";
  const parsed = absoluteUrl(url);
  return siteKeyCandidates(parsed).at(-1) ?? siteOfHost(parsed.hostname);
}

/**
 * clean() on `rewriter`. An unknown option or value, an invalid URL, rule set or model throws a TypeError (the caller's mistake); a page the
 * pipeline cannot clean comes back as `{ ok: false, bailout, detail }` (never a throw), as in the Worker.
 */
export function createCleaner(rewriter: HtmlRewriterBackend): Cleaner {
  return async (page, options = {}) => {
    checkOptions(options);
    const { url, format = "html", contentType, rules, model, ...cleanOptions } = options;
    if (url !== undefined) absoluteUrl(url);
    let html: string;
    if (typeof page === "string") html = page;
    else {
      const decoded = decodeHtml(page instanceof ArrayBuffer ? new Uint8Array(page) : page, contentType ?? null);
      if (!decoded.ok) return { ok: false, bailout: "unsupported-charset", detail: `cannot decode ${decoded.charset}` };
      html = decoded.html;
    }
    const ruleSet = rulesOf(rules);
    return cleanPage({ html, url, site: siteOf(ruleSet, url), format, ruleSet, model: modelOf(model), rewriter, options: cleanOptions });
  };
}
