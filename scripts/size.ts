/**
 * npm run size: the edge Worker as `wrangler deploy` would upload it (minified, wrangler.toml's `minify = true`),
 * built offline with `wrangler deploy --dry-run`: its size and gzipped size, against the budget, and where the
 * bytes go (esbuild's metafile: each package and each src/ module, largest first). Then the control Worker's
 * size on a line (wrangler.control.toml: the queue consumer and cron, off the request path, so no budget).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { integerOption, parseCommand, runCommand, usageText, type Command } from "./lib/cli";
import { REPO_ROOT } from "./lib/paths";

/** The size the Worker should stay under, minified: a smaller script starts isolates sooner on every PoP. */
const BUDGET_KIB = 250;

const COMMAND: Command = {
  name: "size",
  usage: usageText("size"),
};

interface Metafile {
  readonly outputs: Record<string, { readonly bytes: number; readonly inputs: Record<string, { readonly bytesInOutput: number }> }>;
}

/** A package (node_modules/<name> or <@scope/name>), a src/ module (its folder, or a top file), or the file itself. */
function groupOf(input: string): string {
  const parts = input.replace(/^(?:\.\.\/)+/, "").split("/");
  const packageAt = parts.lastIndexOf("node_modules");
  if (packageAt >= 0) return parts.slice(packageAt, packageAt + (parts[packageAt + 1]?.startsWith("@") ? 3 : 2)).join("/");
  return parts[0] === "src" && parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts.join("/");
}

const kib = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KiB`;

interface Build {
  readonly script: Buffer;
  readonly meta: Metafile;
  /** wrangler's own "Total Upload: …" line. */
  readonly reported: string | undefined;
}

/** `wrangler deploy --dry-run` of a config into a temporary folder; null (wrangler's output written) if it fails. */
function build(config: string): Build | null {
  const folder = mkdtempSync(join(tmpdir(), "worker-size-"));
  try {
    const metafile = join(folder, "meta.json");
    const built = spawnSync("npx", ["wrangler", "deploy", "--dry-run", "-c", config, "--outdir", folder, "--metafile", metafile], {
      cwd: REPO_ROOT,
      env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
      encoding: "utf8",
    });
    if (built.status !== 0) {
      process.stderr.write(`${built.stdout}${built.stderr}`);
      return null;
    }
    const main = readdirSync(folder).find((name) => name.endsWith(".js"));
    if (main === undefined) throw new Error(`wrangler deploy --dry-run -c ${config} wrote no script`);
    return {
      script: readFileSync(join(folder, main)),
      meta: JSON.parse(readFileSync(metafile, "utf8")) as Metafile,
      reported: /Total Upload: [^\n]+/.exec(built.stdout)?.[0],
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

function main(): number {
  const { values } = parseCommand(COMMAND, { options: { top: { type: "string" } } });
  const top = integerOption(COMMAND, "top", values.top, 20);
  const edge = build("wrangler.toml");
  const control = build("wrangler.control.toml");
  if (edge === null || control === null) return 1;
  const gzipped = (script: Buffer): string => kib(gzipSync(script, { level: 9 }).length);
  const verdict = edge.script.length <= BUDGET_KIB * 1024 ? "within" : "OVER";
  console.log(`Edge Worker bundle (minified): ${kib(edge.script.length)}, gzipped ${gzipped(edge.script)}; ${verdict} the ${BUDGET_KIB} KiB budget`);
  if (edge.reported !== undefined) console.log(`wrangler: ${edge.reported}`);
  console.log(`Control Worker bundle (minified): ${kib(control.script.length)}, gzipped ${gzipped(control.script)} (wrangler.control.toml: queue consumer and cron, no budget)`);
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
