/**
 * The Worker as the cleaner of the mining evaluation: bundled and run in workerd (test/support/workerd.ts),
 * rules written to its real local KV, pages posted to /v1/clean?site=…&format=text.
 */
import { startWorkerd } from "../test/support/workerd";
import type { RuleCleaner } from "./mining-evaluation";

/** API key the evaluation's Worker accepts (a binding of this local instance only). */
const EVALUATION_API_KEY = "mining-evaluation";

export async function workerCleaner(): Promise<{ cleaner: RuleCleaner; dispose: () => Promise<void> }> {
  const worker = await startWorkerd({ vars: { API_KEYS: EVALUATION_API_KEY } });
  const cleaner: RuleCleaner = {
    install: (key, ruleSet) => worker.kvPut(key, JSON.stringify(ruleSet)),
    async clean(key, page) {
      const response = await worker.fetch(`/v1/clean?site=${encodeURIComponent(key)}&format=text`, {
        method: "POST",
        headers: { "content-type": "text/html; charset=utf-8", "x-api-key": EVALUATION_API_KEY },
        body: page.html,
      });
      const body = await response.text();
      if (!response.ok) throw new Error(`POST /v1/clean for ${key} (${page.id}): ${response.status} ${body.slice(0, 200)}`);
      return body;
    },
  };
  return { cleaner, dispose: () => worker.dispose() };
}
