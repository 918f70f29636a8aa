export { distinctLevels, isMonotone, isotonicSmooth, smoothingCost, type SmoothingProblem } from "./smoothing";
