/**
 * Backend on workerd's global HTMLRewriter (the Worker). Input is streamed in as a Response body;
 * the output is read back as text.
 */
import { HandlerGuard, describeError } from "./guard";
import type { HtmlRewriterBackend, RewriteInput, RewriteOutcome, RewriterElement, RewriterTextChunk, SelectorHandler } from "./types";

const HTML_UTF8 = "text/html; charset=utf-8";

/** The native backend; outside workerd (no global HTMLRewriter) every rewrite reports a rewriter-error. */
export function createWorkerdBackend(): HtmlRewriterBackend {
  return { name: "workerd", rewrite: rewriteNative };
}

export function isWorkerdRewriterAvailable(): boolean {
  return typeof HTMLRewriter === "function";
}

async function rewriteNative(input: RewriteInput, handlers: readonly SelectorHandler[]): Promise<RewriteOutcome> {
  if (!isWorkerdRewriterAvailable()) return { ok: false, reason: "rewriter-error", detail: "no global HTMLRewriter here" };
  const guard = new HandlerGuard();
  try {
    let rewriter = new HTMLRewriter();
    for (const handler of handlers) rewriter = rewriter.on(handler.selector, nativeHandlers(guard, handler));
    const response = rewriter.transform(new Response(toBody(input), { headers: { "content-type": HTML_UTF8 } }));
    return guard.outcome(await response.text());
  } catch (error) {
    return { ok: false, reason: "rewriter-error", detail: describeError(error) };
  }
}

function nativeHandlers(guard: HandlerGuard, handler: SelectorHandler): HTMLRewriterElementContentHandlers {
  const element = guard.wrap(handler.element);
  const text = guard.wrap(handler.text);
  return {
    element: element && ((native: Element) => element(native as unknown as RewriterElement)),
    text: text && ((native: Text) => text(native as unknown as RewriterTextChunk)),
  };
}

function toBody(input: RewriteInput): string | ReadableStream<Uint8Array> {
  if (typeof input === "string") return input;
  let index = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (index < input.length) controller.enqueue(input[index++]);
      else controller.close();
    },
  });
}
