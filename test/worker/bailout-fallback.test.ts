// Every bailout keeps each format's promise, through the HTTP API in workerd (issue 44): the page of 120,000 <div> and a
// script (too-many-blocks), posted and fetched, in every format and reader shape, the MCP tools, a feed and the proxy;
// the hostile families through pass 2's refusal (rewrite-failed); undecodable and oversize pages. HTMLRewriter (lol-html)
// reads the HTML answers back, CommonMark the Markdown. test/node/bailout-fallback.test.ts forces every code in Node.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { Parser, type Node as CommonMarkNode } from "commonmark";
import { describe, expect, inject, it } from "vitest";
import worker from "../../src/worker";
import { FAMILIES, manyBlocksPage } from "../../scripts/lib/hostile-pages";
import { hostilePage, htmlProblems, markdownProblems, seededRandom, textProblems, type MarkdownNode, type ParsedElement } from "../support/safe-output";

const ORIGIN = inject("originUrl");
const KEY = "test-key";
const PAGE_URL = "https://harbour.example/news/story";
const MANY = manyBlocksPage();
const SCRIPT = "document.title";

async function call(path: string, init: RequestInit = {}, vars: Record<string, string> = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set("x-api-key", KEY);
  return worker.request(`https://cleaner.test${path}`, { ...init, headers }, { ...env, ...vars });
}

function post(query: string, body: BodyInit, contentType = "text/html; charset=utf-8"): Promise<Response> {
  return call(`/v1/clean?${query}&url=${encodeURIComponent(PAGE_URL)}`, { method: "POST", headers: { "content-type": contentType }, body });
}

async function elementsOf(fragment: string): Promise<ParsedElement[]> {
  const found: ParsedElement[] = [];
  const reader = new HTMLRewriter().on("*", {
    element(element) {
      found.push({ name: element.tagName.toLowerCase(), attributes: [...element.attributes].map(([name, value]) => [name.toLowerCase(), value] as const) });
    },
  });
  await reader.transform(new Response(fragment)).text();
  return found;
}

function markdownNodes(markdown: string): MarkdownNode[] {
  const walker = new Parser().parse(markdown).walker();
  const nodes: MarkdownNode[] = [];
  for (let event = walker.next(); event !== null; event = walker.next()) if (event.entering) nodes.push(event.node as CommonMarkNode as MarkdownNode);
  return nodes;
}

/** What is wrong with each field of a reader document that makes a promise (html, the working page, makes none). */
async function documentProblems(document: Record<string, unknown>): Promise<string[]> {
  return [
    ...textProblems(document.text as string),
    ...markdownProblems(markdownNodes(document.markdown as string)),
    ...htmlProblems(await elementsOf(document.content as string)),
  ];
}

function expectBailout(response: Response, code: string, content: string): void {
  expect(response.status).toBe(200);
  expect(response.headers.get("x-clean-bailout")).toBe(code);
  expect(response.headers.get("x-clean-fallback")).toBe(content);
  expect(response.headers.get("content-security-policy")).toBe("sandbox");
}

describe("the page of 120,000 <div> and a script (too-many-blocks)", () => {
  it("posted: html is the page under the sandbox policy; text, markdown, article and json hold none of its markup", async () => {
    const html = await post("format=html", MANY);
    expectBailout(html, "too-many-blocks", "page");
    expect(await html.text()).toBe(MANY);
    const text = await post("format=text", MANY);
    expectBailout(text, "too-many-blocks", "text");
    expect(text.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const textBody = await text.text();
    expect(textProblems(textBody)).toEqual([]);
    expect(textBody).toMatch(/^The harbour board approved/);
    const markdown = await post("format=markdown", MANY);
    expectBailout(markdown, "too-many-blocks", "text");
    expect(markdown.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(markdownProblems(markdownNodes(await markdown.text()))).toEqual([]);
    const article = await post("format=article", MANY);
    expectBailout(article, "too-many-blocks", "text");
    expect(article.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const fragment = await article.text();
    expect(fragment).not.toContain(SCRIPT);
    expect(htmlProblems(await elementsOf(fragment))).toEqual([]);
    const json = await post("format=json", MANY);
    expectBailout(json, "too-many-blocks", "text");
    const document = (await json.json()) as Record<string, unknown>;
    expect(document).toMatchObject({ bailout: "too-many-blocks", fallback: "text", mode: "none", html: MANY });
    expect(await documentProblems(document)).toEqual([]);
    expect(document.content).not.toContain(SCRIPT);
  });

  it("Readability's shape: content is the fragment, textContent the text, never the page", async () => {
    const response = await post("format=json&shape=readability", MANY);
    expectBailout(response, "too-many-blocks", "text");
    const shaped = (await response.json()) as { content: string; textContent: string };
    expect(shaped.content).not.toContain(SCRIPT);
    expect(htmlProblems(await elementsOf(shaped.content))).toEqual([]);
    expect(textProblems(shaped.textContent)).toEqual([]);
    expect(shaped.textContent).toMatch(/^The harbour board approved/);
  });

  it("fetched: /v1/clean?url= and Jina's shapes on /v1/read hold none of its markup", async () => {
    const url = `${ORIGIN}/security/many-divs`;
    const article = await call(`/v1/clean?format=article&url=${encodeURIComponent(url)}`);
    expectBailout(article, "too-many-blocks", "text");
    expect(htmlProblems(await elementsOf(await article.text()))).toEqual([]);
    const jinaText = await call(`/v1/read/${url}`);
    expect(jinaText.headers.get("x-clean-bailout")).toBe("too-many-blocks");
    const envelope = await jinaText.text();
    expect(envelope).not.toContain(SCRIPT);
    expect(markdownProblems(markdownNodes(envelope.slice(envelope.indexOf("Markdown Content:"))))).toEqual([]);
    const jinaJson = await call(`/v1/read/${url}`, { headers: { accept: "application/json" } });
    expect(jinaJson.headers.get("x-clean-bailout")).toBe("too-many-blocks");
    const data = ((await jinaJson.json()) as { data: { content: string } }).data;
    expect(data.content).not.toContain(SCRIPT);
    expect(markdownProblems(markdownNodes(data.content))).toEqual([]);
  });

  it("the MCP tool clean_html: each format's content keeps its promise and the result says why", async () => {
    for (const format of ["markdown", "text", "article", "html"]) {
      const response = await call("/v1/mcp", {
        method: "POST", headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "clean_html", arguments: { html: MANY, format } } }),
      });
      const { result } = (await response.json()) as { result: { content: { text: string }[]; structuredContent: { content: string; bailout: string; fallback: string } } };
      expect(result.structuredContent, format).toMatchObject({ bailout: "too-many-blocks", fallback: "text" });
      const content = result.structuredContent.content;
      if (format === "html") expect(content).toBe(MANY); // the html format is the page, as a cleaned one's is the working page
      else {
        expect(content, format).not.toContain(SCRIPT);
        const problems = format === "article" ? htmlProblems(await elementsOf(content)) : format === "text" ? textProblems(content) : markdownProblems(markdownNodes(content));
        expect(problems, format).toEqual([]);
        expect(result.content[0].text).toContain("Not cleaned: too-many-blocks (fallback: text)");
      }
    }
  });

  it("a feed: the item's own HTML and its full text are written safely, whatever bailed out", async () => {
    const response = await call(`/v1/feed?fulltext=1&url=${encodeURIComponent(`${ORIGIN}/security/bailout-feed.xml`)}`);
    expect(response.status).toBe(200);
    const feed = await response.text();
    const description = /<item>.*?<description>([^<]*)<\/description>/s.exec(feed)?.[1];
    expect(description).toBeDefined();
    const item = (description ?? "").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&amp;/g, "&");
    expect(item).not.toContain(SCRIPT);
    expect(item).toContain("The harbour board approved");
    expect(htmlProblems(await elementsOf(item))).toEqual([]);
    expect(feed).toContain("full text failed (cleaning bailed out: too-many-blocks)");
  });

  it("the proxy: html is the origin's page; Markdown asked for is the fallback's text, under its own media type", async () => {
    const proxy = async (accept: string): Promise<Response> => {
      const context = createExecutionContext();
      const response = await worker.fetch(new Request("https://edge.test/proxy/origin/security/many-divs", { headers: { accept } }), { ...env, PROXY_ORIGINS: JSON.stringify({ "/proxy/origin": ORIGIN }) }, context);
      await waitOnExecutionContext(context);
      return response;
    };
    const html = await proxy("text/html");
    expect(html.headers.get("x-clean-bailout")).toBe("too-many-blocks");
    expect(await html.text()).toBe(MANY);
    const markdown = await proxy("text/markdown");
    expect(markdown.headers.get("x-clean-bailout")).toBe("too-many-blocks");
    expect(markdown.headers.get("x-clean-fallback")).toBe("text");
    expect(markdown.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    const body = await markdown.text();
    expect(body).not.toContain(SCRIPT);
    expect(markdownProblems(markdownNodes(body))).toEqual([]);
  });
});

describe("the hostile families, where pass 2 refuses the page (rewrite-failed)", () => {
  it("json's content, text and markdown and Readability's content are the whole page sanitised, seeded", async () => {
    const random = seededRandom(Number(44));
    // lol-html refuses <plaintext> inside <select>: any page the classifier removes something from bails out in pass 2.
    const refusal = "<select><plaintext>x";
    const pages = Object.values(FAMILIES).map((family) => hostilePage(random, 6) + family(300) + refusal);
    for (let index = 0; index < 4; index++) pages.push(hostilePage(random, 10) + refusal);
    let failed = 0;
    for (const page of pages) {
      const json = await post("format=json", page);
      if (json.headers.get("x-clean-bailout") === null) {
        await json.body?.cancel();
        continue;
      }
      failed++;
      expectBailout(json, "rewrite-failed", "sanitised");
      expect(await documentProblems((await json.json()) as Record<string, unknown>)).toEqual([]);
      const readability = (await (await post("format=json&shape=readability", page)).json()) as { content: string; textContent: string };
      expect(htmlProblems(await elementsOf(readability.content))).toEqual([]);
      expect(textProblems(readability.textContent)).toEqual([]);
      const html = await post("format=html", page);
      expect(html.headers.get("x-clean-fallback")).toBe("page");
      expect(await html.text()).toBe(page);
    }
    expect(failed).toBeGreaterThanOrEqual(pages.length / 2);
  });
});

describe("pages that are not decoded or held", () => {
  it("undecodable bytes: every format but html is empty, with the reason", async () => {
    const utf16 = new Uint8Array([0xff, 0xfe, ...Array.from(new TextEncoder().encode("<script>x()</script><p>hi</p>")).flatMap((byte) => [byte, 0])]);
    for (const format of ["text", "markdown", "article"]) {
      const response = await post(`format=${format}`, utf16, "text/html; charset=utf-16le");
      expectBailout(response, "unsupported-charset", "empty");
      expect(await response.text()).toBe("");
    }
    const json = await post("format=json", utf16, "text/html; charset=utf-16le");
    expect(await json.json()).toMatchObject({ bailout: "unsupported-charset", fallback: "empty", text: "", markdown: "", content: "", html: null });
  });

  it("a fetched page over the size limit: html streams it through, json and text are empty", async () => {
    const url = encodeURIComponent(`${ORIGIN}/guards/oversize?bytes=300000`);
    const vars = { MAX_BODY_BYTES: "100000" };
    const text = await call(`/v1/clean?format=text&url=${url}`, {}, vars);
    expectBailout(text, "too-large", "empty");
    expect(await text.text()).toBe("");
    const json = await call(`/v1/clean?format=json&url=${url}`, {}, vars);
    expect(await json.json()).toMatchObject({ bailout: "too-large", fallback: "empty", html: null, content: "" });
    const html = await call(`/v1/clean?format=html&url=${url}`, {}, vars);
    expectBailout(html, "too-large", "page");
    expect((await html.text()).length).toBeGreaterThanOrEqual(300000);
  });
});
