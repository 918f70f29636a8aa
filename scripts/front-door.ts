/**
 * The front door of `npm start` (Node): it takes the clients' connections on the service's port and hands
 * their requests to `wrangler dev`, listening on a port of its own, over at most `maxInFlight` keep-alive
 * connections; the others wait here, in bounded queues (scripts/lib/admission.ts decides who goes next).
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
 * GET /healthz goes past the queues on a connection of its own, so that it tells whether the Worker answers,
 * not how long the queues are. Fairness (docs/api.md, "The front door of npm start"): large bodies have a slot of
 * their own beside the others (one heavy page in the isolate at a time), so small and URL requests never wait for them; clients (a key of the deployment's own, else the address) take turns within a lane; a full lane
 * answers 503 with Retry-After. A client that hangs up while queued leaves the queue, and once handed on, its
 * forward to wrangler dev is cut, which aborts the Worker's request.
 */
import { Agent, createServer, request as forward, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import { HTTP_MAX_BODY_BYTES } from "../src/config";
import { Admission, laneOf, type AdmissionLimits, type LaneName, type Refusal, type Ticket } from "./lib/admission";

export interface FrontDoorOptions {
  readonly host: string;
  readonly port: number;
  /** Where `wrangler dev` listens (same host). */
  readonly upstreamPort: number;
  /** Small and URL requests handed to wrangler dev at once; bodies from LARGE_BODY_BYTES have HEAVY_SLOTS of their own beside them. */
  readonly maxInFlight: number;
  /** Time for a request's body, from its headers to its last byte, in milliseconds (default BODY_TIMEOUT_MS). */
  readonly bodyTimeoutMs?: number;
  /** Time a connection may stay without a byte read or written, in milliseconds (default IDLE_CONNECTION_MS). */
  readonly idleTimeoutMs?: number;
  /** Largest request body read, in bytes (default: the Worker's own limit, HTTP_MAX_BODY_BYTES). */
  readonly maxBodyBytes?: number;
  /**
   * The deployment's API keys that each stand for one client (not a public one, such as the demo's): a request with
   * one of them takes turns as that key, from any address; any other key, or none, as the client's address, so that
   * made-up keys win no turns of their own (default: none).
   */
  readonly clientKeys?: readonly string[];
  /** Waiting requests each lane holds at most (default QUEUE_BOUND). */
  readonly queueBound?: AdmissionLimits["queueBound"];
}

export interface FrontDoor {
  readonly url: string;
  /** Requests waiting and running, per lane. */
  counts(): ReturnType<Admission["counts"]>;
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

/** Bodies from this size on (bytes) go in the large lane, whose slots are apart from the others. Origin: the load
 * scenarios' pages are 100 KB and the largest dev page ~630 KB; 16 posts of a 900 KB page at once held a GET for 3.2-6.5 s
 * when they shared one queue with it (issue 44). 256 KiB keeps every ordinary page small. */
const LARGE_BODY_BYTES = 256 * 1024;
/** Bodies from this size on (bytes) go in the huge lane, one in flight at a time. Origin: a 4 MB page of 200,000 links
 * takes local workerd 3.5-4.7 s as json or article (load average 17 on 2 cores). */
const HUGE_BODY_BYTES = 1024 * 1024;
/** Slots of the large and huge lanes, beside maxInFlight: one heavy page in the isolate at a time, as before the lanes
 * (one slot for bodies from 1 MiB). Two, under the hostile load scenario with the bail-out pages, left /healthz over 1 s
 * 8 times in 121 (max 3.6 s; load average 19, three reloads by edits meanwhile): each heavy page in the isolate adds its
 * slices to what a request arriving waits behind. */
const HEAVY_SLOTS = 1;
/** Waiting requests per lane, at most; past them, 503. Small: the post load scenario's 200 clients each keep one
 * request waiting, with room to spare. Large and huge: what their one slot cleans in about 10-20 s (900 KB pages at
 * about 0.5 s each in local workerd; 4 MB pages at 4 s, or their 10 s budget under load), so that a request admitted
 * to a full lane is answered within a client's 30 s patience. The bodies held here while they wait: at most 64 MiB
 * small (256 × 256 KiB), 16 MiB large, 40 MiB huge (4 × the 10 MiB cap). */
const QUEUE_BOUND = { small: 256, large: 16, huge: 4 } as const;
/** Retry-After of a 503 for a full lane, in seconds: about the time the front slots of a full large lane take to turn over. */
const RETRY_AFTER_S = 5;

/** Headers of one connection, not of the request (RFC 9110 §7.6.1); Node sets its own. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade"]);

interface Pools {
  /** The slots: connections to wrangler dev, taken only by requests the admission let in. */
  readonly work: Agent;
  /** /healthz alone, past the queues. */
  readonly health: Agent;
}

interface Door {
  readonly options: FrontDoorOptions;
  readonly pools: Pools;
  readonly admission: Admission;
  readonly limits: AdmissionLimits;
}

export async function startFrontDoor(options: FrontDoorOptions): Promise<FrontDoor> {
  const limits: AdmissionLimits = {
    slots: options.maxInFlight, heavySlots: HEAVY_SLOTS,
    largeBodyBytes: LARGE_BODY_BYTES, hugeBodyBytes: HUGE_BODY_BYTES, queueBound: options.queueBound ?? QUEUE_BOUND,
  };
  const sockets = limits.slots + limits.heavySlots;
  const pools: Pools = {
    work: new Agent({ keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets, timeout: IDLE_SOCKET_MS }),
    health: new Agent({ keepAlive: true, maxSockets: 2, maxFreeSockets: 2, timeout: IDLE_SOCKET_MS }),
  };
  const door: Door = { options, pools, admission: new Admission(limits), limits };
  const server = createServer(
    { headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: (options.bodyTimeoutMs ?? BODY_TIMEOUT_MS) + HEADERS_TIMEOUT_MS, connectionsCheckingInterval: DEADLINE_CHECK_MS },
    (request, response) => void relay(request, response, door),
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
    counts: () => door.admission.counts(),
    close: () =>
      new Promise<void>((closed) => {
        pools.work.destroy();
        pools.health.destroy();
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

async function relay(request: IncomingMessage, response: ServerResponse, door: Door): Promise<void> {
  const { options } = door;
  const maxBytes = options.maxBodyBytes ?? HTTP_MAX_BODY_BYTES;
  // A body declared larger than the cap is refused before a byte of it is read.
  if (Number(request.headers["content-length"] ?? 0) > maxBytes) return refuse(response, 413, `the request body is over ${maxBytes} bytes`);
  const read = await readBody(request, options.bodyTimeoutMs ?? BODY_TIMEOUT_MS, maxBytes);
  if (!read.ok) return refuse(response, read.status, read.message);
  if (response.destroyed) return; // the client left while sending
  // Waiting for its answer (in the queue, then in wrangler dev) is not the client's silence: the idle limit rests
  // until the answer is written.
  request.socket.setTimeout(0);
  if (request.method === "GET" && request.url?.split("?")[0] === "/healthz") {
    send(request, response, read.body, door, door.pools.health, () => undefined);
    return;
  }
  const lane: LaneName = laneOf(read.body.length, door.limits);
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    door.admission.release(lane);
  };
  const ticket: Ticket = {
    client: clientOf(request, options.clientKeys ?? []), lane,
    admit: () => {
      if (response.destroyed) return release(); // left while its turn came
      send(request, response, read.body, door, door.pools.work, release);
    },
    refuse: (why) => overloaded(request, response, lane, why, door),
  };
  // A client that leaves while queued gives its place back.
  response.on("close", () => door.admission.cancel(ticket));
  door.admission.enter(ticket);
}

/** Hands the request to wrangler dev over `agent` and writes its answer; `done` once it is answered, failed or left. */
function send(request: IncomingMessage, response: ServerResponse, body: Buffer, door: Door, agent: Agent, done: () => void): void {
  const { options } = door;
  const idleMs = options.idleTimeoutMs ?? IDLE_CONNECTION_MS;
  const headers = endToEnd(request.headers);
  if (request.headers["transfer-encoding"] !== undefined || body.length > 0) headers["content-length"] = String(body.length);
  const upstream = forward(
    { host: options.host, port: options.upstreamPort, method: request.method, path: request.url, headers, agent },
    (answer) => {
      // The answer is read whole before the client gets it, so that a slow reader does not hold the slot.
      const chunks: Buffer[] = [];
      answer.on("data", (chunk: Buffer) => chunks.push(chunk));
      answer.on("end", () => {
        done();
        if (response.destroyed) return;
        request.socket.setTimeout(idleMs);
        response.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.headers));
        response.end(Buffer.concat(chunks));
      });
      answer.on("error", () => {
        done();
        response.destroy();
      });
    },
  );
  upstream.on("error", (error) => {
    done();
    if (response.destroyed) return; // the client left (below)
    if (response.headersSent) {
      response.destroy();
      return;
    }
    request.socket.setTimeout(idleMs);
    response.writeHead(502, { "content-type": "text/plain; charset=utf-8" });
    response.end(`wrangler dev (port ${options.upstreamPort}) did not answer: ${error.message}\n`);
  });
  // A client that leaves before its answer cuts the forward: wrangler dev then aborts the Worker's request (its signal),
  // and the slot goes to the next.
  response.on("close", () => {
    if (response.writableFinished) return;
    upstream.destroy();
    done();
  });
  upstream.end(body);
}

/**
 * Who a request comes from, for taking turns: its API key (as the Worker reads it: Bearer, x-api-key, ?key=) where
 * that is one of `clientKeys`, else the client's address. Never printed.
 */
export function clientOf(request: Pick<IncomingMessage, "headers" | "url" | "socket">, clientKeys: readonly string[]): string {
  const key = keyOf(request);
  return key !== null && clientKeys.includes(key) ? `key ${key}` : `address ${request.socket.remoteAddress ?? "unknown"}`;
}

function keyOf(request: Pick<IncomingMessage, "headers" | "url">): string | null {
  const bearer = /^bearer\s+(.+)$/i.exec(String(request.headers.authorization ?? "").trim());
  if (bearer !== null) return bearer[1].trim();
  const header = request.headers["x-api-key"];
  if (typeof header === "string" && header.trim() !== "") return header.trim();
  const query = new URL(request.url ?? "/", "http://front.door").searchParams.get("key");
  return query !== null && query !== "" ? query : null;
}

/** A lane full (or this request pushed out for a client under its share): 503 with Retry-After, in the Worker's error shape. */
function overloaded(request: IncomingMessage, response: ServerResponse, lane: LaneName, why: Refusal, door: Door): void {
  if (response.destroyed) return;
  const message = why === "lane-full"
    ? `the front door's queue for ${lane} requests is full (${door.limits.queueBound[lane]} waiting); retry later`
    : `the front door's queue for ${lane} requests is full and this client holds more than its share of it; retry later`;
  request.socket.setTimeout(door.options.idleTimeoutMs ?? IDLE_CONNECTION_MS);
  response.writeHead(503, { "content-type": "application/json", "cache-control": "no-store", "retry-after": String(RETRY_AFTER_S) });
  response.end(JSON.stringify({ error: { code: "overloaded", message } }));
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
