/**
 * The front door of `npm start` (scripts/front-door.ts), against a Node server standing in for wrangler dev:
 * requests go through whole (method, path, Host, body, status, headers, a streamed answer), never more than
 * maxInFlight at once upstream however many clients wait, and a dead upstream gets a 502.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFrontDoor, type FrontDoor } from "../../scripts/front-door";
import { freePort } from "../../scripts/lib/free-port";

const HOST = "127.0.0.1";
const MAX_IN_FLIGHT = 3;
let upstream: Server;
let front: FrontDoor;
let inFlight = 0;
let mostInFlight = 0;

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

beforeAll(async () => {
  upstream = createServer(async (request, response) => {
    inFlight++;
    mostInFlight = Math.max(mostInFlight, inFlight);
    const body = await bodyOf(request);
    await new Promise((done) => setTimeout(done, 15));
    inFlight--;
    response.writeHead(request.url === "/missing" ? 404 : 200, { "content-type": "text/plain", "x-echo-host": request.headers.host ?? "" });
    // Written in two parts: the front door streams what it gets.
    response.write(`${request.method} ${request.url} `);
    response.end(`${body.length} ${body.subarray(0, 8).toString()}`);
  });
  await new Promise<void>((listening) => upstream.listen(0, HOST, listening));
  front = await startFrontDoor({ host: HOST, port: 0, upstreamPort: (upstream.address() as AddressInfo).port, maxInFlight: MAX_IN_FLIGHT });
});

afterAll(async () => {
  await front.close();
  await new Promise((closed) => upstream.close(closed));
});

describe("front door", () => {
  it("passes requests and answers through whole, keeping the client's Host", async () => {
    const body = "<p>page</p>".repeat(10_000);
    const response = await fetch(`${front.url}/v1/clean?format=text`, { method: "POST", body });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-echo-host")).toBe(new URL(front.url).host);
    expect(await response.text()).toBe(`POST /v1/clean?format=text ${body.length} <p>page<`);
    const missing = await fetch(`${front.url}/missing`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe("GET /missing 0 ");
  });

  it("hands wrangler dev at most maxInFlight requests at once, and answers every client", async () => {
    mostInFlight = 0;
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, index) => fetch(`${front.url}/page/${index}`, { method: "POST", body: `body ${index}` }).then((response) => response.text())),
    );
    expect(answers).toEqual(Array.from({ length: 40 }, (_, index) => `POST /page/${index} ${`body ${index}`.length} ${`body ${index}`.slice(0, 8)}`));
    expect(mostInFlight).toBe(MAX_IN_FLIGHT);
  });

  it("answers 502 when wrangler dev is not listening", async () => {
    const closedPort = await freePort(HOST);
    const orphan = await startFrontDoor({ host: HOST, port: 0, upstreamPort: closedPort, maxInFlight: 1 });
    try {
      const response = await fetch(`${orphan.url}/healthz`);
      expect(response.status).toBe(502);
      expect(await response.text()).toMatch(/did not answer/);
    } finally {
      await orphan.close();
    }
  });
});

describe("front door: slow clients hold no slot", () => {
  const SLOTS = 2;
  let slow: Server;
  let door: FrontDoor;
  /** Requests wrangler dev's stand-in received, by path, and how many it held at once. */
  const received: string[] = [];
  let holding = 0;
  let mostHeld = 0;

  beforeAll(async () => {
    slow = createServer(async (request, response) => {
      received.push(request.url ?? "");
      holding++;
      mostHeld = Math.max(mostHeld, holding);
      await bodyOf(request);
      if (request.url === "/busy") await new Promise((done) => setTimeout(done, 1_500));
      holding--;
      response.writeHead(200, { "content-type": "text/plain" });
      response.end(request.url === "/large" ? "x".repeat(4 * 1024 * 1024) : `ok ${request.url}`);
    });
    await new Promise<void>((listening) => slow.listen(0, HOST, listening));
    door = await startFrontDoor({
      host: HOST, port: 0, upstreamPort: (slow.address() as AddressInfo).port, maxInFlight: SLOTS, bodyTimeoutMs: 1_000, idleTimeoutMs: 1_500, maxBodyBytes: 1024 * 1024,
    });
  });

  afterAll(async () => {
    await door.close();
    await new Promise((closed) => slow.close(closed));
  });

  /** A raw connection that sends `text` and keeps what comes back. */
  function rawClient(text: string): { readonly socket: Socket; readonly answer: () => string; readonly closed: Promise<void> } {
    const { port } = new URL(door.url);
    const socket = connect(Number(port), HOST);
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk.toString()));
    socket.on("error", () => undefined);
    const closed = new Promise<void>((done) => socket.on("close", () => done()));
    socket.write(text);
    return { socket, answer: () => answer, closed };
  }

  it("twenty connections that declare a body, send 13 bytes and wait reach no slot; others are answered meanwhile, they get 400", async () => {
    received.length = 0;
    const stalled = Array.from({ length: 20 }, (_, index) =>
      rawClient(`POST /v1/clean?n=${index} HTTP/1.1\r\nhost: x\r\ncontent-type: text/html\r\ncontent-length: 100000\r\n\r\n<html><body>`));
    await new Promise((done) => setTimeout(done, 100));
    const answers = await Promise.all(Array.from({ length: 10 }, (_, index) =>
      fetch(`${door.url}/normal/${index}`, { method: "POST", body: "<p>page</p>", signal: AbortSignal.timeout(5_000) }).then((response) => response.text())));
    expect(answers).toEqual(Array.from({ length: 10 }, (_, index) => `ok /normal/${index}`));
    expect(stalled.every((client) => client.answer() === "")).toBe(true); // still waiting on their bodies, answered after normal ones
    await Promise.all(stalled.map((client) => client.closed));
    for (const client of stalled) expect(client.answer()).toMatch(/^HTTP\/1\.1 400 [\s\S]*"code":"bad-request"/);
    expect(received.filter((path) => path.startsWith("/v1/clean"))).toEqual([]);
  });

  it("a body declared over the cap is refused at once (413), and an idle connection is closed", async () => {
    const large = rawClient(`POST /v1/clean HTTP/1.1\r\nhost: x\r\ncontent-length: ${2 * 1024 * 1024}\r\n\r\n`);
    const idle = rawClient("");
    await Promise.all([large.closed, idle.closed]);
    expect(large.answer()).toMatch(/^HTTP\/1\.1 413 [\s\S]*payload-too-large/);
    expect(idle.answer()).toBe("");
    expect(received).not.toContain("/v1/clean");
  });

  it("clients that read their answers slowly hold no slot, and /healthz goes past a full queue", async () => {
    received.length = 0;
    mostHeld = 0;
    // Clients that ask for a 4 MB answer and never read it.
    const readers = Array.from({ length: 4 }, () => rawClient("GET /large HTTP/1.1\r\nhost: x\r\n\r\n"));
    for (const reader of readers) reader.socket.pause();
    await new Promise((done) => setTimeout(done, 300));
    const busy = Array.from({ length: SLOTS }, () => fetch(`${door.url}/busy`).then((response) => response.text()));
    await new Promise((done) => setTimeout(done, 200));
    const health = await fetch(`${door.url}/healthz`, { signal: AbortSignal.timeout(1_000) });
    expect(await health.text()).toBe("ok /healthz");
    expect(mostHeld).toBe(SLOTS + 1); // both slots busy, and /healthz beside them
    expect(await Promise.all(busy)).toEqual(Array.from({ length: SLOTS }, () => "ok /busy"));
    for (const reader of readers) reader.socket.destroy();
  });
});

describe("front door: fair under load", () => {
  const SLOTS = 4;
  let held: Server;
  let door: FrontDoor;
  /** Requests the stand-in for wrangler dev holds until the test lets them go, in the order they arrived. */
  const arrived: string[] = [];
  const waiting: (() => void)[] = [];

  beforeAll(async () => {
    held = createServer(async (request, response) => {
      await bodyOf(request);
      arrived.push(request.url ?? "");
      if (request.url !== "/healthz") await new Promise<void>((go) => waiting.push(go));
      response.writeHead(200, { "content-type": "text/plain" });
      response.end(`ok ${request.url}`);
    });
    await new Promise<void>((listening) => held.listen(0, HOST, listening));
    door = await startFrontDoor({
      host: HOST, port: 0, upstreamPort: (held.address() as AddressInfo).port, maxInFlight: SLOTS, clientKeys: ["a", "b", "own"],
      queueBound: { small: 4, large: 16, huge: 2 },
    });
  });

  afterAll(async () => {
    for (const go of waiting.splice(0)) go();
    await door.close();
    await new Promise((closed) => held.close(closed));
  });

  /** Waits (on the event loop, not a clock) until `condition` holds. */
  async function until(condition: () => boolean): Promise<void> {
    while (!condition()) await new Promise((turn) => setTimeout(turn, 5));
  }

  function letAllGo(): void {
    for (const go of waiting.splice(0)) go();
  }

  it("hands a GET on while 16 posts of a 900 KB page wait: they hold only their own slots", async () => {
    arrived.length = 0;
    const page = "<p>".repeat(300_000); // 900 KB
    const posts = Array.from({ length: 16 }, (_, index) =>
      fetch(`${door.url}/v1/clean?post=${index}`, { method: "POST", body: page, headers: { "x-api-key": `poster-${index}` } }).then((response) => response.status));
    await until(() => arrived.length === 1);
    const get = fetch(`${door.url}/v1/clean?url=small`, { headers: { "x-api-key": "reader" } }).then((response) => response.text());
    await until(() => arrived.length === 2);
    expect(arrived.at(-1)).toBe("/v1/clean?url=small");
    // The GET is answered while 15 posts still wait behind the one held.
    waiting.pop()?.();
    expect(await get).toBe("ok /v1/clean?url=small");
    expect(arrived.filter((path) => path.includes("post="))).toHaveLength(1);
    while (arrived.length < 17 || waiting.length > 0) {
      letAllGo();
      await new Promise((turn) => setTimeout(turn, 5));
    }
    expect(await Promise.all(posts)).toEqual(Array.from({ length: 16 }, () => 200));
  });

  it("answers 503 with Retry-After past a full lane, pushes out the client over its share for another, and serves them in turns", async () => {
    arrived.length = 0;
    const ask = (key: string, index: number) =>
      fetch(`${door.url}/v1/clean?${key}=${index}`, { headers: { "x-api-key": key } }).then(async (response) => ({
        status: response.status, retryAfter: response.headers.get("retry-after"), body: await response.text(),
      }));
    // Client a fills the 4 slots and the small lane's 4 places; its ninth is refused.
    const burst = Array.from({ length: 8 }, (_, index) => ask("a", index));
    await until(() => arrived.length === SLOTS);
    const refused = await ask("a", 8);
    expect(refused.status).toBe(503);
    expect(refused.retryAfter).toMatch(/^\d+$/);
    expect(JSON.parse(refused.body).error.code).toBe("overloaded");
    // b, under its share, takes the place of a's newest.
    const other = ask("b", 0);
    const pushedOut = await burst[7];
    expect(pushedOut.status).toBe(503);
    expect(pushedOut.retryAfter).toMatch(/^\d+$/);
    expect(pushedOut.body).toMatch(/more than its share/);
    // One slot freed: turns go a, then b (a queued first), not a's whole burst first.
    waiting.shift()?.();
    await until(() => arrived.length === SLOTS + 1);
    waiting.shift()?.();
    await until(() => arrived.length === SLOTS + 2);
    expect(arrived.slice(SLOTS)).toEqual(["/v1/clean?a=4", "/v1/clean?b=0"]);
    while (waiting.length > 0 || arrived.length < SLOTS + 4) {
      letAllGo();
      await new Promise((turn) => setTimeout(turn, 5));
    }
    expect((await other).status).toBe(200);
    expect((await Promise.all(burst.slice(0, 7))).map((answer) => answer.status)).toEqual(Array.from({ length: 7 }, () => 200));
  });

  it("takes turns by the deployment's own keys, and by address for any other key or none", async () => {
    const { clientOf } = await import("../../scripts/front-door");
    const keys = ["own"];
    const at = (address: string, headers: Record<string, string>, url = "/v1/clean") => ({ headers, url, socket: { remoteAddress: address } }) as never;
    expect(clientOf(at("127.0.0.2", { authorization: "Bearer own" }), keys)).toBe(clientOf(at("127.0.0.9", {}, "/v1/clean?key=own"), keys));
    expect(clientOf(at("127.0.0.2", { "x-api-key": "own" }), keys)).toBe("key own");
    // The public demo key, a made-up one, none: the address.
    expect(clientOf(at("127.0.0.2", { "x-api-key": "local-dev-key" }), keys)).toBe("address 127.0.0.2");
    expect(clientOf(at("127.0.0.3", { "x-api-key": "made-up-1" }), keys)).toBe(clientOf(at("127.0.0.3", { "x-api-key": "made-up-2" }), keys));
    expect(clientOf(at("127.0.0.2", {}), keys)).toBe("address 127.0.0.2");
  });

  it("a client that hangs up while queued leaves the queue: its request never reaches wrangler dev", async () => {
    arrived.length = 0;
    const holding = Array.from({ length: SLOTS }, (_, index) => fetch(`${door.url}/v1/clean?hold=${index}`).then((response) => response.status));
    await until(() => arrived.length === SLOTS);
    const { port } = new URL(door.url);
    const leaving = connect(Number(port), HOST);
    leaving.on("error", () => undefined);
    leaving.write("GET /v1/clean?left HTTP/1.1\r\nhost: x\r\n\r\n");
    await until(() => door.counts().waiting.small === 1);
    leaving.destroy();
    await until(() => door.counts().waiting.small === 0);
    const after = fetch(`${door.url}/v1/clean?after`).then((response) => response.status);
    while (!arrived.includes("/v1/clean?after")) {
      letAllGo();
      await new Promise((turn) => setTimeout(turn, 5));
    }
    letAllGo();
    expect(await after).toBe(200);
    expect(await Promise.all(holding)).toEqual(Array.from({ length: SLOTS }, () => 200));
    expect(arrived).not.toContain("/v1/clean?left");
  });
});
