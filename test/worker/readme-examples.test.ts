import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import worker from "../../src/worker";
import { checkHttpOutput, parseCurl, readmeExamples } from "../support/readme-examples";

// The README's tour against the Worker in workerd, set up as `npm start` sets it up: the sample site served at
// the root of an origin (standing for http://127.0.0.1:8788), its rule set in KV under its site and under
// 127.0.0.1, the dev key, the sample site as the one private fetch target and the proxy's /sample/ mapping.
// Fails when an output the README shows drifts from what the service answers.
const README_SERVICE = "http://127.0.0.1:8787";
const README_SAMPLES = "http://127.0.0.1:8788";
const SAMPLE_SITE = "wrenmouth-gazette.example";
const samplesUrl = inject("samplesUrl");
const examples = readmeExamples(inject("readme")).filter((example) => example.kind === "service");

const vars = {
  API_KEYS: "local-dev-key",
  ALLOW_PRIVATE_TARGETS: "false",
  ALLOWED_TARGET_ORIGINS: samplesUrl,
  PROXY_ORIGINS: JSON.stringify({ "/sample": { origin: samplesUrl, site: SAMPLE_SITE } }),
};

async function serve(request: Request): Promise<Response> {
  const context = createExecutionContext();
  const response = await worker.fetch(request, { ...env, ...vars }, context);
  await waitOnExecutionContext(context);
  return response;
}

describe("README examples against the service", () => {
  it("the README marks the tour's requests", () => {
    expect(examples.length).toBeGreaterThanOrEqual(3);
  });

  it.each(examples.map((example) => [example.line, example] as const))("README line %i", async (_line, example) => {
    const ruleSet = inject("sampleRuleSet");
    await env.RULES.put(SAMPLE_SITE, ruleSet);
    await env.RULES.put("127.0.0.1", ruleSet);
    const request = parseCurl(example.command);
    const url = request.url.replaceAll(README_SAMPLES, samplesUrl);
    expect(url.startsWith(README_SERVICE), `the README's requests go to ${README_SERVICE}`).toBe(true);
    const headers = request.headers.map(([name, value]) => [name, value.replaceAll(README_SAMPLES, samplesUrl)] as [string, string]);
    const response = await serve(new Request(url, { method: request.method, headers, body: request.body?.replaceAll(README_SAMPLES, samplesUrl) ?? null }));
    const body = (await response.text()).replaceAll(samplesUrl, README_SAMPLES);
    const problem = checkHttpOutput(example.expected, request, response.status, response.statusText, response.headers, body);
    expect(problem, `README.md line ${example.line}: ${example.command}`).toBeNull();
  });
});
