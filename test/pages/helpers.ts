/**
 * Helpers of the page tests: a golden build served by a real server on port 0 (with Chromium for the browser
 * tests), a JSON-path reader, and the figures a page shows (read back through data-feed / data-field /
 * data-value).
 */
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { Browser } from 'playwright-core';
import { haveBrowser, launchChromium } from '../helpers/browser.ts';
import { goldenBuildIn } from '../helpers/golden-build.ts';
import { startTestServer } from '../helpers/server.ts';
import { makeTempDir, removeDir } from '../helpers/temp-dir.ts';
import type { RunningServer } from '../../server/main.ts';
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
  const work = makeTempDir(prefix);
  const built = goldenBuildIn(work);
  const server = await startTestServer(built.dist, join(work, 'service.db'), clock ? { clock } : {});
  return {
    work,
    buildDir: built.buildDir,
    server,
    url: server.url,
    async close() {
      await server.close();
      removeDir(work);
    },
  };
}

/**
 * For a browser test file: beforeAll serves the golden build (serveGolden) and launches Chromium, and hands
 * both to `use`; afterAll closes them. Nothing happens when Chromium is not installed (the tests skip).
 */
export function useGoldenInChromium(prefix: string, use: (env: { s: Served; browser: Browser }) => void): void {
  let s: Served | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    if (!haveBrowser) return;
    s = await serveGolden(prefix);
    browser = await launchChromium();
    use({ s, browser });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });
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
