/**
 * `GET /`: the demo page (see demo-page.ts). It holds no cleaning of its own: its script calls the keyed
 * /v1/clean API, so it shows exactly what a client of the API gets.
 *
 * Vars (local default: set by `npm start`):
 *   DEMO_SAMPLES  JSON array of sample pages, `[{"title": "…", "url": "http://…"}]` (absent: no samples);
 *   DEMO_API_KEY  the key the form starts with: the documented local dev key, never a real one.
 */
import { Hono } from "hono/tiny";
import * as v from "valibot";
import type { Env } from "../shared/bindings";
import { demoPageHtml, type DemoSample } from "./demo-page";
import { demoPagePolicy, newNonce } from "../shared/security-headers";

export interface DemoBindings extends Env {
  DEMO_SAMPLES?: string;
  DEMO_API_KEY?: string;
}

const nonEmpty = v.pipe(v.string(), v.nonEmpty());
const SAMPLES_SCHEMA = v.array(v.object({ title: nonEmpty, url: nonEmpty }));

export const demoRoutes = new Hono<{ Bindings: DemoBindings }>();

demoRoutes.get("/", (context) => {
  const nonce = newNonce();
  const html = demoPageHtml({ samples: parseSamples(context.env.DEMO_SAMPLES), apiKey: context.env.DEMO_API_KEY ?? "", nonce });
  return context.html(html, 200, {
    "cache-control": "no-store",
    "content-security-policy": demoPagePolicy(nonce),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
  });
});

/** The configured samples; a malformed var gives none (and a log line), not a broken page. */
function parseSamples(raw: string | undefined): readonly DemoSample[] {
  if (raw === undefined || raw.trim() === "") return [];
  const parsed = v.safeParse(SAMPLES_SCHEMA, parseJson(raw));
  if (!parsed.success) {
    console.error("DEMO_SAMPLES ignored: expected a JSON array of {title, url}");
    return [];
  }
  return parsed.output;
}

function parseJson(raw: string): unknown {
  // JSON.parse has no non-throwing form; a malformed var becomes "no samples".
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}
