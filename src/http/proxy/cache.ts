/**
 * Caching for the proxy: validators of cleaned pages, conditional requests, and the Cache API entry of a
 * cleaned page.
 *
 * A cleaned page is not the origin's bytes, so its ETag is a weak tag derived from the origin's and the
 * cleaning version (rule set, model, proxy format): `W/"<origin opaque>~c<version>"`, with `w` before the
 * version when the origin's tag was weak. A client revalidating with such a tag is revalidated against the
 * origin with the origin's own tag; a tag of another cleaning version is dropped, so the page is cleaned
 * again. Last-Modified is the origin's.
 */

/** Marks a cleaned-page ETag; "~" cannot occur in a hex version, so the split is unambiguous. */
const CLEANED_TAG_SEPARATOR = "~c";

/** Request header that skips the cache lookup (the fresh result is still stored): `x-clean-cache: bypass`. */
export const CACHE_CONTROL_HEADER = "x-clean-cache";

/** Bump when the proxy's output changes for the same input (invalidates every cached cleaned page). */
const PROXY_OUTPUT_VERSION = "1";

/** FNV-1a, 32 bit: a short, stable digest of the cleaning version (not for security). */
export function digest(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, "0");
}

/** The cleaning version of a page: what changes the cleaned output of the same origin bytes. */
export function cleaningVersion(ruleSetVersion: string, modelVersion: string): string {
  return digest(`${PROXY_OUTPUT_VERSION}|${ruleSetVersion}|${modelVersion}`);
}

/** The ETag of a cleaned page from the origin's ETag. */
export function cleanedEtag(originEtag: string, version: string): string {
  const weak = originEtag.startsWith("W/");
  const opaque = (weak ? originEtag.slice(2) : originEtag).replace(/^"|"$/g, "");
  return `W/"${opaque}${CLEANED_TAG_SEPARATOR}${weak ? "w" : ""}${version}"`;
}

/**
 * If-None-Match as the origin should see it: cleaned tags of this version turned back into the origin's,
 * tags of another version dropped, other tags (pages that passed through uncleaned) kept.
 * Returns null when nothing is left to send.
 */
export function originIfNoneMatch(header: string, version: string): string | null {
  const tags: string[] = [];
  for (const raw of header.split(",")) {
    const tag = raw.trim();
    if (tag === "*") return "*";
    const separator = tag.lastIndexOf(CLEANED_TAG_SEPARATOR);
    if (separator < 0) {
      if (tag !== "") tags.push(tag);
      continue;
    }
    const suffix = tag.slice(separator + CLEANED_TAG_SEPARATOR.length).replace(/"$/, "");
    const weak = suffix.startsWith("w");
    if ((weak ? suffix.slice(1) : suffix) !== version) continue;
    const opaque = tag.slice(tag.startsWith("W/") ? 3 : 1, separator);
    tags.push(weak ? `W/"${opaque}"` : `"${opaque}"`);
  }
  return tags.length > 0 ? tags.join(", ") : null;
}

/** Weak comparison of an ETag with an If-None-Match list (RFC 9110 13.1.2). */
function etagListMatches(header: string, etag: string): boolean {
  const bare = etag.replace(/^W\//, "");
  return header.split(",").some((raw) => {
    const tag = raw.trim();
    return tag === "*" || tag.replace(/^W\//, "") === bare;
  });
}

/** Whether a stored response satisfies the request's conditions, so a 304 answers it (RFC 9110 13.2.2). */
export function isNotModified(request: Headers, stored: Headers): boolean {
  const ifNoneMatch = request.get("if-none-match");
  const etag = stored.get("etag");
  if (ifNoneMatch !== null) return etag !== null && etagListMatches(ifNoneMatch, etag);
  const ifModifiedSince = request.get("if-modified-since");
  const lastModified = stored.get("last-modified");
  if (ifModifiedSince === null || lastModified === null) return false;
  const since = Date.parse(ifModifiedSince);
  const modified = Date.parse(lastModified);
  return Number.isFinite(since) && Number.isFinite(modified) && modified <= since;
}

/** Headers a 304 carries over from the full response (RFC 9110 15.4.5). */
const NOT_MODIFIED_HEADERS = ["cache-control", "content-location", "date", "etag", "expires", "vary", "last-modified"] as const;

export function notModifiedResponse(from: Headers, extra: Readonly<Record<string, string>>): Response {
  const headers = new Headers(extra);
  for (const name of NOT_MODIFIED_HEADERS) {
    const value = from.get(name);
    if (value !== null) headers.set(name, value);
  }
  return new Response(null, { status: 304, headers });
}

/** Whether the client asked to skip the cache lookup. */
export function bypassesCache(request: Headers): boolean {
  if (request.get(CACHE_CONTROL_HEADER)?.toLowerCase() === "bypass") return true;
  const cacheControl = request.get("cache-control")?.toLowerCase() ?? "";
  return cacheControl.includes("no-cache") || cacheControl.includes("no-store") || request.get("pragma")?.toLowerCase() === "no-cache";
}

/**
 * Whether a shared cache may keep this cleaned page (RFC 9111 3 and 3.5): a 200 with freshness, not
 * private or no-store, no Set-Cookie, and no Vary beyond Accept-Encoding (`Vary: *` and a page that varies
 * on a request header are not stored: the key holds the URL alone). A page fetched with the client's
 * Cookie or Authorization (`forwarded`: the headers the origin saw) is never stored unless the proxy entry
 * says so (`shareCredentialed`), whatever the origin's Cache-Control: one visitor's page is not another's.
 */
export function isStorable(forwarded: Headers, response: Response, shareCredentialed = false): boolean {
  if (response.status !== 200) return false;
  const cacheControl = response.headers.get("cache-control")?.toLowerCase() ?? "";
  if (forbidsSharedStore(response.headers)) return false;
  if (!/(s-maxage|max-age)\s*=\s*[1-9]/.test(cacheControl) && response.headers.get("expires") === null) return false;
  const vary = (response.headers.get("vary") ?? "").toLowerCase().split(",").map((name) => name.trim()).filter((name) => name !== "");
  if (vary.some((name) => name !== "accept-encoding")) return false;
  return shareCredentialed || !carriesCredentials(forwarded);
}

/**
 * Whether an origin's answer must stay out of a shared cache, whatever else it says (RFC 9111 3 and 5.2.2): it sets
 * a cookie (a session, a per-visitor answer), or its Cache-Control says private or no-store. The proxy's cache and
 * the reader API's both ask it, of the origin's headers.
 */
export function forbidsSharedStore(headers: Headers): boolean {
  const cacheControl = headers.get("cache-control")?.toLowerCase() ?? "";
  return headers.has("set-cookie") || /(^|[\s,])(private|no-store)([\s,=]|$)/.test(cacheControl);
}

/** Whether request headers carry a session or credentials (Cookie, Authorization). */
export function carriesCredentials(headers: Headers): boolean {
  return headers.has("cookie") || headers.has("authorization");
}

/** The Cache API key of a proxied page: its proxy URL and the cleaning version, GET only. */
export function cacheKey(requestUrl: string, version: string): Request {
  const url = new URL(requestUrl);
  url.searchParams.append("__clean_version", version);
  return new Request(url.toString(), { method: "GET" });
}
