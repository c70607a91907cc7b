/**
 * Resources of the tool server: every open feed of the build being served, at its public https URL (the
 * feed_url of the document), read as the bytes the feed's GET serves that day.
 * - listed (resources/list): the index feeds (specialties, states, teaching hospitals) and their CSVs, the
 *   methodology and licence pages, and each specialty's national document;
 * - templates (resources/templates/list): one per kind of feed (templates.ts), with completions;
 * - every resource carries the build's time as `annotations.lastModified`;
 * - on 2026-07-28 the cacheable results carry the feeds' one-hour public caching (MCP_CACHE_HINTS).
 */
import { ProtocolError, type McpServer, type ServerOptions } from '@modelcontextprotocol/server';
import type { LoadedBuild } from '../../builds/loaded-build.ts';
import { overLimit, type ToolDeps } from '../tool-result.ts';
import { FEED_CACHE_HINT, type Registration } from './common.ts';
import { staticResources } from './static.ts';
import { feedTemplates } from './templates.ts';

export { feedLinks } from './links.ts';

/** McpServer `cacheHints`: every cacheable result as the feeds are cached (`Cache-Control: public, max-age=3600`). */
export const MCP_CACHE_HINTS: NonNullable<ServerOptions['cacheHints']> = {
  'tools/list': FEED_CACHE_HINT,
  'prompts/list': FEED_CACHE_HINT,
  'resources/list': FEED_CACHE_HINT,
  'resources/templates/list': FEED_CACHE_HINT,
  'resources/read': FEED_CACHE_HINT,
  'server/discover': FEED_CACHE_HINT,
};

/** The registrations of a build for one day, made once (a server is built per request; they never change). */
const made = new WeakMap<LoadedBuild, { day: string; list: Registration[] }>();

function registrations(build: LoadedBuild, day: string): Registration[] {
  let m = made.get(build);
  if (!m || m.day !== day) made.set(build, (m = { day, list: [...staticResources(build, day), ...feedTemplates(build, day)] }));
  return m.list;
}

/** RATE_LIMITED: the JSON-RPC error code of a read refused by the per-IP limit (the HTTP answer carries Retry-After). */
export const RATE_LIMITED = -32029;

/**
 * A read counts against the caller IP's open-data limit like a tool call (route.ts counts it before it
 * runs): beyond the limit it is this JSON-RPC error instead of the document.
 */
function counted<F extends (...args: never[]) => unknown>(deps: ToolDeps, read: F): F {
  return ((...args: never[]) => {
    const limit = overLimit(deps);
    if (limit) throw new ProtocolError(RATE_LIMITED, limit);
    return read(...args);
  }) as F;
}

/**
 * Register the resources of `deps.build` (none while no build is loaded). Call before connecting: the
 * capability is declared here, without list-change notifications (each request gets a fresh server).
 */
export function registerResources(server: McpServer, deps: ToolDeps): void {
  const build = deps.build;
  if (!build) return;
  server.server.registerCapabilities({ resources: { listChanged: false } });
  for (const r of registrations(build, deps.day)) {
    if ('uri' in r) server.registerResource(r.name, r.uri, r.config, counted(deps, r.read));
    else server.registerResource(r.name, r.template, r.config, counted(deps, r.read));
  }
}
