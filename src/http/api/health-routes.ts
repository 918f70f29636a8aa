import { Hono } from "hono/tiny";
import type { Env } from "../shared/bindings";

/** GET /healthz — liveness, no key needed. */
export const healthRoutes = new Hono<{ Bindings: Env }>();

healthRoutes.get("/healthz", (context) => context.json({ ok: true }));
