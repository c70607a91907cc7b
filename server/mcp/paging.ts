/**
 * Results under 8 kB unless asked for more: the long list of a document (list_specialties' specialties, a
 * state's teaching hospitals) comes a page at a time (`limit`, `offset`), and a specialty document's
 * longest parts only with `detail: "full"`. A cut result says so, the same in structuredContent and text:
 * `truncated: true` and `page` (what is here, how many in all, the arguments of the next call, the full feed
 * and its CSV). The items are the feed's own, unchanged.
 */
import { z } from 'zod';
import type { ToolLink } from './tool-definition.ts';
import { ToolInputError } from './lookup.ts';

/** `limit` (1..max, default `def`) and `offset` (from 0) of a paged tool. */
export function pageArgs(items: string, def: number, max: number) {
  return {
    limit: z.number().int().min(1).max(max, `limit is at most ${max}; page with offset (page.next) for more`).optional().describe(`Most ${items} to return (default ${def})`),
    offset: z.number().int().min(0).max(100_000).optional().describe(`${items[0]!.toUpperCase()}${items.slice(1)} to skip (page.next gives it)`),
  };
}

/** What a cut result carries besides `truncated: true`. */
export interface Page {
  /** the first item here, from 0 */
  offset: number;
  limit: number;
  /** items here */
  returned: number;
  /** items in the whole list */
  total: number;
  /** the arguments of the call giving the next page; absent on the last page */
  next?: Record<string, unknown>;
  /** the whole list: the open feed and its CSV (when published) */
  feed_url: string;
  csv_url?: string;
}

/** The full feed and its CSV, as absolute URLs, from a result's links. */
export function fullLinks(baseUrl: string, links: ToolLink[]): { feed_url: string; csv_url?: string } {
  const json = links.find((l) => l.mimeType === 'application/json');
  const csv = links.find((l) => l.mimeType === 'text/csv');
  return { feed_url: `${baseUrl}${json?.path ?? ''}`, ...(csv ? { csv_url: `${baseUrl}${csv.path}` } : {}) };
}

/**
 * One page of `items` for the call's arguments (`args` as given, with limit and offset). `page` is null when
 * the page holds the whole list (nothing cut). An offset past the end is an error saying how many there are.
 */
export function pageOf<T>(items: readonly T[], args: Record<string, unknown> & { limit?: number; offset?: number }, def: number, full: { feed_url: string; csv_url?: string }, what: string): { items: T[]; page: Page | null } {
  const limit = args.limit ?? def;
  const offset = args.offset ?? 0;
  const total = items.length;
  if (offset > 0 && offset >= total) throw new ToolInputError(`offset ${offset} is past the end: there are ${total} ${what} (offsets 0 to ${Math.max(0, total - 1)}).`);
  const page = items.slice(offset, offset + limit);
  if (offset === 0 && page.length === total) return { items: page, page: null };
  const rest = Object.fromEntries(Object.entries(args).filter(([k, v]) => v !== undefined && v !== null && v !== '' && k !== 'limit' && k !== 'offset'));
  const next = offset + page.length < total ? { ...rest, offset: offset + page.length, limit } : undefined;
  return { items: page, page: { offset, limit, returned: page.length, total, ...(next ? { next } : {}), ...full } };
}

/** The text's line for a cut list: which items these are, and how to get the rest. */
export function pageText(page: Page | null, what: string): string {
  if (!page) return '';
  const range = page.returned ? `${page.offset + 1}-${page.offset + page.returned}` : 'none';
  const next = page.next ? ` Next page: the same call with ${JSON.stringify({ offset: page.next.offset, limit: page.limit }).slice(1, -1)}.` : ' This is the last page.';
  return `Truncated: ${what} ${range} of ${page.total} here.${next} All of them: ${page.feed_url}${page.csv_url ? ` (CSV ${page.csv_url})` : ''}.`;
}
