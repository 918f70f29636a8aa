import { Hono } from "hono/tiny";
import type { Env } from "../shared/bindings";
import { ServiceError } from "../shared/errors";
import { inspectSiteRules } from "../shared/rules-store";
import { requireSiteParam } from "../shared/site";

/**
 * GET /v1/rules/:site — the rule set that would apply to the site's pages, for debugging: its status
 * (as in x-clean-rules), schema problems or refused patterns, and the rule set itself. Read from KV
 * afresh; cleaning uses a per-isolate copy that follows within the cache TTL.
 */
export const rulesRoutes = new Hono<{ Bindings: Env }>();

/** Most keys on one page of GET /v1/rules (KV's own limit is 1,000). */
export const MAX_RULES_PAGE = 1000;
export const DEFAULT_RULES_PAGE = 100;

/**
 * GET /v1/rules?limit=&cursor= — the ruled sites, one page at a time, from KV's key list:
 * `{sites: [...], cursor}` with cursor null on the last page.
 */
rulesRoutes.get("/", async (context) => {
  const limitValue = context.req.query("limit");
  return context.json(await listRuleSites(context.env.RULES, limitValue === undefined ? DEFAULT_RULES_PAGE : Number(limitValue), context.req.query("cursor")));
});

// A key may name a path (`bbc.co.uk/news`): the parameter takes the rest of the route, slashes included.
rulesRoutes.get("/:site{.+}", async (context) => context.json(await siteRulesView(context.env.RULES, context.req.param("site"))));

/** One page of the ruled sites (shared with the MCP tool list_rules). */
export async function listRuleSites(namespace: KVNamespace, limit: number, cursor: string | undefined): Promise<{ sites: string[]; cursor: string | null }> {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_RULES_PAGE) {
    throw new ServiceError("bad-request", `limit must be a whole number from 1 to ${MAX_RULES_PAGE}`);
  }
  let listed: KVNamespaceListResult<unknown, string>;
  try {
    listed = await namespace.list({ limit, ...(cursor ? { cursor } : {}) });
  } catch (error) {
    console.error("KV list failed", error);
    throw new ServiceError("rules-unavailable", "listing the rule sets in KV failed");
  }
  return { sites: listed.keys.map((key) => key.name), cursor: listed.list_complete ? null : listed.cursor };
}

/** What GET /v1/rules/:site answers (shared with the MCP tool get_rules). */
export async function siteRulesView(namespace: KVNamespace, siteParameter: string): Promise<Record<string, unknown>> {
  const site = requireSiteParam(siteParameter);
  const report = await inspectSiteRules(namespace, site);
  if (report.status === "unavailable") throw new ServiceError("rules-unavailable", report.problems.join("; "));
  const ruleSet = report.ruleSet;
  return {
    site,
    status: report.status,
    // How the set was made and which publication it is (learned sets are versioned: src/learning).
    source: ruleSet?.source ?? null,
    revision: ruleSet?.revision ?? null,
    pages: ruleSet?.pages ?? null,
    minedAt: ruleSet?.minedAt ?? null,
    rulesUsed: report.compiled?.rules.length ?? 0,
    problems: report.problems,
    ruleSet: report.ruleSet,
  };
}
