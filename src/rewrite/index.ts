export { rewriteHtml, REMOVE_MARK_ATTRIBUTE } from "./remove";
export type { RewriteHtmlResult } from "./remove";
