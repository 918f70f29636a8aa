/**
 * Requests to the bench Worker (scripts/bench-worker.ts) from Node: this tree's site rule sets, pages, and timing
 * runs, each answered or thrown with what the Worker said. Used by `npm run bench` and its --profile.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { DatasetPage } from "../../src/evaluation/index";
import { ruleSetFileName } from "../../src/rules/index";
import { RULES_FOLDER } from "./paths";
import type { Kind } from "../bench-worker";
import type { WorkerdHandle } from "./workerd";

export interface TimeReply {
  milliseconds: number[];
  stageTotals: Record<string, number>;
  clockMovesWithoutIo: boolean;
  model: boolean;
}

async function post(worker: WorkerdHandle, path: string, body: unknown): Promise<Response> {
  const response = await worker.fetch(path, { method: "POST", body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`bench Worker, ${path}: ${response.status} ${await response.text()}`);
  return response;
}

/** Sends the rule set of each site (one rules/ has) to the Worker. */
export async function sendRuleSets(worker: WorkerdHandle, sites: Iterable<string>): Promise<void> {
  for (const site of sites) {
    const ruleSet = JSON.parse(readFileSync(join(RULES_FOLDER, `${ruleSetFileName(site)}.json`), "utf8"));
    await post(worker, "/rules", { site, ruleSet });
  }
}

/** The key a page is held under in the Worker. */
export function pageKey(page: DatasetPage): string {
  return `${page.set}/${page.id}`;
}

/** Sends pages to be held in the Worker's memory under their pageKey. */
export async function sendPages(worker: WorkerdHandle, pages: readonly DatasetPage[]): Promise<void> {
  for (const page of pages) await post(worker, "/page", { key: pageKey(page), html: page.html, site: page.site });
}

/** Times the held pages `keys`, each as one batch of `repeat` runs of `kind`. */
export async function timeInWorker(worker: WorkerdHandle, keys: readonly string[], kind: Kind, repeat: number): Promise<TimeReply> {
  return (await (await post(worker, "/time", { keys, kind, repeat })).json()) as TimeReply;
}
