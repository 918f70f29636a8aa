/**
 * The Worker bundle carries no html-rewriter-wasm: the core takes its HTMLRewriter backend from the caller,
 * and only Node entry points (CLI, tests, bench) import the wasm build.
 */
import { build } from "esbuild";
import { join } from "node:path";
import { expect, it } from "vitest";

const REPO_ROOT = join(import.meta.dirname, "../..");

it("bundles src/worker.ts without html-rewriter-wasm", async () => {
  const result = await build({
    entryPoints: [join(REPO_ROOT, "src/worker.ts")],
    bundle: true, format: "esm", platform: "neutral", target: "es2022", mainFields: ["module", "main"],
    conditions: ["workerd", "worker", "browser"], external: ["node:*", "cloudflare:*"], write: false, logLevel: "silent",
    metafile: true,
  });
  const inputs = Object.keys(result.metafile.inputs);
  expect(inputs.some((path) => path.includes("src/runtime/workerd.ts"))).toBe(true);
  expect(inputs.filter((path) => path.includes("html-rewriter-wasm"))).toEqual([]);
  expect(result.outputFiles[0].text).not.toContain("html_rewriter_bg");
});
