/**
 * The origin fetch of a client that hung up is cut: fetchOrigin takes the request's signal, and its origin (on
 * loopback) sees its connection closed unanswered, long before the fetch timeout; a client gone before the fetch
 * sends nothing. Counted (requests, connections closed), not timed.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import type { Env } from "../../src/http/shared/bindings";
import { fetchOrigin } from "../../src/http/shared/origin-fetch";
import { resolveSettings } from "../../src/http/shared/settings";

describe("fetchOrigin with the client's signal", () => {
  it("cuts the fetch once the client hangs up: the origin sees its connection closed, unanswered", async () => {
    let requests = 0;
    let closedUnanswered = 0;
    let arrived: () => void = () => undefined;
    const arrival = new Promise<void>((done) => (arrived = done));
    // An origin that takes the request and never answers.
    const origin: Server = createServer((request, response) => {
      requests++;
      response.on("close", () => {
        if (!response.writableFinished) closedUnanswered++;
      });
      arrived();
    });
    await new Promise<void>((listening) => origin.listen(0, "127.0.0.1", listening));
    const url = new URL(`http://127.0.0.1:${(origin.address() as AddressInfo).port}/page.html`);
    const settings = resolveSettings({ ALLOW_PRIVATE_TARGETS: "true", ALLOWED_TARGET_ORIGINS: url.origin, RESOLVE_TARGETS: "off", PIN_TARGETS: "off" } as unknown as Env);
    try {
      const hangUp = new AbortController();
      const fetched = fetchOrigin(url, settings, undefined, hangUp.signal);
      await arrival;
      hangUp.abort();
      const result = await fetched;
      expect(result).toMatchObject({ ok: false, message: expect.stringMatching(/client left/) });
      while (closedUnanswered === 0) await new Promise((turn) => setTimeout(turn, 5));
      expect({ requests, closedUnanswered }).toEqual({ requests: 1, closedUnanswered: 1 });
      // A client gone before the fetch: nothing is sent.
      expect(await fetchOrigin(url, settings, undefined, AbortSignal.abort())).toMatchObject({ ok: false });
      expect(requests).toBe(1);
    } finally {
      origin.closeAllConnections();
      await new Promise((closed) => origin.close(closed));
    }
  });
});
