// Plain JavaScript, so that scripts/run.mjs can answer --help before TypeScript is loaded.

/** Whether the arguments ask for help: `--help` or `-h` before any `--` separator. */
export function asksForHelp(argv) {
  for (const argument of argv) {
    if (argument === "--") return false;
    if (argument === "--help" || argument === "-h") return true;
  }
  return false;
}
