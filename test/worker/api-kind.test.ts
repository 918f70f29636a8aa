import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import app from "../../src/worker";

// The page's kind in workerd: x-clean-kind on every cleaned answer, `kind` in the json document, and ?kind= naming it
// (a value not among the kinds is a 400 naming them). Posted HTML, so no origin is fetched.
const KEY = { "x-api-key": "test-key" };
const REPLIES = [
  "I had the same rattle in my 2014 model and it turned out to be the heat shield under the exhaust.",
  "Check the mounting bolts first, mine were loose after the last service and it sounded just like that.",
];
const THREAD_TYPE = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"DiscussionForumPosting","headline":"Rattle at idle"}</script>`;

function thread(types: string): string {
  return `<html><head><title>Rattle under the car at idle</title>${types}</head><body>
<nav><a href="/">Forums</a> <a href="/cars">Cars</a></nav>
<main><h1>Rattle under the car at idle</h1>
<div class="message"><p>There is a metallic rattle from under the car at idle that goes away above 2,000 rpm. Any ideas what it could be?</p></div>
<div id="comments">${REPLIES.map((reply, n) => `<div class="post"><a href="/u/${n}">member${n}</a><p>${reply}</p></div>`).join("\n")}</div>
</main><footer>© Car Forum</footer></body></html>`;
}

async function post(query: string, html: string): Promise<Response> {
  return app.request(`https://cleaner.test/v1/clean?${query}`, { method: "POST", headers: { ...KEY, "content-type": "text/html" }, body: html }, env);
}

describe("the page's kind on /v1/clean", () => {
  it("says what a thread is in x-clean-kind and json's kind, and keeps its posts", async () => {
    const response = await post("format=json", thread(THREAD_TYPE));
    expect(response.status).toBe(200);
    expect(response.headers.get("x-clean-kind")).toBe("forum");
    const document = (await response.json()) as { kind: string; text: string; comments: string };
    expect(document.kind).toBe("forum");
    expect(document.text).toContain(REPLIES[0]);
    expect(document.comments).toBe("");
  });

  it("says unknown for a page that tells no kind, whose replies go apart as comments", async () => {
    const response = await post("format=text", thread(""));
    expect(response.headers.get("x-clean-kind")).toBe("unknown");
    expect(await response.text()).not.toContain(REPLIES[0]);
  });

  it("takes the kind a caller names: kind=forum keeps the posts of a page that tells none", async () => {
    const response = await post("format=text&kind=forum", thread(""));
    expect(response.headers.get("x-clean-kind")).toBe("forum");
    expect(await response.text()).toContain(REPLIES[0]);
    const article = await post("format=text&kind=Article", thread(THREAD_TYPE));
    expect(article.headers.get("x-clean-kind")).toBe("article");
    expect(await article.text()).not.toContain(REPLIES[0]);
  });

  it("refuses a kind that is not one, naming the kinds", async () => {
    const response = await post("format=text&kind=blog", thread(""));
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("bad-request");
    expect(body.error.message).toBe('kind must be one of auto, article, forum, product, documentation, service, listing, collection, unknown, not "blog"');
  });

  it("lets a browser of an allowed origin read x-clean-kind (exposed to CORS)", async () => {
    const response = await app.request("https://cleaner.test/v1/clean?format=text", {
      method: "POST", headers: { ...KEY, "content-type": "text/html", origin: "https://reader.example" }, body: thread(THREAD_TYPE),
    }, { ...env, CORS_ALLOWED_ORIGINS: "https://reader.example" });
    expect(response.headers.get("access-control-expose-headers") ?? "").toContain("x-clean-kind");
  });
});
