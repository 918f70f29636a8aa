/**
 * The one cleaning pipeline that the Worker, the CLI, the evaluation and the tests call:
 *   1 analyse   pass 1: the decoded page → page model (blocks, text nodes, page text)
 *   2 rules     the site's rules over the page text → intervals → a plan
 *   3 classify  block features → model scores (sites without rules, or as a second opinion)
 *   4 smooth    scores smoothed over the block tree → a plan
 *   5 decide    the plan that applies (rules, classifier, their union, or nothing)
 *   6 rewrite   pass 2: the page through HTMLRewriter without what the plan removes (html and json)
 *   7 format    html, text, markdown or json
 * Limits are options; past one, or on any internal error, the result is a bailout (never a throw) that carries its
 * fallback: the answer in the format asked for that keeps the format's promise (bailoutFallback, below).
 *
 * Timings are per stage in milliseconds from performance.now(), less the pauses of a large page (the isolate's time
 * for other requests; the time budget, a deadline, counts them). Deployed workerd advances that clock only
 * across I/O, so there they are coarse (mostly 0 for a page cleaned without I/O; local workerd, as Miniflare
 * runs it, does advance it). `npm run bench` times workerd across I/O boundaries instead.
 */
import type { ClassifierModel } from "./classify";
import { hiddenBlocks } from "./classify";
import { classifyPage, commentPlan, commentText, keepComments, PAGE_KINDS, recognisePageKind, scoreBlocks, type PageKind, type PageKindFinding } from "./classify";
import {
  CLEAN_FALLBACK_MAX_CHARACTERS, CLEAN_MAX_BLOCKS, CLEAN_MAX_BYTES, CLEAN_TIME_BUDGET_MS, CLEAN_WORK_BUDGET_UNITS, CLEAN_YIELD_MIN_BLOCKS, CLEAN_YIELD_MIN_BYTES,
  RULES_MAX_MATCHES_PER_PAGE, RULES_MAX_SCAN_CHARACTERS, SMOOTHING_SCORE_LEVELS,
} from "./config";
import { analysePageSlices, computeFeaturesSlices, countWords, headlineBlocks, readAttribute, titleWithoutSiteName, type PageModel } from "./page";
import {
  emptyPlan, keepWhole, mergePlans, planFromIntervals, planKeepingOnlySelected, planKeepingSelected, planRemovingSelected, withRemovedElements,
  type NormalisedPlan, type RemovalCounts,
} from "./plan";
import {
  annotateHtml, buildReaderDocument, declaresOtherCharset, fallbackArticle, fallbackMarkdown, fallbackParagraphs, fallbackText, keepsText, articleBody, readerMetadata,
  rewriteHtml, withFrontMatter, writeArticleSlices, writeMarkdownSlices, writeText, type MetadataOverride, type WrittenFormats,
} from "./rewrite";
import { mainMatches, matchRules, selectorsClean, selectorsReadMetadata, type CompiledRuleSet, type RuleOverflow, type SiteSelectors } from "./rules";
import type { HtmlRewriterBackend } from "./runtime";
import { matchSelectors, type SelectorList, type SelectorMatch } from "./selectors";
import { finishSlices, pacedSlices, type Slices } from "./slices";
import { CHARACTERS_PER_UNIT, WorkMeter } from "./work-meter";

/** The output formats; "article" is the kept content as a safe HTML fragment (rewrite/article-writer.ts has its allow-list). */
export const OUTPUT_FORMATS = ["html", "text", "markdown", "json", "article"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];
/** What clean() can write: the output formats, and "annotated" (the original page with the removed blocks outlined, for the demo page). */
export const CLEAN_FORMATS = [...OUTPUT_FORMATS, "annotated"] as const;
export type CleanFormat = (typeof CLEAN_FORMATS)[number];
/** Short names read as the format they stand for, wherever a format is named (the API, the CLI). */
export const FORMAT_ALIASES: Readonly<Record<string, CleanFormat>> = { md: "markdown", txt: "text", plain: "text" };

/** A format name or alias among `offered` (case and surrounding white space ignored), or null when it is neither. */
export function formatByName<T extends CleanFormat>(value: string, offered: readonly T[]): T | null {
  const name = value.trim().toLowerCase();
  const format = FORMAT_ALIASES[name] ?? name;
  return (offered as readonly string[]).includes(format) ? (format as T) : null;
}
export type ArticleTitle = "keep" | "header" | "omit";
export const ARTICLE_TITLES: readonly ArticleTitle[] = ["keep", "header", "omit"];
/** What the text format holds: the article's body (no header of headline, byline and date line, no figure captions), or all the kept text. */
export type TextScope = "body" | "all";
export const TEXT_SCOPES: readonly TextScope[] = ["body", "all"];
/** What cleans a page: site rules, the classifier, both (their plans' union), or nothing. */
export const CLEAN_MODES = ["rules", "classifier", "rules+classifier", "none"] as const;
export type CleanMode = (typeof CLEAN_MODES)[number];
/** What a caller may ask for: a mode, or "auto" (rules plus the classifier where the site has rules, else the classifier). */
export const REQUESTED_MODES = ["auto", ...CLEAN_MODES] as const;
export type RequestedMode = (typeof REQUESTED_MODES)[number];
/** What becomes of reader comments when the classifier cleans a page. */
export type CommentsChoice = "exclude" | "include";
/** The page kinds (classify/kind.ts), and what a caller may ask for: a kind, or "auto" (recognised from the page). */
export { PAGE_KINDS, type PageKind } from "./classify";
export const REQUESTED_KINDS = ["auto", ...PAGE_KINDS] as const;
export type RequestedKind = (typeof REQUESTED_KINDS)[number];
export const COMMENTS_CHOICES: readonly CommentsChoice[] = ["exclude", "include"];
/**
 * Why a page was passed through instead of cleaned, the closed set (the HTTP layer writes these, and only these,
 * as x-clean-bailout): too large, too many blocks, the rules' caps (too-many-rule-matches, rule-work), the page's
 * time budget, pass 2 failing, an internal error, and bytes in a charset that cannot be decoded (decodeHtml).
 */
export const BAILOUT_CODES = [
  "too-large", "too-many-blocks", "too-many-rule-matches", "rule-work", "time-budget", "rewrite-failed", "internal-error", "unsupported-charset",
] as const;
export type BailoutCode = (typeof BAILOUT_CODES)[number];
/** The bailouts of clean() itself (it takes a decoded page); the rules' RuleOverflow values are among them (checked where clean() returns one). */
export type CleanBailout = Exclude<BailoutCode, "unsupported-charset">;

/**
 * What a bailout's answer holds, in the format asked for (docs/formats.md, "When cleaning gives up"):
 * - "page": html and annotated, the page as it came (a working page, never a safe one: the API's policy keeps it inert);
 * - "sanitised": the whole page, nothing removed, through the writers (the article format's allow-list, text, Markdown);
 * - "text": the text of the page's start (rewrite/fallback-writer.ts), bounded, with no markup of the page;
 * - "empty": nothing (a page that could not be decoded or held).
 */
export const FALLBACK_CONTENTS = ["page", "sanitised", "text", "empty"] as const;
export type FallbackContent = (typeof FALLBACK_CONTENTS)[number];

/**
 * What each bailout falls back to in the formats that promise text or safe HTML. The whole page goes through the
 * writers where its page model stays within the limits and the failure was elsewhere (the rules' caps, pass 2, an
 * internal error: cleaning it again without rules, model or selectors is bounded like any page); a page over a limit
 * of size, blocks or work gives only the text of its start, so that the fallback does no unbounded work either;
 * bytes that cannot be decoded give nothing.
 */
export const FALLBACK_BY_BAILOUT: Readonly<Record<BailoutCode, Exclude<FallbackContent, "page">>> = {
  "too-large": "text", "too-many-blocks": "text", "time-budget": "text",
  "too-many-rule-matches": "sanitised", "rule-work": "sanitised", "rewrite-failed": "sanitised", "internal-error": "sanitised",
  "unsupported-charset": "empty",
};

/** A bailout's answer in the format asked for: the body, its media type, and what it holds. */
export interface Fallback {
  readonly body: string;
  readonly contentType: string;
  readonly content: FallbackContent;
}

export interface CleanOptions {
  /** Largest page cleaned, in UTF-8 bytes. */
  readonly maxBytes: number;
  /** Most blocks cleaned. */
  readonly maxBlocks: number;
  /** Milliseconds a page may take, its pauses included, checked between stages, between a large page's slices and in rule matching (config CLEAN_TIME_BUDGET_MS). */
  readonly timeBudgetMs: number;
  /** Units of counted work a page may take (work-meter.ts), checked in every stage and in the writers' walks (config CLEAN_WORK_BUDGET_UNITS). */
  readonly workBudget: number;
  /** Most rule matches collected on one page (config RULES_MAX_MATCHES_PER_PAGE); past it a "too-many-rule-matches" bailout. */
  readonly maxRuleMatches: number;
  /** Most page text the rules scan, in UTF-16 code units summed over the rules (config RULES_MAX_SCAN_CHARACTERS); past it "rule-work". */
  readonly maxRuleScanCharacters: number;
  /** What cleans a site that has rules when a model is loaded too: the rules alone, or rules plus the classifier. */
  readonly withRules: "rules" | "rules+classifier";
  /** Forces a mode (for evaluation); "auto" picks from what is loaded. */
  readonly mode: RequestedMode;
  /** Reader comments (blocks whose class or id names comments): left out of the article, or kept in it. */
  readonly comments: CommentsChoice;
  /** The article format's title: the page's heading as it stands ("keep"), a header with title, byline and date
   * instead of a heading that repeats the title ("header"), or no heading that repeats it ("omit": the title is shown apart). */
  readonly articleTitle: ArticleTitle;
  /** The text format: the article's body ("body": without the header it starts with, headline to first paragraph, and
   * without figures' captions; rewrite/text-writer.ts), or all the kept text ("all"). */
  readonly textScope: TextScope;
  /** The markdown format: a YAML front matter block first (title, url, byline, published), from the page model already read. */
  readonly frontMatter: boolean;
  /** The page's kind (classify/kind.ts): recognised from the page ("auto"), or named by the caller, who knows it. */
  readonly kind: RequestedKind;
}

export const DEFAULT_CLEAN_OPTIONS: CleanOptions = Object.freeze({
  maxBytes: CLEAN_MAX_BYTES,
  maxBlocks: CLEAN_MAX_BLOCKS,
  timeBudgetMs: CLEAN_TIME_BUDGET_MS,
  workBudget: CLEAN_WORK_BUDGET_UNITS,
  maxRuleMatches: RULES_MAX_MATCHES_PER_PAGE,
  maxRuleScanCharacters: RULES_MAX_SCAN_CHARACTERS,
  // `npm run eval` measures rules plus the classifier above rules alone on the held-out pages of sites with
  // rules (dragnet 8+ page sites 0.930 vs 0.755 shingle F1, cleanportaleval 0.956 vs 0.777).
  withRules: "rules+classifier",
  mode: "auto",
  // Benchmarks and readers of an article leave comments out (trafilatura's default too).
  comments: "exclude",
  articleTitle: "keep",
  // Readability's textContent and the article-body benchmarks leave the headline and byline out; a reader app shows
  // them from the metadata (JSON's title, byline, published). `npm run eval` scores each set by its gold's convention.
  textScope: "body",
  frontMatter: false,
  kind: "auto",
});

export interface CleanInput {
  readonly html: string;
  readonly url?: string;
  /** The site whose rules apply ("" for none). */
  readonly site: string;
  readonly format: CleanFormat;
  readonly ruleSet: CompiledRuleSet | null;
  readonly model: ClassifierModel | null;
  readonly rewriter: HtmlRewriterBackend;
  readonly options?: Partial<CleanOptions>;
  /** A request's own selectors (X-Target-Selector, X-Remove-Selector), in every mode; parsed by the caller. */
  readonly selectors?: RequestSelectors;
  /**
   * The request's signal: once it aborts (the client hung up), the page's work stops at the next check, as past its
   * budget (between stages, a large page's slices and rule matches): a "time-budget" bailout whose detail says so.
   */
  readonly signal?: AbortSignal;
}

/** Selectors a request brings: keep only what `target` matches (when it matches anything), and remove what `remove` matches. */
export interface RequestSelectors {
  readonly target: SelectorList | null;
  readonly remove: SelectorList | null;
}

/**
 * Elements each selector matched on the page (only those that ran): the site's strip and keep, the position of the
 * site's main entry that matched (-1: none did), and the request's target and remove.
 */
export interface SelectorCounts {
  readonly strip?: number;
  readonly main?: number;
  readonly keep?: number;
  readonly target?: number;
  readonly remove?: number;
}

export type CleanResult =
  | {
      readonly ok: true;
      readonly body: string;
      readonly contentType: string;
      readonly mode: CleanMode;
      readonly site: string;
      readonly title: string;
      readonly lang: string;
      /** What the page is (classify/kind.ts), "unknown" where it does not tell; how that was found. */
      readonly kind: PageKind;
      readonly kindEvidence: PageKindFinding["evidence"];
      readonly removed: RemovalCounts;
      /** What the selectors matched, when any ran. */
      readonly selectors?: SelectorCounts;
      /** A script, style or the like left open swallowed the rest of the page (PageModel.unclosedRawText). */
      readonly unclosedRawText: boolean;
      /** Stage name → milliseconds (coarse in workerd: see above). */
      readonly timings: Readonly<Record<string, number>>;
      /** Units of work counted (work-meter.ts), against options.workBudget. */
      readonly work: number;
    }
  | { readonly ok: false; readonly bailout: CleanBailout; readonly detail: string; readonly fallback: Fallback };

/** What the pipeline's stages give back: the result, or a bailout before its fallback is written. */
type PipelineResult = Extract<CleanResult, { ok: true }> | { readonly ok: false; readonly bailout: CleanBailout; readonly detail: string };

/** The Content-Type of each format's answer (a HEAD of the answer names it without cleaning). */
export const CONTENT_TYPES: Readonly<Record<CleanFormat, string>> = {
  html: "text/html; charset=utf-8",
  article: "text/html; charset=utf-8",
  annotated: "text/html; charset=utf-8",
  text: "text/plain; charset=utf-8",
  markdown: "text/markdown; charset=utf-8",
  json: "application/json; charset=utf-8",
};

/** Cleans one page. Never throws: failures come back as bailouts, each with its fallback in the format asked for. */
export async function clean(input: CleanInput): Promise<CleanResult> {
  const result = await guardedPipeline(input, { ...DEFAULT_CLEAN_OPTIONS, ...input.options });
  if (result.ok) return result;
  return { ...result, fallback: await bailoutFallback({ ...input, bailout: result.bailout }) };
}

async function guardedPipeline(input: CleanInput, options: CleanOptions): Promise<PipelineResult> {
  try {
    return await runPipeline(input, options);
  } catch (error) {
    return { ok: false, bailout: "internal-error", detail: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}

/** A page that was not cleaned, and why: what bailoutFallback needs. `html` is null when the page could not be decoded or held. */
export interface BailedPage {
  readonly html: string | null;
  readonly url?: string;
  readonly site: string;
  readonly format: CleanFormat;
  readonly bailout: BailoutCode;
  readonly rewriter: HtmlRewriterBackend;
  readonly options?: Partial<CleanOptions>;
}

/**
 * The answer for a page that was not cleaned, in the format asked for, keeping that format's promise whatever the
 * page holds (FALLBACK_BY_BAILOUT says which content each bailout gets): never the page's markup where text or safe
 * HTML is promised. Never throws: a fallback that fails gives the next, down to nothing.
 */
export async function bailoutFallback(page: BailedPage): Promise<Fallback> {
  if (page.format === "html" || page.format === "annotated") {
    return page.html === null ? emptyFallback(page) : { body: page.html, contentType: CONTENT_TYPES[page.format], content: "page" };
  }
  const planned = page.html === null ? "empty" : FALLBACK_BY_BAILOUT[page.bailout];
  if (planned === "sanitised" && page.html !== null) {
    const whole = await sanitisedWhole({ ...page, html: page.html });
    if (whole !== null) return whole;
  }
  if (planned !== "empty" && page.html !== null) {
    try {
      const paragraphs = fallbackParagraphs(page.html, CLEAN_FALLBACK_MAX_CHARACTERS);
      return writtenFallback(page, "text", { text: fallbackText(paragraphs), markdown: fallbackMarkdown(paragraphs), content: fallbackArticle(paragraphs) });
    } catch {
      // Nothing is left to try but the empty answer.
    }
  }
  return emptyFallback(page);
}

/** The empty answer of a format (json: the reader document with no text), for a page that could not be decoded or held. */
export function emptyFallback(page: Omit<BailedPage, "rewriter" | "html">): Fallback {
  if (page.format === "html" || page.format === "annotated") return { body: "", contentType: CONTENT_TYPES[page.format], content: "empty" };
  return writtenFallback({ ...page, html: null }, "empty", { text: "", markdown: "", content: "" });
}

/** The whole page cleaned again with nothing to remove (no rules, no model, no selectors); null when that bails out too. */
async function sanitisedWhole(page: BailedPage & { readonly html: string }): Promise<Fallback | null> {
  const input: CleanInput = { html: page.html, url: page.url, site: page.site, format: page.format, ruleSet: null, model: null, rewriter: page.rewriter };
  const result = await guardedPipeline(input, { ...DEFAULT_CLEAN_OPTIONS, ...page.options, mode: "none" });
  if (!result.ok) return null;
  if (page.format !== "json") return { body: result.body, contentType: result.contentType, content: "sanitised" };
  const document = JSON.parse(result.body) as Record<string, unknown>;
  return { body: JSON.stringify({ ...document, bailout: page.bailout, fallback: "sanitised" }), contentType: result.contentType, content: "sanitised" };
}

/** A fallback of written text in the format asked for; json: the reader document holding it (the page in `html`), with `bailout` and `fallback` set. */
function writtenFallback(page: Omit<BailedPage, "rewriter">, content: "text" | "empty", written: WrittenFormats): Fallback {
  const contentType = CONTENT_TYPES[page.format];
  switch (page.format) {
    case "text":
      return { body: written.text, contentType, content };
    case "markdown":
      return { body: written.markdown, contentType, content };
    case "json": {
      const document = {
        url: page.url ?? null, site: page.site, title: null, lang: null, byline: null, published: null, leadImage: null, siteName: null, excerpt: null,
        wordCount: countWords(written.text), readerable: false, text: written.text, markdown: written.markdown, html: page.html, content: written.content,
        comments: "", mode: "none", removed: { blocks: 0, chars: 0 }, timings: {}, bailout: page.bailout, fallback: content,
      };
      return { body: JSON.stringify(document), contentType, content };
    }
    default:
      return { body: written.content, contentType, content };
  }
}


function now(): number {
  return typeof performance === "undefined" ? Date.now() : performance.now();
}

/** Stage timer: each call records the page's time (`time`) since the previous one under the stage's name. */
class StageClock {
  readonly timings: Record<string, number> = {};
  private last: number;

  constructor(private readonly time: () => number) {
    this.last = time();
  }

  lap(stage: string): void {
    const time = this.time();
    this.timings[stage] = (this.timings[stage] ?? 0) + (time - this.last);
    this.last = time;
  }

  /** The timings so far with the stage under way counted up to now, without ending it (for a writer that shows them). */
  peek(stage: string): Record<string, number> {
    return { ...this.timings, [stage]: (this.timings[stage] ?? 0) + (this.time() - this.last) };
  }
}

async function runPipeline(input: CleanInput, options: CleanOptions): Promise<PipelineResult> {
  const deadline = now() + options.timeBudgetMs;
  const work = new WorkMeter(options.workBudget);
  // The clock where it runs (Node, local workerd), the counted work everywhere (deployed workerd's clock stands still).
  // The deadline counts a large page's pauses too: a page in a busy isolate is passed through in time, not starved.
  const left = (): boolean => input.signal?.aborted === true;
  const expired = (): boolean => work.exhausted || now() > deadline || left();
  const paced = new PacedRun(expired);
  // Stage timings leave the pauses out: while paused, the isolate works for other requests.
  const clock = new StageClock(() => now() - paced.pausedMs);
  const pastBudget = (stage: string): PipelineResult => ({
    ok: false, bailout: "time-budget",
    detail: left() ? `the client left: stopped at ${stage} after ${Math.round(work.units)} units of work`
      : work.exhausted ? `over ${options.workBudget} units of work at ${stage}` : `over ${options.timeBudgetMs} ms at ${stage}`,
  });
  if (left()) return pastBudget("the start");
  const size = utf8Length(input.html, options.maxBytes);
  if (size > options.maxBytes) return { ok: false, bailout: "too-large", detail: `page over ${options.maxBytes} bytes` };
  // A large page gives the isolate back between stages and between slices of its walks, so that requests arriving
  // meanwhile (/healthz, small pages) are answered.
  const bySize = size >= CLEAN_YIELD_MIN_BYTES ? paced : AT_ONCE;
  const mode = chooseMode(input, options);
  const usesRules = mode === "rules" || mode === "rules+classifier";
  // 1 analyse
  const page = await bySize.run(analysePageSlices(input.html, { metadata: showsMetadata(input.format, options), scanLog: walksMarkup(input.format) || matchesSelectors(input, usesRules), noscriptContent: showsText(input.format) }));
  if (page === null) return pastBudget("analyse");
  work.spend(page.source.length / CHARACTERS_PER_UNIT + page.blockCount + page.textNodeCount);
  clock.lap("analyse");
  if (page.blockCount > options.maxBlocks) {
    return { ok: false, bailout: "too-many-blocks", detail: `${page.blockCount} blocks, limit ${options.maxBlocks}` };
  }
  if (expired()) return pastBudget("analyse");
  const kind: PageKindFinding = options.kind === "auto" ? recognisePageKind(page) : { kind: options.kind, evidence: "forced" };
  // A page of many blocks pauses as well, whatever its size: the classifier's stages cost per block.
  const pacing = page.blockCount >= CLEAN_YIELD_MIN_BLOCKS ? paced : bySize;
  await pacing.pause();
  // 2 rules
  const headlines = usesRules ? headlineBlocks(page, titleWithoutSiteName(page, pageUrlOf(input)) ?? "") : null;
  const rules = usesRules ? planFromRules(page, input.ruleSet, headlines, { expired, maxMatches: options.maxRuleMatches, maxScanCharacters: options.maxRuleScanCharacters }) : null;
  if (rules !== null) work.spend(page.blockCount);
  if (rules?.overflow === "time-budget") return pastBudget("rules");
  if (rules?.overflow) return { ok: false, bailout: rules.overflow, detail: `rules of ${input.site} stopped: ${rules.overflow}` };
  const rulesPlan = rules?.plan ?? null;
  clock.lap("rules");
  // 3 classify, 4 smooth
  const classified = mode === "classifier" || mode === "rules+classifier" ? await classifyWithModel(page, input.model, kind.kind, clock, pacing) : null;
  // A large page's slices stop once its budget is spent (classifyWithModel then gives null, as without a model).
  if (expired()) return pastBudget("classify");
  // Features and scores per block, smoothing per block and score level.
  if (classified !== null) work.spend(page.blockCount * (2 + SMOOTHING_SCORE_LEVELS));
  const classifierPlan = classified?.plan ?? null;
  // 5 decide
  const trusted = classifierPlan !== null && leavesNoText(page, classifierPlan) ? null : classifierPlan;
  const comments = trusted !== null && classified !== null ? classified.comments : null;
  const siteSelectors = usesRules ? input.ruleSet?.selectors ?? null : null;
  // Metadata selectors only read: they apply whatever cleans the page.
  const metadataSelectors = input.ruleSet?.selectors?.metadata ?? null;
  const selected = applySelectors(page, withComments(page, withoutHidden(page, decide(page, rulesPlan, trusted), trusted !== null, rulesPlan === null && trusted === null, input.format), comments, options.comments), siteSelectors, headlines, metadataSelectors, input.selectors);
  const plan = selected.plan;
  const decidedMode = trusted === classifierPlan ? mode : rulesPlan !== null ? "rules" : "none";
  const removed = plan.counts;
  work.spend(page.blockCount);
  clock.lap("decide");
  if (expired()) return pastBudget("classify");
  await pacing.pause();
  // 6 rewrite
  let html = page.source;
  if ((input.format === "html" || input.format === "json") && (removed.blocks + removed.chars > 0 || plan.removedElements !== undefined || declaresOtherCharset(page))) {
    const rewritten = await rewriteHtml(page, plan, input.rewriter, { cutClosedBlocks: true });
    if (!rewritten.ok) return { ok: false, bailout: "rewrite-failed", detail: `${rewritten.reason}: ${rewritten.detail}` };
    html = rewritten.html;
  }
  if (html !== page.source) work.spend(html.length / CHARACTERS_PER_UNIT);
  clock.lap("rewrite");
  if (expired()) return pastBudget("rewrite");
  await pacing.pause();
  // 7 format
  const body = await pacing.run(formatSlices(input, options, page, plan, html, decidedMode, kind.kind, clock, comments, selected.metadata, work));
  if (body === null) return pastBudget("format");
  clock.lap("format");
  if (expired()) return pastBudget("format");
  return {
    ok: true, body, contentType: CONTENT_TYPES[input.format], mode: decidedMode, site: input.site, title: titleWithoutSiteName(page, pageUrlOf(input)) ?? "", lang: page.lang,
    kind: kind.kind, kindEvidence: kind.evidence, removed, timings: clock.timings, work: Math.round(work.units), unclosedRawText: page.unclosedRawText === true, ...(selected.counts === null ? {} : { selectors: selected.counts }),
  };
}

/** The page's URL, or where it is not given, the site's key as one (it names the host, and maybe a path). */
function pageUrlOf(input: CleanInput): string | undefined {
  return input.url ?? (input.site === "" ? undefined : `http://${input.site}`);
}

/** UTF-8 length of a string, counted only as far as needed to know whether it passes `limit`. */
function utf8Length(text: string, limit: number): number {
  if (text.length * 3 <= limit) return text.length; // even all three-byte characters would fit
  if (text.length > limit) return text.length;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code >= 0xd800 && code <= 0xdbff ? 2 : 3; // a surrogate pair: 2 + 2
  }
  return bytes;
}

function chooseMode(input: CleanInput, options: CleanOptions): CleanMode {
  const hasRules = input.ruleSet !== null && (input.ruleSet.rules.length > 0 || selectorsClean(input.ruleSet.selectors ?? null));
  const hasModel = input.model !== null;
  if (options.mode !== "auto") {
    const needsRules = options.mode === "rules" || options.mode === "rules+classifier";
    const needsModel = options.mode === "classifier" || options.mode === "rules+classifier";
    return (needsRules && !hasRules) || (needsModel && !hasModel) ? "none" : options.mode;
  }
  // A set that measured which mode cleans its site best (RuleSet.defaultMode) decides, where what it needs is loaded.
  const chosen = input.ruleSet?.defaultMode;
  if (hasRules && chosen === "rules") return "rules";
  if (hasModel && chosen === "classifier") return "classifier";
  if (hasRules) return hasModel && options.withRules === "rules+classifier" ? "rules+classifier" : "rules";
  return hasModel ? "classifier" : "none";
}

/** The rules' plan, or why matching stopped (a cap or the time budget: the page is passed through, not cut unevenly). */
function planFromRules(
  page: PageModel, ruleSet: CompiledRuleSet | null, headlines: Uint8Array | null, limits: { expired: () => boolean; maxMatches: number; maxScanCharacters: number },
): { plan: NormalisedPlan | null; overflow: RuleOverflow | null } {
  if (ruleSet === null) return { plan: null, overflow: null };
  const matching = matchRules(ruleSet, page.text, limits);
  return { plan: matching.overflow === null ? keepingHeadline(page, planFromIntervals(page, matching.intervals), headlines) : null, overflow: matching.overflow };
}

/**
 * No site rule (text, main or strip) takes the last statement of the article's headline (headlineBlocks): the title of
 * a post repeats, on other pages of its site, in lists of popular or recent posts, so a text rule mined from those
 * lists matches the post's own title as well, and the title's container looks like template to the miner. Where the
 * plan removes every block that states the headline, the first of them (the article's title comes before the lists
 * that repeat it) is kept.
 */
function keepingHeadline(page: PageModel, plan: NormalisedPlan, headlines: Uint8Array | null): NormalisedPlan {
  if (headlines === null) return plan;
  let first = -1;
  for (let block = 1; block < page.blockCount; block++) {
    if (headlines[block] === 0) continue;
    if (keepsBlockText(page, plan, block)) return plan;
    if (first < 0) first = block;
  }
  const blocks = new Uint8Array(page.blockCount);
  blocks[first] = 1;
  return keepWhole(page, plan, blocks);
}

/** Whether a plan keeps all of a block's text: neither it nor an ancestor goes whole, and no removed text range reaches into it. */
function keepsBlockText(page: PageModel, plan: NormalisedPlan, block: number): boolean {
  if (plan.removedWithAncestor[block] === 1) return false;
  const start = page.blocks.textStart[block];
  const end = page.blocks.textEnd[block];
  const ranges = plan.removedText;
  for (let i = 0; i + 1 < ranges.length; i += 2) if (ranges[i] < end && ranges[i + 1] > start) return false;
  return true;
}

/** The classifier's plan, and the page's comment blocks (block ordinal → 1), which its features tell; null without a model, or once a paced page's budget is spent. */
async function classifyWithModel(page: PageModel, model: ClassifierModel | null, kind: PageKind, clock: StageClock, pacing: Pacing): Promise<{ plan: NormalisedPlan; comments: Uint8Array } | null> {
  if (model === null) return null;
  const features = await pacing.run(computeFeaturesSlices(page));
  if (features === null) return null;
  await pacing.pause();
  const scores = scoreBlocks(features, model);
  clock.lap("classify");
  await pacing.pause();
  const { plan, comments } = classifyPage(page, model, { smoothing: true, scores, features, kind });
  clock.lap("smooth");
  return { plan, comments };
}

/** The plan with the comment blocks removed, or kept whole (nothing to do where the classifier did not run). */
function withComments(page: PageModel, plan: NormalisedPlan, comments: Uint8Array | null, choice: CommentsChoice): NormalisedPlan {
  if (comments === null || !comments.includes(1)) return plan;
  return choice === "include" ? keepComments(page, plan, comments) : mergePlans(page, plan, commentPlan(comments));
}

/**
 * A classifier plan that removes every character of a page with text has misjudged the page (a fragment,
 * a page unlike any it was trained on): no page is all template. Such a plan is dropped, not applied.
 */
function leavesNoText(page: PageModel, plan: NormalisedPlan): boolean {
  return !keepsText(page, plan) && page.text.trim() !== "";
}

/**
 * The plan with the selectors applied, in this order: the site's main (the first entry that matches an element with
 * text, mainMatches: only it is kept), strip (removed), keep (never removed); then the request's target (only it is
 * kept, when it matches anything) and remove (removed). The site's metadata selectors are matched in the same scan
 * and only read.
 * No selectors: the plan as it is, untouched.
 */
function applySelectors(
  page: PageModel, plan: NormalisedPlan, site: SiteSelectors | null, headlines: Uint8Array | null, metadataSelectors: SiteSelectors["metadata"] | null, request: RequestSelectors | undefined,
): { plan: NormalisedPlan; counts: SelectorCounts | null; metadata: MetadataOverride | undefined } {
  const main = site?.main ?? [];
  const named: [keyof SelectorCounts, SelectorList | null][] = [
    ["strip", site?.strip ?? null], ["keep", site?.keep ?? null], ["target", request?.target ?? null], ["remove", request?.remove ?? null],
  ];
  const present = named.filter((entry): entry is [keyof SelectorCounts, SelectorList] => entry[1] !== null);
  const metadataLists = METADATA_FIELDS.map(([, field]) => metadataSelectors?.[field] ?? []);
  if (present.length === 0 && main.length === 0 && metadataLists.every((lists) => lists.length === 0)) return { plan, counts: null, metadata: undefined };
  const matches = matchSelectors(page, [...present.map(([, list]) => list), ...main, ...metadataLists.flat()]);
  const metadata = selectedMetadata(page, matches.slice(present.length + main.length), metadataLists);
  const found = new Map<keyof SelectorCounts, SelectorMatch>(present.map(([name], index) => [name, matches[index]]));
  const counts: Record<string, number> = {};
  for (const [name, match] of found) counts[name] = match.elements;
  let result = plan;
  if (main.length > 0) {
    const chosen = matches.slice(present.length, present.length + main.length).findIndex((match) => mainMatches(page.text, match));
    counts.main = chosen;
    if (chosen >= 0) result = mergePlans(page, result, keepingHeadline(page, planKeepingOnlySelected(page, matches[present.length + chosen]), headlines));
  }
  const strip = found.get("strip");
  if (strip !== undefined && strip.elements > 0) result = mergePlans(page, result, keepingHeadline(page, planRemovingSelected(page, strip), headlines));
  const keep = found.get("keep");
  if (keep !== undefined && keep.elements > 0) result = planKeepingSelected(page, result, keep);
  const target = found.get("target");
  if (target !== undefined && target.elements > 0) result = mergePlans(page, result, planKeepingOnlySelected(page, target));
  const remove = found.get("remove");
  if (remove !== undefined && remove.elements > 0) result = mergePlans(page, result, planRemovingSelected(page, remove));
  // Matched elements that are not blocks lost their text above; where nothing keeps them, their markup goes too.
  const bit = (name: keyof SelectorCounts): number => 1 << present.findIndex(([entry]) => entry === name);
  const removing = (strip !== undefined ? bit("strip") : 0) | (remove !== undefined ? bit("remove") : 0);
  if (removing !== 0) result = withRemovedElements(page, result, matches[0].inline, removing, keep !== undefined ? bit("keep") : 0);
  return { plan: result, counts: present.length + main.length === 0 ? null : counts, metadata };
}

/** The reader fields a site's metadata selectors fill, and the selector field each is read from. */
const METADATA_FIELDS = [["title", "title"], ["byline", "byline"], ["published", "date"]] as const;

/**
 * What the site's metadata selectors find: per field, the first entry that matches and holds a value (the text of
 * the first matched element, white space collapsed; for the date its datetime attribute first). Unset where none does.
 */
function selectedMetadata(page: PageModel, matches: readonly SelectorMatch[], lists: readonly (readonly SelectorList[])[]): MetadataOverride | undefined {
  const found: Record<string, string> = {};
  let offset = 0;
  METADATA_FIELDS.forEach(([field], index) => {
    for (const match of matches.slice(offset, offset + lists[index].length)) {
      const value = selectedValue(page, match, field === "published");
      if (value === undefined) continue;
      found[field] = value;
      break;
    }
    offset += lists[index].length;
  });
  return Object.keys(found).length === 0 ? undefined : found;
}

function selectedValue(page: PageModel, match: SelectorMatch, isDate: boolean): string | undefined {
  const [start, nameEnd, tagEnd] = match.firstElement;
  if (isDate && start >= 0) {
    const datetime = readAttribute(page.source, nameEnd, tagEnd, "datetime")?.trim() ?? "";
    if (datetime !== "") return datetime;
  }
  if (match.text.length === 0) return undefined;
  const value = page.text.slice(match.text[0], match.text[1]).replace(/\s+/g, " ").trim();
  return value === "" ? undefined : value;
}

function decide(page: PageModel, rulesPlan: NormalisedPlan | null, classifierPlan: NormalisedPlan | null): NormalisedPlan {
  if (rulesPlan !== null && classifierPlan !== null) return mergePlans(page, rulesPlan, classifierPlan);
  return rulesPlan ?? classifierPlan ?? emptyPlan(page);
}

/**
 * The plan without the page's hidden elements (classify/hidden.ts), whatever cleans the page: no reader sees them, so
 * no format that shows text holds them, in any mode. The classifier's plan has them out already; the html and annotated
 * formats of a page nothing cleans (mode none) are the page as it came, where a browser hides them itself.
 */
function withoutHidden(page: PageModel, plan: NormalisedPlan, classified: boolean, nothingCleans: boolean, format: CleanFormat): NormalisedPlan {
  if (classified || (nothingCleans && (format === "html" || format === "annotated"))) return plan;
  const hidden = hiddenBlocks(page);
  return hidden.includes(1) ? mergePlans(page, plan, { removedBlocks: hidden, removedText: new Int32Array(0) }) : plan;
}

/** Whether the output is the page's text (all but html and annotated, which are the page itself): a <noscript> that holds the main text is then read as content (page/noscript.ts). */
function showsText(format: CleanFormat): boolean {
  return format !== "html" && format !== "annotated";
}

/** Whether a writer walks the page's markup (Markdown, the article, json holding both): pass 1 then records its walk for it. */
function walksMarkup(format: CleanFormat): boolean {
  return format === "markdown" || format === "article" || format === "json";
}

/**
 * Whether applySelectors will match selectors on the page: the site's strip, main and keep where its rules clean it,
 * its metadata selectors whatever cleans it, the request's. Pass 1 then records its walk for them (without the record
 * the matcher scans the page again: the same matches, slower).
 */
function matchesSelectors(input: CleanInput, usesRules: boolean): boolean {
  const site = input.ruleSet?.selectors ?? null;
  return (usesRules && selectorsClean(site)) || selectorsReadMetadata(site) || (input.selectors?.target ?? null) !== null || (input.selectors?.remove ?? null) !== null;
}

/** Whether the output shows the page's reader metadata: pass 1 then gathers it in the same walk. */
function showsMetadata(format: CleanFormat, options: CleanOptions): boolean {
  return format === "json" || (format === "markdown" && options.frontMatter) || (format === "article" && options.articleTitle !== "keep");
}

/**
 * How a page's long walks run: at once (`run` finishes every slice, `pause` does nothing), or, on a large page,
 * with the isolate given back to other requests between stages and between slices of a walk (slices.ts), and
 * stopped between slices once the page's budget is spent (`run` then gives null).
 */
interface Pacing {
  pause(): Promise<void>;
  run<T>(slices: Slices<T>): Promise<T | null>;
}

const AT_ONCE: Pacing = {
  pause: async () => {},
  run: async (slices) => finishSlices(slices),
};

/**
 * One turn of the event loop, in which waiting I/O (other requests) is handled. setImmediate where the runtime has it
 * (workerd with nodejs_compat, Node): Node stretches setTimeout(0) to at least 1 ms, which a large page's dozens of
 * pauses would add to its time with the isolate idle.
 */
const setImmediateOf = (globalThis as { setImmediate?: (callback: () => void) => unknown }).setImmediate?.bind(globalThis);
const nextTurn: () => Promise<void> = setImmediateOf !== undefined
  ? () => new Promise((resume) => setImmediateOf(resume))
  : () => new Promise((resume) => setTimeout(resume, 0));

/** Pauses that let the event loop run what waits (other requests) before going on, and the time they took. */
class PacedRun implements Pacing {
  pausedMs = 0;

  constructor(private readonly expired: () => boolean) {}

  async pause(): Promise<void> {
    const started = now();
    await nextTurn();
    this.pausedMs += now() - started;
  }

  run<T>(slices: Slices<T>): Promise<T | null> {
    return pacedSlices(slices, () => this.pause(), this.expired);
  }
}

/**
 * Kinds whose page is a list of items: no article header to leave out of the text (textScope "body"), as the first
 * item's headline and summary are the first of the content (the sample front page's first teaser was left out). No
 * dev page whose gold leaves the header out (scrapinghub, wceb2026's articles) is recognised as one.
 */
const LIST_KINDS: ReadonlySet<PageKind> = new Set(["listing", "collection"]);

/** The format stage: the writers that walk the markup (Markdown, the article, json's three) run in slices, the rest at once. */
function* formatSlices(
  input: CleanInput, options: CleanOptions, page: PageModel, plan: NormalisedPlan, html: string, mode: CleanMode, kind: PageKind,
  clock: StageClock, comments: Uint8Array | null, metadata: MetadataOverride | undefined, work: WorkMeter,
): Slices<string> {
  switch (input.format) {
    case "html":
      return html;
    case "annotated":
      return annotateHtml(page, plan).html;
    case "text":
      return options.textScope === "body" && !LIST_KINDS.has(kind) ? writeText(page, plan, work, articleBody(page, plan, titleWithoutSiteName(page, pageUrlOf(input)))) : writeText(page, plan, work);
    case "markdown": {
      const markdown = yield* writeMarkdownSlices(page, plan, { baseUrl: input.url, work });
      if (!options.frontMatter) return markdown;
      const { title, byline, published } = readerMetadata(page, input.url, metadata);
      return withFrontMatter(markdown, { title, url: input.url ?? null, byline, published });
    }
    case "article":
      return yield* writeArticleSlices(page, plan, { baseUrl: input.url, header: options.articleTitle === "header", omitTitleHeading: options.articleTitle === "omit", metadata, work });
    case "json": {
      // The three writers one at a time, a pause between them.
      const text = writeText(page, plan, work);
      yield;
      const markdown = yield* writeMarkdownSlices(page, plan, { baseUrl: input.url, work });
      yield;
      const content = yield* writeArticleSlices(page, plan, { baseUrl: input.url, omitTitleHeading: true, metadata, work });
      yield;
      const written: WrittenFormats = { text, markdown, content };
      const document = buildReaderDocument(page, plan, { url: input.url, site: input.site, mode, kind, html, timings: {}, comments: comments === null ? "" : commentText(page, comments), metadata, work, written });
      // Writing the document is the format stage: timed up to its serialising, so the JSON shows every stage, format too.
      return JSON.stringify({ ...document, timings: clock.peek("format") });
    }
  }
}
