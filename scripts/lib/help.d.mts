/** Whether the arguments ask for help: `--help` or `-h` before any `--` separator. */
export function asksForHelp(argv: readonly string[]): boolean;
