/**
 * Tests that read ../shared (the dev pages, and the third-party suites read in place) skip where it is absent, with
 * one line saying so, so that `npm ci && npm test` passes on a clone with nothing beside it. Where
 * REQUIRE_DEV_DATA=1 (CI, which always has ../shared) an absent folder fails the file instead of skipping it.
 * No Node API: the Worker tests call it too (they learn REQUIRE_DEV_DATA from test/support/global-setup.ts).
 */

/** Whether `what` is present; when it is not, one line on the console, or a failure where it is required. */
export function devDataPresent(present: boolean, what: string, required: boolean, file: string): boolean {
  if (present) return true;
  if (required) throw new Error(`${what} is missing but REQUIRE_DEV_DATA=1 (${file})`);
  const line = `skipped: ${file} needs ${what}, which is absent`;
  if (!told.has(line)) console.log(line);
  told.add(line);
  return false;
}

/** Lines said already: a file that asks twice is told once. */
const told = new Set<string>();

/**
 * Checks that read every dev page of a set (minutes each) are gates: `npm run test:gates` runs them (vitest.config.ts
 * finds the files that call this), `npm test` leaves them out with one line. True where they run: in the gates
 * run, with the data present (absent data is handled as in devDataPresent). Node tests only.
 */
export function everyDevPage(present: boolean, file: string): boolean {
  if (!devDataPresent(present, "../shared/data", process.env.REQUIRE_DEV_DATA === "1", file)) return false;
  if (process.env.TEST_GATES === "1") return true;
  const line = `left out: ${file}'s checks on every dev page run with npm run test:gates`;
  if (!told.has(line)) console.log(line);
  told.add(line);
  return false;
}
