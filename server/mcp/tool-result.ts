/** The one place that turns a tool's work into a result: text + structuredContent (+ links), or a tool error. */
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { LoadedBuild } from '../builds/loaded-build.ts';
import type { ReleaseShelf } from '../builds/releases.ts';
import { releaseDate } from '../../build/contract/release-id.ts';
import { ToolInputError } from './lookup.ts';
import { redactSecrets } from '../http/redact.ts';
import { escapeHidden } from './text.ts';
import type { ToolDefinition, ToolOutput } from './tool-definition.ts';
import type { KeyedCallContext } from './keyed/run.ts';

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
  /** false: leave resource_link blocks out of tool results (2025-03-26 clients do not know them) */
  links?: boolean;
  /** every kept release: a call with a `release` argument reads that release's build */
  shelf?: ReleaseShelf;
  /** set when the request carries a valid API key (bearer token): the keyed tools are listed and run */
  keyed?: KeyedCallContext;
}

/**
 * The limit message when this call of the request may not run (the IP's limit ran out before it was
 * counted), else null; uses the call's counted slot. Tool calls and resource reads both go through here.
 */
export function overLimit(deps: ToolDeps): string | null {
  if (deps.limited && (deps.budget === undefined || deps.budget.left-- <= 0)) return deps.limited;
  return null;
}

/**
 * Tool texts and errors never carry a character that hides or reorders text (bidi controls, C0/C1 controls,
 * U+2028/2029, noncharacters: escaped as `\uXXXX`). Imported names are quoted by text.ts; this also covers
 * names an error lists (close matches) and anything a DB imported before the import check may hold.
 */
export function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: escapeHidden(redactSecrets(message)) }], isError: true };
}

function toResult(out: ToolOutput, baseUrl: string, links: boolean): CallToolResult {
  const content: CallToolResult['content'] = [{ type: 'text', text: escapeHidden(out.text) }];
  if (links) for (const l of out.links ?? []) content.push({ type: 'resource_link', uri: `${baseUrl}${l.path}`, name: l.name, title: l.title, mimeType: l.mimeType });
  return { content, structuredContent: out.structured as Record<string, unknown> };
}

/**
 * A call that names a `release`: run on the build that published it (server/builds/releases.ts), with the
 * release's date as the access date, so the figures and attribution are those the release's files serve.
 */
export async function runToolOnRelease<S extends ToolDefinition['inputSchema']>(deps: ToolDeps, tool: ToolDefinition<S>, args: Parameters<ToolDefinition<S>['work']>[0]): Promise<CallToolResult> {
  const { release, ...rest } = args as { release?: string | null };
  if (release === undefined || release === null || release === '') return runTool(deps, tool, rest as never);
  const limit = overLimit(deps);
  if (limit) return toolError(limit);
  const build = await deps.shelf?.build(release).catch(() => null);
  if (!build) {
    const kept = (await deps.shelf?.kept().catch(() => [])) ?? [];
    return toolError(`Release ${release} is not kept here${kept.length ? `; kept releases, newest first: ${kept.join(', ')}` : ''}. Leave release out for the latest figures.`);
  }
  return runTool({ ...deps, build, day: releaseDate(release), limited: null }, tool, rest as never);
}

/** Run one call of `tool` with arguments already checked against its input schema. */
export function runTool<S extends ToolDefinition['inputSchema']>(deps: ToolDeps, tool: ToolDefinition<S>, args: Parameters<ToolDefinition<S>['work']>[0]): CallToolResult {
  const limit = overLimit(deps);
  if (limit) return toolError(limit);
  if (!deps.build) return toolError('No published data is loaded yet; retry shortly.');
  try {
    return toResult(tool.work(args, deps.build, deps.day), deps.build.baseUrl, deps.links !== false);
  } catch (err) {
    if (err instanceof ToolInputError) return toolError(err.message);
    throw err;
  }
}
