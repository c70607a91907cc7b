/**
 * What the resources share: their URIs (the public https URLs of the build, so a resource, the feed_url of
 * its document and a tool's resource_link are one address), the served bytes of a file for the day, the
 * build's lastModified, titles read from the documents themselves (once per build) and the cache hint.
 */
import type { Annotations, CacheHint, ReadResourceCallback, ReadResourceResult, ReadResourceTemplateCallback, ResourceMetadata, ResourceTemplate } from '@modelcontextprotocol/server';
import type { LoadedBuild, ServedFile } from '../../builds/loaded-build.ts';
import { PUBLIC_CACHE_CONTROL } from '../../http/send.ts';

/** One registerResource call: a fixed resource or a template (built once per build and day, registered per request). */
export type Registration =
  | { name: string; uri: string; config: ResourceMetadata; read: ReadResourceCallback }
  | { name: string; template: ResourceTemplate; config: ResourceMetadata; read: ReadResourceTemplateCallback };

/** Where the open feeds live under the base URL. */
export const FEED_ROOT = '/data/api/v1';

/** The feeds' one-hour `Cache-Control: public, max-age=3600`, as an MCP cache hint (2026-07-28 results). */
export const FEED_CACHE_HINT: CacheHint = {
  ttlMs: Number(/max-age=(\d+)/.exec(PUBLIC_CACHE_CONTROL)![1]) * 1000,
  cacheScope: 'public',
};

/** The public URL of a path of the build (`/data/api/v1/...`, `/methodology`). */
export const uriOf = (build: LoadedBuild, path: string): string => `${build.baseUrl}${path}`;

/** A resource's name: its path under /data/api/v1 (`specialties/cardiology.json`), or the page's (`methodology`). */
export const nameOf = (path: string): string => (path.startsWith(`${FEED_ROOT}/`) ? path.slice(FEED_ROOT.length + 1) : path.replace(/^\//, ''));

/** The media type of a served file without parameters (`application/json; charset=utf-8` -> `application/json`). */
export const mimeOf = (file: ServedFile): string => file.contentType.split(';')[0]!.trim();

interface PerBuild {
  lastModified: string;
  titles: Map<string, string>;
}
const perBuild = new WeakMap<LoadedBuild, PerBuild>();

function of(build: LoadedBuild): PerBuild {
  let p = perBuild.get(build);
  if (!p) {
    const t = Date.parse(build.createdAt);
    perBuild.set(build, (p = { lastModified: Number.isNaN(t) ? build.createdAt : new Date(t).toISOString(), titles: new Map() }));
  }
  return p;
}

/**
 * lastModified of every resource of a build: the build's `created_at` (build.json), the moment the files it
 * serves were written. Not `as_of`: that is the date of the newest report behind a document's figures (a
 * day, and different per document), which the documents carry themselves.
 */
export const annotationsOf = (build: LoadedBuild): Annotations => ({ lastModified: of(build).lastModified });

/** A JSON document's own `title` (read once per build), or `fallback`. */
export function titleOf(build: LoadedBuild, path: string, day: string, fallback: string): string {
  const p = of(build);
  let title = p.titles.get(path);
  if (title === undefined) {
    const file = build.files.get(path);
    title = fallback;
    if (file && mimeOf(file) === 'application/json') {
      try {
        const t = (JSON.parse(build.render(file, day).body.toString('utf8')) as { title?: unknown }).title;
        if (typeof t === 'string' && t) title = t;
      } catch {
        // not a document with a title: the fallback
      }
    }
    p.titles.set(path, title);
  }
  return title;
}

/** resources/read: the bytes the GET of the same URL serves today, as text. */
export function readFile(build: LoadedBuild, file: ServedFile, day: string): ReadResourceResult {
  return { contents: [{ uri: uriOf(build, file.urlPath), mimeType: mimeOf(file), text: build.render(file, day).body.toString('utf8') }] };
}

/** Decode one URI template variable (a slug may come percent-encoded: `ob%2Fgyn`); left as is when malformed. */
export function decodeVar(v: string | string[] | undefined): string {
  const s = Array.isArray(v) ? v.join(',') : (v ?? '');
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
