/**
 * The site key: the one name of a rule set, used as its KV key, in its `site` field, by the miner, the publisher,
 * the admin routes, the CLI and the Worker. A key is a host, lower case, without "www." and without a trailing
 * dot, with an optional port, and optionally a path of whole segments (`bbc.co.uk/news`): a URL takes the rules
 * of the longest key that is a prefix of its host and path (siteKeyCandidates, longest first).
 */
import { RULES_KEY_MAX_PATH_SEGMENTS } from "../config";

const HOST_LABEL = "[a-z0-9](?:[a-z0-9-]*[a-z0-9])?";
/** A folder's name; never "." or ".." in any spelling (a URL's path never holds them, and a key names R2 and KV entries and
 * rules/ files, where a dot segment would name another's). */
const PATH_SEGMENT = "(?!(?:\\.|%2[eE]){1,2}(?:/|$))[A-Za-z0-9._~%!$&'()*+,;=:@-]+";
/** host[:port][/segment…]: what parseSiteKey accepts once normalised. */
export const SITE_KEY_PATTERN = new RegExp(`^(?!www\\.)${HOST_LABEL}(?:\\.${HOST_LABEL})*(?::\\d{1,5})?(?:/${PATH_SEGMENT}){0,${RULES_KEY_MAX_PATH_SEGMENTS}}$`);
/** The longest DNS name plus room for a port and a short path. */
const MAX_SITE_KEY_LENGTH = 253 + 6 + 2 * 64;

/** A host name as a site: lower case, no trailing dot, no "www.". */
export function siteOfHost(hostname: string): string {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  return host.startsWith("www.") ? host.slice(4) : host;
}

/**
 * A site key given by a person or a client (`?site=`, a route, a rule set), normalised (host lower case, "www."
 * and a trailing dot or slash dropped), or null if it is not one.
 */
export function parseSiteKey(value: string): string | null {
  const trimmed = value.trim().replace(/\/+$/, "");
  const slash = trimmed.indexOf("/");
  const host = siteOfHost(slash < 0 ? trimmed : trimmed.slice(0, slash));
  const key = slash < 0 ? host : host + trimmed.slice(slash);
  return key.length <= MAX_SITE_KEY_LENGTH && SITE_KEY_PATTERN.test(key) ? key : null;
}

/**
 * The keys whose rules may apply to a URL, longest first: its site with up to RULES_KEY_MAX_PATH_SEGMENTS leading
 * folders of its path, then fewer, then the site alone. The port is left out, as the Worker always has (a key with a
 * port is for naming with `?site=`).
 */
export function siteKeyCandidates(url: URL): string[] {
  const host = siteOfHost(url.hostname);
  const segments = url.pathname.split("/").filter((segment) => segment !== "");
  // The last segment names the page itself, unless the path ends with "/".
  const folders = url.pathname.endsWith("/") ? segments : segments.slice(0, -1);
  const candidates: string[] = [];
  for (let count = Math.min(folders.length, RULES_KEY_MAX_PATH_SEGMENTS); count > 0; count -= 1) {
    const key = `${host}/${folders.slice(0, count).join("/")}`;
    if (SITE_KEY_PATTERN.test(key)) candidates.push(key);
  }
  candidates.push(host);
  return candidates;
}

/**
 * The key of a site named by a label of mined pages (an index's `site`, a folder name) and the URLs of its pages:
 * a label that is a host is its key; a label "host_name" (a section of a site, as the dev data names them) takes
 * the path its pages share under that host, up to the folder the name names (`bbc.co.uk_news` → `bbc.co.uk/news`),
 * or the host when they share none.
 * Anything else is lower-cased with other characters turned into "-".
 */
export function siteKeyOfLabel(label: string, urls: readonly string[] = []): string {
  const plain = parseSiteKey(label);
  if (plain !== null) return plain;
  const underscore = label.indexOf("_");
  const host = underscore > 0 ? parseSiteKey(label.slice(0, underscore)) : null;
  if (host !== null && !host.includes("/") && urls.length > 0) {
    const shared = sharedFolders(host, urls);
    // The folder the label names ("news" of bbc.co.uk_news) ends the key; else all the shared folders do.
    const named = shared === null ? -1 : shared.indexOf(label.slice(underscore + 1));
    const folders = shared === null ? null : named >= 0 ? shared.slice(0, named + 1) : shared;
    if (folders !== null) return folders.length === 0 ? host : `${host}/${folders.join("/")}`;
  }
  return label
    .toLowerCase()
    .replace(/^www\./, "")
    .replace(/[^a-z0-9.:-]+/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "");
}

/** Leading path segments shared by every URL (at most RULES_KEY_MAX_PATH_SEGMENTS), or null if a URL is not on `host`. */
function sharedFolders(host: string, urls: readonly string[]): string[] | null {
  let shared: string[] | null = null;
  for (const value of urls) {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return null;
    }
    const candidates = siteKeyCandidates(url);
    if (candidates[candidates.length - 1] !== host) return null;
    const folders = candidates.length > 1 ? candidates[0].slice(host.length + 1).split("/") : [];
    if (shared === null) shared = folders;
    else {
      let common = 0;
      while (common < shared.length && common < folders.length && shared[common] === folders[common]) common += 1;
      shared = shared.slice(0, common);
    }
  }
  return shared;
}

/** File name of a rule set in rules/ (without ".json"): the key with "/" written "_" (no host holds "_"). */
export function ruleSetFileName(key: string): string {
  return key.replace(/\//g, "_");
}
