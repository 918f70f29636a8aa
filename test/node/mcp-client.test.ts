// The MCP server of the edge Worker as an agent framework meets it: `npm start` (wrangler dev, local workerd, local
// KV filled from rules/, the sample site on loopback) on free ports, and the official MCP SDK's client over the
// Streamable HTTP transport with the dev key as a Bearer token. Lists the tools and calls each: a sample page read
// by URL, a sample page posted as HTML, the ruled sites and the sample site's rule set; and an error as a tool error.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/free-port";
import { REPO_ROOT } from "../../scripts/lib/paths";

const HOST = "127.0.0.1";
const DEV_KEY = "local-dev-key";
const SAMPLE_SITE = "wrenmouth-gazette.example";
const SAMPLE_FOLDER = resolve(REPO_ROOT, "samples", SAMPLE_SITE);
/** How long `npm start` may take to answer /healthz (wrangler dev's first start on a loaded machine), in ms. */
const START_TIMEOUT_MS = 240_000;

async function waitForHealth(url: string, service: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (service.exitCode !== null) throw new Error(`npm start exited (${service.exitCode}):\n${output()}`);
    if (await fetch(url).then((response) => response.ok, () => false)) return;
    await new Promise((done) => setTimeout(done, 500));
  }
  throw new Error(`npm start did not answer ${url} within ${START_TIMEOUT_MS} ms:\n${output()}`);
}

async function connect(endpoint: URL, key: string | null): Promise<Client> {
  const client = new Client({ name: "edge-cleaner-test", version: "1.0.0" });
  const headers: Record<string, string> = key === null ? {} : { authorization: `Bearer ${key}` };
  await client.connect(new StreamableHTTPClientTransport(endpoint, { requestInit: { headers } }));
  return client;
}

interface TextResult {
  readonly content: { type: string; text?: string }[];
  readonly structuredContent?: Record<string, unknown>;
  readonly isError?: boolean;
}

describe("the MCP server under npm start, through the official SDK client", () => {
  let service: ChildProcess;
  let log = "";
  let api: string;
  let samples: string;
  let client: Client;

  beforeAll(async () => {
    const [workerPort, samplesPort] = [await freePort(), await freePort()];
    api = `http://${HOST}:${workerPort}`;
    samples = `http://${HOST}:${samplesPort}`;
    // Its own process group, so that wrangler and workerd go with it at the end.
    service = spawn(process.execPath, ["scripts/run.mjs", "start"], {
      cwd: REPO_ROOT,
      env: { ...process.env, WORKER_PORT: String(workerPort), SAMPLES_PORT: String(samplesPort), WRANGLER_SEND_METRICS: "false", FORCE_COLOR: "0" },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    service.stdout?.on("data", (chunk: Buffer) => (log += chunk.toString()));
    service.stderr?.on("data", (chunk: Buffer) => (log += chunk.toString()));
    await waitForHealth(`${api}/healthz`, service, () => log.slice(-4000));
    client = await connect(new URL(`${api}/v1/mcp`), DEV_KEY);
  }, START_TIMEOUT_MS + 30_000);

  afterAll(async () => {
    await client?.close();
    if (service?.pid !== undefined && service.exitCode === null) {
      const exited = new Promise((done) => service.once("exit", done));
      process.kill(-service.pid, "SIGINT");
      await Promise.race([exited, new Promise((done) => setTimeout(done, 15_000))]);
      if (service.exitCode === null) process.kill(-service.pid, "SIGKILL");
    }
  }, 30_000);

  it("negotiates the protocol and lists the four tools with their input schemas", async () => {
    expect(client.getServerVersion()?.name).toBe("edge-cleaner");
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["clean_html", "get_rules", "list_rules", "read_url"]);
    const read = tools.find((tool) => tool.name === "read_url");
    expect(read?.inputSchema.required).toEqual(["url"]);
    expect(Object.keys(read?.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(["url", "format", "targetSelector", "removeSelector", "comments"]));
  });

  it("reads a sample page by URL: its article as Markdown without the template, its metadata, the site's rules applied", async () => {
    const result = (await client.callTool({ name: "read_url", arguments: { url: `${samples}/harbour-dredging-approved.html` } })) as TextResult;
    expect(result.isError).toBeFalsy();
    const text = result.content[0].text ?? "";
    expect(text).toMatch(/^Title: .*[Dd]redging/);
    expect(text).toContain("dredging");
    const page = readFileSync(resolve(SAMPLE_FOLDER, "harbour-dredging-approved.html"), "utf8");
    const footer = "Registered in England and Wales";
    expect(page).toContain(footer); // the template's footer is on the page, and not in what the tool read
    expect(result.structuredContent).toMatchObject({ format: "markdown", site: HOST, mode: "rules+classifier", rules: "applied", bailout: null });
    expect(String(result.structuredContent?.title)).toMatch(/[Dd]redging/);
    expect(String(result.structuredContent?.content)).not.toContain(footer);
  });

  it("cleans a posted sample page to text with a target selector, and names the selector's matches", async () => {
    const html = readFileSync(resolve(SAMPLE_FOLDER, "library-reopens.html"), "utf8");
    const result = (await client.callTool({
      name: "clean_html", arguments: { html, url: `https://${SAMPLE_SITE}/library-reopens.html`, format: "text", targetSelector: "article" },
    })) as TextResult;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ format: "text", site: SAMPLE_SITE, rules: "applied" });
    expect(result.structuredContent?.selectors).toMatch(/(?:^|; )target=1(?:;|$)/);
    expect(String(result.structuredContent?.content)).toMatch(/librar/i);
    expect(String(result.structuredContent?.content)).not.toContain("<");
  });

  it("lists the ruled sites and shows the sample site's rule set", async () => {
    const listed = (await client.callTool({ name: "list_rules", arguments: { limit: 1000 } })) as TextResult;
    expect((listed.structuredContent?.sites as string[])).toContain(SAMPLE_SITE);
    const shown = (await client.callTool({ name: "get_rules", arguments: { site: SAMPLE_SITE } })) as TextResult;
    expect(shown.structuredContent).toMatchObject({ site: SAMPLE_SITE, status: "applied" });
    expect(shown.structuredContent?.rulesUsed).toBeGreaterThan(0);
  });

  it("answers a refused target and a bad argument as tool errors with our codes", async () => {
    // Refused by the guard before any request: a loopback port that is not the sample site.
    const refused = (await client.callTool({ name: "read_url", arguments: { url: `http://${HOST}:9/` } })) as TextResult;
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toEqual({ error: { code: "forbidden-target", message: expect.any(String) } });
    expect(refused.content[0].text).toMatch(/^forbidden-target: /);
    const bad = (await client.callTool({ name: "read_url", arguments: { url: `${samples}/index.html`, format: "pdf" } })) as TextResult;
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent).toMatchObject({ error: { code: "bad-request" } });
  });

  it("refuses a client without the API key", async () => {
    await expect(connect(new URL(`${api}/v1/mcp`), null)).rejects.toThrow(/401|Unauthorized|missing-key/i);
  });
});
