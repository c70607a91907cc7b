/**
 * The API reference pages in headless Chromium (Debian's /usr/bin/chromium through playwright-core, as in
 * browser.test.ts): each page loads with no console error (its Content-Security-Policy violations would be
 * console errors), lists every operation of its OpenAPI document as the generator makes it now, shows each
 * operation's curl line for this server (right path, X-API-Key on keyed endpoints; every keyed operation, a
 * sample of the open-data ones) and copies it to the
 * clipboard, a keyed request can be tried from the page with a real key, the page fits a phone screen, and
 * no request leaves the test server. The pages need no build, so the server runs without one (a request
 * tried from the page goes to /me/usage, which needs none either). Screenshots go to test-output/pages/
 * (git-ignored).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { CHROMIUM, haveBrowser, launchChromium, outputDir } from '../helpers/browser.ts';
import { keyedOpenApi, openDataOpenApi } from '../../build/contract/openapi.ts';
import { SAMPLE_ORIGIN } from '../../build/contract/code-samples.ts';
import type { RunningServer } from '../../server/main.ts';
import { createKey } from '../helpers/keys.ts';
import { startTestServer } from '../helpers/server.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

const OUT = outputDir();

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const DOCS = { keyed: { doc: keyedOpenApi() as Json, prefix: '/api/v1' }, 'open-data': { doc: openDataOpenApi() as Json, prefix: '/data/api/v1' } };
const operations = (doc: Json) =>
  Object.entries(doc.paths as Json).flatMap(([path, item]) => Object.entries(item as Json).filter(([m]) => ['get', 'head', 'post'].includes(m)).map(([method, op]) => ({ path, method, op: op as Json })));

const work = useTempDir('api-reference');
let s: RunningServer;
let browser: Browser;

beforeAll(async () => {
  if (!haveBrowser) return;
  mkdirSync(join(work.path, 'dist'));
  s = await startTestServer(join(work.path, 'dist'), join(work.path, 'service.db'));
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await s?.close();
});

/** A context whose console errors, page errors, failed requests and requests to other hosts are recorded. */
async function watched(opts: Parameters<Browser['newContext']>[0] = {}): Promise<{ context: BrowserContext; page: Page; errors: string[]; external: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...opts });
  const errors: string[] = [];
  const external: string[] = [];
  context.on('request', (r) => {
    if (!r.url().startsWith(`${s.url}/`)) external.push(r.url());
  });
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') errors.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => errors.push(`request failed: ${r.url()}`));
  return { context, page, errors, external };
}

const opBlock = (page: Page, path: string, method: string) =>
  page.locator(`.opblock.opblock-${method}`).filter({ has: page.locator(`.opblock-summary-path[data-path="${path}"]`) });

describe.skipIf(!haveBrowser)(`the API reference in Chromium (${CHROMIUM})`, () => {
  it('the index links both references and their OpenAPI documents', async () => {
    const { context, page, errors, external } = await watched();
    const res = await page.goto(`${s.url}/docs/api/`);
    expect(res?.status()).toBe(200);
    const hrefs = await page.locator('main a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual(['/docs/api/keyed', '/api/v1/openapi.json', '/docs/api/open-data', '/data/api/v1/openapi.json']);
    await page.click('a[href="/docs/api/open-data"]');
    await page.locator('.opblock').first().waitFor();
    expect(errors).toEqual([]);
    expect(external).toEqual([]);
    await context.close();
  });

  /**
   * The operations whose curl line is opened and copied in the page: every keyed one; of the 22 open-data
   * ones (2.3 s each to open in Swagger UI on a busy CI machine), the first, the last, and the first of each
   * method and of each number of path parameters. Every operation's line itself is checked against the
   * document in test/contract/code-samples.test.ts; here the page's rendering of it, the same code for all.
   */
  const opened = (slug: keyof typeof DOCS, ops: ReturnType<typeof operations>) => {
    if (slug === 'keyed') return ops;
    const seen = new Set<string>();
    return ops.filter((o, i) => {
      const kinds = [`method ${o.method}`, `params ${(o.path.match(/\{/g) ?? []).length}`];
      const fresh = kinds.filter((k) => !seen.has(k));
      kinds.forEach((k) => seen.add(k));
      return i === 0 || i === ops.length - 1 || fresh.length > 0;
    });
  };

  it.each(Object.keys(DOCS) as (keyof typeof DOCS)[])('/docs/api/%s lists every operation; the curl lines opened name this server and copy', async (slug) => {
    const { doc, prefix } = DOCS[slug];
    const { context, page, errors, external } = await watched();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: s.url });
    const res = await page.goto(`${s.url}/docs/api/${slug}`);
    expect(res?.status()).toBe(200);
    await page.locator('.opblock').first().waitFor();
    const ops = operations(doc);
    expect(ops.length).toBeGreaterThan(0);
    expect(await page.locator('.opblock').count()).toBe(ops.length);
    await page.screenshot({ path: join(OUT, `api-reference-${slug}-desktop.png`) });

    for (const { path, method } of ops) expect(await opBlock(page, path, method).count(), `${method} ${path} is listed`).toBe(1);
    const sampled = opened(slug, ops);
    if (slug === 'open-data') expect(sampled.length).toBeLessThan(ops.length);
    for (const { path, method, op } of sampled) {
      const block = opBlock(page, path, method);
      await block.locator('.opblock-summary').first().click();
      const sample = block.locator('.code-sample').first();
      await sample.waitFor();
      const shown = (await sample.locator('pre').textContent())!.trim();
      // The document's line, naming this server instead of the default origin.
      expect(shown).toBe((op['x-codeSamples'][0].source as string).replace(`"${SAMPLE_ORIGIN}/`, `"${s.url}/`));
      const url = /"(http[^"]+)"$/.exec(shown)![1]!;
      const filled = path.replace(/\{(\w+)\}/g, (_m, name: string) => (op.parameters as Json[]).find((p) => p.name === name)!.example);
      expect(new URL(url).pathname).toBe(`${prefix}${filled}`);
      if (slug === 'keyed') expect(shown).toMatch(/^curl (-X POST )?-H "X-API-Key: pcb_live_\.\.\." "/);
      else expect(shown).not.toContain('-H');
      await sample.locator('.copy-to-clipboard button').click();
      await expect.poll(() => page.evaluate<string>('navigator.clipboard.readText()'), { message: `copy ${method} ${path}` }).toBe(shown);
      await block.locator('.opblock-summary').first().click(); // close it again: keeps the page light
    }
    expect(errors).toEqual([]);
    expect(external).toEqual([]);
    await context.close();
  }, 120_000);

  it('a keyed request can be tried from the page with a real key: 200, and the executed curl line carries the key', async () => {
    const key = await createKey(s.store, 'starter');
    const { context, page, errors, external } = await watched();
    await page.goto(`${s.url}/docs/api/keyed`);
    await page.click('button.authorize');
    await page.locator('.auth-container input').fill(key.key);
    await page.locator('.auth-btn-wrapper button.authorize').click();
    await page.locator('.auth-btn-wrapper button.btn-done').click();
    const block = opBlock(page, '/me/usage', 'get');
    await block.locator('.opblock-summary').first().click();
    await block.locator('button.try-out__btn').click();
    await block.locator('button.execute').click();
    const status = block.locator('.live-responses-table tr.response .response-col_status').first();
    await expect.poll(() => status.textContent(), { timeout: 15_000 }).toMatch(/^\s*200\b/);
    const snippet = (await block.locator('.request-snippets pre').first().textContent()) ?? '';
    expect(snippet).toContain(`${s.url}/api/v1/me/usage`);
    const body = (await block.locator('.live-responses-table .response-col_description pre').first().textContent()) ?? '';
    expect(body).toContain('"plan_tier": "starter"');
    expect(body).toContain(key.prefix);
    expect(snippet).toContain(`X-API-Key: ${key.key}`);
    expect(errors).toEqual([]);
    expect(external).toEqual([]);
    await context.close();
  }, 60_000);

  it('fits a phone screen: no sideways scroll with an operation open', async () => {
    const { context, page, errors, external } = await watched({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    await page.goto(`${s.url}/docs/api/keyed`);
    const block = opBlock(page, '/benchmarks', 'get');
    await block.locator('.opblock-summary').first().click();
    await block.locator('.code-sample').waitFor();
    expect(await block.locator('.code-sample').isVisible()).toBe(true);
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(OUT, 'api-reference-keyed-phone.png') });
    expect(errors).toEqual([]);
    expect(external).toEqual([]);
    await context.close();
  }, 60_000);
});
