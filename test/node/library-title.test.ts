// The library's result.title is the title the service gives (its JSON's title, which Jina's shapes and the MCP tools
// repeat): without the "| Site" suffix the service strips, in every format, on each page of the shipped sample site.
import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { clean } from "../../src/library-node";
import { OUTPUT_FORMATS } from "../../src/clean";

const SAMPLE_FOLDER = resolve(import.meta.dirname, "../../samples/wrenmouth-gazette.example");
const PAGES = readdirSync(SAMPLE_FOLDER).filter((name) => name.endsWith(".html"));

describe("result.title", () => {
  it.each(PAGES)("is the service's JSON title in every format: %s", async (name) => {
    const html = readFileSync(resolve(SAMPLE_FOLDER, name), "utf8");
    const url = `https://wrenmouth-gazette.example/${name}`;
    const json = await clean(html, { url, format: "json" });
    if (!json.ok) throw new Error(json.detail);
    const title = (JSON.parse(json.body) as { title: string }).title;
    expect(title).not.toMatch(/Gazette$/);
    for (const format of OUTPUT_FORMATS) {
      const result = await clean(html, { url, format });
      expect(result.ok && result.title, format).toBe(title);
    }
  });
});
