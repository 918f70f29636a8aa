/**
 * npm run bench:hostile: the cost of clean() on the hostile page families in Node, in milliseconds per 100 KB of
 * page, per output format, with the stages that take it, and the counted work (units of src/work-meter.ts).
 * The families are those of test/node/scaling.test.ts at the size of the hostile load scenario's page or of the
 * audit (scripts/lib/hostile-pages.ts); each page is cleaned with the shipped model and no site rules, as a
 * posted page is, and timed on the process's CPU time (which other processes on a loaded machine move less than the
 * wall clock) as the least of RUNS runs. Beside it, the longest stretch the event loop had no turn
 * while the page was cleaned (a timer set again each time it fires): what a request arriving meanwhile on the same
 * isolate waits at most, here in Node. Figures, not a pass or fail: the tests count work.
 * With --warm N, each page and format is cleaned N times more after those runs and the least of `runs` further runs
 * is printed beside ("warm"): the first runs of a page pay for the optimising compiler (its threads count in the
 * process's CPU time), whose code for the feature writers is thrown away while the page model's shapes still vary.
 *
 *   npm run bench:hostile -- [--runs 3] [--warm 0] [--family links|unclosedLists|...]
 */
import { readFileSync } from "node:fs";
import { choiceOption, integerOption, parseCommand, runCommand, usageText, type Command } from "./lib/cli";
import { FAMILIES } from "./lib/hostile-pages";
import { SHIPPED_MODEL } from "./lib/paths";

const COMMAND: Command = {
  name: "bench:hostile",
  usage: usageText("bench-hostile"),
};

/** Each family at the size it is reported at: the load scenario's 4 MB links page, the audit's 10,000 unclosed lists. */
const SIZES: Readonly<Record<keyof typeof FAMILIES, number>> = {
  links: 200_000,
  unclosedLists: 10_000,
  repeatedBody: 100_000,
  feedItemLessThan: 200_000,
  feedItemComments: 50_000,
  flatListItems: 6_000,
};
const FAMILY_NAMES = Object.keys(SIZES) as (keyof typeof FAMILIES)[];
const FORMATS = ["text", "markdown", "article", "json", "html"] as const;
const STAGES = ["analyse", "rules", "classify", "smooth", "decide", "rewrite", "format"] as const;

const { values } = parseCommand(COMMAND, { options: { runs: { type: "string" }, warm: { type: "string" }, family: { type: "string", multiple: true } } });
const runs = integerOption(COMMAND, "runs", values.runs, 3);
const warm = integerOption(COMMAND, "warm", values.warm, 0);
const families = (values.family ?? FAMILY_NAMES).map((name) => choiceOption(COMMAND, "family", name, FAMILY_NAMES));
// Loaded after the arguments are read, so that --help answers at once.
const { HTMLRewriter } = await import("html-rewriter-wasm");
const { parseModel } = await import("../src/classify/index");
const { clean } = await import("../src/clean");
const { createWasmBackend } = await import("../src/runtime/index");

async function main(): Promise<void> {
  const parsed = parseModel(JSON.parse(readFileSync(SHIPPED_MODEL, "utf8")));
  if (!parsed.ok) throw new Error(`rules/model.json: ${parsed.problems.join("; ")}`);
  const rewriter = createWasmBackend(HTMLRewriter);
  console.log(`Node ${process.version}, load average ${loadAverage()}; least of ${runs} runs; ms of CPU per 100 KB of page (stages: wall-clock ms of that run)`);
  for (const family of families) {
    const html = FAMILIES[family](SIZES[family]);
    const hundredKb = new TextEncoder().encode(html).length / 100_000;
    for (const format of FORMATS) {
      let best = Infinity;
      let line = "";
      let longestStretch = 0;
      for (let run = 0; run < runs; run++) {
        const started = cpuMs();
        const { result, stretch } = await withLongestStretch(() => clean({ html, site: "", format, ruleSet: null, model: parsed.model, rewriter }));
        const took = cpuMs() - started;
        longestStretch = Math.max(longestStretch, stretch);
        if (took >= best) continue;
        best = took;
        line = result.ok
          ? `${result.work} units; ${STAGES.map((stage) => `${stage} ${Math.round(result.timings[stage] ?? 0)}`).join(", ")}`
          : `bailout ${result.bailout}: ${result.detail}`;
      }
      const warmed = warm > 0 ? `, warm ${(await warmBest(html, format, parsed.model, rewriter) / hundredKb).toFixed(1)}` : "";
      console.log(
        `${`${family} (${SIZES[family]})`.padEnd(24)} ${format.padEnd(8)} ${(best / hundredKb).toFixed(1).padStart(7)} ms/100 KB${warmed}  ${Math.round(best)} ms of CPU,` +
          ` longest stretch without a turn ${Math.round(longestStretch)} ms; ${line}`,
      );
    }
  }
  console.log(`load average after: ${loadAverage()}`);
}

/** The least CPU time (ms) of `runs` runs after `warm` more, untimed. */
async function warmBest(html: string, format: (typeof FORMATS)[number], model: Parameters<typeof clean>[0]["model"], rewriter: Parameters<typeof clean>[0]["rewriter"]): Promise<number> {
  for (let run = 0; run < warm; run++) await clean({ html, site: "", format, ruleSet: null, model, rewriter });
  let best = Infinity;
  for (let run = 0; run < runs; run++) {
    const started = cpuMs();
    await clean({ html, site: "", format, ruleSet: null, model, rewriter });
    best = Math.min(best, cpuMs() - started);
  }
  return best;
}

/** Runs `work` with a timer that sets itself again each time it fires; the result and the longest gap between its turns, in ms. */
async function withLongestStretch<T>(work: () => Promise<T>): Promise<{ result: T; stretch: number }> {
  let last = performance.now();
  let stretch = 0;
  let running = true;
  const tick = (): void => {
    const time = performance.now();
    stretch = Math.max(stretch, time - last);
    last = time;
    if (running) setTimeout(tick, 0);
  };
  setTimeout(tick, 0);
  const result = await work();
  running = false;
  tick();
  return { result, stretch };
}

/** Milliseconds of CPU time this process has used (user and system). */
function cpuMs(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}

function loadAverage(): string {
  try {
    return readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  } catch {
    return "unknown";
  }
}

await runCommand(COMMAND, main);
