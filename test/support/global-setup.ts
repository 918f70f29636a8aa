/**
 * vitest globalSetup for the Worker tests: starts the static origin server in Node and hands its address to
 * the tests running inside workerd (`inject("originUrl")`).
 */
import type { TestProject } from "vitest/node";
import { startOriginServer } from "./origin-server";
import { GUARD_ORIGIN_ROUTES } from "./guard-origin-routes";
import { PROXY_ORIGIN_ROUTES } from "./proxy-origin-routes";
import { READER_ORIGIN_ROUTES } from "./reader-origin-routes";
import { SECURITY_ORIGIN_ROUTES, startResettingServer } from "./security-origin-routes";

declare module "vitest" {
  export interface ProvidedContext {
    originUrl: string;
    /** A loopback port that accepts connections and drops them at once (an open port that speaks no HTTP). */
    resettingUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const origin = await startOriginServer({ ...PROXY_ORIGIN_ROUTES, ...GUARD_ORIGIN_ROUTES, ...SECURITY_ORIGIN_ROUTES, ...READER_ORIGIN_ROUTES });
  const resetting = await startResettingServer();
  project.provide("originUrl", origin.url);
  project.provide("resettingUrl", resetting.url);
  return async () => {
    await origin.close();
    await resetting.close();
  };
}
