/**
 * vitest globalSetup for the Worker tests: starts the static origin server and the sample site in Node and hands
 * their addresses to the tests running inside workerd (`inject("originUrl")`), with the files those tests read
 * (the README's examples).
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { TestProject } from "vitest/node";
import { REPO_ROOT, RULES_FOLDER, SAMPLE_FOLDER, SAMPLE_SITE } from "../../scripts/lib/paths";
import { startStaticServer } from "../../scripts/static-server";
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
    /** The sample site (samples/wrenmouth-gazette.example) served as `npm start` serves it, at the root of an origin. */
    samplesUrl: string;
    /** README.md and the sample site's rule set, read in Node for the README's examples run in workerd. */
    readme: string;
    sampleRuleSet: string;
    /** REQUIRE_DEV_DATA=1 (CI): tests that need ../shared/data fail where it is absent instead of skipping. */
    requireDevData: boolean;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const origin = await startOriginServer({ ...PROXY_ORIGIN_ROUTES, ...GUARD_ORIGIN_ROUTES, ...SECURITY_ORIGIN_ROUTES, ...READER_ORIGIN_ROUTES });
  const resetting = await startResettingServer();
  const samples = await startStaticServer(SAMPLE_FOLDER, "127.0.0.1", 0, { publicOrigin: `https://${SAMPLE_SITE}` });
  project.provide("originUrl", origin.url);
  project.provide("resettingUrl", resetting.url);
  project.provide("samplesUrl", samples.url);
  project.provide("readme", readFileSync(resolve(REPO_ROOT, "README.md"), "utf8"));
  project.provide("sampleRuleSet", readFileSync(resolve(RULES_FOLDER, `${SAMPLE_SITE}.json`), "utf8"));
  project.provide("requireDevData", process.env.REQUIRE_DEV_DATA === "1");
  return async () => {
    await origin.close();
    await resetting.close();
    await samples.close();
  };
}
