/** Site names: a host, lower case, without "www." and without a trailing dot (the KV key of its rules). */

const SITE_NAME = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/;
const MAX_SITE_LENGTH = 253; // the longest DNS name

export function siteOfHost(hostname: string): string {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  return host.startsWith("www.") ? host.slice(4) : host;
}

/** A site given by a client (`?site=` or a route parameter), normalised, or null if it is not a host name. */
export function parseSite(value: string): string | null {
  const site = siteOfHost(value.trim());
  return site.length <= MAX_SITE_LENGTH && SITE_NAME.test(site) ? site : null;
}
