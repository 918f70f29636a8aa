/**
 * The MCP tools: read a URL, clean posted HTML, list the ruled sites, show a site's rules. Each calls the same code
 * as its HTTP route (api/read-url.ts, shared/clean-page.ts, api/rules-routes.ts), so keys, guards, limits and
 * error codes are the API's; a ServiceError comes back as a tool error (isError) that names our code.
 * Inputs are declared as JSON Schema (what tools/list sends) and checked against it here, before any work.
 */
import { REQUESTED_MODES } from "../../clean";
import type { Env } from "../shared/bindings";
import { cleanPage } from "../shared/clean-page";
import { ServiceError, type ErrorCode } from "../shared/errors";
import type { RequestedMode } from "../shared/formats";
import { DEFAULT_SHAPE_OPTIONS, type ReaderJson } from "../shared/reader-shapes";
import { resolveSettings } from "../shared/settings";
import { readUrl, requireSite } from "../api/read-url";
import { requireSelector, type ReaderOptions } from "../api/reader-options";
import { DEFAULT_RULES_PAGE, listRuleSites, MAX_RULES_PAGE, siteRulesView } from "../api/rules-routes";
import { checkTarget } from "../shared/target";

/** The formats a tool answers in (json is the structured result itself). */
const TOOL_FORMATS = ["markdown", "text", "html", "article"] as const;
type ToolFormat = (typeof TOOL_FORMATS)[number];

interface PropertySchema {
  readonly type: "string" | "boolean" | "integer";
  readonly description: string;
  readonly enum?: readonly string[];
  readonly minimum?: number;
  readonly maximum?: number;
}

export interface ToolDefinition {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: { readonly type: "object"; readonly properties: Readonly<Record<string, PropertySchema>>; readonly required: readonly string[]; readonly additionalProperties: false };
  readonly annotations: { readonly readOnlyHint: boolean; readonly openWorldHint: boolean };
}

/** What a tool call gives back (MCP CallToolResult). */
export interface ToolResult {
  readonly content: { readonly type: "text"; readonly text: string }[];
  readonly structuredContent: Record<string, unknown>;
  readonly isError?: true;
}

export interface ToolContext {
  readonly env: Env;
  readonly request: Request;
  readonly waitUntil: (promise: Promise<unknown>) => unknown;
}

const CLEANING_PROPERTIES: Readonly<Record<string, PropertySchema>> = {
  format: { type: "string", enum: TOOL_FORMATS, description: "What the text content is: markdown (default), text, html (the cleaned page) or article (a safe HTML fragment)" },
  mode: { type: "string", enum: REQUESTED_MODES, description: "What cleans the page: auto (default: the site's rules and the classifier), rules, classifier, rules+classifier or none" },
  targetSelector: { type: "string", description: "CSS selector: keep only what it matches (as X-Target-Selector)" },
  removeSelector: { type: "string", description: "CSS selector: remove what it matches too (as X-Remove-Selector)" },
  comments: { type: "boolean", description: "Also give the reader comments found on the page (apart from the article)" },
  site: { type: "string", description: "Whose rules apply (default: the URL's host without www.)" },
};

const definition = (name: string, title: string, description: string, properties: Record<string, PropertySchema>, required: string[], openWorld: boolean): ToolDefinition => ({
  name, title, description, inputSchema: { type: "object", properties, required, additionalProperties: false }, annotations: { readOnlyHint: true, openWorldHint: openWorld },
});

export const TOOLS: readonly ToolDefinition[] = [
  definition("read_url", "Read a web page", "Fetch a web page and return its main content without the site's template (navigation, ads, footers), with its title, byline, date and language.",
    { url: { type: "string", description: "The page's http or https URL" }, ...CLEANING_PROPERTIES }, ["url"], true),
  definition("clean_html", "Clean given HTML", "Clean the HTML of a page you already have: its main content without the template, with its metadata.",
    { html: { type: "string", description: "The page's HTML" }, url: { type: "string", description: "The page's URL (names its site and resolves its links; not fetched)" }, ...CLEANING_PROPERTIES }, ["html"], false),
  definition("list_rules", "List ruled sites", "List the sites that have cleaning rules, one page at a time.",
    { limit: { type: "integer", minimum: 1, maximum: MAX_RULES_PAGE, description: `Sites per page (default ${DEFAULT_RULES_PAGE})` }, cursor: { type: "string", description: "The cursor of the previous page" } }, [], false),
  definition("get_rules", "Show a site's rules", "Show the rule set that applies to a site's pages: its status, source, revision and rules.",
    { site: { type: "string", description: "The site (a host without www., or host/path)" } }, ["site"], false),
];

type Arguments = Readonly<Record<string, string | boolean | number>>;

/** The arguments checked against the tool's schema: a bad-request ServiceError says what is wrong. */
function checkArguments(tool: ToolDefinition, value: unknown): Arguments {
  if (value === undefined) value = {};
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new ServiceError("bad-request", "arguments must be an object");
  const given = value as Record<string, unknown>;
  const { properties, required } = tool.inputSchema;
  for (const name of required) if (given[name] === undefined) throw new ServiceError("bad-request", `${name} is required`);
  for (const [name, argument] of Object.entries(given)) {
    const schema = properties[name];
    if (schema === undefined) throw new ServiceError("bad-request", `${tool.name} takes no argument ${JSON.stringify(name)} (it takes ${Object.keys(properties).join(", ")})`);
    const type = schema.type === "integer" ? "number" : schema.type;
    if (typeof argument !== type || (schema.type === "integer" && !Number.isInteger(argument))) throw new ServiceError("bad-request", `${name} must be ${schema.type === "integer" ? "an integer" : `a ${schema.type}`}`);
    if (schema.enum !== undefined && !schema.enum.includes(argument as string)) throw new ServiceError("bad-request", `${name} must be one of ${schema.enum.join(", ")}`);
    if (typeof argument === "number" && ((schema.minimum !== undefined && argument < schema.minimum) || (schema.maximum !== undefined && argument > schema.maximum))) {
      throw new ServiceError("bad-request", `${name} must be from ${schema.minimum} to ${schema.maximum}`);
    }
  }
  return given as Arguments;
}

/** Runs a tool; null when there is no such tool (a protocol error for the caller). */
export async function callTool(name: string, value: unknown, context: ToolContext): Promise<ToolResult | null> {
  const tool = TOOLS.find((candidate) => candidate.name === name);
  if (tool === undefined) return null;
  try {
    const args = checkArguments(tool, value);
    switch (tool.name) {
      case "read_url":
        return await readTool(args, context);
      case "clean_html":
        return await cleanTool(args, context);
      case "list_rules":
        return jsonResult(await listRuleSites(context.env.RULES, (args.limit as number | undefined) ?? DEFAULT_RULES_PAGE, args.cursor as string | undefined));
      default:
        return jsonResult(await siteRulesView(context.env.RULES, args.site as string));
    }
  } catch (error) {
    if (error instanceof ServiceError) return toolError(error.code, error.message);
    console.error("MCP tool failed", name, error);
    return toolError("internal", "internal error");
  }
}

function toolError(code: ErrorCode, message: string): ToolResult {
  return { content: [{ type: "text", text: `${code}: ${message}` }], structuredContent: { error: { code, message } }, isError: true };
}

function jsonResult(value: Record<string, unknown>): ToolResult {
  return { content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value };
}

/** The reader options of a tool call: the reader document (json), which the result is made from. */
function toolOptions(args: Arguments): ReaderOptions {
  return {
    format: "json", varies: false, mode: ((args.mode as string | undefined) ?? "auto") as RequestedMode, kind: "auto", articleHeader: false, frontMatter: false,
    selectors: { target: requireSelector("targetSelector", args.targetSelector as string | undefined), remove: requireSelector("removeSelector", args.removeSelector as string | undefined) },
    shape: "document", shapeOptions: DEFAULT_SHAPE_OPTIONS, noCache: false, timeoutMs: null,
  };
}

async function readTool(args: Arguments, context: ToolContext): Promise<ToolResult> {
  const settings = resolveSettings(context.env, context.request);
  const response = await readUrl(context.env, settings, { url: args.url as string, site: args.site as string | undefined, options: toolOptions(args) }, context);
  return pageResult(await response.json(), args, response.headers);
}

async function cleanTool(args: Arguments, context: ToolContext): Promise<ToolResult> {
  const settings = resolveSettings(context.env);
  const url = args.url as string | undefined;
  const checked = url === undefined ? null : checkTarget(url, settings);
  if (checked !== null && !checked.ok && checked.code === "invalid-url") throw new ServiceError(checked.code, checked.message);
  const pageUrl = url === undefined ? undefined : new URL(url);
  const bytes = new TextEncoder().encode(args.html as string);
  if (bytes.length > settings.maxBodyBytes) throw new ServiceError("payload-too-large", `the html is over the limit of ${settings.maxBodyBytes} bytes`);
  const options = toolOptions(args);
  const response = await cleanPage(context.env, {
    bytes, contentType: "text/html; charset=utf-8", url: pageUrl?.href, site: requireSite(args.site as string | undefined, pageUrl), format: "json", mode: options.mode,
    source: "body", maxBytes: settings.maxBodyBytes, selectors: options.selectors,
  });
  return pageResult(await response.json(), args, response.headers);
}

/** A cleaned page as a tool result: its content in the format asked for, after a short header; every field structured. */
function pageResult(value: unknown, args: Arguments, headers: Headers): ToolResult {
  const document = value as ReaderJson;
  const format = ((args.format as string | undefined) ?? "markdown") as ToolFormat;
  const bailout = document.bailout ?? null;
  // A page that was not cleaned (bailout) has the fallback of each format (clean.ts bailoutFallback): html is the page as
  // it came, the others hold none of its markup.
  const body = { markdown: document.markdown, text: document.text, html: document.html, article: document.content }[format] ?? "";
  const metadata = {
    url: document.url, site: document.site, title: document.title, byline: document.byline, published: document.published, lang: document.lang,
    siteName: document.siteName, excerpt: document.excerpt, leadImage: document.leadImage, mode: document.mode, rules: headers.get("x-clean-rules"),
    selectors: headers.get("x-clean-selectors"), bailout, fallback: document.fallback ?? null,
  };
  const comments = args.comments === true ? document.comments ?? "" : undefined;
  const header = [`Title: ${document.title ?? ""}`, `URL Source: ${document.url ?? ""}`, ...(document.published === null ? [] : [`Published Time: ${document.published}`])];
  if (bailout !== null) header.push(`Not cleaned: ${bailout} (${format === "html" ? "the page as it came" : `fallback: ${document.fallback ?? "empty"}`})`);
  const content: ToolResult["content"] = [{ type: "text", text: `${header.join("\n")}\n\n${body}` }];
  if (comments !== undefined && comments !== "") content.push({ type: "text", text: `Comments:\n\n${comments}` });
  return { content, structuredContent: { ...metadata, format, content: body, ...(comments === undefined ? {} : { comments }) } };
}
