/**
 * npm run size's startup figure (scripts/lib/cold-start.ts): a new Node process imports the edge Worker as
 * `wrangler deploy` builds it, its import of workerd's built-in `cloudflare:workers` included; a name the
 * stand-in for that module does not have fails the measurement instead of being faked.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { startupMs } from "../../scripts/lib/cold-start";
import { buildWorker } from "../../scripts/lib/worker-build";

const folder = mkdtempSync(join(tmpdir(), "size-test-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function moduleFile(name: string, source: string): string {
  const file = join(folder, name);
  writeFileSync(file, source);
  return file;
}

it("imports the edge Worker as deployed, cloudflare:workers and all", () => {
  const edge = buildWorker("wrangler.toml");
  expect(edge).not.toBeNull();
  const script = edge!.script.toString("utf8");
  expect(script).toMatch(/from\s*"cloudflare:workers"/);
  expect(startupMs(moduleFile("worker.mjs", script))).toBeGreaterThan(0);
}, 120_000);

it("gives a Durable Object its ctx and env as workerd does, and refuses names it does not provide", () => {
  const durable = moduleFile(
    "durable.mjs",
    'import { DurableObject } from "cloudflare:workers";\nclass Gate extends DurableObject {}\nconst gate = new Gate("ctx", "env");\nif (gate.ctx !== "ctx" || gate.env !== "env") throw new Error("ctx and env not kept");\n',
  );
  expect(startupMs(durable)).toBeGreaterThan(0);
  const other = moduleFile("env.mjs", 'import { env } from "cloudflare:workers";\nexport const keys = Object.keys(env);\n');
  expect(() => startupMs(other)).toThrow(/importing the script in Node failed[\s\S]*env/);
}, 60_000);
