/**
 * The package's entry inside Cloudflare Workers (export conditions "workerd" and "worker"): clean() on the
 * platform's own HTMLRewriter, so that the bundle holds no WebAssembly build of it.
 */
import { createCleaner, type Cleaner } from "./library";
import { createWorkerdBackend } from "./runtime";

export { createCleaner, OUTPUT_FORMATS, REQUESTED_MODES } from "./library";
export type { CleanOptions, CleanPageOptions, CleanResult, Cleaner, DecodeFailure, ModelJson, OutputFormat, RuleSet } from "./library";
export { createWasmBackend, createWorkerdBackend } from "./runtime";
export type { HtmlRewriterBackend } from "./runtime";

/** Cleans one page (a string, or bytes decoded by their charset) with the Worker's HTMLRewriter. */
export const clean: Cleaner = createCleaner(createWorkerdBackend());
