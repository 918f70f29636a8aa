/**
 * npm run size: the Worker as `wrangler deploy` would upload it (minified, wrangler.toml's `minify = true`), built
 * offline with `wrangler deploy --dry-run`: its size and gzipped size, against the budget, and where the bytes
 * go (esbuild's metafile: each package and each src/ module, largest first).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
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

function main(): number {
  const { values } = parseCommand(COMMAND, { options: { top: { type: "string" } } });
  const top = integerOption(COMMAND, "top", values.top, 20);
  const folder = mkdtempSync(join(tmpdir(), "worker-size-"));
  try {
    const metafile = join(folder, "meta.json");
    const built = spawnSync("npx", ["wrangler", "deploy", "--dry-run", "--outdir", folder, "--metafile", metafile], {
      cwd: REPO_ROOT,
      env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
      encoding: "utf8",
    });
    if (built.status !== 0) {
      process.stderr.write(`${built.stdout}${built.stderr}`);
      return 1;
    }
    const worker = readFileSync(join(folder, "worker.js"));
    const gzipped = gzipSync(worker, { level: 9 }).length;
    const verdict = worker.length <= BUDGET_KIB * 1024 ? "within" : "OVER";
    console.log(`Worker bundle (minified): ${kib(worker.length)}, gzipped ${kib(gzipped)}; ${verdict} the ${BUDGET_KIB} KiB budget`);
    const reported = /Total Upload: [^\n]+/.exec(built.stdout)?.[0];
    if (reported !== undefined) console.log(`wrangler: ${reported}`);
    const meta = JSON.parse(readFileSync(metafile, "utf8")) as Metafile;
    const output = Object.entries(meta.outputs).find(([path]) => path.endsWith(".js"))?.[1];
    if (output === undefined) return 0;
    const groups = new Map<string, number>();
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) groups.set(groupOf(input), (groups.get(groupOf(input)) ?? 0) + bytesInOutput);
    console.log(`\nwhere the bytes go (minified, before gzip):`);
    for (const [group, bytes] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      console.log(`${kib(bytes).padStart(11)}  ${((100 * bytes) / worker.length).toFixed(1).padStart(5)}%  ${group}`);
    }
    return 0;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

await runCommand(COMMAND, main);
