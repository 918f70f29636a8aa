import { Hono } from "hono";

export interface Env {
  RULES: KVNamespace;
  ALLOW_PRIVATE_TARGETS?: string;
}

const app = new Hono<{ Bindings: Env }>();
app.get("/healthz", (c) => c.json({ ok: true }));

export default app;
