// The HTTP layer: routes (as Hono sub-apps), input guards, keys, and the one mapping of error codes to statuses.
export { adminRoutes } from "./admin-routes";
export { cleanRoutes } from "./clean-routes";
export { readRoutes } from "./api/read-routes";
export { corsHeaders, rateLimit } from "./api/etiquette";
export { handleError, handleNotFound, ServiceError, statusForCode, type ErrorCode } from "./errors";
export { healthRoutes } from "./health-routes";
export { requireAdminKey, requireApiKey } from "./keys";
export { fetchOrigin, type OriginFetch } from "./origin-fetch";
export { rulesRoutes } from "./rules-routes";
export { refreshSiteRules } from "./rules-store";
export { resolveSettings, type HttpSettings } from "./settings";
export { checkTarget, type TargetCheck } from "./target";
export { readBodyLimited, isHtmlBody, type BodyRead } from "./body";
export { feedRoutes } from "./feed-routes";
export { proxyRoutes } from "./proxy";
export { demoRoutes } from "./demo";
export { apiSecurityHeaders } from "./security-headers";
export type { Env, OptionalBindings } from "./bindings";
