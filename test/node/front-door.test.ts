/**
 * The front door of `npm start` (scripts/front-door.ts), against a Node server standing in for wrangler dev:
 * requests go through whole (method, path, Host, body, status, headers, a streamed answer), never more than
 * maxInFlight at once upstream however many clients wait, and a dead upstream gets a 502.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFrontDoor, type FrontDoor } from "../../scripts/front-door";

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
    const probe = createServer();
    await new Promise<void>((listening) => probe.listen(0, HOST, listening));
    const closedPort = (probe.address() as AddressInfo).port;
    await new Promise((closed) => probe.close(closed));
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
