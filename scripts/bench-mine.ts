/**
 * npm run bench:mine [-- --runs N]
 *
 * Throughput of the miner on all dev pages of ../shared/data, stage by stage: tokens per second and MB of
 * HTML per second (medians of N runs), peak memory, the suffix array beside a plain comparison sort of the
 * same suffixes, and the time a site of 1,000 pages of 100 KB would take on one core, extrapolated from the
 * measured throughput. Two workloads: every site mined on its own (what `npm run mine` does), and all dev
 * pages as one site (one large corpus: the suffix array's worst case here).
 */
import type { SiteMining } from "../src/mining/index";
import { integerOption, parseCommand, runCommand, usageText, type Command } from "./lib/cli";
import type { InputSite } from "./mining-input";

const COMMAND: Command = {
  name: "bench:mine",
  usage: usageText("bench-mine"),
};

const { values } = parseCommand(COMMAND, { options: { runs: { type: "string" } } });
const runs = integerOption(COMMAND, "runs", values.runs, 5);
// Loaded after the arguments are read, so that --help and a mistyped option answer at once.
const { DATA_SETS, hasData } = await import("../src/evaluation/index");
const {
  buildCorpus, buildLcpArray, buildSuffixArray, candidateKeys, DEFAULT_MINING_OPTIONS, documentHistogram, filterAcrossSites, filterRepeats, findCutoff,
  findMaximalRepeats, mineSites, sortSuffixesByComparison, writeRuleSet,
} = await import("../src/mining/index");
const { loadSites, pageTextOf } = await import("./mining-input");

const STAGES = ["analyse", "tokens", "suffix array", "lcp", "repeats", "filters", "cutoff", "cross-site", "rules"] as const;
type Stage = (typeof STAGES)[number];
type StageTimes = Record<Stage, number>;

/** The extrapolation target of issue 3: 1,000 pages of about 100 KB, under 30 s on one core. */
const TARGET_PAGES = 1000;
const TARGET_PAGE_BYTES = 100 * 1000;
const TARGET_SECONDS = 30;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** One run of the whole pipeline over groups of pages (each group one site); milliseconds per stage. */
function runOnce(groups: readonly InputSite[]): { times: StageTimes; tokens: number } {
  const times = Object.fromEntries(STAGES.map((stage) => [stage, 0])) as StageTimes;
  let clock = performance.now();
  const lap = (stage: Stage) => {
    const now = performance.now();
    times[stage] += now - clock;
    clock = now;
  };
  const options = DEFAULT_MINING_OPTIONS;
  const minings: SiteMining[] = [];
  let tokens = 0;
  for (const group of groups) {
    const texts = group.pages.map((page) => pageTextOf(page.html));
    lap("analyse");
    const corpus = buildCorpus(texts);
    tokens += corpus.tokens.length - corpus.pageCount;
    lap("tokens");
    const suffixArray = buildSuffixArray(corpus.tokens, corpus.maxToken);
    lap("suffix array");
    const lcp = buildLcpArray(corpus.tokens, suffixArray);
    lap("lcp");
    const repeats = findMaximalRepeats(
      { tokens: corpus.tokens, documentOf: corpus.documentOf, documentCount: corpus.pageCount, suffixArray, lcp },
      { minimumTokens: options.minimumTokens, minimumDocuments: Math.min(options.minimumDocuments, corpus.pageCount) },
    );
    lap("repeats");
    const relevant = filterRepeats(corpus, suffixArray, repeats, options);
    const strings: number[] = [];
    for (let r = 0; r < repeats.size; r++) if (relevant[r] === 1) strings.push(r);
    lap("filters");
    const histogram = documentHistogram(Int32Array.from(strings, (r) => repeats.documents[r]!), corpus.pageCount, options.bins);
    const cutoff = findCutoff(histogram, corpus.pageCount, options);
    const candidates = Int32Array.from(strings.filter((r) => repeats.documents[r]! >= cutoff.minimumDocuments));
    minings.push({ corpus, suffixArray, repeats, strings: strings.length, relevant: Int32Array.from(strings), histogram, cutoff, candidates, timings: { tokens: 0, suffixArray: 0, lcp: 0, repeats: 0, cutoff: 0, rules: 0 } });
    lap("cutoff");
  }
  const dropped = filterAcrossSites(minings.map((mining) => ({ candidates: candidateKeys(mining) })), options);
  lap("cross-site");
  minings.forEach((mining, index) => {
    writeRuleSet(mining, mining.candidates.filter((_r, k) => dropped[index]![k] === 0), "bench.example", new Date(0).toISOString(), options);
  });
  lap("rules");
  return { times, tokens };
}

function report(title: string, groups: readonly InputSite[], runs: number): number {
  const bytes = groups.reduce((sum, group) => sum + group.pages.reduce((total, page) => total + page.bytes, 0), 0);
  const pages = groups.reduce((sum, group) => sum + group.pages.length, 0);
  const samples: StageTimes[] = [];
  let tokens = 0;
  for (let run = 0; run < runs; run++) {
    const result = runOnce(groups);
    samples.push(result.times);
    tokens = result.tokens;
  }
  console.log(`\n${title}: ${groups.length} site(s), ${pages} pages, ${(bytes / 1e6).toFixed(1)} MB of HTML, ${tokens.toLocaleString("en")} tokens; median of ${runs} runs`);
  console.log(`${"stage".padEnd(14)}${"ms".padStart(10)}${"M tokens/s".padStart(13)}${"MB HTML/s".padStart(12)}`);
  let totalMilliseconds = 0;
  for (const stage of [...STAGES, "total"] as const) {
    const milliseconds = stage === "total" ? totalMilliseconds : median(samples.map((sample) => sample[stage]));
    if (stage !== "total") totalMilliseconds += milliseconds;
    const seconds = milliseconds / 1000;
    console.log(
      `${stage.padEnd(14)}${milliseconds.toFixed(1).padStart(10)}${(tokens / seconds / 1e6).toFixed(2).padStart(13)}${(bytes / seconds / 1e6).toFixed(1).padStart(12)}`,
    );
  }
  return bytes / (totalMilliseconds / 1000);
}

/**
 * A large site with a real template: every dev page's text between the head (first 40% of the lines) and
 * the tail (last 20%) of a page of the largest dev site, taken in turn. Real, distinct content; a template
 * repeated on every page, as on a site of a thousand articles.
 */
function simulatedSiteTexts(template: InputSite, pages: InputSite["pages"]): string[] {
  const templateLines = template.pages.map((page) => pageTextOf(page.html).split("\n"));
  return pages.map((page, index) => {
    const lines = templateLines[index % templateLines.length]!;
    const head = lines.slice(0, Math.floor(lines.length * 0.4));
    const tail = lines.slice(Math.floor(lines.length * 0.8));
    return [...head, pageTextOf(page.html), ...tail].join("\n");
  });
}

function compareSuffixSorts(title: string, texts: readonly string[]): void {
  const corpus = buildCorpus(texts);
  const timeOf = (work: () => Int32Array): { milliseconds: number; result: Int32Array } => {
    const started = performance.now();
    const result = work();
    return { milliseconds: performance.now() - started, result };
  };
  const linear = [0, 1, 2].map(() => timeOf(() => buildSuffixArray(corpus.tokens, corpus.maxToken)));
  const comparison = timeOf(() => sortSuffixesByComparison(corpus.tokens));
  const same = linear[0]!.result.every((value, index) => value === comparison.result[index]);
  const linearMilliseconds = median(linear.map((sample) => sample.milliseconds));
  console.log(`\nsuffix array of ${corpus.tokens.length.toLocaleString("en")} tokens (${title}):`);
  console.log(`  SA-IS (linear)            ${linearMilliseconds.toFixed(1).padStart(9)} ms  (median of 3)`);
  console.log(`  comparison sort           ${comparison.milliseconds.toFixed(1).padStart(9)} ms  ${(comparison.milliseconds / linearMilliseconds).toFixed(1)}× slower; same order: ${same}`);
}

function main(): number {
  if (!hasData()) {
    console.error("npm run bench:mine: ../shared/data is absent: the benchmark reads the dev pages there");
    return 2;
  }
  const loaded = loadSites([...DATA_SETS]);
  const sites = loaded.sites;
  const allPages: InputSite = { label: "all", site: "all.example", group: "all", pages: sites.flatMap((site) => site.pages) };
  report("every site on its own", sites, runs);
  const rate = report("all dev pages as one site", [allPages], runs);
  const allTexts = allPages.pages.map((page) => pageTextOf(page.html));
  compareSuffixSorts("all dev pages, one corpus", allTexts);
  const largest = sites.reduce((best, site) => (site.pages.length > best.pages.length ? site : best));
  const simulated = simulatedSiteTexts(largest, allPages.pages);
  compareSuffixSorts(`a simulated site: ${simulated.length} dev pages inside the template of ${largest.site}`, simulated);
  const simulatedStarted = performance.now();
  const simulatedTimes = [0, 1, 2].map(() => {
    const started = performance.now();
    mineSites([{ site: "simulated.example", pageTexts: simulated }]);
    return performance.now() - started;
  });
  const simulatedTokens = buildCorpus(simulated).tokens.length;
  console.log(`  whole miner on it (tokens to rules, no HTML analysis): ${median(simulatedTimes).toFixed(0)} ms, ${(simulatedTokens / median(simulatedTimes) / 1000).toFixed(2)} M tokens/s (median of 3; ${((performance.now() - simulatedStarted) / 1000).toFixed(1)} s in all)`);
  const targetBytes = TARGET_PAGES * TARGET_PAGE_BYTES;
  const seconds = targetBytes / rate;
  console.log(`\nextrapolated: ${TARGET_PAGES} pages × ${TARGET_PAGE_BYTES / 1000} KB = ${targetBytes / 1e6} MB of HTML at ${(rate / 1e6).toFixed(1)} MB/s → ${seconds.toFixed(1)} s on one core (target < ${TARGET_SECONDS} s)`);
  console.log(`peak memory (max RSS): ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
  return 0;
}

await runCommand(COMMAND, main);
