import { env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import app from "../../src/worker";
import { seededRandom as random } from "../../scripts/lib/seeded-random";

// Every guard of issue 2 point 7, sent to the Worker in workerd (real local KV, real fetches to the test origin).
const origin = inject("originUrl");
const KEY = { "x-api-key": "test-key" };

/** The app with the test bindings, a few of them overridden (limits, timeouts, the private-target switch). */
async function call(path: string, init: RequestInit = {}, vars: Partial<typeof env> = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  for (const [name, value] of Object.entries(KEY)) if (!headers.has(name)) headers.set(name, value);
  return app.request(`https://cleaner.test${path}`, { ...init, headers }, { ...env, ...vars });
}

async function expectError(response: Response, status: number, code: string): Promise<string> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  expect(response.headers.get("content-type")).toContain("application/json");
  const body = JSON.parse(text) as { error: { code: string; message: string } };
  expect(body.error.code).toBe(code);
  expect(body.error.message.length).toBeGreaterThan(0);
  expect(text).not.toMatch(/\n\s+at /); // no stack
  return body.error.message;
}

function cleanUrl(target: string, format = "text"): string {
  return `/v1/clean?url=${encodeURIComponent(target)}&format=${format}`;
}

/** A small article page: a sentence to find in the output, in a body long enough to read as content. */
const SENTENCE = "The harbour board met on Tuesday evening to agree the dredging timetable for the autumn.";
const ARTICLE = [
  `<h1>Harbour board agrees dredging timetable</h1><p>${SENTENCE} Members heard that the channel has silted up faster than expected since the last survey, and that larger boats now wait for the tide before they can reach the fish quay.</p>`,
  "<p>The work will start once the summer sailing season has ended, and the board expects it to last about six weeks. Residents near the slipway will be told in writing before the first barge arrives, and a drop-in session will be held at the community hall.</p>",
  "<p>The chair said the board had listened to the concerns raised at the last public meeting about noise and lorry movements, and that work would stop at six each evening and not take place at weekends.</p>",
].join("");
const PAGE = `<!DOCTYPE html><html><head><title>Harbour board agrees dredging timetable</title></head><body><article>${ARTICLE}</article></body></html>`;

describe("body not HTML → 415", () => {
  it("refuses JSON, form, plain text and image bodies, and binary bytes labelled as HTML", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
    const cases: Array<[string, BodyInit]> = [
      ["application/json", JSON.stringify({ html: PAGE })],
      ["application/x-www-form-urlencoded", "html=%3Cp%3Ex%3C%2Fp%3E"],
      ["text/plain", "just words, no markup"],
      ["image/png", png],
      ["text/html", png],
      ["", png],
    ];
    for (const [type, body] of cases) {
      const headers: Record<string, string> = type === "" ? {} : { "content-type": type };
      const response = await call("/v1/clean?format=text", { method: "POST", headers, body });
      await expectError(response, 415, "unsupported-media-type");
    }
  });

  it("accepts HTML sent as text/html, application/xhtml+xml, or unlabelled", async () => {
    for (const type of ["text/html; charset=utf-8", "application/xhtml+xml", "application/octet-stream"]) {
      const response = await call("/v1/clean?format=text", { method: "POST", headers: { "content-type": type }, body: PAGE });
      expect(response.status, type).toBe(200);
      expect(await response.text()).toContain(SENTENCE);
    }
  });

  it("reads gzip and deflate bodies, refuses other codings (415) and broken compression (400)", async () => {
    for (const coding of ["gzip", "deflate"] as const) {
      const compressed = await new Response(new Blob([PAGE]).stream().pipeThrough(new CompressionStream(coding))).arrayBuffer();
      const response = await call("/v1/clean?format=text", { method: "POST", headers: { "content-type": "text/html", "content-encoding": coding }, body: compressed });
      expect(response.status, coding).toBe(200);
      expect(await response.text()).toContain(SENTENCE);
    }
    const brotli = await call("/v1/clean?format=text", { method: "POST", headers: { "content-type": "text/html", "content-encoding": "br" }, body: PAGE });
    await expectError(brotli, 415, "unsupported-media-type");
    const broken = await call("/v1/clean?format=text", { method: "POST", headers: { "content-type": "text/html", "content-encoding": "gzip" }, body: PAGE });
    await expectError(broken, 400, "bad-request");
  });

  it("applies the size limit after decompression (a small gzip body that expands past it is refused)", async () => {
    const big = `<!DOCTYPE html><html><body>${"<p>same words again and again</p>".repeat(20_000)}</body></html>`;
    const compressed = await new Response(new Blob([big]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer();
    expect(compressed.byteLength).toBeLessThan(20_000);
    const response = await call("/v1/clean?format=text", { method: "POST", headers: { "content-type": "text/html", "content-encoding": "gzip" }, body: compressed }, { MAX_BODY_BYTES: "100000" });
    await expectError(response, 413, "payload-too-large");
  });

  it("refuses a fetched page that is not HTML", async () => {
    await expectError(await call(cleanUrl(`${origin}/guards/image`)), 415, "unsupported-media-type");
  });
});

describe("size limit", () => {
  const LIMIT = { MAX_BODY_BYTES: "20000" };
  const big = `<!DOCTYPE html><html><body>${"<p>filler paragraph of some length</p>".repeat(1000)}</body></html>`;

  it("answers 413 for a request body over the limit, declared by content-length", async () => {
    const response = await call("/v1/clean", { method: "POST", headers: { "content-type": "text/html" }, body: big }, LIMIT);
    await expectError(response, 413, "payload-too-large");
  });

  it("answers 413 for a streamed request body over the limit (no content-length)", async () => {
    const bytes = new TextEncoder().encode(big);
    let offset = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (offset >= bytes.length) return controller.close();
        controller.enqueue(bytes.subarray(offset, offset + 4096));
        offset += 4096;
      },
    });
    const response = await call("/v1/clean", { method: "POST", headers: { "content-type": "text/html" }, body: stream, duplex: "half" } as RequestInit, LIMIT);
    await expectError(response, 413, "payload-too-large");
  });

  it("passes a fetched page with a declared length over the limit through whole", async () => {
    const target = `${origin}/fixtures/proxy/page.html`; // served with its content-length
    const original = new Uint8Array(await (await fetch(target)).arrayBuffer());
    expect(new TextDecoder().decode(original)).toContain("The Quayside Courier");
    const response = await call(cleanUrl(target, "html"), {}, { MAX_BODY_BYTES: String(original.length - 1) });
    expect(response.headers.get("x-clean-bailout")).toBe("too-large");
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(original);
  });

  it("passes a streamed page over the limit through whole, byte for byte, with x-clean-bailout", async () => {
    const target = `${origin}/guards/oversize?bytes=150000`;
    const response = await call(cleanUrl(target, "html"), {}, LIMIT);
    expect(response.status).toBe(200);
    expect(response.headers.get("x-clean-bailout")).toBe("too-large");
    expect(response.headers.get("x-clean-mode")).toBe("none");
    const passed = new Uint8Array(await response.arrayBuffer());
    const original = new Uint8Array(await (await fetch(target)).arrayBuffer());
    expect(passed.length).toBe(original.length);
    expect(passed).toEqual(original);
    expect(new TextDecoder().decode(passed.subarray(passed.length - 20))).toContain("</html>");
  });
});

describe("invalid URL or scheme → 400", () => {
  it("refuses bad schemes, relative and malformed URLs, credentials and a missing url", async () => {
    for (const target of ["ftp://example.com/", "file:///etc/passwd", "javascript:alert(1)", "example.com/page", "http://", "http://user:secret@example.com/"]) {
      await expectError(await call(cleanUrl(target)), 400, "invalid-url");
    }
    await expectError(await call("/v1/clean?format=text"), 400, "bad-request");
  });

  it("refuses an unknown format, a malformed site and an empty body", async () => {
    await expectError(await call(cleanUrl("https://example.com/", "pdf")), 400, "bad-request");
    const post = (query: string, body: string) => call(`/v1/clean?${query}`, { method: "POST", headers: { "content-type": "text/html" }, body });
    await expectError(await post("site=not a host!", PAGE), 400, "bad-request");
    await expectError(await post("url=notaurl", PAGE), 400, "invalid-url");
    await expectError(await post("format=text", ""), 400, "bad-request");
  });
});

describe("private targets → 403 unless the development setting allows them", () => {
  const STRICT = { ALLOW_PRIVATE_TARGETS: "false" };

  it("refuses the loopback test origin, metadata and private addresses when the setting is off", async () => {
    const port = new URL(origin).port;
    for (const target of [
      `${origin}/fixtures/guards/shift-jis.html`,
      `http://localhost:${port}/`,
      `http://2130706433:${port}/`,
      `http://0x7f.1:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      `http://[::1]:${port}/`,
      "http://169.254.169.254/latest/meta-data/",
      "http://10.0.0.1/",
      "http://192.168.0.1/",
      "http://[fe80::1]/",
    ]) {
      await expectError(await call(cleanUrl(target), {}, STRICT), 403, "forbidden-target");
    }
  });

  it("refuses a url on the service's own host, which would have it fetch itself", async () => {
    await expectError(await call(cleanUrl("https://cleaner.test/v1/clean?url=https://example.com/")), 403, "forbidden-target");
  });

  it("fetches the loopback origin when the setting is on (the test default)", async () => {
    const response = await call(cleanUrl(`${origin}/fixtures/guards/shift-jis.html`));
    expect(response.status).toBe(200);
  });
});

describe("origin unreachable or slow → 502 / 504", () => {
  it("answers 502 when nothing listens, when the origin fails, and on a redirect loop", async () => {
    await expectError(await call(cleanUrl("http://127.0.0.1:1/")), 502, "origin-unreachable");
    await expectError(await call(cleanUrl(`${origin}/guards/error`)), 502, "origin-error");
    const loop = await expectError(await call(cleanUrl(`${origin}/guards/redirect-loop`)), 502, "origin-unreachable");
    expect(loop).toContain("redirects");
  });

  it("answers 504 when the headers or the body come too late (timeouts are options)", async () => {
    const fast = { FETCH_TIMEOUT_MS: "300", FETCH_BODY_TIMEOUT_MS: "300" };
    await expectError(await call(cleanUrl(`${origin}/guards/slow-headers`), {}, fast), 504, "origin-timeout");
    await expectError(await call(cleanUrl(`${origin}/guards/slow-body`), {}, fast), 504, "origin-timeout");
  });

  it("follows a redirect to the page", async () => {
    const response = await call(cleanUrl(`${origin}/redirect/relative`));
    expect(response.status).toBe(200);
    expect(response.headers.get("x-clean-bailout")).toBeNull();
  });
});

describe("rules in KV that are missing, malformed or unsafe → cleaning without rules, and a header", () => {
  const validRuleSet = (site: string, patterns: string[]) =>
    JSON.stringify({
      version: 1,
      site,
      minedAt: "2026-03-01T00:00:00Z",
      pages: 10,
      cutoff: 0.5,
      mutablePatterns: [],
      rules: patterns.map((pattern) => ({ pattern, docFreq: 9, count: 9, tokens: 2 })),
    });
  const page = `<!DOCTYPE html><html><body><nav><ul><li>Home page link</li><li>About us link</li></ul></nav><article>${ARTICLE}</article></body></html>`;
  const post = (site: string) => call(`/v1/clean?site=${site}&format=text`, { method: "POST", headers: { "content-type": "text/html" }, body: page });

  it("says missing when the site has no rule set", async () => {
    const response = await post("no-rules.guards.example");
    expect(response.status).toBe(200);
    expect(response.headers.get("x-clean-rules")).toBe("missing");
    expect(await response.text()).toContain(SENTENCE);
  });

  it("says invalid for a value that is not JSON or fails the schema, and still cleans", async () => {
    await env.RULES.put("not-json.guards.example", "{ this is not json");
    await env.RULES.put("bad-schema.guards.example", JSON.stringify({ version: 1, site: "bad-schema.guards.example", rules: "none" }));
    await env.RULES.put("bad-version.guards.example", validRuleSet("bad-version.guards.example", ["Home page"]).replace('"version":1', '"version":99'));
    for (const site of ["not-json.guards.example", "bad-schema.guards.example", "bad-version.guards.example"]) {
      const response = await post(site);
      expect(response.status, site).toBe(200);
      expect(response.headers.get("x-clean-rules"), site).toBe("invalid");
      expect(await response.text()).toContain(SENTENCE);
    }
  });

  it("says unsafe-skipped when a pattern is refused, and applies the safe rules", async () => {
    const site = "unsafe.guards.example";
    await env.RULES.put(site, validRuleSet(site, ["(a+)+b", "Home page link\\nAbout us link"]));
    const response = await post(site);
    expect(response.status).toBe(200);
    expect(response.headers.get("x-clean-rules")).toBe("unsafe-skipped");
    const text = await response.text();
    expect(text).toContain(SENTENCE);
    expect(text).not.toContain("Home page link");
  });

  it("says applied for a good rule set", async () => {
    const site = "good.guards.example";
    await env.RULES.put(site, validRuleSet(site, ["Home page link\\nAbout us link"]));
    const response = await post(site);
    expect(response.headers.get("x-clean-rules")).toBe("applied");
    expect(response.headers.get("x-clean-mode")).toContain("rules");
    const text = await response.text();
    expect(text).not.toContain("About us link");
    expect(text).toContain(SENTENCE);
  });
});

describe("charsets", () => {
  it("turns a page declared windows-1252 in its Content-Type into correct UTF-8", async () => {
    const response = await call(cleanUrl(`${origin}/guards/windows-1252`));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/charset=utf-8/i);
    expect(response.headers.get("x-clean-charset")).toBe("windows-1252");
    const text = await response.text();
    expect(text).toContain("“The espresso at the corner café now costs €2.40,” said the owner, Renée Dupré");
    expect(text).toContain("Prices rose by 12‰ last year; the naïve hope");
  });

  it("turns a page declared Shift_JIS in <meta> into correct UTF-8", async () => {
    const response = await call(cleanUrl(`${origin}/fixtures/guards/shift-jis.html`));
    expect(response.status).toBe(200);
    expect(response.headers.get("x-clean-charset")).toBe("shift_jis");
    const text = await response.text();
    expect(text).toContain("今日の東京は朝から晴れて、最高気温は二十三度まで上がりました。");
  });

  it("passes a UTF-16 page through unchanged with x-clean-bailout as html; as text it is empty, never its markup", async () => {
    const target = `${origin}/fixtures/guards/utf-16le.html`;
    const original = new Uint8Array(await (await fetch(target)).arrayBuffer());
    const fetched = await call(cleanUrl(target, "html"));
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get("x-clean-bailout")).toBe("unsupported-charset");
    expect(new Uint8Array(await fetched.arrayBuffer())).toEqual(original);
    const posted = await call("/v1/clean?format=text", { method: "POST", headers: { "content-type": "text/html" }, body: original });
    expect(posted.status).toBe(200);
    expect(posted.headers.get("x-clean-bailout")).toBe("unsupported-charset");
    expect(posted.headers.get("x-clean-fallback")).toBe("empty");
    expect(await posted.text()).toBe("");
  });
});

describe("no input produces a 500 or a stack", () => {
  const PIECES = ["<div>", "</div>", "<p>", "</p>", "<li>", "<table><tr><td>", "</td>", "<!--", "-->", "<script>", "</script>",
    "<", ">", "&amp;", "&#x1F600;", "&#0;", "\u0000", "\uFFFD", "text ", "“quoted” ", "<a href='x'>", "</a>", "<br/>", "<![CDATA[", "]]>",
    "<svg><foreignObject>", "</svg>", "<meta charset='x-unknown'>", "<html>", "</body>", "\ud800", "<template>", "<title>", "</title>"];

  it("answers every malformed page with 200 or a JSON error, for every format", async () => {
    const next = random(20260301);
    const formats = ["html", "text", "markdown", "json"];
    for (let round = 0; round < 60; round++) {
      const parts: string[] = [];
      const count = 1 + Math.floor(next() * 80);
      for (let i = 0; i < count; i++) parts.push(PIECES[Math.floor(next() * PIECES.length)]);
      const body = parts.join("");
      const format = formats[round % formats.length];
      const response = await call(`/v1/clean?format=${format}&site=fuzz.example`, { method: "POST", headers: { "content-type": "text/html" }, body });
      const text = await response.text();
      expect([200, 400, 413, 415], `round ${round}: ${JSON.stringify(body)}`).toContain(response.status);
      expect(text, `round ${round}`).not.toMatch(/\n\s+at .*:\d+/);
    }
  });
});
