/**
 * The front door of `npm start` (Node): it takes the clients' connections on the service's port and hands
 * their requests to `wrangler dev`, listening on a port of its own, over at most `maxInFlight` keep-alive
 * connections, first come first served; the others wait here, in order.
 *
 * Why: local workerd serves a few busy connections well and a couple of hundred badly. With 200 clients
 * each keeping a request queued, it resets some connections and leaves requests on newly opened ones
 * unanswered for good (30 s timeouts), whatever the Worker does (a Worker that only reads the body and
 * spins 10 ms does the same); through a bounded pool it answers every request in turn (docs/performance.md).
 *
 * A slot of the pool is held only while wrangler dev works: a request's body is read whole here first, under a
 * deadline (bodyTimeoutMs, 400 as the Worker answers a slow body) and a size cap (maxBodyBytes, 413), on a connection that is closed after
 * idleTimeoutMs without a byte either way; and the answer is read whole from wrangler dev before it is written to
 * the client. So a client that sends slowly, or reads slowly, or says it will send a huge body and waits, holds
 * a connection of its own and no slot: no request, with a key or without, holds a slot for its own I/O.
 * GET /healthz goes past the queue on a connection of its own, so that it tells whether the Worker answers,
 * not how long the queue is. A large body (from LARGE_BODY_BYTES) waits for the one slot kept for large bodies, so
 * that pages of megabytes, which take the isolate seconds each, are cleaned one at a time beside the others.
 */
import { Agent, createServer, request as forward, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import { HTTP_MAX_BODY_BYTES } from "../src/config";

export interface FrontDoorOptions {
  readonly host: string;
  readonly port: number;
  /** Where `wrangler dev` listens (same host). */
  readonly upstreamPort: number;
  /** Requests handed to wrangler dev at once. */
  readonly maxInFlight: number;
  /** Time for a request's body, from its headers to its last byte, in milliseconds (default BODY_TIMEOUT_MS). */
  readonly bodyTimeoutMs?: number;
  /** Time a connection may stay without a byte read or written, in milliseconds (default IDLE_CONNECTION_MS). */
  readonly idleTimeoutMs?: number;
  /** Largest request body read, in bytes (default: the Worker's own limit, HTTP_MAX_BODY_BYTES). */
  readonly maxBodyBytes?: number;
}

export interface FrontDoor {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Idle time after which a pooled connection is dropped, in milliseconds: workerd closes a keep-alive
 * connection after 5 s without a request, and a request sent on it just then would be lost.
 */
const IDLE_SOCKET_MS = 4_000;
/** Time for a request's whole body, in milliseconds: a 5 MiB page at 1 MB/s, with room to spare. */
const BODY_TIMEOUT_MS = 10_000;
/** Time for a request's headers, in milliseconds (Node's headersTimeout; its default is 60 s). */
const HEADERS_TIMEOUT_MS = 10_000;
/** A connection without a byte either way for this long is closed, in milliseconds (Node's default is none). */
const IDLE_CONNECTION_MS = 10_000;
/** How often Node checks the header and request deadlines, in milliseconds (its default, 30 s, would let them run late). */
const DEADLINE_CHECK_MS = 1_000;

/** Bodies from this size on (bytes) take the one slot for large bodies. Origin: the load scenario's pages are 100 KB;
 * a 4 MB page of 200,000 links takes local workerd 3.5-4.7 s as json or article (load average 17 on 2 cores). */
const LARGE_BODY_BYTES = 1024 * 1024;

/** Headers of one connection, not of the request (RFC 9110 §7.6.1); Node sets its own. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade"]);

interface Pools {
  /** The slots: at most maxInFlight connections to wrangler dev; requests past them wait in the agent's queue. */
  readonly work: Agent;
  /** /healthz alone, past the queue. */
  readonly health: Agent;
  /** Bodies from LARGE_BODY_BYTES: one at a time. */
  readonly large: Agent;
}

export async function startFrontDoor(options: FrontDoorOptions): Promise<FrontDoor> {
  const pools: Pools = {
    work: new Agent({ keepAlive: true, maxSockets: options.maxInFlight, maxFreeSockets: options.maxInFlight, timeout: IDLE_SOCKET_MS }),
    health: new Agent({ keepAlive: true, maxSockets: 2, maxFreeSockets: 2, timeout: IDLE_SOCKET_MS }),
    large: new Agent({ keepAlive: true, maxSockets: 1, maxFreeSockets: 1, timeout: IDLE_SOCKET_MS }),
  };
  const server = createServer(
    { headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: (options.bodyTimeoutMs ?? BODY_TIMEOUT_MS) + HEADERS_TIMEOUT_MS, connectionsCheckingInterval: DEADLINE_CHECK_MS },
    (request, response) => void relay(request, response, options, pools),
  );
  // A connection silent for this long (a slow body, a client that stopped reading, an idle keep-alive) is closed.
  server.setTimeout(options.idleTimeoutMs ?? IDLE_CONNECTION_MS, (socket) => socket.destroy());
  await new Promise<void>((listening, failed) => {
    server.once("error", failed);
    server.listen(options.port, options.host, () => {
      server.off("error", failed);
      listening();
    });
  });
  const address = server.address();
  return {
    url: `http://${options.host}:${typeof address === "object" && address !== null ? address.port : options.port}`,
    close: () =>
      new Promise<void>((closed) => {
        pools.work.destroy();
        pools.health.destroy();
        pools.large.destroy();
        server.closeAllConnections();
        server.close(() => closed());
      }),
  };
}

type BodyResult = { readonly ok: true; readonly body: Buffer } | { readonly ok: false; readonly status: 400 | 413; readonly message: string };

/** The request's whole body, read under the deadline and the cap (nothing of it is sent upstream before). */
function readBody(request: IncomingMessage, timeoutMs: number, maxBytes: number): Promise<BodyResult> {
  return new Promise((settle) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const finish = (result: BodyResult): void => {
      clearTimeout(timer);
      request.removeAllListeners("data");
      settle(result);
    };
    const timer = setTimeout(() => finish({ ok: false, status: 400, message: `the request body did not arrive within ${timeoutMs} ms` }), timeoutMs);
    request.on("data", (chunk: Buffer) => {
      total += chunk.length;
      if (total > maxBytes) return finish({ ok: false, status: 413, message: `the request body is over ${maxBytes} bytes` });
      chunks.push(chunk);
    });
    request.on("end", () => finish({ ok: true, body: Buffer.concat(chunks, total) }));
    request.on("error", () => finish({ ok: false, status: 400, message: "the request body was cut off" }));
  });
}

async function relay(request: IncomingMessage, response: ServerResponse, options: FrontDoorOptions, pools: Pools): Promise<void> {
  const maxBytes = options.maxBodyBytes ?? HTTP_MAX_BODY_BYTES;
  // A body declared larger than the cap is refused before a byte of it is read.
  if (Number(request.headers["content-length"] ?? 0) > maxBytes) return refuse(response, 413, `the request body is over ${maxBytes} bytes`);
  const read = await readBody(request, options.bodyTimeoutMs ?? BODY_TIMEOUT_MS, maxBytes);
  if (!read.ok) return refuse(response, read.status, read.message);
  if (response.destroyed) return; // the client left while sending
  // Waiting for its answer (in the queue, then in wrangler dev) is not the client's silence: the idle limit rests
  // until the answer is written.
  const idleMs = options.idleTimeoutMs ?? IDLE_CONNECTION_MS;
  request.socket.setTimeout(0);
  const health = request.method === "GET" && request.url?.split("?")[0] === "/healthz";
  const headers = endToEnd(request.headers);
  if (request.headers["transfer-encoding"] !== undefined || read.body.length > 0) headers["content-length"] = String(read.body.length);
  const upstream = forward(
    { host: options.host, port: options.upstreamPort, method: request.method, path: request.url, headers, agent: health ? pools.health : read.body.length >= LARGE_BODY_BYTES ? pools.large : pools.work },
    (answer) => {
      // The answer is read whole before the client gets it, so that a slow reader does not hold the slot.
      const chunks: Buffer[] = [];
      answer.on("data", (chunk: Buffer) => chunks.push(chunk));
      answer.on("end", () => {
        if (response.destroyed) return;
        request.socket.setTimeout(idleMs);
        response.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.headers));
        response.end(Buffer.concat(chunks));
      });
      answer.on("error", () => response.destroy());
    },
  );
  upstream.on("error", (error) => {
    if (response.destroyed) return; // the client left (below)
    if (response.headersSent) {
      response.destroy();
      return;
    }
    request.socket.setTimeout(idleMs);
    response.writeHead(502, { "content-type": "text/plain; charset=utf-8" });
    response.end(`wrangler dev (port ${options.upstreamPort}) did not answer: ${error.message}\n`);
  });
  // A client that leaves, queued or answered halfway, gives its place back.
  response.on("close", () => {
    if (!response.writableFinished) upstream.destroy();
  });
  upstream.end(read.body);
}

/** The front door's own refusal, as the Worker answers the same (its codes and shape); the connection is closed, its body unread. */
function refuse(response: ServerResponse, status: 400 | 413, message: string): void {
  if (response.destroyed) return;
  const code = status === 413 ? "payload-too-large" : "bad-request";
  response.writeHead(status, { "content-type": "application/json", "cache-control": "no-store", connection: "close" });
  response.end(JSON.stringify({ error: { code, message } }));
}

function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const kept: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (!HOP_BY_HOP.has(name) && value !== undefined) kept[name] = value;
  return kept;
}
