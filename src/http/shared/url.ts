/** URL.canParse exists in workerd and Node 20+, but not in the Workers type declarations. */
const URL_WITH_CAN_PARSE = URL as unknown as { canParse(url: string, base?: string | URL): boolean };

/** A URL, or null when the value does not parse (no exception thrown, so safe inside HTMLRewriter handlers). */
export function parseUrl(value: string, base?: URL): URL | null {
  return URL_WITH_CAN_PARSE.canParse(value, base) ? new URL(value, base) : null;
}
