/**
 * The Worker as the cleaner of the mining evaluation: bundled and run in workerd (test/support/workerd.ts),
 * rules written to its real local KV, pages posted to /v1/clean?site=…&format=text&mode=….
 */
import { startWorkerd } from "./lib/workerd";
import type { RuleCleaner } from "./mining-evaluation";

/** API key the evaluation's Worker accepts (a binding of this local instance only). */
const EVALUATION_API_KEY = "mining-evaluation";

export interface WorkerCleaner {
  readonly cleaner: RuleCleaner;
  /** x-clean-rules header value (applied, missing, invalid…) → number of responses that carried it. */
  readonly rulesStatuses: Map<string, number>;
  /** x-clean-mode header value (rules, rules+classifier…) → number of responses. */
  readonly modes: Map<string, number>;
  dispose(): Promise<void>;
}

/** `mode` is the Worker's ?mode= (auto: its default, rules plus the classifier on a site with rules). */
export async function workerCleaner(mode = "auto"): Promise<WorkerCleaner> {
  const worker = await startWorkerd({ vars: { API_KEYS: EVALUATION_API_KEY } });
  const rulesStatuses = new Map<string, number>();
  const modes = new Map<string, number>();
  const tally = (counts: Map<string, number>, value: string | null) => counts.set(value ?? "(none)", (counts.get(value ?? "(none)") ?? 0) + 1);
  const cleaner: RuleCleaner = {
    install: (key, ruleSet) => worker.kvPut(key, JSON.stringify(ruleSet)),
    async clean(key, page, pageMode = mode) {
      const response = await worker.fetch(`/v1/clean?site=${encodeURIComponent(key)}&format=text&mode=${encodeURIComponent(pageMode)}`, {
        method: "POST",
        headers: { "content-type": "text/html; charset=utf-8", "x-api-key": EVALUATION_API_KEY },
        body: page.html,
      });
      const body = await response.text();
      if (!response.ok) throw new Error(`POST /v1/clean for ${key} (${page.id}): ${response.status} ${body.slice(0, 200)}`);
      tally(rulesStatuses, response.headers.get("x-clean-rules"));
      tally(modes, response.headers.get("x-clean-mode"));
      return body;
    },
  };
  return { cleaner, rulesStatuses, modes, dispose: () => worker.dispose() };
}
