// The HTTP layer: routes (as Hono sub-apps), input guards, keys, and the one mapping of error codes to statuses.
export { adminRoutes } from "./admin/routes";
export { cleanRoutes } from "./api/clean-routes";
export { readRoutes } from "./api/read-routes";
export { corsHeaders, rateLimit } from "./api/etiquette";
export { handleError, handleNotFound, ServiceError, statusForCode, type ErrorCode } from "./shared/errors";
export { healthRoutes } from "./api/health-routes";
export { requireAdminKey, requireApiKey } from "./shared/keys";
export { fetchOrigin, type OriginFetch } from "./shared/origin-fetch";
export { rulesRoutes } from "./api/rules-routes";
export { refreshSiteRules } from "./shared/rules-store";
export { resolveSettings, type HttpSettings } from "./shared/settings";
export { checkTarget, type TargetCheck } from "./shared/target";
export { readBodyLimited, isHtmlBody, type BodyRead } from "./shared/body";
export { feedRoutes } from "./feed/routes";
export { proxyRoutes } from "./proxy/routes";
export { demoRoutes } from "./api/demo";
export { apiSecurityHeaders } from "./shared/security-headers";
export type { Env, OptionalBindings } from "./shared/bindings";
