/**
 * Mining one site, stage by stage (paper 002, 3.2): tokens → suffix array → LCP → maximal repeats →
 * histogram cutoff; then, once the cross-site filter has spoken, rules.
 */
import type { MutablePattern as RuleSetMutablePattern, Rule, RuleSet } from "../rules/index";
import { RULESET_VERSION } from "../rules/index";
import { buildCorpus, entryAt, type SiteCorpus } from "./corpus";
import { documentHistogram, findCutoff, type Cutoff, type CutoffOptions } from "./cutoff";
import { buildLcpArray } from "./longest-common-prefix";
import { findMaximalRepeats, type RepeatTable } from "./maximal-repeats";
import type { MutablePattern } from "./mutable-patterns";
import { writePatterns, type PatternOptions } from "./rule-writer";
import { filterRepeats, type StringFilterOptions } from "./string-filters";
import { buildSuffixArray } from "./suffix-array";
import { TOKEN_CLASS } from "./tokens";

export interface SiteMiningOptions extends CutoffOptions, PatternOptions, StringFilterOptions {
  /** Repeats found in fewer pages are dropped before the histogram (paper 002, step 7). */
  readonly minimumDocuments: number;
  /** Most rules written for one site (the highest document frequencies first). */
  readonly maximumRules: number;
  /** Mutable patterns; the default list when absent. */
  readonly patterns?: readonly MutablePattern[];
}

/** Milliseconds spent in each stage of one site. */
export interface StageTimings {
  tokens: number;
  suffixArray: number;
  lcp: number;
  repeats: number;
  cutoff: number;
  rules: number;
}

export interface SiteMining {
  readonly corpus: SiteCorpus;
  readonly suffixArray: Int32Array;
  readonly repeats: RepeatTable;
  /** Repeats that passed the string filters: the strings the histogram counts. */
  readonly strings: number;
  /** Their repeat ordinals. */
  readonly relevant: Int32Array;
  readonly histogram: Float64Array;
  readonly cutoff: Cutoff;
  /** Repeat ordinals at or above the cutoff: the template candidates. */
  readonly candidates: Int32Array;
  readonly timings: StageTimings;
}

export function mineSite(pageTexts: readonly string[], options: SiteMiningOptions): SiteMining {
  const timings: StageTimings = { tokens: 0, suffixArray: 0, lcp: 0, repeats: 0, cutoff: 0, rules: 0 };
  let started = performance.now();
  const lap = (stage: keyof StageTimings): void => {
    const now = performance.now();
    timings[stage] += now - started;
    started = now;
  };
  const corpus = buildCorpus(pageTexts, options.patterns);
  lap("tokens");
  const suffixArray = buildSuffixArray(corpus.tokens, corpus.maxToken);
  lap("suffixArray");
  const scratch = new Int32Array(corpus.tokens.length);
  const lcp = buildLcpArray(corpus.tokens, suffixArray, scratch);
  lap("lcp");
  const repeats = findMaximalRepeats(
    { tokens: corpus.tokens, documentOf: corpus.documentOf, documentCount: corpus.pageCount, suffixArray, lcp },
    { minimumTokens: options.minimumTokens, minimumDocuments: Math.min(options.minimumDocuments, corpus.pageCount) },
  );
  const relevant = filterRepeats(corpus, suffixArray, repeats, options);
  const strings: number[] = [];
  for (let r = 0; r < repeats.size; r++) if (relevant[r] === 1) strings.push(r);
  lap("repeats");
  const documents = Int32Array.from(strings, (r) => repeats.documents[r]!);
  const histogram = documentHistogram(documents, corpus.pageCount, options.bins);
  const cutoff = findCutoff(histogram, corpus.pageCount, options);
  const above = strings.filter((r) => repeats.documents[r]! >= cutoff.minimumDocuments);
  lap("cutoff");
  return { corpus, suffixArray, repeats, strings: strings.length, relevant: Int32Array.from(strings), histogram, cutoff, candidates: Int32Array.from(above), timings };
}

/** Candidate ordinal → its tokens as keys comparable across sites (literal text; classes as "\u0000name"). */
export function candidateKeys(mining: SiteMining): string[][] {
  const { corpus, repeats } = mining;
  return Array.from(mining.candidates, (repeat) => {
    const keys: string[] = [];
    const start = repeats.position[repeat]!;
    for (let at = start; at < start + repeats.length[repeat]!; at++) {
      const entry = entryAt(corpus, at);
      const text = corpus.dictionary.texts[entry]!;
      keys.push(corpus.dictionary.kinds[entry] === TOKEN_CLASS ? `\u0000${text}` : text);
    }
    return keys;
  });
}

/**
 * Keeps the candidates that add coverage: longest first, a candidate stays only if one of its
 * occurrences holds a token not yet covered by the occurrences of the candidates kept before it.
 */
export function reduceContained(mining: SiteMining, candidates: Int32Array): Int32Array {
  const { repeats, suffixArray } = mining;
  const order = Array.from(candidates).sort(
    (a, b) => repeats.length[b]! - repeats.length[a]! || repeats.documents[b]! - repeats.documents[a]!,
  );
  // covered[position] = 1 once a kept candidate's occurrence spans that corpus position.
  const covered = new Uint8Array(mining.corpus.tokens.length);
  const kept: number[] = [];
  for (const repeat of order) {
    const length = repeats.length[repeat]!;
    let addsCoverage = false;
    for (let rank = repeats.firstRank[repeat]!; rank <= repeats.lastRank[repeat]! && !addsCoverage; rank++) {
      const start = suffixArray[rank]!;
      for (let at = start; at < start + length; at++) {
        if (covered[at] === 0) {
          addsCoverage = true;
          break;
        }
      }
    }
    if (!addsCoverage) continue;
    kept.push(repeat);
    for (let rank = repeats.firstRank[repeat]!; rank <= repeats.lastRank[repeat]!; rank++) {
      covered.fill(1, suffixArray[rank]!, suffixArray[rank]! + length);
    }
  }
  return Int32Array.from(kept);
}

export interface SiteRules {
  readonly ruleSet: RuleSet;
  /** Candidates dropped because a longer kept one already covers all their occurrences. */
  readonly contained: number;
  /** Tokens of kept candidates that no safe pattern could cover. */
  readonly skippedTokens: number;
}

/** The RuleSet of a site from its candidates that survived the cross-site filter. */
export function writeRuleSet(
  mining: SiteMining,
  survivors: Int32Array,
  site: string,
  minedAt: string,
  options: SiteMiningOptions,
): SiteRules {
  const started = performance.now();
  const { repeats, corpus } = mining;
  const kept = reduceContained(mining, survivors);
  const byPattern = new Map<string, Rule>();
  const usedClasses = new Set<number>();
  let skippedTokens = 0;
  for (const repeat of kept) {
    const written = writePatterns(corpus, repeats.position[repeat]!, repeats.length[repeat]!, options);
    skippedTokens += written.skippedTokens;
    for (const piece of written.patterns) {
      const known = byPattern.get(piece.pattern);
      if (known !== undefined && known.docFreq >= repeats.documents[repeat]!) continue;
      byPattern.set(piece.pattern, {
        pattern: piece.pattern,
        docFreq: repeats.documents[repeat]!,
        count: repeats.occurrences[repeat]!,
        tokens: piece.tokens,
      });
      for (let at = piece.position; at < piece.position + piece.tokens; at++) {
        const entry = entryAt(corpus, at);
        if (corpus.dictionary.kinds[entry] === TOKEN_CLASS) usedClasses.add(entry);
      }
    }
  }
  const rules = [...byPattern.values()]
    .sort((a, b) => b.docFreq - a.docFreq || b.tokens - a.tokens || (a.pattern < b.pattern ? -1 : 1))
    .slice(0, options.maximumRules);
  const mutablePatterns: RuleSetMutablePattern[] = [...usedClasses]
    .sort((a, b) => a - b)
    .map((entry) => ({ name: corpus.dictionary.patterns[entry]!.name, pattern: corpus.dictionary.patterns[entry]!.emit! }));
  const ruleSet: RuleSet = {
    version: RULESET_VERSION,
    site,
    minedAt,
    pages: corpus.pageCount,
    cutoff: mining.cutoff.share,
    mutablePatterns,
    rules,
  };
  mining.timings.rules += performance.now() - started;
  return { ruleSet, contained: survivors.length - kept.length, skippedTokens };
}
