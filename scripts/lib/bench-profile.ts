/**
 * npm run bench -- --profile <file>: V8's sampling profiler inside workerd while the bench Worker cleans dev pages
 * (every PROFILE_STRIDE-th page, each PROFILE_REPEAT times after one run to warm up), driven through the inspector
 * on loopback. The profile is written to <file> (Chrome DevTools' Performance panel and speedscope open it) and
 * summed up by function: the profile of the code users run, in the runtime they run it in, where a Node profile
 * weighs the same JavaScript differently (its HTMLRewriter is WebAssembly, workerd's is native).
 */
import { writeFileSync } from "node:fs";
import { WebSocket } from "undici";
import type { DatasetPage } from "../../src/evaluation/index";
import { pageKey, sendPages, sendRuleSets, timeInWorker } from "./bench-worker-client";
import { profileReport, type CpuProfile } from "./cpu-profile";
import { startWorkerd } from "./workerd";

/** Every this many dev pages is profiled (433 of 1,734): all held in the Worker at once, a quarter of them. */
const PROFILE_STRIDE = 4;
/** Timed runs per page while the profiler samples. */
const PROFILE_REPEAT = 3;
/** Microseconds between samples (V8's default is 1,000: a 2 ms page would get two). */
const SAMPLING_INTERVAL_US = 100;
/** Functions listed in each table. */
const TOP_FUNCTIONS = 25;

/** One Chrome DevTools Protocol session over the inspector's WebSocket. */
class InspectorSession {
  private next = 0;
  private readonly pending = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();

  private constructor(private readonly socket: WebSocket) {
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
      const waiter = message.id === undefined ? undefined : this.pending.get(message.id);
      if (waiter === undefined) return;
      this.pending.delete(message.id!);
      if (message.error !== undefined) waiter.reject(new Error(`inspector: ${message.error.message}`));
      else waiter.resolve(message.result);
    });
  }

  /** A session with the Worker's isolate: the first target the inspector at `base` (http://127.0.0.1:port) lists. */
  static async open(base: string): Promise<InspectorSession> {
    const targets = (await (await fetch(`${base}/json`)).json()) as { webSocketDebuggerUrl?: string }[];
    const url = targets.find((target) => target.webSocketDebuggerUrl !== undefined)?.webSocketDebuggerUrl;
    if (url === undefined) throw new Error(`inspector at ${base} lists no target to profile`);
    const socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      socket.addEventListener("open", () => resolve(), { once: true });
      socket.addEventListener("error", () => reject(new Error(`inspector: cannot connect to ${url}`)), { once: true });
    });
    return new InspectorSession(socket);
  }

  call<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = ++this.next;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (result: unknown) => void, reject });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  close(): void {
    this.socket.close();
  }
}

export async function profileWorkerd(allPages: readonly DatasetPage[], sitesWithRules: Iterable<string>, file: string): Promise<number> {
  const pages = allPages.filter((_, index) => index % PROFILE_STRIDE === 0);
  console.log(`npm run bench -- --profile: ${pages.length} pages (every ${PROFILE_STRIDE}th dev page) cleaned in workerd (html output, ` +
    `site rules where rules/ has them), ${PROFILE_REPEAT} runs each after one to warm up, sampled every ${SAMPLING_INTERVAL_US} µs.`);
  const worker = await startWorkerd({ entry: "scripts/bench-worker.ts", inspector: true });
  let session: InspectorSession | null = null;
  try {
    await sendRuleSets(worker, sitesWithRules);
    await sendPages(worker, pages);
    const keys = pages.map(pageKey);
    await timeInWorker(worker, keys, "pipeline", 1);
    session = await InspectorSession.open(worker.inspector!);
    await session.call("Profiler.enable");
    await session.call("Profiler.setSamplingInterval", { interval: SAMPLING_INTERVAL_US });
    await session.call("Profiler.start");
    await timeInWorker(worker, keys, "pipeline", PROFILE_REPEAT);
    const { profile } = await session.call<{ profile: CpuProfile }>("Profiler.stop");
    writeFileSync(file, JSON.stringify(profile));
    console.log(`profile written to ${file}\n`);
    console.log(profileReport(profile, TOP_FUNCTIONS));
  } finally {
    session?.close();
    await worker.dispose();
  }
  return 0;
}
