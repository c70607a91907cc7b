/**
 * The inline pay chart (MCP Apps) of get_specialty_pay, evaluate_compensation and evaluate_offer:
 * - its drawing code (browser JS) is a faithful port of the pages' pure functions: same formatting, same
 *   geometry, the same SVG as a specialty page for the same figures (run here in Node);
 * - over real HTTP on the golden build (SDK v2 client pinned to 2026-07-28, and the v1 client on 2025):
 *   tools/list carries the ui `_meta` on exactly those two tools, resources/list and resources/read give
 *   the self-contained HTML with the MCP Apps MIME type and an empty CSP;
 * - in Debian's Chromium, inside a page that plays the host (an iframe srcdoc, sandboxed, answering
 *   ui/initialize and sending the result of a real tools/call), with every network request blocked: the
 *   figures drawn and tabled equal the feed's, the chart equals the page's, the pay marker sits where the
 *   pay falls, withheld figures draw nothing; no request is ever attempted. Screenshots at 390 and 1280 px
 *   go to /tmp/physpay-shots/.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Browser, BrowserContext, FrameLocator, Page } from 'playwright-core';
import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from '@modelcontextprotocol/client';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/ext-apps';
import { RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server';
import type { RunningServer } from '../../server/main.ts';
import type { SpecialtyFeed, SpecialtyStateFeed } from '../../build/contract/open-feeds.ts';
import type { OfferCheck } from '../../build/contract/offer-check.ts';
import { fmtCount, fmtMoney, fmtMoneyShort } from '../../build/pages/html.ts';
import { percentileBarSvg, percentileGeometry, type PercentileFigures } from '../../build/pages/chart.ts';
import { distributionDesc } from '../../build/pages/blocks.ts';
import { PAY_CHART_TOOL_META, PAY_CHART_UI_META } from '../../server/mcp/apps/index.ts';
import { APPS_PROTOCOL_VERSION, PAY_CHART_CSP, PAY_CHART_URI, payChartHtml } from '../../server/mcp/apps/pay-chart.ts';
import { PAY_CHART_VIEW_JS, VIEW_EXPORTS } from '../../server/mcp/apps/pay-chart-view.ts';
import { haveBrowser, launchChromium } from '../helpers/browser.ts';
import { useGoldenDir } from '../helpers/golden-build.ts';
import { get } from '../helpers/http.ts';
import { closeAfterAll } from '../helpers/server.ts';
import { TOOL_NAMES, connectClient, feed, serveGolden } from './mcp-helpers.ts';

const SHOTS = '/tmp/physpay-shots';
const UI_TOOLS = ['get_specialty_pay', 'evaluate_compensation', 'evaluate_offer'];

// ------------------------------------------------------------------------------- the view code, in Node

interface View {
  esc(v: unknown): string;
  fmtCount(n: number): string;
  fmtMoney(v: number, cents?: boolean): string;
  fmtMoneyShort(v: number): string;
  niceDomain(lo: number, hi: number): unknown;
  percentileGeometry(p: PercentileFigures, reference?: number | null, pay?: number | null): Record<string, unknown> | null;
  percentileBarSvg(c: { id: string; title: string; desc: string }, p: PercentileFigures, opts?: Record<string, unknown>): string;
  distributionDesc(s: PercentileFigures & { n: number | null }): string;
  payChartView(result: unknown): string;
}
const view = new Function(`${PAY_CHART_VIEW_JS}\nreturn {${VIEW_EXPORTS.join(',')}};`)() as View;

/** Published-looking percentile figures: ascending, whole dollars or not, any of them possibly withheld (null) like the feeds. */
const figures = fc
  .tuple(fc.array(fc.double({ min: 1, max: 5_000_000, noNaN: true }), { minLength: 5, maxLength: 5 }), fc.integer({ min: 0, max: 3 }), fc.boolean())
  .map(([vs, shape, whole]) => {
    const s = vs.map((v) => (whole ? Math.round(v) : v)).sort((a, b) => a - b) as [number, number, number, number, number];
    const p: PercentileFigures = { p10: s[0], p25: s[1], median: s[2], p75: s[3], p90: s[4] };
    if (shape === 1) Object.assign(p, { p10: null, p90: null }); // tails below 15 reports
    if (shape === 2) Object.assign(p, { p10: null, p25: null, median: null, p75: null, p90: null }); // withheld
    return p;
  });

/** The drawn elements of an SVG (line, rect, text with its tspans, path), sorted. */
const svgElements = (svg: string) => [...svg.matchAll(/<(line|rect|text|path)\b[^>]*>(?:[^<]|<tspan[^>]*>[^<]*<\/tspan>)*<\/\1>/g)].map((m) => m[0]).sort();

describe('the view code is a port of the pages\' pure functions', () => {
  it('formats dollars and counts exactly like build/pages/html.ts', () => {
    fc.assert(fc.property(fc.double({ min: -2e9, max: 2e9, noNaN: true }), fc.boolean(), (v, cents) => {
      expect(view.fmtMoney(v, cents)).toBe(fmtMoney(v, cents));
      expect(view.fmtMoneyShort(v)).toBe(fmtMoneyShort(v));
      expect(view.fmtCount(v)).toBe(fmtCount(v));
    }), { numRuns: 3000 });
    for (const v of [0, 999.5, 9_999, 10_000, 273_100, 999_999, 1_000_000, 1_250_000, 12_345_678.9]) {
      expect(view.fmtMoneyShort(v)).toBe(fmtMoneyShort(v));
      expect(view.fmtMoney(v)).toBe(fmtMoney(v));
    }
  });

  it('draws the same percentile bar as build/pages/chart.ts (and the same <desc> as blocks.ts)', () => {
    fc.assert(fc.property(figures, fc.option(fc.double({ min: 1, max: 5_000_000, noNaN: true }), { nil: null }), fc.option(fc.integer({ min: 3, max: 9999 }), { nil: null }), (p, refValue, n) => {
      const ref = refValue === null ? null : { value: refValue, label: 'US median', field: 'national_median' };
      const c = { id: 'dist', title: 'T <&>', desc: 'D' };
      const mineSvg = view.percentileBarSvg(c, p, { reference: ref });
      const pageSvg = percentileBarSvg(c, p, { reference: ref });
      // The same elements, attribute for attribute (the view draws the lines before the labels).
      expect(mineSvg.length).toBe(pageSvg.length);
      expect(svgElements(mineSvg)).toEqual(svgElements(pageSvg));
      if (pageSvg) expect(svgElements(pageSvg).length).toBeGreaterThan(8);
      expect(mineSvg.slice(0, mineSvg.indexOf('<g class="grid">'))).toBe(pageSvg.slice(0, pageSvg.indexOf('<g class="grid">')));
      const g = percentileGeometry(p, refValue);
      const mine = view.percentileGeometry(p, refValue);
      if (g === null) expect(mine).toBeNull();
      else expect({ ...mine, x: undefined, pay: undefined }).toEqual({ ...g, x: undefined, pay: undefined });
      const s = { ...p, n, mean: null, rounded: false, withheld: p.median === null };
      expect(view.distributionDesc(s)).toBe(distributionDesc(s, 'usd'));
    }), { numRuns: 1500 });
  });

  it('a pay inside the figures keeps the page\'s scale, up to 1.5x the highest figure widens it; further out the scale stays and the pay sits at the edge, off the scale', () => {
    const p = { p10: 200_000, p25: 250_000, median: 300_000, p75: 350_000, p90: 400_000 };
    const page = percentileGeometry(p)!;
    const inside = view.percentileGeometry(p, null, 320_000)!;
    expect(inside.domain).toEqual(page.domain);
    expect(inside.pay).toEqual({ x: page.x(320_000), off: false });
    expect(view.percentileGeometry(p, null, 550_000)!.pay).toMatchObject({ off: false });
    const far = view.percentileGeometry(p, null, 5_000_000)!;
    expect(far.pay).toEqual({ x: 384, off: true });
    expect(far.domain).toEqual(page.domain);
  });

  it('says what it cannot draw: withheld figures, tool errors, other documents', () => {
    const withheld = view.payChartView({ content: [], structuredContent: { n: null, median: null, p10: null, p25: null, p75: null, p90: null, mean: null, scope: 'national', specialty: { name: 'X' }, withheld: true, notice: 'Figures withheld: fewer than 5.', as_of: '2026-01-01', attribution: 'A' } });
    expect(withheld).not.toContain('<svg');
    expect(withheld).toContain('Figures withheld: fewer than 5.');
    expect(withheld).toContain('No chart');
    expect(view.payChartView({ isError: true, content: [{ type: 'text', text: 'Unknown specialty "<b>".' }] })).toBe('<p class="error" role="alert">Unknown specialty &quot;&lt;b&gt;&quot;.</p>');
    expect(view.payChartView({ content: [{ type: 'text', text: 'hi' }], structuredContent: { count: 3 } })).toContain('no pay figures');
  });

  it('the document is self-contained: inline style and script only, a CSP allowing nothing from outside, no "</script" inside the script', () => {
    const html = payChartHtml();
    expect(html).toBe(payChartHtml());
    expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">/);
    expect(html).not.toMatch(/\s(src|href|srcset|action|poster|data)=/i); // nothing to fetch in the markup (links are made from the result's https citation_url only)
    expect(html).not.toMatch(/@import|@font-face|\burl\(|<link|<img|<iframe|fetch\(|XMLHttpRequest|WebSocket|EventSource|sendBeacon|import\(/i);
    expect(html.match(/https?:\/\/[^'"\s)]*/g)).toEqual(['http://www.w3.org/2000/svg']); // the SVG namespace, never fetched
    expect(html.match(/<\/script/gi)).toHaveLength(1);
    expect(html.match(/<script>/g)).toHaveLength(1);
    expect(APPS_PROTOCOL_VERSION).toBe(LATEST_PROTOCOL_VERSION);
    expect(html).toContain(`var PROTOCOL='${LATEST_PROTOCOL_VERSION}'`);
    expect(Buffer.byteLength(html)).toBeLessThan(40_000);
  });
});

// ------------------------------------------------------------------------------- over HTTP

const work = useGoldenDir('mcp-apps');
const closeLater = closeAfterAll();
const clock = () => new Date('2026-12-01T12:00:00Z');
let server: RunningServer;
let url: string;
let client: V2Client;

beforeAll(async () => {
  server = closeLater(await serveGolden(work.path, work.dist, 'apps', clock));
  url = server.url;
  client = new V2Client({ name: 'physpay-apps-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new V2Transport(new URL(`${url}/mcp`)));
}, 60_000);

afterAll(async () => {
  await client?.close();
});

describe('tools/list and the ui:// resource', () => {
  it('get_specialty_pay, evaluate_compensation and evaluate_offer name the chart in _meta (ui.resourceUri and the legacy ui/resourceUri); the other tools do not', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
    for (const t of tools) {
      if (UI_TOOLS.includes(t.name)) {
        expect(t._meta, t.name).toMatchObject({ ui: { resourceUri: PAY_CHART_URI }, [RESOURCE_URI_META_KEY]: PAY_CHART_URI });
        expect(t._meta).toMatchObject(PAY_CHART_TOOL_META);
      } else {
        expect(t._meta?.ui, t.name).toBeUndefined();
        expect(t._meta?.[RESOURCE_URI_META_KEY], t.name).toBeUndefined();
      }
    }
  });

  it('resources/list and resources/read give the HTML with the MCP Apps MIME type and an empty CSP (2026-07-28)', async () => {
    const { resources } = await client.listResources();
    const listed = resources.find((r) => r.uri === PAY_CHART_URI);
    expect(listed, 'the chart is listed').toBeTruthy();
    expect(listed!.mimeType).toBe(RESOURCE_MIME_TYPE);
    expect(RESOURCE_MIME_TYPE).toBe('text/html;profile=mcp-app');
    expect(listed!._meta).toEqual(PAY_CHART_UI_META);
    const read = await client.readResource({ uri: PAY_CHART_URI });
    expect(read.contents).toHaveLength(1);
    const c = read.contents[0] as { uri: string; mimeType: string; text: string; _meta: unknown };
    expect(c.uri).toBe(PAY_CHART_URI);
    expect(c.mimeType).toBe(RESOURCE_MIME_TYPE);
    expect(c.text).toBe(payChartHtml());
    expect(c._meta).toEqual({ ui: { csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] }, prefersBorder: true } });
  });

  it('the 2025 era (v1 client) sees the same _meta and reads the same HTML', async () => {
    const v1 = closeLater(await connectClient(url, 'physpay-apps-v1'));
    const { tools } = await v1.listTools();
    for (const name of UI_TOOLS) expect(tools.find((t) => t.name === name)!._meta).toMatchObject(PAY_CHART_TOOL_META);
    const read = await v1.readResource({ uri: PAY_CHART_URI });
    expect(read.contents[0]).toMatchObject({ mimeType: RESOURCE_MIME_TYPE, text: payChartHtml() });
  });
});

// ------------------------------------------------------------------------------- in Chromium

/** The outer page a host would be: the view in a sandboxed srcdoc iframe, answering ui/initialize and then sending the tool input and result. */
function hostPage(appHtml: string, toolName: string, args: Record<string, unknown>, result: unknown, theme: 'light' | 'dark'): string {
  const j = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c');
  return `<!doctype html><html><head><meta charset="utf-8"><title>test host</title>
<style>body{margin:0;padding:12px;background:${theme === 'dark' ? '#161b22' : '#f6f8fa'};color:${theme === 'dark' ? '#e6edf3' : '#1b1f24'};font:14px system-ui,sans-serif}
.chat{max-width:760px;margin:0 auto}.turn{margin:.25rem 0 .5rem}iframe{display:block;width:100%;height:120px;border:1px solid #8c959f;border-radius:8px}</style></head>
<body><div class="chat"><p class="turn">Assistant called <code>${toolName}</code>:</p><iframe id="view" title="physpay chart" sandbox="allow-scripts"></iframe></div>
<script>
var APP=${j(appHtml)},RESULT=${j(result)},ARGS=${j(args)},TOOL=${j({ name: toolName, inputSchema: { type: 'object' } })},THEME=${j(theme)};
var frame=document.getElementById('view');window.__fromView=[];window.__height=0;
function post(m){frame.contentWindow.postMessage(m,'*')}
window.addEventListener('message',function(ev){if(ev.source!==frame.contentWindow)return;var m=ev.data;window.__fromView.push(m);
if(m.method==='ui/initialize')post({jsonrpc:'2.0',id:m.id,result:{protocolVersion:m.params.protocolVersion,hostInfo:{name:'physpay-test-host',version:'1.0.0'},hostCapabilities:{openLinks:{}},hostContext:{theme:THEME,displayMode:'inline',availableDisplayModes:['inline'],platform:'web',locale:'en-US',toolInfo:{id:1,tool:TOOL}}}});
else if(m.method==='ui/notifications/initialized'){post({jsonrpc:'2.0',method:'ui/notifications/tool-input',params:{arguments:ARGS}});post({jsonrpc:'2.0',method:'ui/notifications/tool-result',params:RESULT});post({jsonrpc:'2.0',id:'ping-1',method:'ping',params:{}})}
else if(m.method==='ui/notifications/size-changed'&&m.params.height>0){frame.style.height=m.params.height+'px';window.__height=m.params.height}});
frame.srcdoc=APP;
</script></body></html>`;
}

interface Shown {
  fields: { field: string; value: string | null; text: string; inSvg: boolean }[];
  text: string;
  svg: string | null;
  fromView: { method?: string; id?: unknown; params?: Record<string, unknown>; result?: unknown }[];
}

describe.skipIf(!haveBrowser)('the chart in Debian Chromium, inside a host page, with no network', () => {
  let browser: Browser;
  let context: BrowserContext;
  const attempted: string[] = [];
  const problems: string[] = [];
  let appHtml: string;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    // Sandboxed iframes get a process of their own by default, and Playwright then misses some of their
    // requests (an <img> in a sandboxed srcdoc: seen without this flag only once it is off). Kept in process, every request is seen.
    browser = await launchChromium(['--disable-features=IsolateSandboxedIframes']); // a Chromium of its own, with this feature off
    context = await browser.newContext();
    await context.route('**', (route) => {
      attempted.push(route.request().url());
      return route.abort();
    });
    const read = await client.readResource({ uri: PAY_CHART_URI });
    appHtml = (read.contents[0] as { text: string }).text;
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  async function call(name: string, args: Record<string, unknown>) {
    return client.callTool({ name, arguments: args });
  }

  /** Render a real tool result in the host page at `width`; screenshot it as `shot`. */
  async function render(name: string, args: Record<string, unknown>, shot: string, opts: { width?: number[]; theme?: 'light' | 'dark'; openTable?: boolean } = {}): Promise<{ result: Awaited<ReturnType<typeof call>>; shown: Shown }> {
    const result = await call(name, args);
    let shown: Shown | null = null;
    for (const width of opts.width ?? [390, 1280]) {
      const page: Page = await context.newPage();
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') problems.push(`${shot}: console ${m.type()}: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`${shot}: ${e.message}`));
      page.on('request', (r) => {
        if (!r.url().startsWith('data:') && r.url() !== 'about:srcdoc') attempted.push(r.url());
      });
      await page.setViewportSize({ width, height: 900 });
      await page.setContent(hostPage(appHtml, name, args, result, opts.theme ?? 'light'));
      const frame: FrameLocator = page.frameLocator('#view');
      await frame.locator('main[aria-busy="false"]').waitFor({ timeout: 10_000 });
      await page.waitForFunction('window.__height > 0 && Math.abs(document.getElementById("view").getBoundingClientRect().height - window.__height) < 3');
      await page.waitForTimeout(100); // a last size change after layout settles
      if (opts.openTable) {
        // Opening the table makes the view taller: it tells the host, which grows the frame.
        const before = await page.evaluate<number>('window.__height');
        await frame.locator('summary').click();
        await page.waitForFunction(`window.__height > ${before} + 100 && Math.abs(document.getElementById("view").getBoundingClientRect().height - window.__height) < 3`);
        await page.waitForTimeout(100);
      }
      await page.screenshot({ path: join(SHOTS, `${shot}-${width}.png`), fullPage: true });
      // No scrollbar inside the view: the host sized it to its content.
      expect(await frame.locator('html').evaluate((el) => el.scrollHeight - el.clientHeight)).toBeLessThanOrEqual(2);
      shown = {
        fields: await frame.locator('[data-field]').evaluateAll((els) => els.map((e) => ({ field: e.getAttribute('data-field')!, value: e.getAttribute('data-value'), text: e.textContent ?? '', inSvg: e.closest('svg') !== null }))),
        text: await frame.locator('main').innerText(),
        svg: (await frame.locator('svg.chart').count()) ? await frame.locator('svg.chart').evaluate((e) => e.outerHTML) : null,
        fromView: await page.evaluate<Shown['fromView']>('window.__fromView'),
      };
      await page.close();
    }
    return { result, shown: shown! };
  }

  /** The value at a JSON path ("percentiles.p10") of a document. */
  const at = (doc: unknown, path: string): unknown => path.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], doc);

  /** Every figure shown carries its path in the structuredContent; its value is that number, written as the pages write it. */
  function expectFiguresOf(shown: Shown, doc: Record<string, unknown>) {
    expect(shown.fields.length).toBeGreaterThan(0);
    for (const f of shown.fields) {
      const want = at(doc, f.field);
      if (f.field === 'as_of' || f.field === 'attribution' || f.field === 'notice' || f.field === 'band') {
        if (f.field === 'band') expect(f.text).toBe(String(want).replace('-', '\u2013'));
        else expect(f.text, f.field).toBe(want);
        continue;
      }
      if (want === null) {
        expect(f.value, f.field).toBe('null');
        expect(f.text, f.field).toMatch(/^withheld|outside the published percentiles/);
        continue;
      }
      expect(typeof want, f.field).toBe('number');
      expect(Number(f.value), f.field).toBe(want);
      if (f.field === 'n') expect(f.text).toBe(fmtCount(want as number));
      else if (f.field === 'percentile') expect(f.text).toBe((want as number).toFixed(1));
      else expect(f.text, f.field).toBe(fmtMoney(want as number, !Number.isInteger(want)));
    }
  }

  /** n, as_of, "self-reported" and the attribution are in the view's text. */
  function expectQuotable(shown: Shown, doc: { n: number | null; as_of: string; attribution: string }) {
    if (doc.n !== null) expect(shown.text).toContain(`${fmtCount(doc.n)} approved self-reported reports`);
    else expect(shown.text).toContain('self-reported');
    expect(shown.text).toContain(doc.as_of);
    expect(shown.text).toContain(doc.attribution);
  }

  /** The drawn elements of a chart: whisker, box, median and US median lines, figure labels and ticks. */
  function drawn(svg: string): string[] {
    return [
      ...svg.matchAll(/<(?:rect|line) class="(?:box|whisker|median|reference)"[^>]*>/g),
      ...svg.matchAll(/<tspan data-field="[^"]+" data-value="[^"]+">[^<]*<\/tspan>/g),
      ...svg.matchAll(/<text [^>]*class="tick">[^<]*<\/text>/g),
    ].map((m) => m[0]);
  }

  /** The same chart as the feed's page (citation_url, served by the same server). */
  async function expectSameChartAsPage(shown: Shown, doc: { citation_url: string }) {
    const page = await get(url, new URL(doc.citation_url).pathname);
    expect(page.status).toBe(200);
    const svg = /<svg[^>]*data-chart="dist"[^>]*>[\s\S]*?<\/svg>/.exec(page.text)?.[0];
    expect(svg, 'the page has a distribution chart').toBeTruthy();
    expect(drawn(shown.svg!)).toEqual(drawn(svg!));
  }

  /** The protocol as the host saw it: ui/initialize first (the ext-apps version), initialized, a size, the ping answered. */
  function expectProtocol(shown: Shown) {
    const first = shown.fromView[0]!;
    expect(first.method).toBe('ui/initialize');
    expect(first.params).toMatchObject({ protocolVersion: LATEST_PROTOCOL_VERSION, appInfo: { name: 'physpay-pay-chart' } });
    const methods = shown.fromView.map((m) => m.method);
    expect(methods).toContain('ui/notifications/initialized');
    expect(methods).toContain('ui/notifications/size-changed');
    expect(shown.fromView.find((m) => m.id === 'ping-1')).toMatchObject({ result: {} });
  }

  const docOf = <T,>(r: { structuredContent?: unknown }) => r.structuredContent as T;

  it('get_specialty_pay, national: the feed\'s P10-P90, n and as_of, drawn as on the page', async () => {
    const expected = await feed<SpecialtyFeed>(url, '/specialties/cardiology.json');
    // the whole document, to compare with the feed (the default summary draws the same figures)
    const { result, shown } = await render('get_specialty_pay', { specialty: 'Cardiology', detail: 'full' }, 'specialty-national');
    const doc = docOf<SpecialtyFeed>(result);
    expect(doc).toEqual(expected);
    expectFiguresOf(shown, expected as unknown as Record<string, unknown>);
    const inSvg = Object.fromEntries(shown.fields.filter((f) => f.inSvg).map((f) => [f.field, Number(f.value)]));
    expect(inSvg).toEqual({ p10: expected.p10, p25: expected.p25, median: expected.median, p75: expected.p75, p90: expected.p90 });
    const inTable = shown.fields.filter((f) => !f.inSvg && f.value !== null).map((f) => f.field);
    expect(inTable).toEqual(['n', 'p10', 'p25', 'median', 'p75', 'p90', 'mean', 'n']);
    expect(shown.svg).toContain(`<title id="pp-title">Cardiology, United States: total compensation</title>`);
    expect(shown.svg).toContain(`P10 to P90: ${fmtMoney(expected.p10!)} to ${fmtMoney(expected.p90!)}.`);
    expectQuotable(shown, expected);
    await expectSameChartAsPage(shown, expected);
    expectProtocol(shown);
  });

  it('get_specialty_pay in a state: the national median as the US median line, as on the state page', async () => {
    const expected = await feed<SpecialtyStateFeed>(url, '/specialties/family-medicine/states/california.json');
    expect(expected.p10).not.toBeNull();
    const { shown } = await render('get_specialty_pay', { specialty: 'Family Medicine', state: 'CA' }, 'specialty-state');
    expectFiguresOf(shown, expected as unknown as Record<string, unknown>);
    expect(shown.fields.filter((f) => f.inSvg && f.field === 'national_median').map((f) => Number(f.value))).toEqual([expected.national_median]);
    expect(shown.svg).toMatch(/<line class="reference"/);
    expect(shown.text).toContain('Family Medicine in California');
    expectQuotable(shown, expected);
    await expectSameChartAsPage(shown, expected);
  });

  it('tails withheld (fewer than 15 reports): no whisker, nothing estimated, the table says withheld', async () => {
    const expected = await feed<SpecialtyStateFeed>(url, '/specialties/cardiology/states/california.json');
    expect(expected.p10).toBeNull();
    const { shown } = await render('get_specialty_pay', { specialty: 'cardiology', state: 'CA' }, 'specialty-state-no-tails', { width: [390] });
    expectFiguresOf(shown, expected as unknown as Record<string, unknown>);
    expect(shown.svg).not.toMatch(/class="whisker"/);
    expect(shown.fields.filter((f) => f.inSvg).map((f) => f.field).sort()).toEqual(['median', 'national_median', 'p25', 'p75']);
    expect(shown.fields.filter((f) => f.field === 'p10' || f.field === 'p90').map((f) => f.text)).toEqual(['withheld (fewer than 15 reports)', 'withheld (fewer than 15 reports)']);
    expect(shown.text).toContain('rounded to the nearest $1,000');
    await expectSameChartAsPage(shown, expected);
  });

  it('withheld figures: the notice, no chart, no figure', async () => {
    const { result, shown } = await render('get_specialty_pay', { specialty: 'Medical Genetics' }, 'specialty-withheld', { width: [390] });
    const doc = docOf<SpecialtyFeed>(result);
    expect(doc.withheld).toBe(true);
    expect(shown.svg).toBeNull();
    expect(shown.text).toContain(doc.notice!);
    expect(shown.text).toContain('No chart: the figures are withheld');
    expect(shown.text).not.toMatch(/\$\d/);
    expect(shown.fields.map((f) => f.field).sort()).toEqual(['as_of', 'attribution', 'notice']);
    expectQuotable(shown, doc);
  });

  it('evaluate_compensation: the pay\'s marker where it falls between the published percentiles, with its percentile and band', async () => {
    const { result, shown } = await render('evaluate_compensation', { specialty: 'cardiology', compensation: 450_000 }, 'evaluate-national', { openTable: true });
    const e = docOf<{ percentile: number; band: string; percentiles: PercentileFigures; compensation: number; band_lower_value: number; band_upper_value: number; n: number; as_of: string; attribution: string }>(result);
    expect(e.percentile).not.toBeNull();
    expectFiguresOf(shown, e as unknown as Record<string, unknown>);
    const svgFields = Object.fromEntries(shown.fields.filter((f) => f.inSvg).map((f) => [f.field, Number(f.value)]));
    expect(svgFields).toEqual({ 'percentiles.p10': e.percentiles.p10, 'percentiles.p25': e.percentiles.p25, 'percentiles.median': e.percentiles.median, 'percentiles.p75': e.percentiles.p75, 'percentiles.p90': e.percentiles.p90, compensation: 450_000 });
    // The marker on the same scale as the figures: between the lines of its band's bounds, in proportion.
    const px = Number(/<line class="pay"[^>]*data-pay-x="([\d.]+)"/.exec(shown.svg!)![1]);
    const g = percentileGeometry(e.percentiles)!;
    expect(px).toBeCloseTo(g.x(450_000), 2);
    expect(px).toBeGreaterThan(g.x(e.band_lower_value));
    expect(px).toBeLessThan(g.x(e.band_upper_value));
    expect(shown.svg).toContain('data-off-scale="false"');
    expect(shown.text).toContain(`$450,000 is at an estimated percentile of ${e.percentile.toFixed(1)}, in the ${e.band.replace('-', '\u2013')} band (${fmtMoney(e.band_lower_value)} to ${fmtMoney(e.band_upper_value)}).`);
    expect(shown.svg).toContain(`est. P${e.percentile.toFixed(1)}`);
    expectQuotable(shown, e);
    expectProtocol(shown);
  });

  it('evaluate_compensation in a state; above P90 far out (at the edge, off the scale); below P25 when the tails are withheld', async () => {
    const tx = await render('evaluate_compensation', { specialty: 'family-medicine', compensation: 300_000, state: 'TX' }, 'evaluate-state', { width: [390] });
    const te = docOf<{ percentiles: PercentileFigures; state: { name: string }; national_median: number }>(tx.result);
    expect(tx.shown.text).toContain('Family Medicine in Texas');
    expect(Number(/data-pay-x="([\d.]+)"/.exec(tx.shown.svg!)![1])).toBeCloseTo(percentileGeometry(te.percentiles)!.x(300_000), 2);
    // the evaluation in a state carries the US median of the state document, drawn as on get_specialty_pay
    const stateDoc = await feed<{ national_median: number }>(server.url, '/specialties/family-medicine/states/texas.json');
    expect(te.national_median).toBe(stateDoc.national_median);
    expect(tx.shown.text).toContain(`US median ${fmtMoney(stateDoc.national_median)}`);

    const far = await render('evaluate_compensation', { specialty: 'cardiology', compensation: 5_000_000 }, 'evaluate-off-scale', { width: [390] });
    expect(docOf<{ band: string }>(far.result).band).toBe('above P90');
    expect(far.shown.svg).toContain('data-pay-x="384" data-off-scale="true"');
    expect(far.shown.text).toContain('$5,000,000 is above P90');
    expect(far.shown.text).toContain('beyond the scale');

    const low = await render('evaluate_compensation', { specialty: 'cardiology', compensation: 250_000.5, state: 'CA' }, 'evaluate-below', { width: [390] });
    const le = docOf<{ band: string; percentiles: PercentileFigures }>(low.result);
    expect(le.band).toBe('below P25');
    expect(low.shown.text).toContain('$250,000.50 is below P25');
    expect(low.shown.fields.find((f) => f.field === 'compensation' && f.inSvg)).toMatchObject({ value: '250000.5', text: '$250,000.50' });
    expect(Number(/data-pay-x="([\d.]+)"/.exec(low.shown.svg!)![1])).toBeCloseTo(percentileGeometry(le.percentiles)!.x(250_000.5), 2);
  });

  it('evaluate_compensation on withheld figures: no estimate, no chart; a tool error shows its text', async () => {
    const { result, shown } = await render('evaluate_compensation', { specialty: 'Medical Genetics', compensation: 300_000 }, 'evaluate-withheld', { width: [390] });
    expect(docOf<{ band: null }>(result).band).toBeNull();
    expect(shown.svg).toBeNull();
    expect(shown.text).toContain('No estimate for $300,000: the figures are withheld');
    const err = await render('get_specialty_pay', { specialty: 'qqqqqqqqqqqq' }, 'tool-error', { width: [390] });
    expect(err.result.isError).toBe(true);
    expect(err.shown.text).toMatch(/^Unknown specialty "qqqqqqqqqqqq"\./);
  });

  it('evaluate_offer: the total on the chart where it falls, each part of the offer against its published range in a table, values, what is missing, both citations', async () => {
    const args = { specialty: 'family-medicine', state: 'CA', base_salary: 240_000, bonus: 20_000, call_pay: 10_000, signing_bonus: 30_000, relocation: 12_000, loan_repayment: 60_000, pto_weeks: 5, wrvus: 5_000, compensation_model: 'production' };
    const { result, shown } = await render('evaluate_offer', args, 'offer-state');
    const a = docOf<OfferCheck>(result);
    expect(a.scope_used).toBe('state');
    // every figure shown is the answer's, at the path it names
    const money = shown.fields.filter((f) => !['as_of', 'attribution', 'state_source.attribution', 'scope_note'].includes(f.field));
    expect(money.length).toBeGreaterThan(10);
    for (const f of money) {
      const want = at(a, f.field.replace(/\.(\d+)\./g, '.$1.'));
      if (want === null) expect([f.value, f.text], f.field).toEqual(['null', 'withheld']);
      else {
        expect(Number(f.value), f.field).toBe(want);
        expect(f.text, f.field).toBe(f.field === 'position.n' ? fmtCount(want as number) : fmtMoney(want as number, !Number.isInteger(want)));
      }
    }
    expect(shown.fields.find((f) => f.field === 'attribution')!.text).toBe(a.attribution);
    expect(shown.fields.find((f) => f.field === 'state_source.attribution')!.text).toBe(a.state_source!.attribution);
    const p = a.position!;
    expect(shown.text).toContain(`Total compensation ${fmtMoney(p.value)} is at an estimated percentile of ${p.percentile!.toFixed(1)}, in the ${p.band.replace('-', '\u2013')} band`);
    expect(Number(/<line class="pay"[^>]*data-pay-x="([\d.]+)"/.exec(shown.svg!)![1])).toBeCloseTo(percentileGeometry({ p10: p.percentiles.p10, p25: p.percentiles.p25, median: p.percentiles.median, p75: p.percentiles.p75, p90: p.percentiles.p90 })!.x(p.value), 2);
    // one row per money component the offer has, and weeks off; each with its band
    const rows = a.components.filter((c) => c.amount !== null && c.amount > 0);
    const escRe = (t: string) => t.replace(/[.*+?^${}()|[\]\\$]/g, '\\$&');
    for (const c of rows) expect(shown.text).toMatch(new RegExp(`${escRe(c.label)}\\s+${escRe(fmtMoney(c.amount!))}\\s+${escRe(c.band === 'no published range' ? c.band : c.band!.replace('-', '\u2013'))}`));
    expect(shown.text).toMatch(/Weeks off\s+5/);
    expect(shown.text).toContain(`First-year value ${fmtMoney(a.value.first_year)}; steady-state ${fmtMoney(a.value.steady_state_yearly)} a year`);
    expect(shown.text).toContain(`Implied ${fmtMoney(a.productivity.implied_per_wrvu!, true).replace('.00', '')} per wRVU`);
    for (const m of a.missing) expect(shown.text).toContain(m.text);
    expect(shown.text).toContain(a.as_of);
    expect(shown.text).toContain('self-reported');
    expectProtocol(shown);
    // a withheld specialty: no chart, the reason in words
    const mg = await render('evaluate_offer', { specialty: 'Medical Genetics', base_salary: 300_000 }, 'offer-withheld', { width: [390] });
    expect(mg.shown.svg).toBeNull();
    expect(mg.shown.text).toContain('The national figures for Medical Genetics are withheld (fewer than 5 reports): no position can be given.');
  });

  it('dark host theme', async () => {
    const { shown } = await render('evaluate_compensation', { specialty: 'family-medicine', compensation: 260_000, state: 'CA' }, 'evaluate-dark', { theme: 'dark' });
    expect(shown.svg).toContain('class="pay"');
  });

  it('attempted no request at all (the route blocks and records every one, in the iframe too), and logged no error', async () => {
    expect(attempted).toEqual([]);
    expect(problems).toEqual([]);
    // The checks are live: a sandboxed srcdoc iframe like the view's that fetches is recorded, and under the
    // view's CSP the same fetch is refused before the network with a console error (counted in problems above).
    const page = await context.newPage();
    const logged: string[] = [];
    page.on('console', (m) => logged.push(m.text()));
    await page.setContent(`<iframe sandbox="allow-scripts" srcdoc="<img src=&quot;http://physpay.invalid/probe.png&quot;>"></iframe>
<iframe sandbox="allow-scripts" srcdoc="<meta http-equiv=&quot;Content-Security-Policy&quot; content=&quot;${PAY_CHART_CSP}&quot;><img src=&quot;http://physpay.invalid/csp.png&quot;>"></iframe>`);
    await expect.poll(() => attempted.length).toBeGreaterThan(0);
    await expect.poll(() => logged.some((t) => t.includes('Content Security Policy') && t.includes('physpay.invalid/csp.png'))).toBe(true);
    expect(attempted).toEqual(['http://physpay.invalid/probe.png']);
    await page.close();
  });
});
