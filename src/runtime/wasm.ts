/**
 * Backend on html-rewriter-wasm (Node). The package is not imported here: the caller passes its
 * HTMLRewriter class in, so the Worker bundle never contains the wasm build.
 */
import { HandlerGuard, describeError } from "./guard";
import type { HtmlRewriterBackend, RewriteInput, RewriteOutcome, RewriterElement, RewriterTextChunk, SelectorHandler } from "./types";

/** The parts of html-rewriter-wasm's HTMLRewriter class this backend uses. */
export interface WasmRewriterInstance {
  on(selector: string, handlers: { element?: (element: never) => void; text?: (chunk: never) => void }): unknown;
  write(chunk: Uint8Array): Promise<void>;
  end(): Promise<void>;
  free(): void;
}
export type WasmRewriterClass = new (outputSink: (chunk: Uint8Array) => void) => WasmRewriterInstance;

/** `createWasmBackend(HTMLRewriter)` with `import { HTMLRewriter } from "html-rewriter-wasm"` (Node only). */
export function createWasmBackend(rewriterClass: WasmRewriterClass): HtmlRewriterBackend {
  return { name: "wasm", rewrite: (input, handlers) => rewriteWasm(rewriterClass, input, handlers) };
}

const encoder = new TextEncoder();

async function rewriteWasm(rewriterClass: WasmRewriterClass, input: RewriteInput, handlers: readonly SelectorHandler[]): Promise<RewriteOutcome> {
  const guard = new HandlerGuard();
  const output: Uint8Array[] = [];
  let rewriter: WasmRewriterInstance | null = null;
  try {
    rewriter = new rewriterClass((chunk) => output.push(chunk.slice()));
    for (const handler of handlers) {
      const element = guard.wrap(handler.element);
      const text = guard.wrap(handler.text);
      rewriter.on(handler.selector, {
        element: element && ((native: never) => element(native as RewriterElement)),
        text: text && ((native: never) => text(native as RewriterTextChunk)),
      });
    }
    if (typeof input === "string") await rewriter.write(encoder.encode(input));
    else for (const chunk of input) await rewriter.write(chunk);
    await rewriter.end();
    return guard.outcome(decodeChunks(output));
  } catch (error) {
    return { ok: false, reason: "rewriter-error", detail: describeError(error) };
  } finally {
    rewriter?.free();
  }
}

function decodeChunks(chunks: readonly Uint8Array[]): string {
  let length = 0;
  for (const chunk of chunks) length += chunk.length;
  const joined = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk, offset);
    offset += chunk.length;
  }
  return new TextDecoder().decode(joined);
}
