/**
 * The demo page's HTML: a form (sample, URL or pasted HTML), and two sandboxed frames side by side: the
 * original page with the removed blocks outlined (format=annotated) and the cleaned page (format=json,
 * whose mode and timings make the status line). Plain HTML and a little inline script, no framework.
 * The frames get their pages through `srcdoc` with scripts disabled, so a page shown here runs nothing.
 */

export interface DemoSample {
  readonly title: string;
  readonly url: string;
}

export interface DemoPageOptions {
  readonly samples: readonly DemoSample[];
  /** The API key the form starts with (the local default's documented dev key), or "". */
  readonly apiKey: string;
  /** The nonce of this response's Content-Security-Policy, which lets the page's one script run. */
  readonly nonce: string;
}

function escapeHtml(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

const STYLE = `
  :root { color-scheme: light; font-family: system-ui, sans-serif; }
  body { margin: 0; background: #f4f4f6; color: #1d1d22; }
  header { padding: 0.8rem 1.2rem; background: #1d1d22; color: #fff; }
  header h1 { margin: 0; font-size: 1.15rem; }
  header p { margin: 0.2rem 0 0; color: #c8c8d0; font-size: 0.9rem; }
  form { display: grid; grid-template-columns: auto 1fr; gap: 0.5rem 0.8rem; padding: 0.8rem 1.2rem; align-items: center; }
  form textarea { height: 4.5rem; font-family: ui-monospace, monospace; font-size: 0.8rem; }
  form .actions { grid-column: 2; display: flex; gap: 0.8rem; align-items: center; }
  #status { margin: 0 1.2rem 0.6rem; font-size: 0.95rem; min-height: 1.3em; }
  #status.error { color: #b00020; }
  .panes { display: grid; grid-template-columns: 1fr 1fr; gap: 0.8rem; padding: 0 1.2rem 1.2rem; }
  figure { margin: 0; display: flex; flex-direction: column; }
  figcaption { font-size: 0.85rem; padding: 0.3rem 0; }
  .swatch { display: inline-block; width: 0.9em; height: 0.9em; border: 3px solid #ff00ff; vertical-align: middle; }
  iframe { width: 100%; height: 70vh; border: 1px solid #c8c8d0; background: #fff; }
`;

/** The page's script: one function per step; no state beyond the form. */
const SCRIPT = `
const form = document.getElementById("demo-form");
const status = document.getElementById("status");
const originalFrame = document.getElementById("original");
const cleanedFrame = document.getElementById("cleaned");

function withBase(html, url) {
  if (!url) return html;
  const base = '<base href="' + url.replace(/&/g, "&amp;").replace(/"/g, "&quot;") + '">';
  const head = /<head(\\s[^>]*)?>/i.exec(html);
  return head ? html.slice(0, head.index + head[0].length) + base + html.slice(head.index + head[0].length) : base + html;
}

function request(format, source, key) {
  const query = new URLSearchParams({ format });
  const headers = { authorization: "Bearer " + key };
  if (source.url) {
    query.set("url", source.url);
    return fetch("/v1/clean?" + query, { headers });
  }
  if (source.site) query.set("site", source.site);
  return fetch("/v1/clean?" + query, { method: "POST", headers: { ...headers, "content-type": "text/html; charset=utf-8" }, body: source.html });
}

async function errorText(response) {
  const body = await response.text();
  try { return JSON.parse(body).error.message; } catch { return response.status + " " + body.slice(0, 200); }
}

// The Worker's stage timings (workerd's clock moves only across I/O, so they can read 0) and the round trip
// measured here, which includes fetching the page.
function describe(result, roundTrip) {
  const pipeline = Object.values(result.timings || {}).reduce((sum, value) => sum + value, 0);
  const mode = { rules: "site rules", classifier: "the classifier", "rules+classifier": "site rules and the classifier", none: "nothing (no rules, no model)" }[result.mode] || result.mode;
  return "Cleaned by " + mode + (result.site ? " (site " + result.site + ")" : "") + " in " + pipeline.toFixed(1) + " ms (" +
    Math.round(roundTrip) + " ms round trip): " + result.removed.blocks + " blocks and " + result.removed.chars + " characters removed.";
}

async function show(source) {
  const key = form.elements.key.value.trim();
  status.className = "";
  status.textContent = "Cleaning…";
  const started = performance.now();
  const [cleaned, annotated] = await Promise.all([request("json", source, key), request("annotated", source, key)]);
  const bailout = cleaned.headers.get("x-clean-bailout");
  if (bailout) throw new Error("The page was not cleaned (" + bailout + ").");
  if (!cleaned.ok) throw new Error(await errorText(cleaned));
  if (!annotated.ok) throw new Error(await errorText(annotated));
  const result = await cleaned.json();
  const roundTrip = performance.now() - started;
  const url = source.url || result.url || "";
  originalFrame.srcdoc = withBase(await annotated.text(), url);
  cleanedFrame.srcdoc = withBase(result.html, url);
  status.textContent = describe(result, roundTrip);
  status.dataset.mode = result.mode;
}

function sourceFromForm() {
  const sample = form.elements.sample.value;
  if (sample) return { url: new URL(sample, location.href).href };
  const html = form.elements.html.value.trim();
  if (html) return { html, site: form.elements.site.value.trim() };
  const url = form.elements.url.value.trim();
  if (url) return { url };
  return null;
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  const source = sourceFromForm();
  if (source === null) {
    status.className = "error";
    status.textContent = "Pick a sample, or give a URL or some HTML.";
    return;
  }
  show(source).catch((error) => {
    status.className = "error";
    status.textContent = error.message;
  });
});
form.elements.sample.addEventListener("change", () => { if (form.elements.sample.value) form.requestSubmit(); });
`;

export function demoPageHtml(options: DemoPageOptions): string {
  const sampleOptions = options.samples.map((sample) => `<option value="${escapeHtml(sample.url)}">${escapeHtml(sample.title)}</option>`).join("");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>edge-cleaner: see a page cleaned</title>
<style>${STYLE}</style>
</head>
<body>
<header><h1>edge-cleaner</h1><p>Pick a sample page, or give a URL or some HTML: the original is on the left with the removed blocks outlined, the cleaned page on the right.</p></header>
<form id="demo-form">
  <label for="sample">Sample page</label>
  <select id="sample" name="sample"><option value="">(none)</option>${sampleOptions}</select>
  <label for="url">URL</label>
  <input id="url" name="url" type="url" placeholder="https://example.com/some/article.html">
  <label for="html">or HTML</label>
  <textarea id="html" name="html" placeholder="&lt;html&gt;…"></textarea>
  <label for="site">Site of the HTML</label>
  <input id="site" name="site" placeholder="example.com (its rules apply; empty: classifier)">
  <label for="key">API key</label>
  <input id="key" name="key" value="${escapeHtml(options.apiKey)}" autocomplete="off">
  <div class="actions"><button type="submit">Clean</button></div>
</form>
<p id="status" role="status" aria-live="polite"></p>
<section class="panes">
  <figure><figcaption>Original: <span class="swatch"></span> removed blocks outlined</figcaption><iframe id="original" title="Original page, removed blocks outlined" sandbox=""></iframe></figure>
  <figure><figcaption>Cleaned</figcaption><iframe id="cleaned" title="Cleaned page" sandbox=""></iframe></figure>
</section>
<script nonce="${escapeHtml(options.nonce)}">${SCRIPT}</script>
</body>
</html>
`;
}
