/**
 * npm run eval:metadata: the reader metadata clean() ships (its json format, the shipped model, no site rules)
 * beside Readability's (with linkedom, as npm run eval runs it) on the dev pages of every set: per field, how many
 * pages each gives a value, how many both do and how many of those agree, in all and per set; how many of our
 * dates are ISO 8601; readerable against Readability's isProbablyReaderable; and titles against the gold headline
 * of the sets whose gold has one.
 */
import { readFileSync } from "node:fs";
import { choiceOption, fail, integerOption, parseCommand, runCommand, type Command } from "./lib/cli";
import { SHIPPED_MODEL } from "./lib/paths";
import { createProgress } from "./lib/progress";

const COMMAND: Command = {
  name: "eval:metadata",
  usage: `usage: npm run eval:metadata -- [--every N] [--list FIELD]

Cleans every Nth page of each dev set with clean() (format json, the shipped model, no site rules) and
reads the same page with Readability, then prints per field (title, byline, date, siteName, excerpt,
lang, dir, readerable):
  ours          pages where clean() gives a value (readerable: pages it calls readerable)
  readability   pages where Readability gives one (readerable: isProbablyReaderable)
  both          pages where both do (readerable: every page)
  agree         of those, the pages where the values agree: the same letters and digits (case, spaces and
                punctuation aside), or one holding the other (a byline "By Jo Bloggs, 2 May" holds "Jo Bloggs");
                dates on the same day; excerpts when the first 60 letters and digits of one are in the other;
                readerable when both say the same
  exact         of both, the pages where the two are the same text (white space collapsed)
then the agreement per set, how many of our dates are ISO 8601 (a day, or a time with its offset or none),
titles against the gold headline of the sets whose gold starts with it (l3s-gn1), and excerpts against the gold's
first paragraph where it is the article's (scrapinghub; l3s-gn1 after the headline): the excerpt's other convention,
beside a description meta first (Readability's, which the agreement measures).

  --every N       take every Nth page of each set (default 1: all pages)
  --list FIELD    also list the pages where only one gives FIELD, or both do and disagree
  --help          this text`,
};

const FIELDS = ["title", "byline", "date", "siteName", "excerpt", "lang", "dir", "readerable"] as const;
type Field = (typeof FIELDS)[number];
type Values = Record<Field, string | null>;
interface Count {
  ours: number;
  readability: number;
  both: number;
  agree: number;
  /** Of `both`, the pages where the two values are the same text (white space collapsed; dates the same instant or day as written). */
  exact: number;
}

/**
 * The sets read: every dev set, and scrapinghub (the one from the modern web) until the evaluation's own list
 * (DATA_SETS) holds it. Each set's README says what its gold holds.
 */
const EXTRA_SETS = ["scrapinghub"];
/** Sets whose gold text starts with the article's headline (l3s-gn1's README: "headline and full text"); the others' gold has none. */
const HEADLINE_GOLD_SETS: ReadonlySet<string> = new Set(["l3s-gn1"]);
/**
 * Sets whose gold's first paragraph is the article's first (scrapinghub: the body without headline; l3s-gn1 after its
 * headline line): where an excerpt is measured on the first-paragraph convention, beside Readability's own (a
 * description meta first, which agreement with Readability measures).
 */
const FIRST_PARAGRAPH_GOLD_SETS: ReadonlyMap<string, number> = new Map([["scrapinghub", 0], ["l3s-gn1", 1]]);
/** ISO 8601 as the json format writes a date: a day, or a time with seconds, an optional fraction and an optional offset. */
const ISO_8601 = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})?)?$/;

/** Letters and digits only, lower case: what two values are compared on. */
function key(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
}

/** The day a date names (YYYY-MM-DD), from an ISO string or anything Date.parse reads; null when neither. */
function dayOf(text: string): string | null {
  const iso = /(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (iso !== null) return iso[0];
  const time = Date.parse(text);
  return Number.isNaN(time) ? null : new Date(time).toISOString().slice(0, 10);
}

function agree(field: Field, ours: string, theirs: string): boolean {
  if (field === "readerable") return ours === theirs;
  if (field === "date") return dayOf(ours) !== null && dayOf(ours) === dayOf(theirs);
  if (field === "lang") return ours.toLowerCase().split(/[-_]/)[0] === theirs.toLowerCase().split(/[-_]/)[0];
  const a = key(ours);
  const b = key(theirs);
  if (a === "" || b === "") return false;
  if (field === "excerpt") return b.includes(a.slice(0, 60)) || a.includes(b.slice(0, 60));
  return a === b || a.includes(b) || b.includes(a);
}

/** The same text, white space collapsed (a value as a reader shows it). */
function sameText(ours: string, theirs: string): boolean {
  return ours.replace(/\s+/g, " ").trim() === theirs.replace(/\s+/g, " ").trim();
}

function present(value: string | null | undefined): string | null {
  return value === null || value === undefined || value.trim() === "" ? null : value.trim();
}

function emptyCounts(): Record<Field, Count> {
  return Object.fromEntries(FIELDS.map((field) => [field, { ours: 0, readability: 0, both: 0, agree: 0, exact: 0 }])) as Record<Field, Count>;
}

function percent(part: number, whole: number): string {
  return whole === 0 ? "-" : `${((100 * part) / whole).toFixed(1)}%`;
}

async function main(): Promise<number> {
  const { values } = parseCommand(COMMAND, { options: { every: { type: "string" }, list: { type: "string" } } });
  const every = integerOption(COMMAND, "every", values.every, 1);
  const listed = values.list === undefined ? undefined : choiceOption(COMMAND, "list", values.list, FIELDS);
  const { isProbablyReaderable, Readability } = await import("@mozilla/readability");
  const { parseHTML } = await import("linkedom");
  const { HTMLRewriter } = await import("html-rewriter-wasm");
  const { parseModel } = await import("../src/classify/index");
  const { clean } = await import("../src/clean");
  const { DATA_SETS, hasData, loadDataset } = await import("../src/evaluation/index");
  const { createWasmBackend } = await import("../src/runtime/index");
  if (!hasData()) fail(COMMAND, "../shared/data is absent", 2);
  const parsed = parseModel(JSON.parse(readFileSync(SHIPPED_MODEL, "utf8")));
  if (!parsed.ok) fail(COMMAND, `rules/model.json is invalid: ${parsed.problems.join("; ")}`);
  const rewriter = createWasmBackend(HTMLRewriter);
  const sets: string[] = [...new Set<string>([...DATA_SETS, ...EXTRA_SETS])];

  const ours = async (html: string, url: string | undefined): Promise<Values> => {
    const result = await clean({ html, url, site: "", format: "json", ruleSet: null, model: parsed.model, rewriter });
    if (!result.ok) return { title: null, byline: null, date: null, siteName: null, excerpt: null, lang: null, dir: null, readerable: "false" };
    const document = JSON.parse(result.body) as Record<string, unknown>;
    const text = (name: string): string | null => present(typeof document[name] === "string" ? document[name] : null);
    return {
      title: text("title"), byline: text("byline"), date: text("published"), siteName: text("siteName"), excerpt: text("excerpt"), lang: text("lang"), dir: text("dir"),
      readerable: String(document.readerable === true),
    };
  };
  const readability = (html: string): Values => {
    try {
      const readerable = String(isProbablyReaderable(parseHTML(html).document as unknown as Parameters<typeof isProbablyReaderable>[0]));
      const { document } = parseHTML(html);
      const article = new Readability(document as unknown as ConstructorParameters<typeof Readability>[0]).parse();
      return {
        title: present(article?.title), byline: present(article?.byline), date: present(article?.publishedTime),
        siteName: present(article?.siteName), excerpt: present(article?.excerpt), lang: present(article?.lang), dir: present(article?.dir), readerable,
      };
    } catch {
      return { title: null, byline: null, date: null, siteName: null, excerpt: null, lang: null, dir: null, readerable: "false" }; // Readability gives up on some pages
    }
  };

  const total = emptyCounts();
  const perSet = new Map<string, Record<Field, Count>>();
  const gold = new Map<string, { pages: number; ours: number; readability: number }>();
  const dates = { ours: 0, iso: 0 };
  const excerpts = { pages: 0, ours: 0, readability: 0 };
  const disagreements: string[] = [];
  let pages = 0;
  let readerableMissed = 0;
  for (const set of sets) {
    const sample = loadDataset(set).pages.filter((_, index) => index % every === 0);
    const counts = emptyCounts();
    perSet.set(set, counts);
    const progress = createProgress(set, sample.length, { minimum: 20 });
    for (const [index, page] of sample.entries()) {
      pages++;
      const a = await ours(page.html, page.url === "" ? undefined : page.url);
      const b = readability(page.html);
      if (b.readerable === "true" && a.readerable !== "true") readerableMissed++;
      if (a.date !== null) {
        dates.ours++;
        if (ISO_8601.test(a.date)) dates.iso++;
      }
      for (const field of FIELDS) {
        const mine = field === "readerable" ? (a.readerable === "true" ? a.readerable : null) : a[field];
        const theirs = field === "readerable" ? (b.readerable === "true" ? b.readerable : null) : b[field];
        for (const count of [counts[field], total[field]]) {
          if (mine !== null) count.ours++;
          if (theirs !== null) count.readability++;
        }
        // Readerable is a yes or no on every page: both always say something, and agree when they say the same.
        const ourValue = field === "readerable" ? a.readerable : mine;
        const theirValue = field === "readerable" ? b.readerable : theirs;
        if (ourValue === null || theirValue === null) {
          if (field === listed && (ourValue ?? theirValue) !== null) disagreements.push(`${set}/${page.id}\tours: ${ourValue?.slice(0, 120) ?? "-"}\treadability: ${theirValue?.replace(/\s+/g, " ").slice(0, 120) ?? "-"}`);
          continue;
        }
        const agreed = agree(field, ourValue, theirValue);
        const same = sameText(ourValue, theirValue);
        for (const count of [counts[field], total[field]]) {
          count.both++;
          if (agreed) count.agree++;
          if (same) count.exact++;
        }
        if (!agreed && field === listed) disagreements.push(`${set}/${page.id}\tours: ${ourValue.slice(0, 120)}\treadability: ${theirValue.replace(/\s+/g, " ").slice(0, 120)}`);
      }
      const skipped = FIRST_PARAGRAPH_GOLD_SETS.get(set);
      const firstParagraph = skipped === undefined ? null : present(page.gold.split(/\n/).map((line) => line.trim()).filter((line) => line !== "")[skipped]);
      if (firstParagraph !== null) {
        excerpts.pages++;
        if (a.excerpt !== null && agree("excerpt", a.excerpt, firstParagraph)) excerpts.ours++;
        if (b.excerpt !== null && agree("excerpt", b.excerpt, firstParagraph)) excerpts.readability++;
      }
      const headline = HEADLINE_GOLD_SETS.has(set) ? present(page.gold.split("\n")[0]) : null;
      if (headline !== null) {
        const score = gold.get(set) ?? { pages: 0, ours: 0, readability: 0 };
        gold.set(set, score);
        score.pages++;
        if (a.title !== null && agree("title", a.title, headline)) score.ours++;
        if (b.title !== null && agree("title", b.title, headline)) score.readability++;
      }
      progress.step(index + 1, page.id);
    }
    progress.finish();
  }
  console.log(`${pages} pages (every ${every === 1 ? "" : `${every}th `}page of ${sets.join(", ")})`);
  console.log(["field", "ours", "readability", "both", "agree", "agree %", "exact"].join("\t"));
  for (const field of FIELDS) {
    const count = total[field];
    console.log([field, count.ours, count.readability, count.both, count.agree, percent(count.agree, count.both), count.exact].join("\t"));
  }
  console.log(`\nagree / both, per set`);
  console.log(["set", ...FIELDS].join("\t"));
  for (const [set, counts] of perSet) console.log([set, ...FIELDS.map((field) => `${counts[field].agree}/${counts[field].both}`)].join("\t"));
  console.log(`\nour dates in ISO 8601: ${dates.iso} of ${dates.ours}`);
  console.log(`readerable (ours / readability), per set: ${[...perSet].map(([set, counts]) => `${set} ${counts.readerable.ours}/${counts.readerable.readability}`).join(", ")}`);
  console.log(`pages Readability calls readerable and we do not: ${readerableMissed}`);
  for (const [set, score] of gold) console.log(`${set} titles against the gold headline (${score.pages} pages): ours ${score.ours}, readability ${score.readability}`);
  console.log(`excerpts against the gold's first paragraph (${[...FIRST_PARAGRAPH_GOLD_SETS.keys()].join(", ")}; ${excerpts.pages} pages): ours ${excerpts.ours}, readability ${excerpts.readability}`);
  for (const line of disagreements) console.log(line);
  return 0;
}

await runCommand(COMMAND, main);
