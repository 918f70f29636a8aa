/**
 * A <noscript> that carries the page's main text is content (page/noscript.ts): some forum software serves a thread's
 * every post there and draws the visible page by script. A notice to enable scripts and a tracking pixel stay out.
 */
import { HTMLRewriter } from "html-rewriter-wasm";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseModel } from "../../src/classify/index";
import { clean, type CleanFormat, type RequestedMode } from "../../src/clean";
import { hasData, loadDataset } from "../../src/evaluation/index";
import { createWasmBackend } from "../../src/runtime/index";

const parsedModel = parseModel(JSON.parse(readFileSync(join(import.meta.dirname, "../../rules/model.json"), "utf8")));
if (!parsedModel.ok) throw new Error(parsedModel.problems.join("; "));
const rewriter = createWasmBackend(HTMLRewriter as never);
const POSTS = [
  "I am moving a small service to containers and the resolver inside them points at an address I do not recognise at all. The host's own resolver file names another one, and lookups of the other containers fail.",
  "That address is the embedded DNS server of user-defined networks; the default bridge network has no name resolution. Create a network of your own and attach both containers to it, and their names resolve.",
  "Thank you, a network of my own solved every resolution problem I had, and the compose file is much simpler now. I had not known the default bridge behaves differently from the networks one creates.",
];

const THREAD = `<!doctype html><html><head><title>Confusing resolver structure - Community Forums</title></head><body>
<noscript><img src="https://pixel.example/p.gif" width=1 height=1></noscript>
<div id="app"><p>Loading…</p></div>
<noscript data-path="/t/confusing-resolver/1"><header><a href="/">Community Forums</a></header>
<div id="main-outlet"><h1><a href="/t/confusing-resolver/1">Confusing resolver structure</a></h1>
${POSTS.map((post, i) => `<div class="topic-body crawler-post"><span class="creator">user${i}</span><time datetime="2024-11-0${i + 1}">Nov ${i + 1}</time><div class="post"><p>${post}</p></div></div>`).join("\n")}
</div><footer><a href="/privacy">Privacy</a></footer></noscript></body></html>`;

const ARTICLE = `<!doctype html><html><head><title>Harbour dredging</title></head><body>
<noscript>You need to enable JavaScript to run this app. Please turn it on in your browser's settings and reload.</noscript>
<noscript><img src="https://pixel.example/p.gif" width=1 height=1 alt="tracking pixel"></noscript>
<article><h1>Harbour dredging approved</h1>${POSTS.map((post) => `<p>${post} ${post}</p>`).join("")}</article></body></html>`;

async function output(html: string, format: CleanFormat, mode: RequestedMode = "classifier"): Promise<string> {
  const result = await clean({ html, site: "", format, ruleSet: null, model: parsedModel.ok ? parsedModel.model : null, rewriter, options: { mode } });
  if (!result.ok) throw new Error(`${result.bailout}: ${result.detail}`);
  return result.body;
}

describe("<noscript> content", () => {
  it.each(["text", "markdown", "article", "json"] as const)("is the %s of a thread served in <noscript>", async (format) => {
    const body = await output(THREAD, format);
    // json's text, markdown and content fields (its html field is the page's markup, where the <noscript> stays).
    const shown = format === "json" ? ((document: { text: string; markdown: string; content: string }) => [document.text, document.markdown, document.content].join("\n"))(JSON.parse(body)) : body;
    for (const post of POSTS) expect(shown).toContain(post);
    expect(shown).not.toContain("pixel.example");
  });

  it("stays a <noscript> in the html, which is the page a browser running its scripts gets", async () => {
    const html = await output(THREAD, "html", "none");
    expect(html).toBe(THREAD);
  });

  it("is not a notice to enable scripts, nor a tracking pixel, beside a page that shows its text", async () => {
    for (const format of ["text", "markdown", "article"] as const) {
      const body = await output(ARTICLE, format);
      expect(body).toContain(POSTS[1]);
      expect(body).not.toContain("enable JavaScript");
      expect(body).not.toContain("pixel");
    }
  });

  // Comments included: what is asked here is that the posts are read at all, not whether a thread's posts are comments.
  it.skipIf(!hasData())("holds the posts of a real Discourse thread (forums.docker.com on wceb2026)", async () => {
    const page = loadDataset("wceb2026").pages.find((entry) => entry.id === "0502")!;
    const result = await clean({ html: page.html, url: page.url, site: page.site, format: "text", ruleSet: null, model: parsedModel.ok ? parsedModel.model : null, rewriter, options: { mode: "classifier", textScope: "all", comments: "include" } });
    expect(result.ok && result.body).toContain("I am just getting back in to using Docker after a few retirement years away");
    expect(result.ok && result.body).toContain("Depends on the kind of network you use.");
  });
});
