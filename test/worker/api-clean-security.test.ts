import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { inject } from "vitest";
import { analysePage } from "../../src/page/index";
import app from "../../src/worker";

// What the API's answers let a browser do with fetched markup, and the shape of answers that pass a page through.
const origin = inject("originUrl");
const KEY = { "x-api-key": "test-key" };
const PAGE = "<!DOCTYPE html><html><head><title>T</title></head><body><nav><a href='/'>Home</a></nav>" +
  "<article><h1>Harbour news</h1><p onclick=\"alert(1)\">The harbour wall is to be rebuilt next spring, the council said on Monday.</p>" +
  "<script>document.title = 'ran'</script></article></body></html>";

async function call(path: string, init: RequestInit = {}, vars: Record<string, string> = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  for (const [name, value] of Object.entries(KEY)) headers.set(name, value);
  return app.request(`https://cleaner.test${path}`, { ...init, headers }, { ...env, ...vars });
}

function post(format: string, body: BodyInit, contentType = "text/html; charset=utf-8", site = "security.example"): Promise<Response> {
  return call(`/v1/clean?format=${format}&site=${site}&url=${encodeURIComponent("https://security.example/a")}`, { method: "POST", headers: { "content-type": contentType }, body });
}

function expectInert(response: Response): void {
  expect(response.headers.get("content-security-policy")).toBe("sandbox");
  expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  expect(response.headers.get("referrer-policy")).toBe("no-referrer");
}

describe("fetched markup stays inert on our origin", () => {
  it("sandboxes html and annotated answers (no scripts, opaque origin), and every other answer too", async () => {
    for (const format of ["html", "annotated", "text", "json"]) {
      const response = await post(format, PAGE);
      expect(response.status, format).toBe(200);
      expectInert(response);
    }
    const html = await (await post("html", PAGE)).text();
    expect(html).toContain("<script>"); // the page is the page: the policy, not an edit, keeps it from running
    expectInert(await call("/v1/clean?format=html&url=ftp://x/"));
    expectInert(await app.request("https://cleaner.test/v1/clean?format=html", {}, env)); // no key: 401
  });

  it("serves the demo page and its script, static assets, under a strict policy: scripts from this origin only", async () => {
    const page = await app.request("https://cleaner.test/", {}, { ...env, DEMO_API_KEY: "local-dev-key" });
    expect(page.status).toBe(200);
    const policy = page.headers.get("content-security-policy") ?? "";
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("connect-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toMatch(/script-src[^;]*unsafe/);
    const html = await page.text();
    expect(html.match(/<script\b[^>]*>/g)).toEqual([`<script src="/demo.js" defer>`]);
    expect(html).not.toContain("local-dev-key"); // the key comes from /demo/config.json, not the static page
    const script = await app.request("https://cleaner.test/demo.js", {}, env);
    expect(script.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(await script.text()).toContain('fetch("/demo/config.json")');
    const config = await app.request("https://cleaner.test/demo/config.json", {}, { ...env, DEMO_API_KEY: "local-dev-key", DEMO_SAMPLES: "not json" });
    expect(await config.json()).toEqual({ samples: [], apiKey: "local-dev-key" });
    expect(config.headers.get("cache-control")).toBe("no-store");
  });

  it("takes the admin key from a header only, never from the URL", async () => {
    const vars = { ADMIN_KEY: "admin-secret" };
    const inQuery = await app.request("https://cleaner.test/admin/rules/query.example?key=admin-secret", { method: "DELETE" }, { ...env, ...vars });
    expect(inQuery.status).toBe(401);
    const inHeader = await app.request("https://cleaner.test/admin/rules/query.example", { method: "DELETE", headers: { "x-api-key": "admin-secret" } }, { ...env, ...vars });
    expect(inHeader.status).toBe(200);
  });
});

describe("a page passed through answers in the shape of the format asked for", () => {
  const utf16 = new Uint8Array([0xff, 0xfe, ...Array.from(new TextEncoder().encode("<p>hi</p>")).flatMap((byte) => [byte, 0])]);

  it("json: a reader document with the reason and its fallback, the page in html when it can be held, and no text when it cannot", async () => {
    const response = await post("json", utf16, "text/html; charset=utf-16le");
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("x-clean-bailout")).toBe("unsupported-charset");
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ url: "https://security.example/a", site: "security.example", bailout: "unsupported-charset", fallback: "empty", mode: "none", text: "", content: "", html: null });
    const large = await call(`/v1/clean?format=json&url=${encodeURIComponent(`${origin}/guards/oversize?bytes=300000`)}`, {}, { MAX_BODY_BYTES: "100000" });
    expect(large.headers.get("x-clean-bailout")).toBe("too-large");
    expect(await large.json()).toMatchObject({ bailout: "too-large", fallback: "empty", html: null, mode: "none" });
  });

  it("json: a page the rewriter refuses comes back as JSON holding the page in html and the whole page sanitised in content", async () => {
    const refused = `<!DOCTYPE html><html><body><nav><a href="/">Home</a> <a href="/a">About</a></nav><div><p>${"Words of the article. ".repeat(30)}</p></div><select><plaintext>x</select></body></html>`;
    const html = await post("html", refused);
    expect(html.headers.get("x-clean-bailout")).toBe("rewrite-failed"); // lol-html refuses <plaintext> inside <select>
    const json = await post("json", refused);
    expect(json.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const body = (await json.json()) as { bailout: string; fallback: string; html: string; content: string };
    expect(body.bailout).toBe(html.headers.get("x-clean-bailout"));
    expect(body.fallback).toBe("sanitised");
    expect(body.html).toBe(refused);
    expect(body.content).toContain("<p>Words of the article.");
    expect(body.content).not.toMatch(/<select|plaintext/);
  });

  it("text and markdown: their own media type, empty for bytes that cannot be decoded (never the page's markup); html: the page as it came", async () => {
    const text = await post("text", utf16, "text/html; charset=utf-16le");
    expect(text.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await text.text()).toBe("");
    const markdown = await post("markdown", utf16, "text/html; charset=utf-16le");
    expect(markdown.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(await markdown.text()).toBe("");
    const html = await post("html", utf16, "text/html; charset=utf-16le");
    expect(html.headers.get("content-type")).toBe("text/html; charset=utf-16le");
    expectInert(html);
  });
});

describe("unclosed raw-text elements", () => {
  it("says so when a script, style, title or the like swallows the rest of the page", async () => {
    for (const tag of ["script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "plaintext"]) {
      const page = `<html><body><p>First paragraph of the page, which is seen.</p><${tag}>x = 1;\n<p>The rest of the page, which is not.</p></body></html>`;
      expect(analysePage(page).unclosedRawText, tag).toBe(true);
      const response = await post("text", page);
      expect(response.headers.get("x-clean-warning"), tag).toBe("unclosed-raw-text");
    }
  });

  it("stays quiet for closed elements, a truncated script with no markup after it, and raw text that ends the page in order", async () => {
    expect(analysePage("<p>a</p><script>if (a < b) x();</script><p>b</p>").unclosedRawText).toBe(false);
    expect(analysePage("<p>a</p><script>var x = 1;").unclosedRawText).toBe(false);
    expect(analysePage("<title>x</title><style>p { color: red }</style>").unclosedRawText).toBe(false);
    expect(analysePage("<script><!--<script></script><p>still script</p>").unclosedRawText).toBe(true);
    const response = await post("text", PAGE);
    expect(response.headers.get("x-clean-warning")).toBeNull();
  });
});
