/**
 * /v1/mcp: a remote MCP server (Streamable HTTP transport, MCP 2025-11-25; 2025-06-18 and 2025-03-26 clients too),
 * stateless: each POST carries one JSON-RPC message and gets its answer as one JSON body (no session id, no SSE
 * stream, so GET and DELETE are 405, as the transport allows). Behind the API's key check, CORS and rate limit
 * (it is under /v1/), with the same keys: `Authorization: Bearer <key>`.
 * Our own small handler, not the official SDK's server: with the SDK's server (and zod, ajv) the Worker measured
 * 1,003 KB minified instead of 256 KB and its startup (scripts/lib/cold-start.ts) 397 ms instead of 152 ms, for
 * four tools; this handler measured within noise of the Worker without it (docs/agents.md has the run).
 */
import { Hono } from "hono/tiny";
import type { Env } from "../shared/bindings";
import { waitUntilOf } from "../shared/cache";
import { mediaType, readRequestText } from "../shared/body";
import { resolveSettings } from "../shared/settings";
import { allowedOrigin, MCP_PROTOCOL_VERSION_HEADER as PROTOCOL_VERSION_HEADER, type EtiquetteBindings } from "../api/etiquette";
import { callTool, TOOLS } from "./tools";

/** Protocol revisions this server speaks, newest first; an initialize naming another gets the newest. */
export const PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26"] as const;
const SERVER_INFO = { name: "edge-cleaner", title: "Edge cleaner", version: "0.1.0" };
const INSTRUCTIONS = "Reads web pages without their template: read_url fetches and cleans a page, clean_html cleans HTML you have, list_rules and get_rules show the per-site rules.";

/**
 * The largest message taken, in bytes: clean_html's page may be as large as a posted one (the body limit, MAX_BODY_BYTES),
 * and written as a JSON string it grows by its escapes (a quote or a newline takes two bytes), so twice the limit, and
 * 64 KiB for the rest of the message. A message over it is a 413 unread.
 */
function mcpBodyMaxBytes(maxBodyBytes: number): number {
  return 2 * maxBodyBytes + 64 * 1024;
}

/** JSON-RPC 2.0 error codes (the spec's) used here. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;

type Id = string | number;
interface Message {
  readonly jsonrpc?: unknown;
  readonly id?: unknown;
  readonly method?: unknown;
  readonly params?: unknown;
}

export const mcpRoutes = new Hono<{ Bindings: Env & EtiquetteBindings }>();

mcpRoutes.post("/", async (context) => {
  const request = context.req.raw;
  // DNS rebinding (the transport's security warning): a browser page may call only from an origin CORS allows.
  const origin = request.headers.get("origin");
  if (origin !== null && allowedOrigin(context.env.CORS_ALLOWED_ORIGINS, origin) === null) return rpcError(null, INVALID_REQUEST, `origin ${origin} is not allowed`, 403);
  const version = request.headers.get(PROTOCOL_VERSION_HEADER);
  if (version !== null && !(PROTOCOL_VERSIONS as readonly string[]).includes(version)) {
    return rpcError(null, INVALID_REQUEST, `unsupported ${PROTOCOL_VERSION_HEADER} ${version}: this server speaks ${PROTOCOL_VERSIONS.join(", ")}`, 400);
  }
  if (mediaType(request.headers.get("content-type")) !== "application/json") return rpcError(null, INVALID_REQUEST, "the body must be a JSON-RPC message (content-type: application/json)", 415);
  const settings = resolveSettings(context.env, request);
  const maxBytes = mcpBodyMaxBytes(settings.maxBodyBytes);
  const body = await readRequestText(request, maxBytes, settings.fetchBodyTimeoutMs);
  if (!body.ok) return rpcError(null, INVALID_REQUEST, body.message, body.code === "payload-too-large" ? 413 : body.code === "unsupported-media-type" ? 415 : 400);
  let message: Message;
  try {
    message = JSON.parse(body.text) as Message;
  } catch {
    return rpcError(null, PARSE_ERROR, "the body is not JSON", 400);
  }
  if (Array.isArray(message)) return rpcError(null, INVALID_REQUEST, "send one JSON-RPC message per request (batches left MCP in 2025-06-18)", 400);
  if (message === null || typeof message !== "object" || message.jsonrpc !== "2.0") return rpcError(null, INVALID_REQUEST, "not a JSON-RPC 2.0 message", 400);
  // A notification or a response: accepted, nothing to answer.
  if (message.id === undefined || typeof message.method !== "string") return new Response(null, { status: 202 });
  if (typeof message.id !== "string" && typeof message.id !== "number") return rpcError(null, INVALID_REQUEST, "id must be a string or a number", 400);
  const id = message.id;
  const params = (message.params ?? {}) as Record<string, unknown>;
  switch (message.method) {
    case "initialize": {
      const asked = params.protocolVersion;
      const protocolVersion = (PROTOCOL_VERSIONS as readonly unknown[]).includes(asked) ? asked : PROTOCOL_VERSIONS[0];
      return rpcResult(id, { protocolVersion, capabilities: { tools: { listChanged: false } }, serverInfo: SERVER_INFO, instructions: INSTRUCTIONS });
    }
    case "ping":
      return rpcResult(id, {});
    case "tools/list":
      return rpcResult(id, { tools: TOOLS });
    case "tools/call": {
      if (typeof params.name !== "string") return rpcError(id, INVALID_PARAMS, "params.name must name a tool", 200);
      const result = await callTool(params.name, params.arguments, { env: context.env, request, waitUntil: waitUntilOf(context) });
      if (result === null) return rpcError(id, INVALID_PARAMS, `no tool ${JSON.stringify(params.name)} (tools/list has them)`, 200);
      return rpcResult(id, result);
    }
    default:
      return rpcError(id, METHOD_NOT_FOUND, `no method ${JSON.stringify(message.method)}`, 200);
  }
});

/** No server-initiated stream and no sessions: the transport's answer is 405. */
for (const method of ["GET", "DELETE"] as const) {
  mcpRoutes.on(method, "/", () => new Response(null, { status: 405, headers: { allow: "POST" } }));
}

function rpcResult(id: Id, result: unknown): Response {
  return Response.json({ jsonrpc: "2.0", id, result }, { headers: { "cache-control": "no-store" } });
}

function rpcError(id: Id | null, code: number, message: string, status: number): Response {
  return Response.json({ jsonrpc: "2.0", id, error: { code, message } }, { status, headers: { "cache-control": "no-store" } });
}
