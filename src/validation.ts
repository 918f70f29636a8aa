/**
 * Schema validation for the JSON the Worker loads (the model, rule sets, proxy and demo settings), on valibot:
 * its schemas are plain functions, so the bundle carries only the checks in use (zod/mini cost the Worker 25 KiB).
 */
import * as v from "valibot";

/** Every issue as "dotted.path: message", "(root)" for the value itself. */
export function validationProblems(issues: readonly v.BaseIssue<unknown>[]): string[] {
  return issues.map((issue) => `${v.getDotPath(issue) ?? "(root)"}: ${issue.message}`);
}
