/**
 * The token estimate of `x-markdown-tokens` (Markdown for Agents: agents budget their context with it): the tokenx
 * heuristic (a few kB, no vocabulary), whose error against a real tokenizer (o200k_base) on dev pages' Markdown
 * `npm run eval:tokens` prints (docs/agents.md has the figures). A vocabulary-based tokenizer was not taken: its
 * tables are megabytes, which every isolate would parse at start.
 */
import { estimateTokenCount } from "tokenx";

export function estimateMarkdownTokens(markdown: string): number {
  return estimateTokenCount(markdown);
}
