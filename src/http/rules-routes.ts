import { Hono } from "hono";
import type { Env } from "../worker";
import { quoteValue, ServiceError } from "./errors";
import { inspectSiteRules } from "./rules-store";
import { parseSite } from "./site";

/**
 * GET /v1/rules/:site — the rule set that would apply to the site's pages, for debugging: its status
 * (as in x-clean-rules), schema problems or refused patterns, and the rule set itself. Read from KV
 * afresh; cleaning uses a per-isolate copy that follows within the cache TTL.
 */
export const rulesRoutes = new Hono<{ Bindings: Env }>();

rulesRoutes.get("/:site", async (context) => {
  const site = parseSite(context.req.param("site"));
  if (site === null) throw new ServiceError("bad-request", `${quoteValue(context.req.param("site"))} is not a host name`);
  const report = await inspectSiteRules(context.env.RULES, site);
  if (report.status === "unavailable") throw new ServiceError("rules-unavailable", report.problems.join("; "));
  return context.json({
    site,
    status: report.status,
    rulesUsed: report.compiled?.rules.length ?? 0,
    problems: report.problems,
    ruleSet: report.ruleSet,
  });
});
