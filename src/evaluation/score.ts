/**
 * Scoring as in the published extraction benchmarks (../shared/data/README.md): tokens are \w+ runs
 * (Unicode letters, digits, underscore); the 4-gram shingle multisets of output and gold give tp/fp/fn per
 * page, normalised to sum 1 so that every page weighs the same; precision and recall come from the means
 * of the normalised counts over pages, F1 = 2PR/(P+R). A bag-of-words token F1 is computed the same way.
 */

/** Shingle length in tokens, as the benchmarks use. */
export const SHINGLE_SIZE = 4;

/** A token: a run of Unicode letters, digits and underscores (\w+ as the benchmarks read it). */
export const TOKEN_PATTERN = /[\p{L}\p{N}_]+/gu;

/** Normalised counts of one page: tp + fp + fn = 1. */
export interface PageCounts {
  readonly tp: number;
  readonly fp: number;
  readonly fn: number;
}

export interface PageScore {
  readonly shingles: PageCounts;
  readonly tokens: PageCounts;
}

export interface AggregateScore {
  readonly pages: number;
  readonly precision: number;
  readonly recall: number;
  readonly f1: number;
  /** Bag-of-words F1 over the same pages. */
  readonly tokenF1: number;
}

export function tokenize(text: string): string[] {
  return text.match(TOKEN_PATTERN) ?? [];
}

export function scoreText(output: string, gold: string): PageScore {
  const outputTokens = tokenize(output);
  const goldTokens = tokenize(gold);
  return {
    shingles: compareBags(shingles(outputTokens), shingles(goldTokens)),
    tokens: compareBags(outputTokens, goldTokens),
  };
}

export function aggregateScores(scores: readonly PageScore[]): AggregateScore {
  const shingle = meanCounts(scores.map((s) => s.shingles));
  const token = meanCounts(scores.map((s) => s.tokens));
  return { pages: scores.length, precision: shingle.precision, recall: shingle.recall, f1: shingle.f1, tokenF1: token.f1 };
}

function shingles(tokens: readonly string[]): string[] {
  if (tokens.length < SHINGLE_SIZE) return tokens.length === 0 ? [] : [tokens.join(" ")];
  const out: string[] = [];
  for (let i = 0; i + SHINGLE_SIZE <= tokens.length; i++) out.push(tokens.slice(i, i + SHINGLE_SIZE).join(" "));
  return out;
}

function compareBags(output: readonly string[], gold: readonly string[]): PageCounts {
  if (output.length === 0 && gold.length === 0) return { tp: 1, fp: 0, fn: 0 };
  const remaining = new Map<string, number>();
  for (const item of gold) remaining.set(item, (remaining.get(item) ?? 0) + 1);
  let tp = 0;
  for (const item of output) {
    const left = remaining.get(item) ?? 0;
    if (left > 0) {
      tp++;
      remaining.set(item, left - 1);
    }
  }
  const fp = output.length - tp;
  const fn = gold.length - tp;
  const total = tp + fp + fn;
  return { tp: tp / total, fp: fp / total, fn: fn / total };
}

/** Precision, recall and F1 of the mean normalised counts over pages (the benchmarks' aggregate). */
export function meanCounts(counts: readonly PageCounts[]): { precision: number; recall: number; f1: number } {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const c of counts) {
    tp += c.tp;
    fp += c.fp;
    fn += c.fn;
  }
  const precision = tp + fp === 0 ? 0 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 0 : tp / (tp + fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}

/**
 * The snippet measure (wceb2026's second one): of a page's `with` sentences, how many the output contains; of its
 * `without` boilerplate lines, how many it leaves out. A snippet is found by case-insensitive substring match after
 * every run of whitespace in both is made one space.
 */
export interface SnippetCounts {
  readonly withFound: number;
  readonly withTotal: number;
  readonly withoutAbsent: number;
  readonly withoutTotal: number;
}

export const NO_SNIPPETS: SnippetCounts = { withFound: 0, withTotal: 0, withoutAbsent: 0, withoutTotal: 0 };

const normaliseForSnippets = (text: string): string => text.replace(/\s+/gu, " ").trim().toLowerCase();

export function scoreSnippets(output: string, snippets: { readonly with: readonly string[]; readonly without: readonly string[] }): SnippetCounts {
  const text = normaliseForSnippets(output);
  const found = (snippet: string): boolean => text.includes(normaliseForSnippets(snippet));
  return {
    withFound: snippets.with.filter(found).length,
    withTotal: snippets.with.length,
    withoutAbsent: snippets.without.filter((snippet) => !found(snippet)).length,
    withoutTotal: snippets.without.length,
  };
}

/** The sum of snippet counts over pages. */
export function sumSnippets(counts: readonly SnippetCounts[]): SnippetCounts {
  return counts.reduce((sum, c) => ({
    withFound: sum.withFound + c.withFound, withTotal: sum.withTotal + c.withTotal, withoutAbsent: sum.withoutAbsent + c.withoutAbsent, withoutTotal: sum.withoutTotal + c.withoutTotal,
  }), NO_SNIPPETS);
}
