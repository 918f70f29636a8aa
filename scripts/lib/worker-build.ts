/**
 * A Worker as `wrangler deploy` would upload it (minified, as its config says), built offline with
 * `wrangler deploy --dry-run`: npm run size measures it, and a test imports the edge Worker's as size does.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO_ROOT } from "./paths";

export interface Metafile {
  readonly outputs: Record<string, { readonly bytes: number; readonly inputs: Record<string, { readonly bytesInOutput: number }> }>;
}

export interface WorkerBuild {
  readonly script: Buffer;
  readonly meta: Metafile;
  /** wrangler's own "Total Upload: …" line. */
  readonly reported: string | undefined;
}

/** `wrangler deploy --dry-run` of a config into a temporary folder; null (wrangler's output written) if it fails. */
export function buildWorker(config: string): WorkerBuild | null {
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
