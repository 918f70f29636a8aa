/**
 * Work in slices: a long walk over a page written as a generator that yields between slices (a stretch of source
 * or of events, config CLEAN_SLICE_*), so that one code path serves both callers: a caller that wants the result
 * at once runs every slice (finishSlices), and clean() on a large page lets the isolate answer other requests
 * between them (its pause). A yield carries nothing; the generator's return value is the result.
 */
export type Slices<T> = Generator<void, T, undefined>;

/** Runs every slice at once and returns the result. */
export function finishSlices<T>(slices: Slices<T>): T {
  for (;;) {
    const step = slices.next();
    if (step.done === true) return step.value;
  }
}

/** Runs the slices with `pause` awaited between them and returns the result; null, the rest left undone, once `stop` says so after a pause. */
export async function pacedSlices<T>(slices: Slices<T>, pause: () => Promise<void>, stop: () => boolean = () => false): Promise<T | null> {
  for (;;) {
    const step = slices.next();
    if (step.done === true) return step.value;
    await pause();
    if (stop()) {
      slices.return(undefined as T);
      return null;
    }
  }
}
