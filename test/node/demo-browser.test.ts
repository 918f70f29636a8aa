// The demo page in a real browser: Debian's chromium driven by playwright-core, against the Worker in
// workerd (Miniflare, real local KV) with the sample site served on loopback. Picks a sample, checks that
// the removed blocks are outlined in the original frame, takes a screenshot and looks for the outline colour.
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANNOTATE_REMOVED_ATTRIBUTE } from "../../src/rewrite/annotate";
import { demoSamples } from "../../scripts/demo-samples";
import { freePort } from "../../scripts/lib/free-port";
import { startStaticServer, type StaticServer } from "../../scripts/static-server";
import { CHROMIUM, CHROMIUM_ARGS } from "../support/chromium";
import { bridgeWorker, type WorkerBridge } from "../support/worker-bridge";
import { REPO_ROOT, startWorkerd, type WorkerdHandle } from "../support/workerd";

const SAMPLE_SITE = "wrenmouth-gazette.example";
const SAMPLE_FOLDER = resolve(REPO_ROOT, "samples", SAMPLE_SITE);
const SAMPLE_PAGE = "harbour-dredging-approved.html";
const DEV_KEY = "local-dev-key";
/** Where the screenshots go (out/ is ignored by git). */
const SCREENSHOT = resolve(REPO_ROOT, "out/demo-browser/demo.png");
const PHONE_SCREENSHOT = resolve(REPO_ROOT, "out/demo-browser/demo-390.png");
/** A phone's width in CSS pixels (iPhone 12 to 15): below 700 px the demo's panes stack. */
const PHONE_WIDTH = 390;
/** Fewest dark pixels of a frame that shows a page: a headline and a paragraph at 390 px are many thousands. */
const MIN_TEXT_PIXELS = 2000;
/** The outline colour of removed blocks (ANNOTATE_REMOVED_COLOUR, #ff00ff) as RGB, with the tolerance of anti-aliasing. */
const OUTLINE_RGB = [255, 0, 255] as const;
const COLOUR_TOLERANCE = 40;
/** Fewest outline-coloured pixels expected in the original frame: one 3 px outline round a 100 x 30 px block is ~750. */
const MIN_OUTLINE_PIXELS = 500;

const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`demo browser test skipped: ${CHROMIUM} is absent (apt-get install chromium; .ci/run installs it)`);

/** The one browser global used in a function run in the page (this Node project has no DOM types). */
interface BrowserGlobals {
  getComputedStyle(element: unknown): { readonly outlineColor: string };
}

describe("demo page", () => {
  let samples: StaticServer;
  let worker: WorkerdHandle;
  let front: WorkerBridge;
  let browser: Browser | undefined;

  beforeAll(async () => {
    samples = await startStaticServer(SAMPLE_FOLDER, "127.0.0.1", await freePort());
    const rulesFile = resolve(REPO_ROOT, "rules", `${SAMPLE_SITE}.json`);
    // The sample site is fetched by its loopback address: its rules go under that host too, as `npm start` does.
    const kv: Record<string, string> = existsSync(rulesFile) ? { "127.0.0.1": readFileSync(rulesFile, "utf8"), [SAMPLE_SITE]: readFileSync(rulesFile, "utf8") } : {};
    worker = await startWorkerd({
      vars: { API_KEYS: DEV_KEY, DEMO_API_KEY: DEV_KEY, ALLOW_PRIVATE_TARGETS: "true", DEMO_SAMPLES: JSON.stringify(demoSamples(SAMPLE_FOLDER, samples.url)) },
      kv,
    });
    front = await bridgeWorker(worker);
    if (hasChromium) browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await front?.close();
    await worker?.dispose();
    await samples?.close();
  });

  it("serves the form with sandboxed frames, and the sample list and dev key its script fills it with", async () => {
    const response = await worker.fetch("/");
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(html.match(/<iframe [^>]*sandbox=""/g)).toHaveLength(2);
    const config = (await (await worker.fetch("/demo/config.json")).json()) as { samples: { title: string; url: string }[]; apiKey: string };
    expect(config.samples).toContainEqual({ title: SAMPLE_PAGE, url: `${samples.url}/${SAMPLE_PAGE}` });
    expect(config.apiKey).toBe(DEV_KEY);
  });

  it("gets the original with removed blocks marked from the keyed API (format=annotated)", async () => {
    const query = `/v1/clean?format=annotated&url=${encodeURIComponent(`${samples.url}/${SAMPLE_PAGE}`)}`;
    expect((await worker.fetch(query)).status).toBe(401);
    const response = await worker.fetch(query, { headers: { "x-api-key": DEV_KEY } });
    const html = await response.text();
    const original = readFileSync(resolve(SAMPLE_FOLDER, SAMPLE_PAGE), "utf8");
    expect(response.status).toBe(200);
    expect(response.headers.get("x-clean-mode")).toBe("rules+classifier");
    expect(html).toContain("<style data-clean-annotate>");
    expect(html.split(`${ANNOTATE_REMOVED_ATTRIBUTE}=""`).length - 1).toBeGreaterThan(0);
    // Nothing is taken out: the original's text is all there.
    expect(html.replace(/ data-clean-(removed|partial)=""/g, "").replace(/<style data-clean-annotate>.*?<\/style>/, "")).toBe(original);
  });

  it.skipIf(!hasChromium)("in chromium: shows a sample cleaned beside the original with its removed blocks outlined", async () => {
    if (browser === undefined) throw new Error("chromium was not launched");
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(`${front.url}/`);
    await page.selectOption("#sample", { label: SAMPLE_PAGE });
    // The page's script sets data-mode on the status line once both answers are shown.
    await page.waitForSelector("#status[data-mode]", { timeout: 30_000 });
    const status = (await page.textContent("#status")) ?? "";
    expect(status).toMatch(/^Cleaned by (site rules|the classifier|site rules and the classifier) .* in \d+\.\d ms \(\d+ ms round trip\): \d+ blocks and \d+ characters removed\.$/);

    const original = page.frameLocator("#original");
    const cleaned = page.frameLocator("#cleaned");
    const outlined = await original.locator(`[${ANNOTATE_REMOVED_ATTRIBUTE}]`).count();
    expect(outlined).toBeGreaterThan(0);
    // The outlines are drawn: the computed style of a marked block has the magenta outline.
    const outlineColour = await original.locator(`[${ANNOTATE_REMOVED_ATTRIBUTE}]`).first().evaluate((element) => (globalThis as unknown as BrowserGlobals).getComputedStyle(element).outlineColor);
    expect(outlineColour).toBe("rgb(255, 0, 255)");
    await expect(cleaned.locator("h1").first().textContent()).resolves.toContain("dredging");
    expect(await cleaned.locator(`[${ANNOTATE_REMOVED_ATTRIBUTE}]`).count()).toBe(0);
    // The article is in both frames; a removed block's text is in the original only.
    const removedText = ((await original.locator(`[${ANNOTATE_REMOVED_ATTRIBUTE}]`).first().textContent()) ?? "").trim();
    expect(removedText.length).toBeGreaterThan(0);

    mkdirSync(resolve(SCREENSHOT, ".."), { recursive: true });
    await page.screenshot({ path: SCREENSHOT });
    // The outline colour is on screen in the original frame, and not in the cleaned one.
    const originalPixels = await countColouredPixels(browser, await page.locator("#original").screenshot());
    const cleanedPixels = await countColouredPixels(browser, await page.locator("#cleaned").screenshot());
    expect(originalPixels).toBeGreaterThan(MIN_OUTLINE_PIXELS);
    expect(cleanedPixels).toBe(0);
    await page.close();
  });

  it.skipIf(!hasChromium)("in chromium: cleans pasted HTML with the rules of the site named beside it", async () => {
    if (browser === undefined) throw new Error("chromium was not launched");
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(`${front.url}/`);
    await page.fill("#html", readFileSync(resolve(SAMPLE_FOLDER, "library-reopens.html"), "utf8"));
    await page.fill("#site", SAMPLE_SITE);
    await page.click("button[type=submit]");
    await page.waitForSelector("#status[data-mode]", { timeout: 30_000 });
    expect(await page.textContent("#status")).toContain(`Cleaned by site rules and the classifier (site ${SAMPLE_SITE})`);
    expect(await page.frameLocator("#original").locator(`[${ANNOTATE_REMOVED_ATTRIBUTE}]`).count()).toBeGreaterThan(0);
    await page.close();
  });

  it.skipIf(!hasChromium)("in chromium at 390 px: the panes stack below the form, each the page's width, nothing cut off", async () => {
    if (browser === undefined) throw new Error("chromium was not launched");
    const page = await browser.newPage({ viewport: { width: PHONE_WIDTH, height: 844 } });
    await page.goto(`${front.url}/`);
    await page.selectOption("#sample", { label: SAMPLE_PAGE });
    await page.waitForSelector("#status[data-mode]", { timeout: 30_000 });
    // Nothing of the page lies beyond the screen's width (no sideways scrolling), and every control is inside it.
    const scrollWidth = await page.evaluate<number>("document.documentElement.scrollWidth");
    expect(scrollWidth).toBeLessThanOrEqual(PHONE_WIDTH);
    for (const selector of ["#sample", "#url", "#html", "#site", "#key", "button[type=submit]", "#original", "#cleaned"]) {
      const box = await page.locator(selector).boundingBox();
      expect(box, selector).not.toBeNull();
      expect(box!.x, selector).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width, selector).toBeLessThanOrEqual(PHONE_WIDTH);
    }
    // The frames are stacked, one above the other, each nearly the screen's width (not two 171 px columns).
    const original = (await page.locator("#original").boundingBox())!;
    const cleaned = (await page.locator("#cleaned").boundingBox())!;
    expect(original.width).toBeGreaterThan(PHONE_WIDTH * 0.85);
    expect(cleaned.width).toBeGreaterThan(PHONE_WIDTH * 0.85);
    expect(cleaned.y).toBeGreaterThanOrEqual(original.y + original.height);
    // The cleaned article fits its frame: its headline is whole on screen, and nothing in it scrolls sideways.
    const frame = page.frameLocator("#cleaned");
    await expect(frame.locator("h1").first().textContent()).resolves.toContain("dredging");
    const inner = await frame.locator("html").evaluate((element) => ({ scroll: (element as unknown as { scrollWidth: number }).scrollWidth, client: (element as unknown as { clientWidth: number }).clientWidth }));
    expect(inner.scroll).toBeLessThanOrEqual(inner.client);
    mkdirSync(resolve(PHONE_SCREENSHOT, ".."), { recursive: true });
    const png = await page.screenshot({ path: PHONE_SCREENSHOT, fullPage: true });
    expect(png.readUInt32BE(16)).toBe(PHONE_WIDTH); // the PNG's width: the full page is no wider than the screen
    // On screen, scrolled to: the cleaned frame shows its page (dark text on white), not an empty box.
    await page.locator("#cleaned").scrollIntoViewIfNeeded();
    const cleanedShot = await page.locator("#cleaned").screenshot({ path: PHONE_SCREENSHOT.replace(".png", "-cleaned.png") });
    expect(await countDarkPixels(browser, cleanedShot)).toBeGreaterThan(MIN_TEXT_PIXELS);
    await page.close();
  });

  it.skipIf(!hasChromium)("in chromium: a typed URL or pasted HTML wins over the sample picked before", async () => {
    if (browser === undefined) throw new Error("chromium was not launched");
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(`${front.url}/`);
    const cleanedHeadline = async (): Promise<string> => {
      await page.waitForSelector("#status[data-mode]", { timeout: 30_000 });
      return (await page.frameLocator("#cleaned").locator("h1").first().textContent()) ?? "";
    };
    await page.selectOption("#sample", { label: SAMPLE_PAGE });
    expect(await cleanedHeadline()).toContain("dredging");
    await page.fill("#url", `${samples.url}/lifeboat-rescue-kayakers.html`);
    await page.click("button[type=submit]");
    expect(await cleanedHeadline()).toContain("Lifeboat crew rescue");
    await page.fill("#url", "");
    await page.fill("#html", readFileSync(resolve(SAMPLE_FOLDER, "library-reopens.html"), "utf8"));
    await page.click("button[type=submit]");
    expect(await cleanedHeadline()).toContain("library reopens");
    await page.close();
  });

  it.skipIf(!hasChromium)("in chromium: an error clears both panes and says what went wrong", async () => {
    if (browser === undefined) throw new Error("chromium was not launched");
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(`${front.url}/`);
    await page.selectOption("#sample", { label: SAMPLE_PAGE });
    await page.waitForSelector("#status[data-mode]", { timeout: 30_000 });
    // A loopback port where nothing listens: the Worker answers with an error, and the old page must not stay.
    await page.fill("#url", `http://127.0.0.1:${await freePort()}/gone.html`);
    await page.click("button[type=submit]");
    await page.waitForSelector("#status.error", { timeout: 30_000 });
    expect((await page.textContent("#status"))?.length).toBeGreaterThan(0);
    expect(await page.locator("#status[data-mode]").count()).toBe(0);
    for (const frame of ["#original", "#cleaned"]) {
      expect(await page.frameLocator(frame).locator("body").evaluate((body) => (body as unknown as { textContent: string }).textContent.trim())).toBe("");
    }
    await page.close();
  });
});

/**
 * Pixels of the outline colour in a PNG, counted by the browser itself (canvas), so no PNG decoder is needed.
 * The function is given as source text: it runs in the page, where the DOM types of this Node project do not apply.
 */
const COUNT_PIXELS_SOURCE = `async ({ data, rgb, tolerance }) => {
  const image = new Image();
  image.src = "data:image/png;base64," + data;
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = image.width;
  canvas.height = image.height;
  const context = canvas.getContext("2d");
  context.drawImage(image, 0, 0);
  const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
  let matches = 0;
  for (let index = 0; index < pixels.length; index += 4) {
    const distance = Math.abs(pixels[index] - rgb[0]) + Math.abs(pixels[index + 1] - rgb[1]) + Math.abs(pixels[index + 2] - rgb[2]);
    if (distance <= tolerance) matches++;
  }
  return matches;
}`;

async function countColouredPixels(browser: Browser, png: Buffer, rgb: readonly number[] = OUTLINE_RGB, tolerance = COLOUR_TOLERANCE): Promise<number> {
  const page = await browser.newPage();
  const argument = JSON.stringify({ data: png.toString("base64"), rgb, tolerance });
  const count = await page.evaluate<number>(`(${COUNT_PIXELS_SOURCE})(${argument})`);
  await page.close();
  return count;
}

/** Pixels near black (text) in a PNG. */
function countDarkPixels(browser: Browser, png: Buffer): Promise<number> {
  return countColouredPixels(browser, png, [0, 0, 0], 200);
}
