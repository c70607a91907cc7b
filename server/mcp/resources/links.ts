/**
 * The resource_links of a tool result: the document's own feed (its `feed_url`, which is also the URI of
 * the resource that reads it) and the CSV beside it when the build publishes one.
 */
import type { LoadedBuild } from '../../builds/loaded-build.ts';
import type { ToolLink } from '../tool-definition.ts';
import { nameOf } from './common.ts';

export function feedLinks(build: LoadedBuild, doc: { feed_url: string; title: string }): ToolLink[] {
  let path: string;
  if (doc.feed_url.startsWith(`${build.baseUrl}/`)) path = doc.feed_url.slice(build.baseUrl.length);
  else {
    try {
      path = new URL(doc.feed_url).pathname;
    } catch {
      return [];
    }
  }
  const links: ToolLink[] = [{ path, name: nameOf(path), title: doc.title, mimeType: 'application/json' }];
  const csv = path.replace(/\.json$/, '.csv');
  if (csv !== path && build.files.has(csv)) links.push({ path: csv, name: nameOf(csv), title: `${doc.title} (CSV)`, mimeType: 'text/csv' });
  return links;
}
