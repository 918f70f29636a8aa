import type { ClassifierModel } from "../classify";

/**
 * The classifier model bundled into the Worker. rules/model.json is not trained yet, so pages without
 * rules are passed through the pipeline with no model (mode "none"); the import goes here once it exists.
 */
export function classifierModel(): ClassifierModel | null {
  return null;
}
