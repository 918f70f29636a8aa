/**
 * Runs the real Worker in workerd from a Node test or script: the entry is bundled with esbuild, started by
 * Miniflare with the compatibility settings of wrangler.toml, a real local KV namespace bound as RULES and the
 * static assets of its [assets] (the demo page), which the Worker runs before, as deployed.
 * Scripts (bench, mine:eval) and Node-side tests use it where they need what workerd cannot read itself (the
 * development data on disk).
 */
import { build, type BuildOptions, type Message } from "esbuild";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { WebSocket } from "undici";
import { REPO_ROOT } from "./paths";

export { REPO_ROOT };

export interface WorkerdOptions {
  /** Module to bundle as the Worker, relative to the repository root. Default: src/worker.ts. */
  readonly entry?: string;
  /** The entry module's source instead of a file (its imports resolve from the repository root). */
  readonly entrySource?: string;
  /** Plain-text bindings ([vars]) beside the ones of wrangler.toml. */
  readonly vars?: Readonly<Record<string, string>>;
  /** KV entries written to RULES before the first request. */
  readonly kv?: Readonly<Record<string, string>>;
  /** Open V8's inspector on a free loopback port (for a CPU profile; WorkerdHandle.inspector is its address). */
  readonly inspector?: boolean;
  /** Attach a DevTools session with its Network view on, as wrangler dev (and so `npm start`) does: its inspector
   * proxy sends Network.enable to the Worker, and workerd then reads every fetch() body for that view. */
  readonly devtoolsNetwork?: boolean;
}

export interface WorkerdHandle {
  /** Base URL the Worker answers on (requests are dispatched in-process; the host is what the Worker sees). */
  readonly url: string;
  /** The inspector's address (http://127.0.0.1:port) where the options asked for it, else null. */
  readonly inspector: string | null;
  fetch(pathOrUrl: string, init?: RequestInit): Promise<Response>;
  kvPut(key: string, value: string): Promise<void>;
  dispose(): Promise<void>;
}

const BASE_URL = "http://cleaner.test";

export async function startWorkerd(options: WorkerdOptions = {}): Promise<WorkerdHandle> {
  const script = await bundle(options.entrySource === undefined ? { entryPoints: [resolve(REPO_ROOT, options.entry ?? "src/worker.ts")] } : {
    stdin: { contents: options.entrySource, resolveDir: REPO_ROOT, sourcefile: "entry.ts", loader: "ts" },
  });
  const settings = readWranglerSettings();
  const miniflare = new Miniflare(convertV4MiniflareOptions({
    modules: true,
    script,
    compatibilityDate: settings.compatibilityDate,
    compatibilityFlags: settings.compatibilityFlags,
    kvNamespaces: ["RULES"],
    bindings: { ...settings.vars, ...options.vars },
    assets: { directory: settings.assetsDirectory, binding: "ASSETS", routerConfig: { has_user_worker: true, invoke_user_worker_ahead_of_assets: true } },
    ...(options.inspector === true || options.devtoolsNetwork === true ? { inspectorPort: 0, inspectorHost: "127.0.0.1" } : {}),
  }));
  await miniflare.ready;
  const inspectorUrl = options.inspector === true || options.devtoolsNetwork === true ? `http://127.0.0.1:${(await miniflare.getInspectorURL()).port}` : null;
  const inspector = options.inspector === true ? inspectorUrl : null;
  const devtools = options.devtoolsNetwork === true && inspectorUrl !== null ? await attachNetworkView(inspectorUrl) : null;
  const kv = await miniflare.getKVNamespace("RULES");
  for (const [key, value] of Object.entries(options.kv ?? {})) await kv.put(key, value);
  return {
    url: BASE_URL,
    inspector,
    async fetch(pathOrUrl, init) {
      const target = pathOrUrl.startsWith("http") ? pathOrUrl : BASE_URL + pathOrUrl;
      // Miniflare's fetch types differ slightly from the DOM ones; the values are the same.
      return (await miniflare.dispatchFetch(target, init as never)) as unknown as Response;
    },
    kvPut: (key, value) => kv.put(key, value),
    dispose: async () => {
      devtools?.close();
      await miniflare.dispose();
    },
  };
}

/** A DevTools session on the Worker's isolate with the Network domain enabled (answered before this returns). */
async function attachNetworkView(inspectorUrl: string): Promise<WebSocket> {
  const targets = (await (await fetch(`${inspectorUrl}/json`)).json()) as { title: string; webSocketDebuggerUrl: string }[];
  const target = targets.find((candidate) => candidate.title.includes("core:user"));
  if (target === undefined) throw new Error(`no user Worker among the inspector's targets: ${targets.map((candidate) => candidate.title).join(", ")}`);
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise<void>((opened, failed) => {
    socket.addEventListener("open", () => opened(), { once: true });
    socket.addEventListener("error", () => failed(new Error("the inspector refused the DevTools session")), { once: true });
  });
  await new Promise<void>((answered) => {
    socket.addEventListener("message", (event) => {
      if ((JSON.parse(String(event.data)) as { id?: number }).id === 1) answered();
    });
    socket.send(JSON.stringify({ id: 1, method: "Network.enable" }));
  });
  return socket;
}

/** Bundles the entry for workerd; modules outside the repository (an earlier revision's tree) find packages in ours. */
async function bundle(entry: Pick<BuildOptions, "entryPoints" | "stdin">): Promise<string> {
  const result = await build({
    ...entry,
    nodePaths: [resolve(REPO_ROOT, "node_modules")],
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    mainFields: ["module", "main"],
    conditions: ["workerd", "worker", "browser"],
    external: ["node:*", "cloudflare:*"],
    write: false,
    logLevel: "silent",
  }).catch((error: { errors?: readonly Message[] }) => {
    // esbuild's own message only counts the errors: say what and where.
    const where = (message: Message): string => (message.location === null ? "" : `${message.location.file}:${message.location.line}: `);
    throw new Error(`bundling the Worker: ${(error.errors ?? []).map((message) => where(message) + message.text).join("; ") || String(error)}`);
  });
  return result.outputFiles[0].text;
}

export interface WranglerSettings {
  compatibilityDate: string;
  compatibilityFlags: string[];
  vars: Record<string, string>;
  /** [assets] directory, absolute. */
  assetsDirectory: string;
}

/** The few wrangler.toml settings the runtime needs, read with simple patterns (the file is ours). */
export function readWranglerSettings(): WranglerSettings {
  const toml = readFileSync(resolve(REPO_ROOT, "wrangler.toml"), "utf8");
  const date = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(toml)?.[1] ?? "2026-11-17";
  const flags = /^compatibility_flags\s*=\s*\[([^\]]*)\]/m.exec(toml)?.[1] ?? "";
  const vars: Record<string, string> = {};
  const varsSection = /^\[vars\]\s*\n([\s\S]*?)(?:^\[|$(?![\s\S]))/m.exec(toml)?.[1] ?? "";
  for (const match of varsSection.matchAll(/^([A-Z_][A-Z0-9_]*)\s*=\s*"([^"]*)"/gm)) vars[match[1]] = match[2];
  const assets = /^\[assets\]\s*\n(?:[^\[]*?\n)?directory\s*=\s*"([^"]+)"/m.exec(toml)?.[1];
  if (assets === undefined) throw new Error("wrangler.toml: no [assets] directory");
  return { compatibilityDate: date, compatibilityFlags: [...flags.matchAll(/"([^"]+)"/g)].map((m) => m[1]), vars, assetsDirectory: resolve(REPO_ROOT, assets) };
}
