/**
 * Counted work for the Node scaling tests: V8's block coverage counts each time a block of code runs (a function's
 * body, a branch, a loop's body); the steps of one call are, summed over the project's functions, the iterations of
 * each one's innermost loop (stepsByFunction). The count is the same on an idle or a loaded machine: a ratio at n
 * and 4n is about 4 for linear work and 16 for quadratic, whatever else the machine does.
 *
 * V8 adds the counters when it compiles a function, so only functions first called after counting starts are
 * counted block by block: a test file imports this module before the code it measures (the count starts as this
 * module loads), and each measure runs its input once before counting. Not counted: the work inside built-ins (a
 * regular expression, indexOf over a long string); the families reach the code they test through its own loops.
 * Node only: workerd has no inspector (the Worker tests count clean()'s work meter instead).
 */
import { Session } from "node:inspector/promises";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.startPreciseCoverage", { callCount: true, detailed: true });

/** The scripts whose blocks are counted: the repository's own (the code measured, and the tests' few steps around it). */
const REPOSITORY = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const isProjectCode = (url: string): boolean => {
  const path = url.startsWith("file:") ? fileURLToPath(url) : url;
  return path.startsWith(REPOSITORY) && !path.includes("/node_modules/");
};

/**
 * Steps of the project's code while `run` ran, by function (file:name): each function's most executed block, so its
 * innermost loop's iterations, or its calls where it has no loop. The most, not the sum: V8 reports a block only
 * where its count differs from the block around it, so a sum would depend on which counts happen to be equal.
 * Taking the coverage resets V8's counters.
 */
export async function stepsByFunction(run: () => unknown): Promise<Map<string, number>> {
  await session.post("Profiler.takePreciseCoverage");
  await run();
  const { result } = await session.post("Profiler.takePreciseCoverage");
  const steps = new Map<string, number>();
  for (const script of result) {
    if (!isProjectCode(script.url)) continue;
    const file = script.url.slice(script.url.lastIndexOf("/") + 1);
    for (const fn of script.functions) {
      const key = `${file}:${fn.functionName || "(anonymous)"}`;
      steps.set(key, (steps.get(key) ?? 0) + fn.ranges.reduce((most, range) => Math.max(most, range.count), 0));
    }
  }
  return steps;
}

/** Steps of the project's code while `run` ran: the sum over functions of stepsByFunction. */
export async function countedSteps(run: () => unknown): Promise<number> {
  let steps = 0;
  for (const count of (await stepsByFunction(run)).values()) steps += count;
  return steps;
}

/**
 * Bounds on the ratio of counted steps for 4x the input. Linear work counts about 4 (a little less: fixed costs),
 * n log n about 4.6 at these sizes, quadratic 16: under 6 passes the first two and fails the third by far. Over 3
 * says the count grew with the input at all: a loop whose blocks were not counted (a function compiled before the
 * count started) would show about 1 and fail there, rather than pass unseen.
 */
export const MAX_STEP_RATIO = 6;
export const MIN_STEP_RATIO = 3;

/**
 * Steps of `run(input(n))` and `run(input(4n))` and their ratio. Each input is run once before it is counted, so that
 * one-time work (a table built on first use) falls in neither count.
 */
export async function stepRatio<T>(input: (n: number) => T, n: number, run: (value: T) => unknown): Promise<{ small: number; large: number; ratio: number }> {
  const smallInput = input(n);
  const largeInput = input(4 * n);
  await run(smallInput);
  await run(largeInput);
  const small = await countedSteps(() => run(smallInput));
  const large = await countedSteps(() => run(largeInput));
  return { small, large, ratio: large / small };
}
