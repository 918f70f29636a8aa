import { REQUESTED_MODES, type CleanFormat, type RequestedMode } from "../../clean";
import { ServiceError } from "./errors";

export type { RequestedMode };
export const DEFAULT_FORMAT: CleanFormat = "html";

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
