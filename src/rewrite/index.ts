export { rewriteHtml, REMOVE_MARK_ATTRIBUTE } from "./remove";
export type { RewriteHtmlResult } from "./remove";
export { writeText } from "./text-writer";
export { writeMarkdown, type MarkdownOptions } from "./markdown-writer";
export { buildReaderDocument, writeJson, type ReaderContext, type ReaderDocument } from "./json-writer";
