/**
 * Bench-only Worker entry for `npm run bench`: holds pages sent by the bench script in isolate memory and
 * times the real pipeline (clean(), workerd's native HTMLRewriter), a bare HTMLRewriter pass over them, or a
 * tokenising pass (TOKENISE_SELECTOR).
 *
 * Timing: each page is timed as one batch of `repeat` runs between two awaited timers (an I/O boundary
 * before and after), so that the clock is read fresh even where workerd only advances it across I/O.
 * The result is the batch time divided by `repeat`, nothing subtracted; /time also reports the same
 * measurement of an empty batch (the cost of the boundary itself) and whether the clock moved during
 * pure computation without I/O (production workerd freezes it; local workerd may not).
 */
import modelJson from "../rules/model.json";
import { parseModel } from "../src/classify/index";
import { clean } from "../src/clean";
import { compileRuleSet, parseRuleSet, type CompiledRuleSet } from "../src/rules/index";
import { createWorkerdBackend } from "../src/runtime/index";

const backend = createWorkerdBackend();
const parsedModel = parseModel(modelJson);
const model = parsedModel.ok ? parsedModel.model : null;
const pages = new Map<string, { html: string; site: string }>();
const ruleSets = new Map<string, CompiledRuleSet>();

/** What a /time request runs on each page: clean(), a bare pass, a tokenising pass, or nothing (the boundary's cost). */
export type Kind = "pipeline" | "bare" | "tokenise" | "empty";

/**
 * An attribute selector that no dev page's element matches: lol-html must then read every start tag whole, its
 * name and attributes (with no handler it only finds where tags are), yet never calls into JavaScript. One full
 * tokenising pass, as pass 1 makes in JavaScript.
 */
const TOKENISE_SELECTOR = "[data-bench-tokenise]";

function ioBoundary(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Stage name → summed milliseconds of the pipeline runs of the current /time request (clean()'s own timings). */
let stageTotals: Record<string, number> = {};

async function runOnce(kind: Kind, page: { html: string; site: string }): Promise<void> {
  if (kind === "bare" || kind === "tokenise") {
    const outcome = await backend.rewrite(page.html, kind === "bare" ? [] : [{ selector: TOKENISE_SELECTOR, element: () => {} }]);
    if (!outcome.ok) throw new Error(outcome.detail);
  } else if (kind === "pipeline") {
    const result = await clean({ html: page.html, site: page.site, format: "html", ruleSet: ruleSets.get(page.site) ?? null, model, rewriter: backend });
    if (!result.ok) throw new Error(`${result.bailout}: ${result.detail}`);
    for (const [stage, milliseconds] of Object.entries(result.timings)) stageTotals[stage] = (stageTotals[stage] ?? 0) + milliseconds;
  }
}

async function timeBatch(kind: Kind, page: { html: string; site: string }, repeat: number): Promise<number> {
  await ioBoundary();
  const start = performance.now();
  for (let run = 0; run < repeat; run++) await runOnce(kind, page);
  await ioBoundary();
  return (performance.now() - start) / repeat;
}

/** Whether performance.now() moves during computation with no I/O in between. */
function clockMovesWithoutIo(): boolean {
  const start = performance.now();
  let sink = 0;
  for (let i = 0; i < 5_000_000; i++) sink += i % 7;
  return performance.now() > start && sink >= 0;
}

export default {
  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (request.method === "POST" && url.pathname === "/page") {
      const body = (await request.json()) as { key: string; html: string; site: string };
      pages.set(body.key, { html: body.html, site: body.site });
      return new Response("ok");
    }
    if (request.method === "POST" && url.pathname === "/rules") {
      const body = (await request.json()) as { site: string; ruleSet: unknown };
      const parsed = parseRuleSet(body.ruleSet);
      if (parsed.ok) ruleSets.set(body.site, compileRuleSet(parsed.ruleSet));
      return new Response(parsed.ok ? "ok" : parsed.problems.join("; "), { status: parsed.ok ? 200 : 400 });
    }
    if (request.method === "POST" && url.pathname === "/clear") {
      pages.clear();
      return new Response("ok");
    }
    if (request.method === "POST" && url.pathname === "/time") {
      const body = (await request.json()) as { keys: string[]; kind: Kind; repeat: number };
      const milliseconds: number[] = [];
      stageTotals = {};
      for (const key of body.keys) {
        const page = pages.get(key);
        if (page === undefined) return new Response(`no page ${key}`, { status: 404 });
        milliseconds.push(await timeBatch(body.kind, page, body.repeat));
      }
      return Response.json({ milliseconds, stageTotals, clockMovesWithoutIo: clockMovesWithoutIo(), model: model !== null });
    }
    return new Response("not found", { status: 404 });
  },
};
