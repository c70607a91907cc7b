/** The one place that turns a tool's work into a result: text + structuredContent, or a tool error. */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { LoadedBuild } from '../builds/loaded-build.ts';
import { ToolInputError } from './lookup.ts';
import { redactSecrets } from '../http/redact.ts';
import { escapeHidden } from './text.ts';

export interface ToolDeps {
  /** the build this request reads (captured once per request) */
  build: LoadedBuild | null;
  /** UTC day of the request: the attribution's access date */
  day: string;
  /**
   * set when the caller's IP ran out of its open-data limits during this request: the calls beyond
   * `budget` get this error (each call of a request is counted before it runs; only counted calls run)
   */
  limited: string | null;
  /** how many calls of this request were counted and may still run (absent: all of them) */
  budget?: { left: number };
}

/**
 * Tool texts and errors never carry a character that hides or reorders text (bidi controls, C0/C1 controls,
 * U+2028/2029, noncharacters: escaped as `\uXXXX`). Imported names are quoted by text.ts; this also covers
 * names an error lists (close matches) and anything a DB imported before the import check may hold.
 */
export function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: escapeHidden(redactSecrets(message)) }], isError: true };
}

export function runTool(deps: ToolDeps, work: (build: LoadedBuild, day: string) => { text: string; structured: object }): CallToolResult {
  if (deps.limited && (deps.budget === undefined || deps.budget.left-- <= 0)) return toolError(deps.limited);
  if (!deps.build) return toolError('No published data is loaded yet; retry shortly.');
  try {
    const { text, structured } = work(deps.build, deps.day);
    return { content: [{ type: 'text', text: escapeHidden(text) }], structuredContent: structured as Record<string, unknown> };
  } catch (err) {
    if (err instanceof ToolInputError) return toolError(err.message);
    throw err;
  }
}
