/**
 * clean() on a large page gives the isolate back between slices of its long walks (src/slices.ts): pass 1's scan
 * in slices of CLEAN_SLICE_CHARACTERS, the writers' replay of its walk in slices of CLEAN_SLICE_EVENTS. A slice
 * may end anywhere, so a scan in slices must report exactly the events of one scan; and the pauses must happen
 * (counted as turns the event loop gives a timer while one page is cleaned, never timed).
 */
import { HTMLRewriter } from "html-rewriter-wasm";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FAMILIES } from "../../scripts/lib/hostile-pages";
import { parseModel } from "../../src/classify/index";
import { clean, type CleanFormat } from "../../src/clean";
import { CLEAN_SLICE_CHARACTERS, CLEAN_SLICE_EVENTS, CLEAN_YIELD_MIN_BLOCKS } from "../../src/config";
import { DATA_SETS, hasData, loadDataset } from "../../src/evaluation/index";
import { analysePage, HtmlScan, scanHtml, walkPage, walkPageSlices, type ScanHandler } from "../../src/page/index";
import { createWasmBackend } from "../../src/runtime/index";
import { devDataPresent } from "../support/dev-data";
import { seededRandom } from "../../scripts/lib/seeded-random";

const parsedModel = parseModel(JSON.parse(readFileSync(join(import.meta.dirname, "../../rules/model.json"), "utf8")));
if (!parsedModel.ok) throw new Error(parsedModel.problems.join("; "));
const model = parsedModel.model;
const rewriter = createWasmBackend(HTMLRewriter);

/** Every event a scan reports, as one string each. */
class EventRecorder implements ScanHandler {
  readonly events: string[] = [];

  startTag(name: string, tagStart: number, nameEnd: number, tagEnd: number, selfClosing: boolean, foreign: boolean, namespace: number): void {
    this.events.push(`<${name} ${tagStart} ${nameEnd} ${tagEnd} ${selfClosing} ${foreign} ${namespace}`);
  }

  endTag(name: string, tagStart: number, tagEnd: number): void {
    this.events.push(`</${name} ${tagStart} ${tagEnd}`);
  }

  text(start: number, end: number, kind: number): void {
    this.events.push(`text ${start} ${end} ${kind}`);
  }
}

/** The events of one scan of `html`. */
function scanned(html: string): string[] {
  const recorder = new EventRecorder();
  scanHtml(html, recorder);
  return recorder.events;
}

/** The events of a scan of `html` stopped and resumed at random offsets (slices of 1 to `longest` characters). */
function scannedInSlices(html: string, random: () => number, longest: number): { events: string[]; slices: number } {
  const recorder = new EventRecorder();
  const scan = new HtmlScan(html, recorder);
  let slices = 1;
  for (let offset = 1 + Math.floor(random() * longest); !scan.continueTo(offset); offset += 1 + Math.floor(random() * longest)) slices++;
  expect(scan.continueTo(html.length)).toBe(true); // done stays done, nothing reported twice
  return { events: recorder.events, slices };
}

/** Markup where a slice could end inside a construct: raw text, comments, svg with CDATA, an unfinished tag, text with "<". */
const TRICKY = [
  `<p>a < b <script>if (a<b) {"</p>"}</script><style>p>a{}</style><!-- <p> --><!--><textarea><b></textarea>`,
  `<svg><![CDATA[<x>]]><foreignObject><p>in</foreignObject><rect/></svg><math><mi><b>x</b></mi></math>`,
  `<title>open <b>title <p>and more`, `text <a href="x>y">link</a> </ div> <? pi ?> <!doctype html> <plaintext><p>`,
  `<div class="a`, "<<<<a<<</", ...Object.values(FAMILIES).map((family) => family(500)),
];

describe("a scan in slices reports exactly the events of one scan", () => {
  const seed = Number(process.env.SLICES_SEED ?? Date.now() % 100_000);

  it(`on tricky markup and the hostile families, every slice length from 1 character (seed ${seed}; SLICES_SEED replays it)`, () => {
    const random = seededRandom(seed);
    for (const html of TRICKY) {
      const whole = scanned(html);
      for (const longest of [1, 3, 17, 200]) expect(scannedInSlices(html, random, longest).events, html.slice(0, 60)).toEqual(whole);
    }
  });

  it.skipIf(!devDataPresent(hasData(), "../shared/data", process.env.REQUIRE_DEV_DATA === "1", "slices.test.ts"))(
    `on every 25th dev page of each set, in slices of up to 4,000 characters (seed ${seed})`,
    () => {
      const random = seededRandom(seed);
      let pages = 0;
      for (const set of DATA_SETS) {
        loadDataset(set).pages.forEach((page, index) => {
          if (index % 25 !== 0) return;
          const sliced = scannedInSlices(page.html, random, 4_000);
          expect(sliced.slices).toBeGreaterThan(page.html.length / 4_000);
          expect(sliced.events, `${set} ${page.id}`).toEqual(scanned(page.html));
          pages++;
        });
      }
      expect(pages).toBeGreaterThan(50);
    },
  );

  it("the writers' replay of pass 1's walk in slices is the scan's walk", () => {
    const html = FAMILIES.links(20_000);
    const page = analysePage(html, { scanLog: true });
    const recorder = new EventRecorder();
    let slices = 1;
    for (const _ of walkPageSlices(page, recorder)) slices++;
    expect(recorder.events).toEqual(scanned(html));
    expect(slices).toBe(Math.ceil(recorder.events.length / CLEAN_SLICE_EVENTS));
  });

  it("a recorded walk that outgrows the size it was made for, beside the metadata collector, replays as the scan walked", () => {
    // Three events in eight characters: several times the events a page of that length is first given room for.
    const html = `<p>${"<i>a</i>".repeat(5_000)}</p><title>t</title>`;
    const page = analysePage(html, { scanLog: true, metadata: true });
    const recorder = new EventRecorder();
    walkPage(page, recorder);
    expect(recorder.events).toEqual(scanned(html));
    expect(recorder.events.length).toBeGreaterThan(html.length / 4);
    expect(page.metadataFacts?.title).toBe("t");
  });
});

/** Turns a timer gets while `run` runs: a timer that sets itself again each time it fires. */
async function timerTurnsDuring(run: () => Promise<unknown>): Promise<number> {
  let turns = 0;
  let running = true;
  const tick = (): void => {
    if (!running) return;
    turns++;
    setTimeout(tick, 0);
  };
  setTimeout(tick, 0);
  await run();
  running = false;
  return turns;
}

async function cleanOk(html: string, format: CleanFormat): Promise<string> {
  const result = await clean({ html, site: "", format, ruleSet: null, model, rewriter });
  if (!result.ok) throw new Error(`bailout ${result.bailout}: ${result.detail}`);
  return result.body;
}

describe("clean() gives the event loop a turn between slices of a large page", () => {
  const links = FAMILIES.links(200_000);
  // The scan's slices, and the writer's replay of its (200,000 links: start tag, text, end tag each) events.
  const scanSlices = Math.ceil(links.length / CLEAN_SLICE_CHARACTERS);
  const walkSlices = Math.ceil((3 * 200_000) / CLEAN_SLICE_EVENTS);

  it.each([["article", 1], ["json", 2]] as const)("the 200,000-link page as %s: a turn per slice of the scan and of each writer's walk", async (format, walks) => {
    const turns = await timerTurnsDuring(() => cleanOk(links, format));
    // Before: a turn between stages only (3 for article, 5 for json).
    expect(turns).toBeGreaterThanOrEqual(scanSlices - 1 + walks * (walkSlices - 1));
  });

  it("a small page of many blocks pauses between the classifier's stages; an ordinary page runs at once", async () => {
    const lists = FAMILIES.unclosedLists(CLEAN_YIELD_MIN_BLOCKS);
    expect(analysePage(lists).blockCount).toBeGreaterThanOrEqual(CLEAN_YIELD_MIN_BLOCKS);
    // Before: none (the page is under CLEAN_YIELD_MIN_BYTES).
    expect(await timerTurnsDuring(() => cleanOk(lists, "text"))).toBeGreaterThanOrEqual(4);
    expect(await timerTurnsDuring(() => cleanOk(FAMILIES.unclosedLists(100), "json"))).toBe(0);
  });
});
