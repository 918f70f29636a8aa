/**
 * How npm runs a script: `node scripts/run.mjs <name> [arguments]` runs scripts/<name>.ts with tsx, as
 * `node --import tsx scripts/<name>.ts` would. `--help` is answered from scripts/usage/<name>.txt before
 * TypeScript and the script's modules are loaded, so that it answers at once (the script itself prints the
 * same file when run another way). Plain JavaScript for that reason.
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { asksForHelp } from "./lib/help.mjs";

const [name, ...args] = process.argv.slice(2);
const script = name === undefined ? null : new URL(`./${name}.ts`, import.meta.url);
if (script === null || !/^[\w-]+$/.test(name) || !existsSync(script)) {
  process.stderr.write(`scripts/run.mjs: no script ${JSON.stringify(name ?? "")} in scripts/\n`);
  process.exit(2);
}
const usage = new URL(`./usage/${name}.txt`, import.meta.url);
if (asksForHelp(args) && existsSync(usage)) {
  process.stdout.write(readFileSync(usage));
  process.exit(0);
}
const { register } = await import("tsx/esm/api");
register();
// The script sees the arguments as if it had been started itself: argv[1] its own path, then its arguments.
process.argv.splice(1, 2, fileURLToPath(script));
await import(script.href);
