import type { CleanFormat, CleanMode } from "../clean";
import { ServiceError } from "./errors";

/** "annotated" is the original page with the removed blocks outlined (the demo page shows it); "article" the safe fragment. */
export const OUTPUT_FORMATS: readonly CleanFormat[] = ["html", "text", "markdown", "json", "article", "annotated"];
export const DEFAULT_FORMAT: CleanFormat = "html";

export function parseFormat(value: string | undefined): CleanFormat | null {
  if (value === undefined || value === "") return DEFAULT_FORMAT;
  return (OUTPUT_FORMATS as readonly string[]).includes(value) ? (value as CleanFormat) : null;
}

/** What may clean a page: `auto` (the default: rules plus the classifier where the site has rules, else the classifier), or one of the modes. */
export type RequestedMode = CleanMode | "auto";
const REQUESTED_MODES: readonly RequestedMode[] = ["auto", "rules", "classifier", "rules+classifier", "none"];

/** Parses ?mode=; a "+" left unencoded in a query string arrives as a space, and is read as "+". */
export function parseMode(value: string | undefined): RequestedMode | null {
  if (value === undefined || value === "") return "auto";
  const mode = value.replace(" ", "+");
  return (REQUESTED_MODES as readonly string[]).includes(mode) ? (mode as RequestedMode) : null;
}

/** ?mode= of /v1/clean and /v1/feed, or a 400 naming the modes. */
export function requireMode(value: string | undefined): RequestedMode {
  const mode = parseMode(value);
  if (mode === null) throw new ServiceError("bad-request", `mode must be one of ${REQUESTED_MODES.join(", ")}`);
  return mode;
}
