/**
 * The HTMLRewriter contract: the same cases run against both backends (test/node/runtime-contract.test.ts
 * with html-rewriter-wasm, test/worker/rewrite-contract.test.ts with workerd's HTMLRewriter), each fed whole
 * and at random, seeded chunk sizes. Set REWRITE_SEED to replay a failing run.
 */
import type { HtmlRewriterBackend, RewriteOutcome, SelectorHandler } from "../../src/runtime/index";

export interface ContractCase {
  readonly name: string;
  readonly html: string;
  /** Fresh handlers for one run, and a function reading what they collected after it. */
  readonly setup: () => { handlers: SelectorHandler[]; collected: () => unknown };
  readonly expected: { readonly html?: string; readonly ok?: boolean; readonly calls?: number; readonly collected?: unknown };
}

const MARK = "[data-clean-remove]";

function removeMarked(): ReturnType<ContractCase["setup"]> {
  return { handlers: [{ selector: MARK, element: (element) => element.remove() }], collected: () => null };
}

/** Where lol-html ends a removed element, on malformed input (observed identical on both backends). */
const REMOVAL_EXTENTS: readonly [string, string][] = [
  ["<div><p data-clean-remove>a<p>b</div>c", "<div>c"],
  ["<ul><li data-clean-remove>a<li>b</ul>after", "<ul>after"],
  ["<ul><li>a</li><li data-clean-remove>b</li></ul>", "<ul><li>a</li></ul>"],
  ["<div data-clean-remove>a<div>b</div>c", ""],
  ["<div data-clean-remove>a</span>b</div>c", "c"],
  ["<table><tr><td data-clean-remove>a<td>b</tr></table>c", "<table><tr></table>c"],
  ["<p data-clean-remove>a<div>b</div>c</p>d", "d"],
  ["<b><div data-clean-remove>x</b>y</div>z", "<b>y</div>z"],
  ["<div data-clean-remove>a<br>b<img src=x>c</div>d", "d"],
  ["<div data-clean-remove>a<script>x</div>y</script>b</div>c", "c"],
  ["<div data-clean-remove>a<textarea></div></textarea>b</div>c", "c"],
  ["<div data-clean-remove>a<!-- </div> -->b</div>c", "c"],
  ["<div data-clean-remove>a<!--></div>b</div>c", "b</div>c"],
  ["<div data-clean-remove/>a</div>b", "b"],
  ["<svg><g data-clean-remove/>a</svg>b", "<svg>a</svg>b"],
  ["<div data-clean-remove><svg><style>a</div></style></svg>b</div>c", "</style></svg>b</div>c"],
  ["<div data-clean-remove><script><!--<script></div></script>b</div>--></script>c</div>d", "d"],
  ["<div data-clean-remove id=\"</div>\">c</div>d", "d"],
  ["<DiV data-clean-remove>a</dIv>b", "b"],
  ["<p><span data-clean-remove>x<p>y</span>z</p>w", "<p>z</p>w"],
];

export const CONTRACT_CASES: readonly ContractCase[] = [
  ...REMOVAL_EXTENTS.map(([html, output]): ContractCase => ({
    name: `removal extent of ${html}`,
    html,
    setup: removeMarked,
    expected: { html: output, ok: true, calls: 1 },
  })),
  {
    name: "no handlers: output equals input, non-ASCII and a windows-1252 meta included",
    html: "<!doctype html><html><head><meta charset=\"windows-1252\"><title>é</title></head><body><p>naïve € 😀 日本語</p></body></html>",
    setup: () => ({ handlers: [], collected: () => null }),
    expected: { html: "<!doctype html><html><head><meta charset=\"windows-1252\"><title>é</title></head><body><p>naïve € 😀 日本語</p></body></html>", ok: true, calls: 0 },
  },
  {
    name: "one call per matched element, nested marked elements included",
    html: "<div data-clean-remove><p data-clean-remove>x</p></div><p data-clean-remove>y</p><p>z</p>",
    setup: removeMarked,
    expected: { html: "<p>z</p>", ok: true, calls: 3 },
  },
  {
    name: "an element replaced by text (what pass 2 does to removed blocks)",
    html: "<div><p data-clean-remove>a<b>x</b></p>b<ul><li data-clean-remove>c<li>d</ul></div>",
    setup: () => ({ handlers: [{ selector: "p[data-clean-remove],li[data-clean-remove]", element: (element) => element.replace(" ") }], collected: () => null }),
    expected: { html: "<div> b<ul> </div>", ok: true, calls: 2 },
  },
  {
    name: "text chunks joined per text node",
    html: "<p>Hello <b>wörld</b> &amp; all</p><p>2nd</p><script>var x = '<p>';</script>",
    setup: () => {
      const nodes: string[] = [];
      let current = "";
      const text = (chunk: { text: string; lastInTextNode: boolean }) => {
        current += chunk.text;
        if (chunk.lastInTextNode) {
          nodes.push(current);
          current = "";
        }
      };
      return { handlers: [{ selector: "p", text }], collected: () => nodes };
    },
    expected: { ok: true, collected: ["Hello ", "wörld", " &amp; all", "2nd"] },
  },
  {
    name: "attributes read and written",
    html: "<a href=\"/x\" class=\"c\">link</a><img src=\"i.png\">",
    setup: () => {
      const seen: (string | null)[] = [];
      return {
        handlers: [
          { selector: "a", element: (element) => { seen.push(element.getAttribute("href")); element.setAttribute("href", "/y"); element.removeAttribute("class"); } },
          { selector: "img", element: (element) => { seen.push(element.tagName); } },
        ],
        collected: () => seen,
      };
    },
    expected: { html: "<a href=\"/y\">link</a><img src=\"i.png\">", ok: true, collected: ["/x", "img"] },
  },
  {
    name: "text chunks removed and replaced",
    html: "<p>keep</p><p class=\"x\">drop</p><p class=\"y\">old</p>",
    setup: () => ({
      handlers: [
        { selector: "p.x", text: (chunk) => chunk.remove() },
        { selector: "p.y", text: (chunk) => { if (chunk.lastInTextNode) chunk.replace("new"); else chunk.remove(); } },
      ],
      collected: () => null,
    }),
    expected: { ok: true, html: "<p>keep</p><p class=\"x\"></p><p class=\"y\">new</p>" },
  },
  {
    name: "a throwing handler gives a handler-error outcome, not an exception",
    html: "<p>a</p><p>b</p>",
    setup: () => ({ handlers: [{ selector: "p", element: () => { throw new Error("boom"); } }], collected: () => null }),
    expected: { ok: false },
  },
];

export { seededRandom } from "../../scripts/lib/seeded-random";

/** Splits the UTF-8 bytes of `html` into chunks of random sizes (1 to maxSize bytes; multi-byte characters may be cut). */
export function randomChunks(html: string, random: () => number, maxSize: number): Uint8Array[] {
  const bytes = new TextEncoder().encode(html);
  const chunks: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.length;) {
    const size = 1 + Math.floor(random() * maxSize);
    chunks.push(bytes.slice(offset, offset + size));
    offset += size;
  }
  return chunks;
}

/** Seed from the environment value if given (to replay), else a fresh one; printed by the caller. */
export function chooseSeed(fromEnvironment: string | undefined): number {
  const parsed = fromEnvironment === undefined ? Number.NaN : Number(fromEnvironment);
  return Number.isFinite(parsed) ? parsed >>> 0 : Math.floor(Math.random() * 2 ** 32);
}

export interface CaseRun {
  readonly outcome: RewriteOutcome;
  readonly collected: unknown;
  readonly chunking: string;
}

/** Runs a case whole, then `rounds` times at random chunk sizes (small and large). */
export async function runCase(backend: HtmlRewriterBackend, testCase: ContractCase, random: () => number, rounds: number): Promise<CaseRun[]> {
  const runs: CaseRun[] = [];
  for (let round = 0; round <= rounds; round++) {
    const maxSize = round % 2 === 0 ? 4 : 64;
    const input = round === 0 ? testCase.html : randomChunks(testCase.html, random, maxSize);
    const { handlers, collected } = testCase.setup();
    const outcome = await backend.rewrite(input, handlers);
    runs.push({ outcome, collected: collected(), chunking: round === 0 ? "whole" : `${(input as Uint8Array[]).length} chunks` });
  }
  return runs;
}
