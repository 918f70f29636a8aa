/**
 * The command line of every script: one strict argument parser, `--help` that prints the usage and exits 0
 * before anything else runs, and user errors as one line on stderr with exit code 2 (never a stack).
 *
 * A script parses first and loads its heavy modules after (`await import(...)`), so that a mistyped option
 * answers at once instead of after seconds of module loading; `--help` does not even load the script when npm
 * runs it (scripts/run.mjs prints scripts/usage/<name>.txt).
 */
import { readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { asksForHelp } from "./help.mjs";

export interface Command {
  /** The npm script name ("clean", "rules:publish"): errors read "npm run <name>: …". */
  readonly name: string;
  /** The whole --help text, starting with "usage: npm run <name> -- …". */
  readonly usage: string;
}

// Output piped into a reader that stops early (`| head`) ends the script quietly, as other shell tools do.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

/**
 * How the user ran the command: `npm run <name>`, or the package's bin by the name it was run under
 * (`edge-cleaner`: a name without a script's extension), which the messages and the usage then say.
 */
function invocation(command: Command): { program: string; help: string } {
  const invoked = basename(process.argv[1] ?? "");
  if (invoked === "" || /\.[cm]?[jt]s$/.test(invoked)) return { program: `npm run ${command.name}`, help: `npm run ${command.name} -- --help` };
  return { program: invoked, help: `${invoked} --help` };
}

/** Exit code of a usage error (a wrong option or argument, a missing input): the command did nothing. */
export const USAGE_EXIT_CODE = 2;

/**
 * A script's usage text: scripts/usage/<script file name>.txt, the one place it is written, so that
 * scripts/run.mjs can print it for --help without loading the script.
 */
export function usageText(script: string): string {
  return readFileSync(join(dirname(fileURLToPath(import.meta.url)), "../usage", `${script}.txt`), "utf8");
}

/**
 * parseArgs in strict mode with the command's options. `--help` (or `-h`) prints the usage on stdout and exits
 * 0; an unknown option, a missing value or an unexpected positional is a usage error (one line, exit 2).
 */
export function parseCommand<const T extends Omit<ParseArgsConfig, "args" | "strict" | "tokens">>(
  command: Command,
  config: T,
  argv: readonly string[] = process.argv.slice(2),
): ReturnType<typeof parseArgs<T & { strict: true }>> {
  if (asksForHelp(argv)) {
    // Run as the package's bin, the usage names the bin where it says `npm run <name> --`.
    const { program } = invocation(command);
    const usage = program.startsWith("npm ") ? command.usage : command.usage.replaceAll(`npm run ${command.name} -- `, `${program} `);
    process.stdout.write(`${usage.trimEnd()}\n`);
    process.exit(0);
  }
  try {
    return parseArgs({ ...config, args: [...argv], strict: true }) as ReturnType<typeof parseArgs<T & { strict: true }>>;
  } catch (error) {
    return usageError(command, firstLine(error).replace(/\. To specify a positional argument.*$/, ""));
  }
}

/** A usage error: one line on stderr naming the command, a pointer to --help, exit 2. */
export function usageError(command: Command, message: string): never {
  const { program, help } = invocation(command);
  process.stderr.write(`${program}: ${message} (see ${help})\n`);
  process.exit(USAGE_EXIT_CODE);
}

/** A failure that is not the user's wording (a tool that failed, a file that cannot be written): one line, exit 1. */
export function fail(command: Command, message: string, code = 1): never {
  process.stderr.write(`${invocation(command).program}: ${message}\n`);
  process.exit(code);
}

/** The first line of an error's message (parseArgs and fs messages are one line; a stack never is shown). */
export function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0]!;
}

/**
 * Runs a script's main function: its number is the exit code; an error escaping it is reported in one line
 * (with the stack only when DEBUG is set) and exits 1.
 */
export async function runCommand(command: Command, main: () => number | void | Promise<number | void>): Promise<void> {
  try {
    const code = await main();
    if (typeof code === "number") process.exitCode = code;
  } catch (error) {
    process.stderr.write(`${invocation(command).program}: ${firstLine(error)}\n`);
    if (process.env.DEBUG && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
    process.exitCode = 1;
  }
}

/** A whole number option at least `minimum`, or a usage error naming the option. */
export function integerOption(command: Command, name: string, value: string | undefined, fallback: number, minimum = 1): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < minimum) usageError(command, `--${name} needs a whole number of at least ${minimum}, not "${value}"`);
  return number;
}

/** One of a closed list of values, or a usage error listing them. */
export function choiceOption<T extends string>(command: Command, name: string, value: string, allowed: readonly T[]): T {
  if (!allowed.includes(value as T)) usageError(command, `--${name} must be one of ${allowed.join(", ")}, not "${value}"`);
  return value as T;
}

/** An absolute http(s) URL, or a usage error naming the option. */
export function urlOption(command: Command, name: string, value: string): URL {
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {
    // reported below
  }
  if (url === null || (url.protocol !== "http:" && url.protocol !== "https:")) usageError(command, `--${name} is not an http(s) URL: ${value}`);
  return url;
}
