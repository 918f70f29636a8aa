import { Hono } from "hono/tiny";
import { parseRuleSetText } from "../../rules";
import type { Env } from "../shared/bindings";
import { ServiceError } from "../shared/errors";
import { requireAdminKey } from "../shared/keys";
import { learnRoutes } from "./learn-routes";
import { postingKeyRoutes } from "./posting-keys-routes";
import { requireSiteParam as requireSite } from "../shared/site";

/**
 * Admin routes, behind ADMIN_KEY (never an API key):
 *   PUT    /admin/rules/:site   body: a RuleSet (JSON). Refused with 422 and the problems if it fails the
 *                              schema or any pattern is unsafe, or if its `site` is not the route's site.
 *   DELETE /admin/rules/:site
 * and the learning loop's (learn-routes.ts): POST|GET /admin/learn/:site, POST /admin/rules/:site/{approve,reject,rollback};
 * and which keys' posted pages are learned from (posting-keys-routes.ts): GET /admin/keys, PUT|DELETE /admin/keys/:keyId/sites.
 * Isolates pick a change up within the rule cache's TTL (and KV's own propagation delay).
 */
export const adminRoutes = new Hono<{ Bindings: Env }>();

/** Largest rule set accepted, in bytes (KV values may be 25 MiB; mined sets are tens of kilobytes). */
const MAX_RULE_SET_BYTES = 1024 * 1024;

adminRoutes.use("*", requireAdminKey);
adminRoutes.route("/", learnRoutes);
adminRoutes.route("/", postingKeyRoutes);

adminRoutes.put("/rules/:site{.+}", async (context) => {
  const site = requireSite(context.req.param("site"));
  const text = await context.req.text();
  if (text.length > MAX_RULE_SET_BYTES) throw new ServiceError("payload-too-large", `a rule set is limited to ${MAX_RULE_SET_BYTES} bytes`);
  const parsed = parseRuleSetText(text, { checkPatterns: true });
  if (!parsed.ok) throw new ServiceError("invalid-rules", parsed.problems.slice(0, 20).join("; "));
  if (parsed.ruleSet.site !== site) throw new ServiceError("invalid-rules", `the rule set is for ${parsed.ruleSet.site}, not ${site}`);
  await context.env.RULES.put(site, text);
  return context.json({ site, stored: true, rules: parsed.ruleSet.rules.length, minedAt: parsed.ruleSet.minedAt });
});

adminRoutes.delete("/rules/:site{.+}", async (context) => {
  const site = requireSite(context.req.param("site"));
  await context.env.RULES.delete(site);
  return context.json({ site, deleted: true });
});
