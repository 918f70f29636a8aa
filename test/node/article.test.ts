/**
 * The article fragment (format=article): hostile markup comes out inert, structure and URLs as a reader
 * needs them; and on every page of ../shared/data, read back with an independent parser (linkedom), it holds
 * only allow-listed elements and attributes, no script, style, iframe or on* attribute, and no relative URL.
 */
import { HTMLRewriter } from "html-rewriter-wasm";
import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { clean } from "../../src/clean";
import { DATA_SETS, hasData, loadDataset } from "../../src/evaluation/index";
import { analysePage } from "../../src/page/index";
import { emptyPlan, normalisePlan } from "../../src/plan/index";
import { AS_DIV, ELEMENT_ATTRIBUTES, GLOBAL_ATTRIBUTES, KEPT_ELEMENTS } from "../../src/rewrite/article-writer";
import { writeArticle, type ArticleOptions } from "../../src/rewrite/index";
import { createWasmBackend } from "../../src/runtime/index";
import { everyDevPage } from "../support/dev-data";

const BASE = "https://news.example/section/story.html";


function article(html: string, options: ArticleOptions = { baseUrl: BASE }): string {
  const page = analysePage(html);
  return writeArticle(page, emptyPlan(page), options);
}

/** What an independent parser finds wrong in a fragment: elements, attributes and URLs outside the allow-list. */
function problems(fragment: string, requireAbsolute = true): string[] {
  const { document } = parseHTML(`<!doctype html><html><body>${fragment}</body></html>`);
  const found: string[] = [];
  for (const element of document.body.querySelectorAll("*")) {
    const name = element.localName;
    if (!KEPT_ELEMENTS.has(name) && name !== "header" && !AS_DIV.has(name)) found.push(`element <${name}>`);
    const allowed = new Set([...GLOBAL_ATTRIBUTES, ...(ELEMENT_ATTRIBUTES[name] ?? [])]);
    for (const attribute of Array.from(element.attributes) as { name: string; value: string }[]) {
      if (!allowed.has(attribute.name)) found.push(`attribute ${attribute.name} on <${name}>`);
      if (/^on/i.test(attribute.name)) found.push(`handler ${attribute.name}`);
      const urls = attribute.name === "srcset" ? attribute.value.split(",").map((candidate) => candidate.trim().split(/\s+/)[0]) :
        attribute.name === "href" || attribute.name === "src" || attribute.name === "cite" ? [attribute.value] : [];
      for (const url of urls) {
        const ok = /^(?:https?:\/\/|mailto:|tel:)/i.test(url) || (name === "img" && /^data:image\/(?:png|jpeg|jpg|gif|webp|avif|bmp);base64,/i.test(url));
        if (requireAbsolute ? !ok : /^\s*[a-z][\w+.-]*:/i.test(url) && !ok) found.push(`url ${attribute.name}=${url.slice(0, 80)}`);
      }
    }
  }
  return found;
}

describe("writeArticle: hostile markup", () => {
  it("drops scripts, styles, frames, objects, forms' controls and event handlers, keeping the text around them", () => {
    const html = `<body onload="x()"><p onclick="steal()" style="color:red" class="lead" id="p1">Hello <b onmouseover=x>world</b></p>
      <script>alert(1)</script><style>p{}</style><iframe src="https://evil.example/"></iframe><object data=x>fallback</object>
      <embed src=x><noscript><img src=n.png></noscript><form action="/post"><input value="v"><button>Go</button><select><option>o</select>form text</form>
      <template><p>inert</p></template><video src=v.mp4>no video</video><p>end</p>`;
    const fragment = article(html);
    expect(fragment).toBe(`<p>Hello <b>world</b></p><div>form text</div><p>end</p>`);
    expect(problems(fragment)).toEqual([]);
  });

  it("refuses javascript:, vbscript: and data: URLs however they are spelled, and keeps raster data images", () => {
    const html = `<p><a href="javascript:alert(1)">a</a> <a href="  JaVaScRiPt:alert(1)">b</a> <a href="jav&#x09;ascript:alert(1)">c</a>
      <a href="&#106;&#97;vascript:alert(1)">d</a> <a href="java&NewLine;script:alert(1)">e</a> <a href="vbscript:msgbox">f</a>
      <a href="data:text/html;base64,PHNjcmlwdD4=">g</a> <a href="\u0001javascript:alert(1)">h</a> <a href="mailto:a@b.example">mail</a>
      <img src="data:image/svg+xml;base64,PHN2Zz4=" alt="svg"> <img src="data:image/png;base64,iVBORw0KGgo=" alt="png">
      <img src="javascript:alert(1)"> <img src=x onerror=alert(1)></p>`;
    const fragment = article(html);
    expect(fragment).not.toMatch(/script:|data:text|svg\+xml|onerror/i);
    expect(fragment).toContain(`<a href="mailto:a@b.example">mail</a>`);
    expect(fragment).toContain(`<img src="data:image/png;base64,iVBORw0KGgo=" alt="png">`);
    expect(fragment).toContain(`<img src="https://news.example/section/x">`);
    expect(fragment).toMatch(/^<p>a b c d e f g h <a/);
    expect(problems(fragment)).toEqual([]);
  });

  it("quotes attribute values so that nothing breaks out of them, and escapes text", () => {
    const html = `<p title='x" onmouseover="alert(1)'>one &lt;script&gt;alert(1)&lt;/script&gt; &amp;amp; <img alt="&quot;><script>alert(1)</script>" src="a.png"></p>
      <p title="&#34;&#62;&#60;script&#62;">two</p><p>&lt;img src=x onerror=alert(1)&gt;</p>`;
    const fragment = article(html);
    expect(fragment).toContain(`<p title="x&#34; onmouseover=&#34;alert(1)">one &lt;script&gt;alert(1)&lt;/script&gt; &amp;amp; <img src="https://news.example/section/a.png" alt="&#34;&#62;&#60;script&#62;alert(1)&#60;/script&#62;"></p>`);
    expect(fragment).toContain(`<p title="&#34;&#62;&#60;script&#62;">two</p>`);
    expect(fragment).toContain(`<p>&lt;img src=x onerror=alert(1)&gt;</p>`);
    expect(problems(fragment)).toEqual([]);
  });

  it("drops svg and math with their content, scripts inside them included, and keeps text after a breakout", () => {
    const html = `<p>before</p><svg onload="alert(1)"><script>alert(1)</script><a href="javascript:alert(1)"><text>svg text</text></a>
      <foreignObject><p>fo</p></foreignObject></svg><math><mi>x</mi><annotation-xml encoding="text/html"><img src=x onerror=1></annotation-xml></math>
      <p>after</p><svg><desc>d</desc><p>breakout text</p>`;
    const fragment = article(html);
    expect(fragment).not.toMatch(/svg text|alert|onerror|<svg|<math/);
    expect(fragment).toMatch(/^<p>before<\/p>/);
    expect(fragment).toContain("<p>after</p>");
    expect(fragment).toContain("breakout text");
    expect(problems(fragment)).toEqual([]);
  });

  it("keeps the output well formed on broken markup: stray and missing end tags, unclosed quotes and comments", () => {
    const html = `<div><p>one<p>two<li>loose item</div></span></b><ul><li>a<li>b</ul><table><tr><td>1<td>2<tr><td>3</table>
      <p><b><i>unclosed<p>next</p><!-- a comment <script>alert(1)</script> --><p title="unclosed>still text</p><p>last`;
    const fragment = article(html);
    expect(fragment).toContain("<ul><li>a</li><li>b</li></ul>");
    expect(fragment).toContain("<table><tr><td>1</td><td>2</td></tr><tr><td>3</td></tr></table>");
    expect(fragment).not.toContain("alert");
    const { document } = parseHTML(`<!doctype html><html><body>${fragment}</body></html>`);
    // Re-parsed, the fragment has every element it wrote: none swallowed by an unbalanced tag.
    expect(document.body.querySelectorAll("p").length).toBe((fragment.match(/<p[ >]/g) ?? []).length);
    expect(problems(fragment)).toEqual([]);
  });

  it("resolves URLs against the page and its <base>, srcset candidates and lazy images included", () => {
    const html = `<head><base href="/assets/"></head><body><p><a href="../story2.html">s</a> <a href="#note">n</a>
      <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" data-src="lazy.jpg" srcset="a.jpg 1x, b.jpg 2x" alt="lazy">
      <img src="pixel.gif" width="1" height="1"><q cite="/q">q</q></p></body>`;
    const fragment = article(html);
    expect(fragment).toContain(`<a href="https://news.example/story2.html">s</a>`);
    expect(fragment).toContain(`<a href="https://news.example/assets/#note">n</a>`);
    expect(fragment).toContain(`<img src="https://news.example/assets/lazy.jpg" srcset="https://news.example/assets/a.jpg 1x, https://news.example/assets/b.jpg 2x" alt="lazy">`);
    expect(fragment).not.toContain("pixel.gif");
    expect(fragment).toContain(`<q cite="https://news.example/q">q</q>`);
    expect(problems(fragment)).toEqual([]);
    // Without the page's URL, relative references stay as written, but none can carry a scheme.
    const unknown = article(`<p><a href="rel.html">r</a> <a href="java\nscript:x">j</a> <a href="x:y">s</a></p>`, {});
    expect(unknown).toBe(`<p><a href="rel.html">r</a> j s</p>`);
  });

  it("keeps headings, lists, tables, figures with captions, quotes and code; leaves empty elements out", () => {
    const html = `<article><h2>Head</h2><p>Para with <em>em</em>, <code>x&lt;y</code>.</p><p> </p><a href="/e"></a>
      <figure><img src="/i.jpg" alt="i"><figcaption>Cap</figcaption></figure><blockquote cite="https://src.example/"><p>Quote</p></blockquote>
      <ol start="3" reversed><li value="5">five</li></ol><dl><dt>T<dd>D</dl><table><caption>C</caption><thead><tr><th colspan=2 scope=col>H</th></tr></thead>
      <tbody><tr><td rowspan="2">1</td><td></td></tr></tbody></table><pre><code class="hljs language-ts">let a = 1 &lt; 2;
  indented</code></pre></article>`;
    expect(article(html)).toBe(
      `<article><h2>Head</h2><p>Para with <em>em</em>, <code>x&lt;y</code>.</p>` +
      `<figure><img src="https://news.example/i.jpg" alt="i"><figcaption>Cap</figcaption></figure><blockquote cite="https://src.example/"><p>Quote</p></blockquote>` +
      `<ol start="3" reversed><li value="5">five</li></ol><dl><dt>T</dt><dd>D</dd></dl><table><caption>C</caption><thead><tr><th colspan="2" scope="col">H</th></tr></thead>` +
      `<tbody><tr><td rowspan="2">1</td><td></td></tr></tbody></table><pre><code class="language-ts">let a = 1 &lt; 2;\n  indented</code></pre></article>`,
    );
  });

  it("writes the optional header, and leaves out a leading heading that repeats the title", () => {
    const html = `<html><head><title>Storm closes harbour | Gazette</title><meta name="author" content="A. Writer">
      <meta property="article:published_time" content="2024-03-01T10:00:00Z"></head><body><h1>Storm closes harbour</h1><p>Text.</p><h2>Storm closes harbour</h2></body></html>`;
    const withHeader = article(html, { baseUrl: BASE, header: true });
    expect(withHeader).toMatch(/^<header><h1>Storm closes harbour<\/h1><p><span>A\. Writer<\/span> · <time datetime="2024-03-01T10:00:00Z">/);
    expect(withHeader).toContain("</header><p>Text.</p><h2>Storm closes harbour</h2>");
    expect(article(html, { baseUrl: BASE, omitTitleHeading: true })).toBe("<p>Text.</p><h2>Storm closes harbour</h2>");
    expect(article(html)).toMatch(/^<h1>Storm closes harbour<\/h1>/);
  });

  it("writes only what the plan keeps, removed text cut out", () => {
    const page = analysePage(`<div><nav><a href="/">Home</a></nav><p>Breadcrumb News Kept text.</p></div>`);
    const nav = Array.from(page.blocks.tag).findIndex((_, block) => block > 0 && page.source.startsWith("<nav", page.blocks.sourceStart[block]));
    const removedBlocks = new Uint8Array(page.blockCount);
    removedBlocks[nav] = 1;
    const start = page.text.indexOf("Breadcrumb News ");
    const fragment = writeArticle(page, normalisePlan(page, { removedBlocks, removedText: Int32Array.of(start, start + "Breadcrumb News ".length) }), { baseUrl: BASE });
    expect(fragment).toBe("<div><p>Kept text.</p></div>");
  });
});

const dataPresent = hasData();

describe.runIf(everyDevPage(dataPresent, "article.test.ts"))("format=article on every page of ../shared/data", () => {
  const backend = createWasmBackend(HTMLRewriter);
  for (const set of DATA_SETS) {
    it(`set ${set}: only allow-listed markup, no active content, no relative URL`, async () => {
      const { pages } = loadDataset(set);
      const failures: string[] = [];
      let images = 0;
      for (const page of pages) {
        // Pages whose index gives no URL are read as if at a stand-in address: the Worker always knows the page's URL.
        const url = page.url === "" ? `https://unknown.example/${page.id}` : page.url;
        // The whole page (nothing removed) is the hardest case: every script, form and frame of the page is there.
        const result = await clean({ html: page.html, url, site: "", format: "article", ruleSet: null, model: null, rewriter: backend, options: { mode: "none" } });
        if (!result.ok) {
          failures.push(`${page.id}: bailout ${result.bailout}`);
          continue;
        }
        // Text is escaped ("<" as "&lt;"), so these look only at tags (a page's script shown as text, say, holds "onclick=").
        if (/<(?:script|style|iframe)\b|<[a-z][^>]*\son[a-z]+\s*=/i.test(result.body)) failures.push(`${page.id}: active content by regex`);
        const found = problems(result.body);
        if (found.length > 0) failures.push(`${page.id}: ${found.slice(0, 3).join("; ")}`);
        images += (result.body.match(/<img /g) ?? []).length;
      }
      expect(failures, failures.slice(0, 10).join("\n")).toEqual([]);
      expect(images).toBeGreaterThan(0);
    });
  }
});
