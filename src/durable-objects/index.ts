/**
 * The Durable Object classes of the learning loop. They extend DurableObject from "cloudflare:workers", a module
 * only workerd has, so only the Worker entries (src/worker.ts, src/control.ts) load this module; the code that
 * calls the objects (src/learning, src/consumer) imports their types only, and so still loads in Node (the CLI,
 * the scripts, the package).
 */
export { CrossSiteShard, type ShardAnswer, type ShardContribution } from "./cross-site-shard";
export { SampleGate } from "./sample-gate";
