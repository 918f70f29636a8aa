/**
 * npm run eval:metadata: reader metadata (title, byline, date, site name, excerpt) of extractMetadata beside
 * Readability's (with linkedom, as npm run eval runs it) on a fixed sample of the dev pages: per field, how
 * many pages each gives a value, how many both do and how many of those agree; and the titles of the
 * l3s-gn1 pages against their gold headline (the first line of the gold text).
 */
import { choiceOption, integerOption, parseCommand, runCommand, type Command } from "./lib/cli";

const COMMAND: Command = {
  name: "eval:metadata",
  usage: `usage: npm run eval:metadata -- [--every N] [--list FIELD]

Reads the metadata of every Nth page of each dev set (default 4: about 390 of 1,553 pages) with
extractMetadata and with Readability, and prints per field (title, byline, date, siteName, excerpt):
  ours          pages where extractMetadata gives a value
  readability   pages where Readability gives one
  both          pages where both do
  agree         of those, the pages where the values agree: the same letters and digits (case, spaces and
                punctuation aside), or one holding the other (a byline "By Jo Bloggs, 2 May" holds "Jo Bloggs");
                dates agree on the same day; excerpts when the first 60 letters and digits of one are in the other
Then titles against the gold headline of the l3s-gn1 pages in the sample (agreeing as above).

  --every N       take every Nth page of each set (1: all pages)
  --list FIELD    also list the pages where only one gives FIELD, or both do and disagree
  --help          this text`,
};

const FIELDS = ["title", "byline", "date", "siteName", "excerpt"] as const;
type Field = (typeof FIELDS)[number];
type Values = Record<Field, string | null>;

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
  if (field === "date") return dayOf(ours) !== null && dayOf(ours) === dayOf(theirs);
  const a = key(ours);
  const b = key(theirs);
  if (a === "" || b === "") return false;
  if (field === "excerpt") return b.includes(a.slice(0, 60)) || a.includes(b.slice(0, 60));
  return a === b || a.includes(b) || b.includes(a);
}

function present(value: string | null | undefined): string | null {
  return value === null || value === undefined || value.trim() === "" ? null : value.trim();
}

async function main(): Promise<number> {
  const { values } = parseCommand(COMMAND, { options: { every: { type: "string" }, list: { type: "string" } } });
  const every = integerOption(COMMAND, "every", values.every, 4);
  const listed = values.list === undefined ? undefined : choiceOption(COMMAND, "list", values.list, FIELDS);
  const { Readability } = await import("@mozilla/readability");
  const { parseHTML } = await import("linkedom");
  const { DATA_SETS, hasData, loadDataset } = await import("../src/evaluation/index");
  const { extractMetadata } = await import("../src/page/index");
  if (!hasData()) {
    console.error("npm run eval:metadata: ../shared/data is absent");
    return 2;
  }

  const readability = (html: string): Values => {
    try {
      const { document } = parseHTML(html);
      const article = new Readability(document as unknown as ConstructorParameters<typeof Readability>[0]).parse();
      return {
        title: present(article?.title), byline: present(article?.byline), date: present(article?.publishedTime),
        siteName: present(article?.siteName), excerpt: present(article?.excerpt),
      };
    } catch {
      return { title: null, byline: null, date: null, siteName: null, excerpt: null }; // Readability gives up on some pages
    }
  };

  const counts = Object.fromEntries(FIELDS.map((field) => [field, { ours: 0, readability: 0, both: 0, agree: 0 }])) as Record<Field, { ours: number; readability: number; both: number; agree: number }>;
  const gold = { pages: 0, ours: 0, readability: 0 };
  const disagreements: string[] = [];
  let pages = 0;
  for (const set of DATA_SETS) {
    const sample = loadDataset(set).pages.filter((_, index) => index % every === 0);
    for (const page of sample) {
      pages++;
      const metadata = extractMetadata(page.html, page.url === "" ? undefined : page.url);
      const ours: Values = { title: metadata.title, byline: metadata.byline, date: metadata.published, siteName: metadata.siteName, excerpt: metadata.excerpt };
      const theirs = readability(page.html);
      for (const field of FIELDS) {
        const count = counts[field];
        const a = ours[field];
        const b = theirs[field];
        if (a !== null) count.ours++;
        if (b !== null) count.readability++;
        if (a === null || b === null) {
          if (field === listed && (a ?? b) !== null) disagreements.push(`${set}/${page.id}\tours: ${a?.slice(0, 120) ?? "-"}\treadability: ${b?.replace(/\s+/g, " ").slice(0, 120) ?? "-"}`);
          continue;
        }
        count.both++;
        if (agree(field, a, b)) count.agree++;
        else if (field === listed) disagreements.push(`${set}/${page.id}\tours: ${a.slice(0, 120)}\treadability: ${b.replace(/\s+/g, " ").slice(0, 120)}`);
      }
      const headline = set === "l3s-gn1" ? present(page.gold.split("\n")[0]) : null;
      if (headline !== null) {
        gold.pages++;
        if (ours.title !== null && agree("title", ours.title, headline)) gold.ours++;
        if (theirs.title !== null && agree("title", theirs.title, headline)) gold.readability++;
      }
    }
  }
  console.log(`${pages} pages (every ${every}th of ${DATA_SETS.join(", ")})`);
  console.log(["field", "ours", "readability", "both", "agree"].join("\t"));
  for (const field of FIELDS) {
    const count = counts[field];
    console.log([field, count.ours, count.readability, count.both, count.agree].join("\t"));
  }
  console.log(`l3s-gn1 titles against the gold headline (${gold.pages} pages): ours ${gold.ours}, readability ${gold.readability}`);
  for (const line of disagreements) console.log(line);
  return 0;
}

await runCommand(COMMAND, main);
