/**
 * The one small HTMLRewriter interface the cleaning core needs: run a page (a string, or byte chunks split
 * anywhere) through a rewriter with a few selector handlers and get the output. Two backends implement it:
 * workerd's native HTMLRewriter and html-rewriter-wasm (Node). Both are lol-html underneath.
 */

/** An element as a selector handler sees it (a subset of both backends' Element). */
export interface RewriterElement {
  readonly tagName: string;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  /** Removes the element with its content; the HTML parser decides where the element ends. */
  remove(): void;
  /** Replaces the element and its content with text (escaped), or with HTML if `options.html`. */
  replace(content: string, options?: { html?: boolean }): void;
}

/** A chunk of a text node; a text node may arrive in several chunks, the last with `lastInTextNode`. */
export interface RewriterTextChunk {
  readonly text: string;
  readonly lastInTextNode: boolean;
  remove(): void;
  replace(content: string): void;
}

/** Handlers for one CSS selector. Handlers may throw: the backend catches, never lets it reach lol-html. */
export interface SelectorHandler {
  readonly selector: string;
  readonly element?: (element: RewriterElement) => void;
  readonly text?: (chunk: RewriterTextChunk) => void;
}

/** The page to rewrite: a whole string (encoded as UTF-8) or UTF-8 byte chunks split anywhere. */
export type RewriteInput = string | readonly Uint8Array[];

export type RewriteOutcome =
  | { readonly ok: true; readonly html: string; /** calls from the rewriter into handlers */ readonly calls: number }
  | { readonly ok: false; readonly reason: "handler-error" | "rewriter-error"; readonly detail: string };

export type BackendName = "workerd" | "wasm";

export interface HtmlRewriterBackend {
  readonly name: BackendName;
  /** Runs the input through one rewriter with the given handlers; never rejects. */
  rewrite(input: RewriteInput, handlers: readonly SelectorHandler[]): Promise<RewriteOutcome>;
}
