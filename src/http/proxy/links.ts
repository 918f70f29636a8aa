/**
 * Keeping a proxied page on the proxy: links, images, styles, scripts, forms and redirects that point at
 * the origin are rewritten to the proxy's own paths. Relative URLs need nothing (the browser resolves them
 * against the proxied URL); root-relative ones need the prefix in prefix mode; absolute and
 * protocol-relative ones to the origin host become root-relative proxy paths. Other hosts are left alone.
 */
import type { ProxyEntry } from "./config";
import { parseUrl } from "../shared/url";

/** Attributes that hold one URL, on whichever element carries them (a, link, img, script, form, video…). */
const URL_ATTRIBUTES = ["href", "src", "action", "formaction", "poster", "data"] as const;


/** The proxy path for an absolute URL on the origin host (any scheme), or null for another host. */
export function proxyPathFor(entry: ProxyEntry, url: URL): string | null {
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (url.host.toLowerCase() !== entry.originHost) return null;
  const prefix = entry.kind === "prefix" ? entry.key : "";
  return prefix + url.pathname + url.search + url.hash;
}

/** A URL attribute value as it should read on the proxy, or null when it stays as it is. */
export function rewriteUrlValue(entry: ProxyEntry, value: string, pageUrl: URL): string | null {
  const trimmed = value.trim();
  if (trimmed.startsWith("//") || /^https?:/i.test(trimmed)) {
    const url = parseUrl(trimmed, pageUrl);
    return url === null ? null : proxyPathFor(entry, url);
  }
  if (trimmed.startsWith("/") && entry.kind === "prefix") return entry.key + trimmed;
  return null;
}

/** A srcset value ("a.jpg 1x, /b.jpg 2x") with each candidate URL rewritten; null when none changes. */
export function rewriteSrcset(entry: ProxyEntry, value: string, pageUrl: URL): string | null {
  let changed = false;
  const candidates = value.split(",").map((candidate) => {
    const match = /^(\s*)(\S+)(.*)$/s.exec(candidate);
    if (match === null) return candidate;
    const rewritten = rewriteUrlValue(entry, match[2], pageUrl);
    if (rewritten === null) return candidate;
    changed = true;
    return match[1] + rewritten + match[3];
  });
  return changed ? candidates.join(",") : null;
}

/**
 * A redirect's Location as the client should follow it: on the proxy when it points at the origin; as it is when it
 * points at a host of the entry's redirectHosts; otherwise (another host, a scheme but http(s), no URL) refused,
 * with the reason.
 */
export function rewriteLocation(entry: ProxyEntry, location: string, targetUrl: URL): { ok: true; location: string } | { ok: false; reason: string } {
  const url = parseUrl(location, targetUrl);
  if (url === null) return { ok: false, reason: "a Location that is not a URL" };
  if (url.protocol !== "http:" && url.protocol !== "https:") return { ok: false, reason: `a redirect to a ${url.protocol} URL` };
  const onProxy = proxyPathFor(entry, url);
  if (onProxy !== null) return { ok: true, location: onProxy };
  const host = url.host.toLowerCase();
  if (host === entry.originHost || entry.redirectHosts.has(host) || entry.redirectHosts.has(url.hostname.toLowerCase())) return { ok: true, location: url.href };
  return { ok: false, reason: `a redirect to ${url.host}, a host this proxy does not name (PROXY_ORIGINS redirectHosts)` };
}

/**
 * An HTMLRewriter that rewrites the URL attributes of a page served through `entry`. Selectors match only
 * values that may need a change (root-relative, or starting with the origin's host), so JavaScript is
 * called once per such element, not once per element of the page.
 */
export function linkRewriter(entry: ProxyEntry, pageUrl: URL): HTMLRewriter {
  const starts = entry.kind === "prefix" ? ["/"] : ["//", `http://${entry.originHost}`, `https://${entry.originHost}`];
  if (entry.kind === "prefix") starts.push(`http://${entry.originHost}`, `https://${entry.originHost}`);
  let rewriter = new HTMLRewriter();
  for (const attribute of URL_ATTRIBUTES) {
    const selector = starts.map((start) => `[${attribute}^="${start}"]`).join(",");
    rewriter = rewriter.on(selector, {
      element(element) {
        const value = element.getAttribute(attribute);
        const rewritten = value === null ? null : rewriteUrlValue(entry, value, pageUrl);
        if (rewritten !== null) element.setAttribute(attribute, rewritten);
      },
    });
  }
  return rewriter.on("[srcset]", {
    element(element) {
      const value = element.getAttribute("srcset");
      const rewritten = value === null ? null : rewriteSrcset(entry, value, pageUrl);
      if (rewritten !== null) element.setAttribute("srcset", rewritten);
    },
  });
}
