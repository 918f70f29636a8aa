/**
 * One proxied HTML page through the pipeline: read under the size limit, decode, clean (format html, or the markdown
 * or text a client asked for). Whatever stops the cleaning of the html format, the origin's bytes come back whole with
 * the reason; markdown and text get the fallback clean() wrote instead (clean.ts bailoutFallback), never the page's markup.
 */
import { clean, emptyFallback, type BailoutCode, type CleanFormat, type Fallback, type FallbackContent } from "../../clean";
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
  /**
   * Not cleaned: `reason` goes out as x-clean-bailout. Format html: `body` is the origin's bytes, unchanged, and
   * `contentType` null (the origin's); markdown and text: the format's fallback, of `contentType`. `content`: what it holds.
   */
  | {
      readonly kind: "bailout"; readonly reason: BailoutCode; readonly body: Uint8Array | ReadableStream<Uint8Array> | string;
      readonly contentType: string | null; readonly content: FallbackContent;
    }
  | { readonly kind: "timeout" };

const REWRITER = createWorkerdBackend();

/** `format`: html, or markdown or text when the client asked for them (Accept, X-Return-Format). */
export async function cleanProxiedPage(response: Response, pageUrl: URL, rules: SiteRules, settings: HttpSettings, format: CleanFormat = "html", frontMatter = false): Promise<ProxiedPage> {
  const notCleaned = (reason: BailoutCode, body: Uint8Array | ReadableStream<Uint8Array>, fallback: Fallback | null): ProxiedPage => {
    if (format === "html") return { kind: "bailout", reason, body, contentType: null, content: "page" };
    if (body instanceof ReadableStream) void body.cancel();
    const written = fallback ?? emptyFallback({ url: pageUrl.href, site: rules.site, format, bailout: reason });
    return { kind: "bailout", reason, body: written.body, contentType: written.contentType, content: written.content };
  };
  if (declaredTooLarge(response, settings.maxBodyBytes) && response.body !== null) return notCleaned("too-large", response.body, null);
  const read = await readFetchedBody(response, settings.maxBodyBytes, settings.fetchBodyTimeoutMs);
  if (read.kind === "timeout") return read;
  if (read.kind === "bad-encoding") throw new ServiceError("origin-error", `${pageUrl.host}: ${read.message}`);
  if (read.kind === "too-large") return notCleaned("too-large", read.stream, null);
  const decoded = decodeHtml(read.bytes, response.headers.get("content-type"));
  if (!decoded.ok) return notCleaned("unsupported-charset", read.bytes, null);
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
  if (!result.ok) return notCleaned(result.bailout, read.bytes, result.fallback);
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
