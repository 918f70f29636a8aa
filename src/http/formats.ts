import type { CleanFormat } from "../clean";

/** "annotated" is the original page with the removed blocks outlined (the demo page shows it). */
export const OUTPUT_FORMATS: readonly CleanFormat[] = ["html", "text", "markdown", "json", "annotated"];
export const DEFAULT_FORMAT: CleanFormat = "html";

export function parseFormat(value: string | undefined): CleanFormat | null {
  if (value === undefined || value === "") return DEFAULT_FORMAT;
  return (OUTPUT_FORMATS as readonly string[]).includes(value) ? (value as CleanFormat) : null;
}
