/**
 * One proxied HTML page through the pipeline: read under the size limit, decode, clean (format html).
 * Whatever stops the cleaning, the origin's bytes come back whole with the reason.
 */
import { clean, type BailoutCode, type CleanFormat } from "../../clean";
import { decodeHtml } from "../../page";
import { createWorkerdBackend } from "../../runtime";
import { declaredTooLarge, readFetchedBody } from "../shared/body";
import { ServiceError } from "../shared/errors";
import { digest } from "./cache";
import { classifierModel } from "../shared/model";
import type { SiteRules } from "../shared/rules-store";
import type { HttpSettings } from "../shared/settings";

export type ProxiedPage =
  /** `original`: the page as the origin sent it, decoded (for sampling). */
  | { readonly kind: "cleaned"; readonly html: string; readonly contentType: string; readonly mode: string; readonly site: string; readonly original: string }
  /** Not cleaned: `body` is the origin's bytes, unchanged; `reason` goes out as x-clean-bailout. */
  | { readonly kind: "bailout"; readonly reason: BailoutCode; readonly body: Uint8Array | ReadableStream<Uint8Array> }
  | { readonly kind: "timeout" };

const REWRITER = createWorkerdBackend();

/** `format`: html, or markdown or text when the client asked for them (Accept, X-Return-Format). */
export async function cleanProxiedPage(response: Response, pageUrl: URL, rules: SiteRules, settings: HttpSettings, format: CleanFormat = "html", frontMatter = false): Promise<ProxiedPage> {
  if (declaredTooLarge(response, settings.maxBodyBytes) && response.body !== null) return { kind: "bailout", reason: "too-large", body: response.body };
  const read = await readFetchedBody(response, settings.maxBodyBytes, settings.fetchBodyTimeoutMs);
  if (read.kind === "timeout") return read;
  if (read.kind === "bad-encoding") throw new ServiceError("origin-error", `${pageUrl.host}: ${read.message}`);
  if (read.kind === "too-large") return { kind: "bailout", reason: "too-large", body: read.stream };
  const decoded = decodeHtml(read.bytes, response.headers.get("content-type"));
  if (!decoded.ok) return { kind: "bailout", reason: "unsupported-charset", body: read.bytes };
  const result = await clean({
    html: decoded.html,
    url: pageUrl.href,
    site: rules.site,
    format,
    ruleSet: rules.compiled,
    model: classifierModel(),
    rewriter: REWRITER,
    options: { maxBytes: settings.maxBodyBytes, frontMatter },
  });
  if (!result.ok) return { kind: "bailout", reason: result.bailout, body: read.bytes };
  return { kind: "cleaned", html: result.body, contentType: result.contentType, mode: result.mode, site: result.site, original: decoded.html };
}

let modelVersionMemo: string | null = null;

/** The bundled model's identity for cache keys (a digest, computed once per isolate): a new model changes every cleaned page. */
export function modelVersion(): string {
  if (modelVersionMemo === null) {
    const model = classifierModel();
    modelVersionMemo = model === null ? "none" : digest(JSON.stringify(model));
  }
  return modelVersionMemo;
}
