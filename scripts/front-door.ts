/**
 * The front door of `npm start` (Node): it takes the clients' connections on the service's port and hands
 * their requests to `wrangler dev`, listening on a port of its own, over at most `maxInFlight` keep-alive
 * connections, first come first served; the others wait here, in order.
 *
 * Why: local workerd serves a few busy connections well and a couple of hundred badly. With 200 clients
 * each keeping a request queued, it resets some connections and leaves requests on newly opened ones
 * unanswered for good (30 s timeouts), whatever the Worker does (a Worker that only reads the body and
 * spins 10 ms does the same); through a bounded pool it answers every request in turn (docs/performance.md, "Load").
 */
import { Agent, createServer, request as forward, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";

export interface FrontDoorOptions {
  readonly host: string;
  readonly port: number;
  /** Where `wrangler dev` listens (same host). */
  readonly upstreamPort: number;
  /** Requests handed to wrangler dev at once. */
  readonly maxInFlight: number;
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

/** Headers of one connection, not of the request (RFC 9110 §7.6.1); Node sets its own. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade"]);

export async function startFrontDoor(options: FrontDoorOptions): Promise<FrontDoor> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.maxInFlight, maxFreeSockets: options.maxInFlight, timeout: IDLE_SOCKET_MS });
  const server = createServer((request, response) => relay(request, response, options, agent));
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
        agent.destroy();
        server.closeAllConnections();
        server.close(() => closed());
      }),
  };
}

function relay(request: IncomingMessage, response: ServerResponse, options: FrontDoorOptions, agent: Agent): void {
  const upstream = forward(
    { host: options.host, port: options.upstreamPort, method: request.method, path: request.url, headers: endToEnd(request.headers), agent },
    (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.headers));
      answer.pipe(response);
      answer.on("error", () => response.destroy());
    },
  );
  upstream.on("error", (error) => {
    if (response.destroyed) return; // the client left (below)
    if (response.headersSent) {
      response.destroy();
      return;
    }
    response.writeHead(502, { "content-type": "text/plain; charset=utf-8" });
    response.end(`wrangler dev (port ${options.upstreamPort}) did not answer: ${error.message}\n`);
  });
  // A client that leaves, queued or answered halfway, gives its place back.
  response.on("close", () => {
    if (!response.writableFinished) upstream.destroy();
  });
  request.pipe(upstream);
}

function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const kept: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (!HOP_BY_HOP.has(name) && value !== undefined) kept[name] = value;
  return kept;
}
