export { createWorkerdBackend, isWorkerdRewriterAvailable } from "./workerd";
export { createWasmBackend } from "./wasm";
export type { WasmRewriterClass } from "./wasm";
export type {
  BackendName, HtmlRewriterBackend, RewriteInput, RewriteOutcome, RewriterElement, RewriterTextChunk, SelectorHandler,
} from "./types";
