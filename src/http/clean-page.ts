import { clean, type CleanResult, type CleanFormat } from "../clean";
import { decodeHtml } from "../page";
import { createWorkerdBackend } from "../runtime";
import type { Env } from "../worker";
import { ServiceError } from "./errors";
import type { RequestedMode } from "./formats";
import { classifierModel } from "./model";
import { loadSiteRules, type RulesStatus } from "./rules-store";

/**
 * The shared end of both /v1/clean routes: bytes of a page in, the cleaned page (or the page as it was,
 * with the reason in `x-clean-bailout`) out. Never a truncated page: whatever fails, the original bytes go back.
 */
export interface PageToClean {
  readonly bytes: Uint8Array;
  /** The page's Content-Type (for its charset, and for passing it through unchanged). */
  readonly contentType: string | null;
  readonly url: string | undefined;
  /** The site whose rules apply ("" for none). */
  readonly site: string;
  readonly format: CleanFormat;
  /** What may clean it (?mode=). */
  readonly mode: RequestedMode;
  /** A request body over the pipeline's size limit is refused (413); a fetched page is passed through. */
  readonly source: "body" | "fetched";
  /** The size limit of the request (MAX_BODY_BYTES), applied by the pipeline to the decoded page too. */
  readonly maxBytes: number;
}

/** workerd's native HTMLRewriter, behind the runtime interface the pipeline takes. */
const REWRITER = createWorkerdBackend();

export async function cleanPage(env: Env, page: PageToClean): Promise<Response> {
  const decoded = decodeHtml(page.bytes, page.contentType);
  if (!decoded.ok) return passThrough(page.bytes, page.contentType, page.site, "unsupported-charset", null);
  const rules = await loadSiteRules(env.RULES, page.site);
  // clean() never throws: its own failures come back as bailouts, and the page goes back whole.
  const result = await clean({
    html: decoded.html,
    url: page.url,
    site: page.site,
    format: page.format,
    ruleSet: rules.compiled,
    model: classifierModel(),
    rewriter: REWRITER,
    options: { maxBytes: page.maxBytes, mode: page.mode },
  });
  if (result.ok) return cleanedResponse(result, page.site, rules.status, decoded.charset);
  // The operator sees why (wrangler tail); the client gets the page back with the reason only.
  if (result.bailout !== "too-large") console.error("clean() bailed out", page.site, result.bailout, result.detail);
  if (result.bailout === "too-large" && page.source === "body") throw new ServiceError("payload-too-large", result.detail);
  return passThrough(page.bytes, page.contentType, page.site, result.bailout, rules.status);
}


function cleanedResponse(result: Extract<CleanResult, { ok: true }>, site: string, rules: RulesStatus, charset: string): Response {
  const headers = new Headers({
    "content-type": result.contentType,
    "x-clean-mode": result.mode,
    "x-clean-rules": rules,
    "x-clean-charset": charset,
    "x-clean-removed": `blocks=${result.removed.blocks}; chars=${result.removed.chars}`,
  });
  if (site !== "") headers.set("x-clean-site", site);
  const timing = serverTiming(result.timings);
  if (timing !== "") headers.set("server-timing", timing);
  return new Response(result.body, { status: 200, headers });
}

/** The page as it came, with the reason it was not cleaned. */
export function passThrough(
  body: Uint8Array | ReadableStream<Uint8Array>,
  contentType: string | null,
  site: string,
  reason: string,
  rules: RulesStatus | null,
): Response {
  const headers = new Headers({
    "content-type": contentType ?? "text/html",
    "x-clean-bailout": reason,
    "x-clean-mode": "none",
  });
  if (site !== "") headers.set("x-clean-site", site);
  if (rules !== null) headers.set("x-clean-rules", rules);
  return new Response(body, { status: 200, headers });
}

/** Stage timings as a Server-Timing header ("analyse;dur=1.20, rules;dur=0.31"), readable in browser devtools. */
function serverTiming(timings: Readonly<Record<string, number>>): string {
  return Object.entries(timings)
    .filter(([name, value]) => /^[A-Za-z0-9_-]+$/.test(name) && Number.isFinite(value))
    .map(([name, value]) => `${name};dur=${value.toFixed(2)}`)
    .join(", ");
}
