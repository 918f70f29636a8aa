export { declaresOtherCharset, rewriteHtml, REMOVE_MARK_ATTRIBUTE } from "./remove";
export type { RewriteHtmlResult } from "./remove";
export { articleBody, keepsText, outsideBody, writeText } from "./text-writer";
export type { ArticleBody, TextRange } from "./text-writer";
export { writeMarkdown, writeMarkdownSlices, type MarkdownOptions } from "./markdown-writer";
export { buildReaderDocument, writeJson, type ReaderContext, type ReaderDocument, type WrittenFormats } from "./json-writer";
export { annotateHtml, ANNOTATE_REMOVED_ATTRIBUTE, ANNOTATE_PARTIAL_ATTRIBUTE, type AnnotatedPage } from "./annotate";
export { readerMetadata, writeArticle, writeArticleSlices, type ArticleOptions, type MetadataOverride } from "./article-writer";
export { withFrontMatter, type FrontMatterFields } from "./front-matter";
