/**
 * npm run size: the edge Worker as `wrangler deploy` would upload it (minified, wrangler.toml's `minify = true`),
 * built offline with `wrangler deploy --dry-run`: its size and gzipped size against Cloudflare's script size
 * limits, its cold start (scripts/lib/cold-start.ts: startup and first request on fresh isolates, medians) against
 * Cloudflare's startup limit, and where the bytes go (esbuild's metafile: each package and each src/ module,
 * largest first). Then the control Worker's size on a line (wrangler.control.toml: the queue consumer and cron).
 * Bytes are no budget of their own: what a user feels is the start-up, and what Cloudflare refuses is the limits.
 */
import { gzipSync } from "node:zlib";
import { integerOption, parseCommand, runCommand, usageText, type Command } from "./lib/cli";
import { measureColdStart } from "./lib/cold-start";
import { buildWorker } from "./lib/worker-build";

/**
 * Cloudflare's limits on a Worker (developers.cloudflare.com/workers/platform/limits/, "Worker size" and "Worker
 * startup time"): the script after compression (gzip, as wrangler reports it) at most 3 MB on the Free plan and
 * 10 MB on Paid; parsing it and running its global scope at most 1 second (raised from 400 ms in October 2025).
 */
const FREE_PLAN_GZIP_BYTES = 3 * 1024 * 1024;
const PAID_PLAN_GZIP_BYTES = 10 * 1024 * 1024;
const STARTUP_LIMIT_MS = 1000;

const COMMAND: Command = {
  name: "size",
  usage: usageText("size"),
};

/** A package (node_modules/<name> or <@scope/name>), a src/ module (its folder, or a top file), or the file itself. */
function groupOf(input: string): string {
  const parts = input.replace(/^(?:\.\.\/)+/, "").split("/");
  const packageAt = parts.lastIndexOf("node_modules");
  if (packageAt >= 0) return parts.slice(packageAt, packageAt + (parts[packageAt + 1]?.startsWith("@") ? 3 : 2)).join("/");
  return parts[0] === "src" && parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts.join("/");
}

const kib = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KiB`;

async function main(): Promise<number> {
  const { values } = parseCommand(COMMAND, { options: { top: { type: "string" }, runs: { type: "string" } } });
  const top = integerOption(COMMAND, "top", values.top, 20);
  const runs = integerOption(COMMAND, "runs", values.runs, 7, 0); // 0: no cold start
  const edge = buildWorker("wrangler.toml");
  const control = buildWorker("wrangler.control.toml");
  if (edge === null || control === null) return 1;
  const gzipped = (script: Buffer): string => kib(gzipSync(script, { level: 9 }).length);
  const edgeGzip = gzipSync(edge.script, { level: 9 }).length;
  const share = (limit: number): string => `${((100 * edgeGzip) / limit).toFixed(1)}%`;
  console.log(`Edge Worker bundle (minified): ${kib(edge.script.length)}, gzipped ${kib(edgeGzip)}: ${share(FREE_PLAN_GZIP_BYTES)} of the Free plan's 3 MB limit, ${share(PAID_PLAN_GZIP_BYTES)} of the Paid plan's 10 MB`);
  if (edge.reported !== undefined) console.log(`wrangler: ${edge.reported}`);
  if (runs > 0) {
    const cold = await measureColdStart(edge.script.toString("utf8"), runs);
    const ms = (value: number): string => `${value.toFixed(1)} ms`;
    console.log(
      `Edge Worker cold start (medians of ${cold.runs} fresh isolates): startup (parse and global scope) ${ms(cold.startupMs)}, ` +
        `${((100 * cold.startupMs) / STARTUP_LIMIT_MS).toFixed(1)}% of Cloudflare's ${STARTUP_LIMIT_MS} ms startup limit; ` +
        `first request in local workerd ${ms(cold.firstRequestMs)} (the same request warm ${ms(cold.warmRequestMs)})`,
    );
  }
  console.log(`Control Worker bundle (minified): ${kib(control.script.length)}, gzipped ${gzipped(control.script)} (wrangler.control.toml: queue consumer and cron, off the request path)`);
  const output = Object.entries(edge.meta.outputs).find(([path]) => path.endsWith(".js"))?.[1];
  if (output === undefined) return 0;
  const groups = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) groups.set(groupOf(input), (groups.get(groupOf(input)) ?? 0) + bytesInOutput);
  console.log(`\nwhere the edge Worker's bytes go (minified, before gzip):`);
  for (const [group, bytes] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${kib(bytes).padStart(11)}  ${((100 * bytes) / edge.script.length).toFixed(1).padStart(5)}%  ${group}`);
  }
  return 0;
}

await runCommand(COMMAND, main);
