import { articleDirection, countWords, type PageModel } from "../page";
import type { NormalisedPlan, RemovalCounts } from "../plan";
import { readerMetadata, writeArticle, type MetadataOverride } from "./article-writer";
import { writeMarkdown } from "./markdown-writer";
import { writeText } from "./text-writer";
import type { WorkMeter } from "../work-meter";

/**
 * The reader document: metadata of the page, its kept text and Markdown, and the cleaned HTML that the
 * caller (clean.ts) made in pass 2, with what was removed and how long each stage took.
 */
export interface ReaderDocument {
  readonly url: string | null;
  readonly site: string;
  readonly title: string | null;
  readonly lang: string | null;
  /** The article's text direction (ltr, rtl, auto) from its container or their nearest ancestor that says one, as Readability reads it; null when none does. */
  readonly dir: string | null;
  readonly byline: string | null;
  readonly published: string | null;
  readonly leadImage: string | null;
  readonly siteName: string | null;
  /** The page's description, else its first paragraph. */
  readonly excerpt: string | null;
  /** Words of the kept text (`text`). */
  readonly wordCount: number;
  /** What the cleaning keeps reads as an article (false for a front page, a list of teasers, a page of links). */
  readonly readerable: boolean;
  readonly text: string;
  readonly markdown: string;
  readonly html: string;
  /** The article fragment (format=article, without its header: the title is in `title`). */
  readonly content: string;
  /** Reader comments' text, one comment a paragraph ("" when none were found); apart from `text` unless kept in it. */
  readonly comments: string;
  readonly mode: string;
  /** What the page is (classify/kind.ts: article, forum, product, documentation, service, listing, collection, unknown). */
  readonly kind: string;
  readonly removed: RemovalCounts;
  readonly timings: Readonly<Record<string, number>>;
}

/** What the caller knows and the page model does not. */
export interface ReaderContext {
  readonly url?: string;
  readonly site: string;
  /** The cleaning mode ("rules", "classifier", "rules+classifier", "none"). */
  readonly mode: string;
  /** The page's kind (classify/kind.ts), recognised or named by the caller; "unknown" when not given. */
  readonly kind?: string;
  /** The cleaned HTML from pass 2. */
  readonly html: string;
  /** Reader comments' text (see ReaderDocument). */
  readonly comments: string;
  readonly timings: Readonly<Record<string, number>>;
  /** The site's own metadata selectors' findings, over the page's metadata. */
  readonly metadata?: MetadataOverride;
  /** The page's work meter, which each writer charges (the caller checks it). */
  readonly work?: WorkMeter;
  /** The text, Markdown and article already written by the caller (clean() writes them apart, pausing between). */
  readonly written?: WrittenFormats;
}

/** The three writers' outputs that the reader document holds. */
export interface WrittenFormats {
  readonly text: string;
  readonly markdown: string;
  readonly content: string;
}

export function buildReaderDocument(page: PageModel, plan: NormalisedPlan, context: ReaderContext): ReaderDocument {
  // readerable agrees with what the cleaning decided: the page reads as an article when what it keeps does.
  const metadata = readerMetadata(page, context.url, context.metadata, plan);
  const text = context.written?.text ?? writeText(page, plan, context.work);
  const markdown = context.written?.markdown ?? writeMarkdown(page, plan, { baseUrl: context.url, work: context.work });
  const content = context.written?.content ?? writeArticle(page, plan, { baseUrl: context.url, omitTitleHeading: true, metadata: context.metadata, work: context.work });
  return {
    url: context.url ?? null,
    site: context.site,
    title: metadata.title ?? (page.title.trim() === "" ? null : page.title.trim()),
    lang: metadata.lang ?? (page.lang.trim() === "" ? null : page.lang.trim()),
    dir: articleDirection(page, plan),
    byline: metadata.byline,
    published: metadata.published,
    leadImage: metadata.leadImage,
    siteName: metadata.siteName,
    excerpt: metadata.excerpt,
    wordCount: countWords(text),
    readerable: metadata.readerable,
    text,
    markdown,
    html: context.html,
    content,
    comments: context.comments,
    mode: context.mode,
    kind: context.kind ?? "unknown",
    removed: plan.counts,
    timings: context.timings,
  };
}

/** The reader document as the JSON body of a response. */
export function writeJson(page: PageModel, plan: NormalisedPlan, context: ReaderContext): string {
  return JSON.stringify(buildReaderDocument(page, plan, context));
}
