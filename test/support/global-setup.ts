/**
 * vitest globalSetup for the Worker tests: starts the static origin server in Node and hands its address to
 * the tests running inside workerd (`inject("originUrl")`).
 */
import type { TestProject } from "vitest/node";
import { startOriginServer } from "./origin-server";
import { GUARD_ORIGIN_ROUTES } from "./guard-origin-routes";
import { PROXY_ORIGIN_ROUTES } from "./proxy-origin-routes";

declare module "vitest" {
  export interface ProvidedContext {
    originUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const origin = await startOriginServer({ ...PROXY_ORIGIN_ROUTES, ...GUARD_ORIGIN_ROUTES });
  project.provide("originUrl", origin.url);
  return () => origin.close();
}
