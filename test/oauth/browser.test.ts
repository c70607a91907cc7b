/**
 * The approval page in Debian Chromium against a real server: the subscriber pastes a key and presses
 * Approve; the browser is sent on to the client's loopback redirect URI (a real server) under the page's own CSP (browsers
 * check form-action on the redirect after a form), carrying the cookie-bound form token; the code it carries
 * is exchanged by the SDK's auth(). A wrong key is said on the page, with focusable, labelled fields; axe
 * finds no violation at 390 and 1280 px. Screenshots: test-output/oauth/.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import axe from 'axe-core';
import type { AxeResults } from 'axe-core';
import type { Browser, Page } from 'playwright-core';
import { auth } from '@modelcontextprotocol/client';
import type { RunningServer } from '../../server/main.ts';
import { useGoldenDir } from '../helpers/golden-build.ts';
import { haveBrowser, launchChromium, outputDir } from '../helpers/browser.ts';
import { closeAfterAll, listen, type Listening } from '../helpers/server.ts';
import { addKey } from '../helpers/keys.ts';
import { serveGolden } from '../mcp/mcp-helpers.ts';
import { SqliteServiceStore } from '../../server/store/sqlite.ts';
import { createBearerResolver } from '../../server/oauth/service.ts';
import { BASE, fetchVia, local, TestProvider } from './provider.ts';

const work = useGoldenDir('oauth-browser');
const closeLater = closeAfterAll();
const clock = () => new Date('2026-12-01T12:00:00.000Z');
let server: RunningServer;
let db: string;
let browser: Browser;
/** the client's loopback redirect URI, served for real; it hands each request it gets to `nextCallback` */
let callback: Listening;
let redirectUri: string;
let nextCallback: (u: URL) => void = () => {};

beforeAll(async () => {
  server = closeLater(await serveGolden(work.path, work.dist, 'browser', clock));
  db = join(work.path, 'service-browser.db');
  callback = closeLater(await listen((req, res) => {
    nextCallback(new URL(req.url ?? '/', callback.url));
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  }));
  redirectUri = `${callback.url}/callback`;
  if (haveBrowser) browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

/** A registered client's authorization URL (on the test server) from the SDK. */
async function authorizationUrl(provider: TestProvider): Promise<string> {
  expect(await auth(provider, { serverUrl: `${BASE}/mcp`, fetchFn: fetchVia(server.url) })).toBe('REDIRECT');
  return local(provider.authorizationUrl!, server.url);
}

/**
 * A page at `width`, and the next request the client's redirect URI receives: a real loopback server (a
 * browser follows the redirect after the form itself; nothing intercepts it), as a native app listens.
 */
async function open(width: number, opts: { bypassCSP?: boolean } = {}): Promise<{ page: Page; redirected: Promise<URL>; csp: string[] }> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, bypassCSP: opts.bypassCSP ?? false });
  const page = await context.newPage();
  const csp: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused/i.test(m.text())) csp.push(m.text());
  });
  let resolve!: (u: URL) => void;
  const redirected = new Promise<URL>((r) => (resolve = r));
  nextCallback = resolve;
  return { page, redirected, csp };
}

describe.skipIf(!haveBrowser)('the approval page in Chromium', () => {
  it('approve: the browser goes on to the client with a code the SDK exchanges; a wrong key is said on the page', async () => {
    const key = await addKey(db, 'professional');
    const provider = new TestProvider(redirectUri);
    const { page, redirected, csp } = await open(1280);
    await page.goto(await authorizationUrl(provider));
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toMatch(/Connect an assistant/);
    expect(await page.locator('.who').textContent()).toContain(new URL(redirectUri).host);

    await page.getByLabel('Your API key').fill(`pcb_live_${'Z'.repeat(32)}`);
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForLoadState();
    expect(await page.getByRole('alert').textContent()).toMatch(/No key matches/);

    await page.getByLabel('Your API key').fill(key);
    await page.getByRole('button', { name: 'Approve' }).click();
    const back = await redirected;
    expect(`${back.origin}${back.pathname}`).toBe(redirectUri);
    expect(back.searchParams.get('state')).toBe('st-123');
    expect(csp).toEqual([]);
    await page.screenshot({ path: join(outputDir('oauth'), 'approved.png') });
    await page.context().close();

    expect(await auth(provider, { serverUrl: `${BASE}/mcp`, authorizationCode: back.searchParams.get('code')!, iss: back.searchParams.get('iss')!, fetchFn: fetchVia(server.url) })).toBe('AUTHORIZED');
    const store = new SqliteServiceStore(db);
    try {
      expect(await createBearerResolver({ store, clock })(provider.saved!.access_token)).toEqual({ apiKey: key });
    } finally {
      store.close();
    }
  });

  it('deny sends access_denied to the client', async () => {
    const { page, redirected } = await open(1280);
    await page.goto(await authorizationUrl(new TestProvider(redirectUri)));
    await page.getByRole('button', { name: 'Deny' }).click();
    expect((await redirected).searchParams.get('error')).toBe('access_denied');
    await page.context().close();
  });

  it('axe finds no violation, at 390 and 1280 px, with and without a problem shown', async () => {
    for (const width of [390, 1280]) {
      const { page } = await open(width, { bypassCSP: true }); // axe is injected as a script
      await page.goto(await authorizationUrl(new TestProvider(redirectUri)));
      for (const shown of ['plain', 'problem']) {
        if (shown === 'problem') {
          await page.getByLabel('Your API key').fill('not a key');
          await page.getByRole('button', { name: 'Approve' }).click();
          await page.waitForLoadState();
        }
        await page.addScriptTag({ content: axe.source });
        const r = await page.evaluate<AxeResults>('axe.run(document, { resultTypes: ["violations"] })');
        expect(r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), `${width} px, ${shown}`).toEqual([]);
        const wide = await page.evaluate<number>('document.documentElement.scrollWidth');
        expect(wide, `${width} px`).toBeLessThanOrEqual(width);
      }
      await page.screenshot({ path: join(outputDir('oauth'), `approval-${width}.png`), fullPage: true });
      await page.context().close();
    }
  });
});
