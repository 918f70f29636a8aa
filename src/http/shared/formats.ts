import { REQUESTED_KINDS, REQUESTED_MODES, type CleanFormat, type RequestedKind, type RequestedMode } from "../../clean";
import { ServiceError } from "./errors";

export type { RequestedKind, RequestedMode };
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

/** ?kind= of /v1/clean and /v1/read: a page kind (classify/kind.ts) the caller knows, or "auto" (absent: recognised). */
export function requireKind(value: string | undefined): RequestedKind {
  if (value === undefined || value === "") return "auto";
  const kind = value.trim().toLowerCase();
  if (!(REQUESTED_KINDS as readonly string[]).includes(kind)) throw new ServiceError("bad-request", `kind must be one of ${REQUESTED_KINDS.join(", ")}, not ${JSON.stringify(value)}`);
  return kind as RequestedKind;
}
