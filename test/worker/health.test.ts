import { SELF, env } from "cloudflare:test";
import { expect, inject, it } from "vitest";

it("answers healthz and has a KV binding", async () => {
  const res = await SELF.fetch("https://example.com/healthz");
  expect(res.status).toBe(200);
  await env.RULES.put("k", "v");
  expect(await env.RULES.get("k")).toBe("v");
});

it("reaches the test origin", async () => {
  const res = await fetch(`${inject("originUrl")}/data/README.md`);
  expect(res.status).toBe(200);
  expect(await res.text()).toContain("Development data");
});
