import { SELF, env } from "cloudflare:test";
import { expect, inject, it } from "vitest";
import { devDataPresent } from "../support/dev-data";

const origin = inject("originUrl");
const hasData = devDataPresent((await fetch(`${origin}/data/README.md`)).ok, "../shared/data", inject("requireDevData"), "health.test.ts");

it("answers healthz and has a KV binding", async () => {
  const res = await SELF.fetch("https://example.com/healthz");
  expect(res.status).toBe(200);
  await env.RULES.put("k", "v");
  expect(await env.RULES.get("k")).toBe("v");
});

it("reaches the test origin, which serves the project's fixtures", async () => {
  const res = await fetch(`${origin}/fixtures/proxy/page.html`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/html");
});

it.runIf(hasData)("reaches the dev pages through the test origin", async () => {
  const res = await fetch(`${origin}/data/README.md`);
  expect(res.status).toBe(200);
  expect(await res.text()).toContain("Development data");
});
