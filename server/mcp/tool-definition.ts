/**
 * A tool as data: its name, description, schemas and the work it does over a loaded build. The MCP server
 * registers every definition with the SDK (server.ts), and the route's direct path (direct-call.ts) runs
 * the same definitions, so both answer a call with the same result.
 */
import type { z } from 'zod';
import type { ToolAnnotations } from '@modelcontextprotocol/server';
import type { LoadedBuild } from '../builds/loaded-build.ts';
import type { ListedOutput } from './schemas.ts';

/** What a tool's work returns: the human text, the structuredContent, and the feeds it came from. */
export interface ToolOutput {
  text: string;
  structured: object;
  /** public paths (under the build's base URL) of the published documents the result is (JSON feed, CSV) */
  links?: ToolLink[];
}

export interface ToolLink {
  /** path under the base URL, e.g. /data/api/v1/specialties/cardiology.json */
  path: string;
  name: string;
  title: string;
  mimeType: 'application/json' | 'text/csv';
}

export interface ToolDefinition<S extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  inputSchema: S;
  outputSchema: z.ZodObject;
  /** How tools/list gives the output schema: n, as_of, attribution and `keep` by type; `see` names the JSON Schema of every field (schemas.ts). */
  listed: ListedOutput;
  /** extra `_meta` of the tool in tools/list (e.g. the MCP Apps `ui` resource) */
  meta?: Record<string, unknown>;
  /** the tool's work: pure over the build and the access day; a ToolInputError becomes a tool error */
  work(args: z.infer<S>, build: LoadedBuild, day: string): ToolOutput;
}

/** Every physpay tool only reads published figures: the same arguments give the same result for a build. */
export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

export const defineTool = <S extends z.ZodObject>(d: ToolDefinition<S>): ToolDefinition<S> => d;
