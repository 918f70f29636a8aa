/**
 * The demo page (docs/api.md, "Demo page"): a static asset (public/index.html and its script public/demo.js, wrangler.toml
 * [assets]) that holds no cleaning of its own: its script calls the keyed /v1/clean API, so it shows exactly what
 * a client of the API gets. The Worker runs before the assets (run_worker_first), so a proxied host's own "/" stays
 * the origin's; these routes hand the two files out with the page's policy, and the deployment's settings as JSON:
 *   GET /                   the page
 *   GET /demo.js            its script
 *   GET /demo/config.json   {samples, apiKey} from the vars below
 *
 * Vars (local default: set by `npm start`):
 *   DEMO_SAMPLES  JSON array of sample pages, `[{"title": "…", "url": "http://…"}]` (absent: no samples);
 *   DEMO_API_KEY  the key the form starts with: the documented local dev key, never a real one.
 */
import { Hono } from "hono/tiny";
import type { Env } from "../shared/bindings";
import { DEMO_PAGE_POLICY } from "../shared/security-headers";
import * as v from "../../validation";

export interface DemoBindings extends Env {
  DEMO_SAMPLES?: string;
  DEMO_API_KEY?: string;
}

const nonEmpty = v.string({ nonEmpty: true });
const SAMPLES_SCHEMA = v.array(v.object({ title: nonEmpty, url: nonEmpty }));

/** The page's headers: its policy, no sniffing, no Referer (a sample URL may be private), never cached (the vars change). */
const PAGE_HEADERS: Readonly<Record<string, string>> = {
  "cache-control": "no-store",
  "content-security-policy": DEMO_PAGE_POLICY,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
};

export const demoRoutes = new Hono<{ Bindings: DemoBindings }>();

demoRoutes.get("/", (context) => asset(context.env, "/index.html"));
demoRoutes.get("/demo.js", (context) => asset(context.env, "/demo.js"));
demoRoutes.get("/demo/config.json", (context) =>
  context.json({ samples: parseSamples(context.env.DEMO_SAMPLES), apiKey: context.env.DEMO_API_KEY ?? "" }, 200, PAGE_HEADERS));

/** A file of public/ with the page's headers; 404 where the deployment has no assets. */
async function asset(env: DemoBindings, path: string): Promise<Response> {
  if (env.ASSETS === undefined) return new Response("no demo page: wrangler.toml [assets] is not bound\n", { status: 404 });
  const stored = await env.ASSETS.fetch(new Request(new URL(path, "https://assets.local")));
  const response = new Response(stored.body, stored);
  for (const [name, value] of Object.entries(PAGE_HEADERS)) response.headers.set(name, value);
  return response;
}

/** The configured samples; a malformed var gives none (and a log line), not a broken page. */
function parseSamples(raw: string | undefined): readonly v.Infer<typeof SAMPLES_SCHEMA>[number][] {
  if (raw === undefined || raw.trim() === "") return [];
  const parsed = v.parse(SAMPLES_SCHEMA, parseJson(raw));
  if (!parsed.ok) {
    console.error("DEMO_SAMPLES ignored: expected a JSON array of {title, url}");
    return [];
  }
  return parsed.value;
}

function parseJson(raw: string): unknown {
  // JSON.parse has no non-throwing form; a malformed var becomes "no samples".
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}
