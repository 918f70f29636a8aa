/**
 * Importing Full-Text RSS site configs as RuleSets (`npm run rules:import-ftr`). A module of its own, outside
 * src/rules: only that command loads it, so its patterns never ride along in a bundle of the rules (the edge
 * Worker's).
 */
export { importFtrConfig, type FtrImport } from "./site-config";
export { xpathToCss, type XPathConversion } from "./xpath-to-css";
