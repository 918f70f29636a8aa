import type { MiddlewareHandler } from "hono";

/**
 * Response headers that keep fetched pages inert on our origin. The API answers with other sites' markup
 * (format html, annotated, and bailouts that pass a page through): opened in a browser from our origin,
 * its scripts and `on*=` handlers must not run with our origin's rights (the demo page, the proxy's
 * prefixes and any cookie live there). So every API answer is sandboxed (no scripts, an opaque origin),
 * never sniffed into another type, and sends no Referer (a link may carry ?key=).
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "content-security-policy": "sandbox",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
});

/** Sets the API security headers on whatever a route answers, errors included. */
export const apiSecurityHeaders: MiddlewareHandler = async (context, next) => {
  await next();
  for (const [name, value] of Object.entries(API_SECURITY_HEADERS)) context.res.headers.set(name, value);
};

/**
 * The demo page's policy: its own script only (public/demo.js, from this origin), requests to this origin only,
 * no plugins, not framed. Styles, images and fonts may come from anywhere, and styles inline, because the sample
 * pages shown in its frames (srcdoc documents inherit this policy) bring their own; those frames are sandboxed
 * without scripts, so the pages shown run nothing.
 */
export const DEMO_PAGE_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'unsafe-inline' http: https:",
  "img-src http: https: data: blob:",
  "font-src http: https: data:",
  "media-src http: https:",
  "connect-src 'self'",
  "frame-src 'self'",
  "base-uri http: https:",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join("; ");
