// The demo page's script (public/index.html, README "Demo page"): it calls the keyed /v1/clean API, so the page
// shows exactly what a client of the API gets. One function per step; no state beyond the form.
const form = document.getElementById("demo-form");
const status = document.getElementById("status");
const originalFrame = document.getElementById("original");
const cleanedFrame = document.getElementById("cleaned");

function withBase(html, url) {
  if (!url) return html;
  const base = '<base href="' + url.replace(/&/g, "&amp;").replace(/"/g, "&quot;") + '">';
  const head = /<head(\s[^>]*)?>/i.exec(html);
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

// After an error the panes are emptied, so that they never show an earlier page under a new request's message.
function clearPanes() {
  originalFrame.removeAttribute("srcdoc");
  cleanedFrame.removeAttribute("srcdoc");
  delete status.dataset.mode;
}

async function show(source) {
  const key = form.elements.key.value.trim();
  status.className = "";
  status.textContent = "Cleaning…";
  delete status.dataset.mode;
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

// What the reader typed or pasted wins over the sample list, which is a shortcut to start with.
function sourceFromForm() {
  const html = form.elements.html.value.trim();
  if (html) return { html, site: form.elements.site.value.trim() };
  const url = form.elements.url.value.trim();
  if (url) return { url };
  const sample = form.elements.sample.value;
  if (sample) return { url: new URL(sample, location.href).href };
  return null;
}

// The sample pages and the key the form starts with are the deployment's vars (DEMO_SAMPLES, DEMO_API_KEY),
// served by the Worker beside this static file.
async function loadConfig() {
  const response = await fetch("/demo/config.json");
  if (!response.ok) return;
  const config = await response.json();
  for (const sample of config.samples) form.elements.sample.add(new Option(sample.title, sample.url));
  if (!form.elements.key.value) form.elements.key.value = config.apiKey;
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  const source = sourceFromForm();
  if (source === null) {
    clearPanes();
    status.className = "error";
    status.textContent = "Pick a sample, or give a URL or some HTML.";
    return;
  }
  show(source).catch((error) => {
    clearPanes();
    status.className = "error";
    status.textContent = error.message;
  });
});
// Picking a sample is a choice of its own: it clears the typed URL and HTML, and cleans the sample at once.
form.elements.sample.addEventListener("change", () => {
  if (!form.elements.sample.value) return;
  form.elements.url.value = "";
  form.elements.html.value = "";
  form.requestSubmit();
});
loadConfig().catch(() => {});
