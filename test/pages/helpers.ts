/**
 * Helpers of the page tests: a golden build served by a real server on port 0, a JSON-path reader, and
 * the figures a page shows (read back through data-feed / data-field / data-value).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { goldenBuild, makeGoldenDb } from '../helpers/golden-build.ts';
import { startServer, type RunningServer } from '../../server/main.ts';
import { closest, elements, textOf, type HtmlElement } from '../../build/pages/parse.ts';
import type { Clock } from '../../server/http/clock.ts';

export const BASE_URL = 'https://physpay.example';

export interface Served {
  work: string;
  buildDir: string;
  server: RunningServer;
  url: string;
  close(): Promise<void>;
}

export async function serveGolden(prefix: string, clock?: Clock): Promise<Served> {
  const work = mkdtempSync(join(tmpdir(), `physpay-${prefix}-`));
  const built = goldenBuild(makeGoldenDb(work), join(work, 'dist'));
  const server = await startServer({
    dataDir: join(work, 'dist'),
    serviceDb: join(work, 'service.db'),
    host: '127.0.0.1',
    port: 0,
    ipLimits: { perMinute: 1_000_000, perDay: 10_000_000 },
    trustProxy: false,
    pollMs: 60_000,
    ...(clock ? { clock } : {}),
  });
  return {
    work,
    buildDir: built.dir,
    server,
    url: server.url,
    async close() {
      await server.close();
      rmSync(work, { recursive: true, force: true });
    },
  };
}

/** The value at a JSON path like `top_states[2].median` (undefined when absent). */
export function getPath(doc: unknown, path: string): unknown {
  let node: unknown = doc;
  for (const raw of path.match(/[^.[\]]+|\[\d+\]/g) ?? []) {
    if (node === null || typeof node !== 'object') return undefined;
    node = raw.startsWith('[') ? (node as unknown[])[Number(raw.slice(1, -1))] : (node as Record<string, unknown>)[raw];
  }
  return node;
}

export interface ShownFigure {
  feed: string;
  field: string;
  /** data-value, or undefined for a text field */
  value: string | undefined;
  text: string;
  el: HtmlElement;
}

/** Every figure and text field a page shows, with the feed it claims to come from. */
export function shownFigures(root: HtmlElement): ShownFigure[] {
  const out: ShownFigure[] = [];
  for (const el of elements(root)) {
    const field = el.attrs['data-field'];
    if (field === undefined) continue;
    const feed = closest(el, 'data-feed')?.attrs['data-feed'];
    if (feed === undefined) throw new Error(`figure ${field} on line ${el.line} is outside a data-feed section`);
    out.push({ feed, field, value: el.attrs['data-value'], text: textOf(el), el });
  }
  return out;
}

/** The number a figure's text shows ("$1,234.50" -> 1234.5, "+7.3%" -> 7.3). */
export function numberShown(text: string): number {
  return Number(text.replace(/[$,%+]/g, ''));
}
