/**
 * Which format a client wants: `?format=` first, then `X-Return-Format`, then `Accept` (the media types of
 * the formats, with q-values; what coding agents send as "Markdown for Agents"). An answer chosen from
 * request headers says so with `Vary` (NEGOTIATION_VARY), so that caches keep one copy per choice.
 */
import { formatByName, type CleanFormat } from "../../clean";
import { quoteValue, ServiceError } from "../shared/errors";

/** Request header naming the format (Jina Reader's name): a format name, or "md". */
export const RETURN_FORMAT_HEADER = "x-return-format";
/** What an answer negotiated from request headers varies on. */
export const NEGOTIATION_VARY = "Accept, X-Return-Format";


/** Media types in Accept → format (types not listed, and wildcards, fall to the default format). */
const MEDIA_TYPE_FORMATS: Readonly<Record<string, CleanFormat>> = {
  "text/markdown": "markdown",
  "text/x-markdown": "markdown",
  "text/plain": "text",
  "application/json": "json",
  "text/html": "html",
  "application/xhtml+xml": "html",
};

/**
 * The format Accept prefers among `offered`: the listed media type with the highest q (the first listed on
 * a tie); a wildcard stands for `fallback`. Null when Accept is absent or names nothing offered.
 */
export function formatFromAccept(accept: string | null, offered: readonly CleanFormat[], fallback: CleanFormat): CleanFormat | null {
  if (accept === null || accept.trim() === "") return null;
  let best: CleanFormat | null = null;
  let bestQuality = 0;
  for (const range of accept.split(",").slice(0, 32)) {
    const [type, ...parameters] = range.split(";");
    const mediaType = type.trim().toLowerCase();
    let quality = 1;
    for (const parameter of parameters) {
      const match = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(parameter);
      if (match !== null) quality = Number(match[1]);
    }
    const format = mediaType === "*/*" || mediaType === "text/*" ? fallback : MEDIA_TYPE_FORMATS[mediaType];
    if (format === undefined || !offered.includes(format) || quality <= bestQuality) continue;
    best = format;
    bestQuality = quality;
  }
  return best;
}

/** Whether an Accept states no preference: absent, empty, or only wildcards of everything. */
export function acceptsAnything(accept: string | null): boolean {
  if (accept === null || accept.trim() === "") return true;
  return accept.split(",").every((range) => range.split(";")[0].trim() === "*/*");
}

export interface Negotiated {
  readonly format: CleanFormat;
  /** Whether the choice came from request headers (then the answer carries Vary). */
  readonly varies: boolean;
}

/** The format of a request: `?format=` (a 400 for an unknown one), else X-Return-Format (likewise), else Accept, else `fallback`. */
export function negotiateFormat(request: Request, queryFormat: string | undefined, offered: readonly CleanFormat[], fallback: CleanFormat): Negotiated {
  if (queryFormat !== undefined && queryFormat !== "") return { format: requireFormatName(queryFormat, offered, "format"), varies: false };
  const header = request.headers.get(RETURN_FORMAT_HEADER);
  if (header !== null && header.trim() !== "") return { format: requireFormatName(header, offered, RETURN_FORMAT_HEADER), varies: true };
  return { format: formatFromAccept(request.headers.get("accept"), offered, fallback) ?? fallback, varies: true };
}

function requireFormatName(value: string, offered: readonly CleanFormat[], source: string): CleanFormat {
  const format = formatByName(value, offered);
  if (format === null) {
    const names = offered.filter((name) => name !== "annotated").join(", ");
    throw new ServiceError("bad-request", `${source} must be one of ${names} (or md), not ${quoteValue(value)}`);
  }
  return format;
}

/** Adds the negotiation's Vary to a response (keeping what it varies on already). */
export function addVary(headers: Headers, value: string = NEGOTIATION_VARY): void {
  const present = headers.get("vary");
  if (present === null || present.trim() === "") headers.set("vary", value);
  else if (!present.toLowerCase().includes(value.split(",")[0].trim().toLowerCase())) headers.set("vary", `${present}, ${value}`);
}

/** Formats a proxied page can be answered in: the page itself (html), or its Markdown or text for agents. */
export const PROXY_FORMATS: readonly CleanFormat[] = ["html", "markdown", "text"];

/** The format of a proxied page: X-Return-Format or Accept among PROXY_FORMATS; html otherwise (a browser's Accept lists text/html first). */
export function proxyFormat(request: Request): CleanFormat {
  const header = request.headers.get(RETURN_FORMAT_HEADER);
  const named = header === null ? null : formatByName(header, PROXY_FORMATS);
  return named ?? formatFromAccept(request.headers.get("accept"), PROXY_FORMATS, "html") ?? "html";
}

/** Request header asking for the Markdown's front matter (as ?frontmatter= on the API). */
export const FRONT_MATTER_HEADER = "x-front-matter";

/**
 * Whether a proxied page's Markdown gets a front matter block: asked for by Accept (`text/markdown; frontmatter=true`,
 * a media-type parameter, so that one header says both) or by X-Front-Matter: true.
 */
export function proxyFrontMatter(request: Request): boolean {
  if (request.headers.get(FRONT_MATTER_HEADER)?.trim().toLowerCase() === "true") return true;
  const accept = request.headers.get("accept") ?? "";
  return accept.split(",").slice(0, 32).some((range) => {
    const [type, ...parameters] = range.split(";");
    return MEDIA_TYPE_FORMATS[type.trim().toLowerCase()] === "markdown" && parameters.some((parameter) => /^\s*frontmatter\s*=\s*"?true"?\s*$/i.test(parameter));
  });
}
