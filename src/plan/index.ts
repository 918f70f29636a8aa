/**
 * The removal plan: its type, its normal form (top-most removed blocks, blocks removed with an ancestor,
 * removed text clipped to kept text nodes, counts), merging plans, and the plan that rule intervals imply.
 */
export type { NormalisedPlan, RemovalCounts, RemovalPlan, RemovedElements } from "./types";
export { emptyPlan, normalisePlan } from "./normalise";
export { mergePlans, subtractIntervals } from "./merge";
export { planKeepingOnlySelected, planKeepingSelected, planRemovingSelected, withRemovedElements } from "./from-selectors";
export { planFromIntervals } from "./from-intervals";
export { keepWhole } from "./keep-whole";
