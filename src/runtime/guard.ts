/**
 * Handler guard shared by both backends: counts calls, catches what a handler throws (so that nothing is
 * thrown into lol-html), and after the first failure turns every later call into a no-op.
 */
import type { RewriteOutcome } from "./types";

export class HandlerGuard {
  calls = 0;
  failure: string | null = null;

  /** Wraps a handler so that it never throws; the first error is kept for the outcome. */
  wrap<T>(handler: ((value: T) => void) | undefined): ((value: T) => void) | undefined {
    if (handler === undefined) return undefined;
    return (value: T) => {
      this.calls++;
      if (this.failure !== null) return;
      try {
        handler(value);
      } catch (error) {
        this.failure = describeError(error);
      }
    };
  }

  /** The outcome of a run whose output is `html`, unless a handler failed. */
  outcome(html: string): RewriteOutcome {
    if (this.failure !== null) return { ok: false, reason: "handler-error", detail: this.failure };
    return { ok: true, html, calls: this.calls };
  }
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
