/**
 * The package's entry for Node, Bun and Deno (export condition "default"): clean() on html-rewriter-wasm.
 * `import { clean } from "edge-cleaner"; const result = await clean(html, { url, format: "markdown" });`
 */
import { HTMLRewriter } from "html-rewriter-wasm";
import { createCleaner, type Cleaner } from "./library";
import { createWasmBackend } from "./runtime";

export { createCleaner, OUTPUT_FORMATS, REQUESTED_MODES } from "./library";
export type { CleanOptions, CleanPageOptions, CleanResult, Cleaner, DecodeFailure, ModelJson, OutputFormat, RuleSet } from "./library";
export { createWasmBackend, createWorkerdBackend } from "./runtime";
export type { HtmlRewriterBackend } from "./runtime";

/** Cleans one page (a string, or bytes decoded by their charset) with html-rewriter-wasm. */
export const clean: Cleaner = createCleaner(createWasmBackend(HTMLRewriter));
