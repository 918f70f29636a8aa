import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import app from "../../src/worker";

// Query parameters the API does not read are refused with a 400 that names the ones it does, in workerd: a typo
// (`fromat=text`) would otherwise answer 200 in the default format. Posted HTML, so no origin is fetched.
const KEY = { "x-api-key": "test-key" };
const PAGE = "<html><head><title>Harbour</title></head><body><article><h1>Harbour</h1><p>The harbour reopens on Monday after the works.</p></article></body></html>";

function post(path: string): Promise<Response> {
  return Promise.resolve(app.request(`https://cleaner.test${path}`, { method: "POST", headers: { ...KEY, "content-type": "text/html" }, body: PAGE }, env));
}

async function refusal(response: Response): Promise<string> {
  expect(response.status).toBe(400);
  const body = (await response.json()) as { error: { code: string; message: string } };
  expect(body.error.code).toBe("bad-request");
  return body.error.message;
}

describe("unknown query parameters", () => {
  it("refuses fromat=text on /v1/clean, naming the parameter meant and the known ones", async () => {
    const message = await refusal(await post("/v1/clean?fromat=text"));
    expect(message).toContain('unknown query parameter "fromat" (did you mean format?)');
    expect(message).toMatch(/reads url, site, key, format, shape, mode/);
    expect((await post("/v1/clean?format=text")).status).toBe(200);
  });

  it("accepts every parameter the reader reads, Jina's camelCase names and the page kind included", async () => {
    const query = "format=text&mode=auto&header=false&frontmatter=false&targetSelector=article&remove-selector=nav&noCache=true&retain-images=none&kind=article";
    const response = await post(`/v1/clean?${query}`);
    const text = await response.text();
    expect(text).not.toContain("unknown query parameter");
  });

  it("refuses them on the encoded /v1/read, POST /v1/read and /v1/feed, not in the plain /v1/read form (whose query is the page's)", async () => {
    const encoded = await app.request(`https://cleaner.test/v1/read/${encodeURIComponent("https://example.com/a")}?withLinkSummary=true`, { headers: KEY }, env);
    expect(await refusal(encoded)).toContain("did you mean withLinksSummary?");
    const posted = await app.request("https://cleaner.test/v1/read?formt=markdown", { method: "POST", headers: { ...KEY, "content-type": "application/json" }, body: JSON.stringify({ url: "https://example.com/" }) }, env);
    expect(await refusal(posted)).toContain('"formt"');
    const feed = await app.request("https://cleaner.test/v1/feed?url=https://example.com/feed.xml&full-text=1", { headers: KEY }, env);
    expect(await refusal(feed)).toContain("reads url, site, key, fulltext, limit, mode");
    // The plain form: ?b=1 is the target's own query; the guard refuses the loopback target before any fetch.
    const plain = await app.request("https://cleaner.test/v1/read/http://127.0.0.1:9/a?b=1", { headers: KEY }, env, );
    expect(await plain.text()).not.toContain("unknown query parameter");
  });
});
