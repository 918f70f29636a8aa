/** Site names: the one site-key definition lives in src/rules (host without "www.", optional port and path). */
import { parseSiteKey } from "../../rules";
import { quoteValue, ServiceError } from "./errors";

export { parseSiteKey as parseSite, siteKeyCandidates, siteOfHost } from "../../rules";

/** A :site or ?site= value as a site key, or a bad-request error saying what one looks like. */
export function requireSiteParam(value: string): string {
  const site = parseSiteKey(value);
  if (site === null) throw new ServiceError("bad-request", `${quoteValue(value)} is not a site key (a host name, optionally with a port and a path)`);
  return site;
}
