/** Where the scripts find the repository's files (absolute paths, whatever the working folder). */
import { resolve } from "node:path";

export const REPO_ROOT = resolve(import.meta.dirname, "../..");
/** Site rule sets, one <site key>.json each (src/rules ruleSetFileName), and the classifier model. */
export const RULES_FOLDER = resolve(REPO_ROOT, "rules");
/** The classifier model the Worker bundles (src/worker.ts imports it). */
export const SHIPPED_MODEL = resolve(RULES_FOLDER, "model.json");
/** The evaluation gate's floors (test/eval-floors.json), written by `npm run eval -- --write-floors`. */
export const EVAL_FLOORS = resolve(REPO_ROOT, "test", "eval-floors.json");
/** The made-up sample site `npm start` serves. */
export const SAMPLE_SITE = "wrenmouth-gazette.example";
export const SAMPLE_FOLDER = resolve(REPO_ROOT, "samples", SAMPLE_SITE);
