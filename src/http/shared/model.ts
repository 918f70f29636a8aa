import { parseModel, type ClassifierModel } from "../../classify";
import MODEL_JSON from "../../../rules/model.json";

/**
 * The classifier model, bundled into the Worker from rules/model.json (`npm run train` writes it) and
 * validated once per isolate. A model that fails validation is logged and left out: pages are then
 * cleaned by site rules alone (or passed through the pipeline with mode "none"), never refused.
 */
let resolved: { readonly model: ClassifierModel | null } | null = null;

export function classifierModel(): ClassifierModel | null {
  if (resolved === null) {
    const parsed = parseModel(MODEL_JSON);
    if (!parsed.ok) console.error("rules/model.json ignored:", parsed.problems.slice(0, 5).join("; "));
    resolved = { model: parsed.ok ? parsed.model : null };
  }
  return resolved.model;
}
