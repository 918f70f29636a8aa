/**
 * Cross-site filter (paper 002, 3.3): the conservative cutoff lets through strings that are frequent
 * in any text (idioms such as "as much as", "one of the"), and those are frequent on many sites, where a
 * site's template is its own. A template candidate is dropped from every site when each of its token
 * n-grams is also among the template candidates of many sites: a string made only of phrases that
 * many sites share. Matching n-grams rather than whole strings catches an idiom inside different
 * neighbours on different sites ("by as much as", "as much as 10").
 */

export interface CrossSiteOptions {
  /** N-gram length in tokens (shorter candidates use their own length). */
  readonly ngramTokens: number;
  /** An n-gram is shared when it is in candidates of at least max(minimumSites, ceil(siteShare × sites)) sites. */
  readonly minimumSites: number;
  readonly siteShare: number;
}

/** One site's template candidates, each as its token keys (literal text, or a class marker for class tokens). */
export interface SiteCandidates {
  readonly candidates: readonly (readonly string[])[];
}

/** Site ordinal → candidate ordinal → 1 if dropped as shared across sites, else 0. */
export function filterAcrossSites(sites: readonly SiteCandidates[], options: CrossSiteOptions): Uint8Array[] {
  const siteCount = new Map<string, number>();
  for (const site of sites) for (const key of siteNgramKeys(site, options)) siteCount.set(key, (siteCount.get(key) ?? 0) + 1);
  return sites.map((site) => dropShared(site, (key) => siteCount.get(key) ?? 0, sites.length, options));
}

/**
 * The n-grams a site contributes to the cross-site counts, each once. Every length up to the n-gram length
 * is counted, so a short candidate meets its n-gram inside longer ones. A table merged over many runs
 * (src/learning) counts the same keys as filterAcrossSites does in one run.
 */
export function siteNgramKeys(site: SiteCandidates, options: CrossSiteOptions): Set<string> {
  const seen = new Set<string>();
  for (const candidate of site.candidates) {
    for (let size = 1; size <= options.ngramTokens; size++) for (const key of ngramKeys(candidate, size)) seen.add(key);
  }
  return seen;
}

/** Sites an n-gram must be on, of `siteTotal`, to count as shared: max(minimumSites, ceil(siteShare × sites)). */
export function sharedThreshold(siteTotal: number, options: CrossSiteOptions): number {
  return Math.max(options.minimumSites, Math.ceil(options.siteShare * siteTotal));
}

/**
 * Candidate ordinal → 1 when each of its n-grams is on at least the shared threshold of sites, given the
 * site count of an n-gram (`siteCountOf`) among `siteTotal` sites.
 */
export function dropShared(site: SiteCandidates, siteCountOf: (key: string) => number, siteTotal: number, options: CrossSiteOptions): Uint8Array {
  const threshold = sharedThreshold(siteTotal, options);
  const dropped = new Uint8Array(site.candidates.length);
  if (siteTotal < threshold) return dropped;
  site.candidates.forEach((candidate, index) => {
    const keys = ngramKeys(candidate, options.ngramTokens);
    if (keys.length > 0 && keys.every((key) => siteCountOf(key) >= threshold)) dropped[index] = 1;
  });
  return dropped;
}

/** Token n-grams of a candidate as strings (tokens apart by U+0001); one n-gram for a short candidate. */
function ngramKeys(tokens: readonly string[], ngramTokens: number): string[] {
  const size = Math.min(ngramTokens, tokens.length);
  const keys: string[] = [];
  for (let start = 0; start + size <= tokens.length; start++) keys.push(tokens.slice(start, start + size).join("\u0001"));
  return keys;
}
