export { decodeHtml } from "./charset";
export type { DecodeResult } from "./charset";
export type { BlockTable, PageModel, RemovalPlan, TextNodeTable } from "./types";
