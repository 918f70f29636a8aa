/** Site names: the one site-key definition lives in src/rules (host without "www.", optional port and path). */
export { parseSiteKey as parseSite, siteKeyCandidates, siteOfHost } from "../rules";
