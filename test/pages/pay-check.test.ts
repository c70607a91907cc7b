/**
 * "Where does my pay fall?" (build/pages/pay-check.ts), without a browser:
 *  - the page's port of payPosition() (PAY_POSITION_JS, the exact string inlined in the pages) gives the
 *    same answer as payPosition() on random grids with ties and on every grid value (fast-check);
 *  - the field's reader (PAY_PARSE_JS) accepts dollars with "$", "," and spaces and refuses the rest;
 *  - the no-JavaScript table: caption, th scope, one row per band, every dollar bound a figure equal to the
 *    feed, the grid in data-pay-grid equal to standardGrid() of the feed; P10/P90 withheld below 15 reports;
 *    withheld pages say no estimate can be given and carry no pay-check script.
 * The same checks through Chromium are in browser.test.ts.
 */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { payPosition, standardGrid, type GridPoint, type PayPosition } from '../../build/compute/pay-position.ts';
import { parsePayAmount } from '../../build/contract/pay-amount.ts';
import { ANNUAL_PAY_JS, PAY_CHECK_SCRIPT, PAY_PARSE_JS, PAY_POSITION_JS, payCheckGrid } from '../../build/pages/pay-check.ts';
import { renderSpecialtyStatePage } from '../../build/pages/specialty-state.ts';
import { renderSpecialtyPage } from '../../build/pages/specialty.ts';
import { elements, parseHtml, textOf, type HtmlElement } from '../../build/pages/parse.ts';
import { annualPayIssue } from '../../build/contract/annual-pay.ts';
import type { SiteContext } from '../../build/pages/layout.ts';
import type { SpecialtyFeed, SpecialtyStateFeed, WrvuFeed } from '../../build/contract/open-feeds.ts';
import { GOLDEN_DIR } from '../helpers/golden-files.ts';
import { numberShown, shownFigures } from './helpers.ts';

const site: SiteContext = {
  baseUrl: 'https://physpay.example', publisher: 'PhysPay', synthetic: true, license: 'CC BY 4.0',
  licenseUrl: 'https://creativecommons.org/licenses/by/4.0/', winsorLower: 50_000, winsorUpper: 3_000_000, blsTopCode: 239_200,
};

const pagePosition = new Function(`${PAY_POSITION_JS}\nreturn payPosition;`)() as (grid: GridPoint[], x: number) => PayPosition;
const parsePay = new Function(`${PAY_PARSE_JS}\nreturn parsePay;`)() as (text: string) => { state: string; x?: number };

const feedOf = <T>(rel: string): T => JSON.parse(readFileSync(join(GOLDEN_DIR, 'public/data/api/v1', rel), 'utf8')) as T;

/** Ascending percentiles (a subset of 1..99, at least two) with non-decreasing values, ties likely. */
const gridArb = fc
  .uniqueArray(fc.integer({ min: 1, max: 99 }), { minLength: 2, maxLength: 7 })
  .chain((ps) =>
    fc.tuple(fc.integer({ min: 0, max: 2_000_000 }), fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 300_000 }), fc.double({ min: 0, max: 300_000, noNaN: true })), { minLength: ps.length - 1, maxLength: ps.length - 1 }))
      .map(([start, steps]) => {
        const sorted = [...ps].sort((a, b) => a - b);
        let v = start;
        return sorted.map((percentile, k) => ({ percentile, value: k === 0 ? v : (v += steps[k - 1]!) }));
      }),
  );

describe('the page\'s payPosition is payPosition()', () => {
  it('on random grids (ties included) at every grid value, next to it, and anywhere around it', () => {
    fc.assert(
      fc.property(gridArb, fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 1, maxLength: 8 }), (grid, us) => {
        const lo = grid[0]!.value;
        const hi = grid[grid.length - 1]!.value;
        const xs = [...grid.flatMap((g) => [g.value, g.value - 1, g.value + 1, g.value + 0.5]), ...us.map((u) => lo + (hi - lo) * (0.5 + u)), -1, 0];
        for (const x of xs) expect(pagePosition(grid, x), `x=${x} grid=${JSON.stringify(grid)}`).toEqual(payPosition(grid, x));
      }),
      { numRuns: 500 },
    );
  });

  it('on the standard grid with P10/P90 withheld, with tied quartiles, and refuses a grid of one point', () => {
    const grid = standardGrid({ p10: null, p25: 183_000, p50: 183_000, p75: 255_000, p90: null });
    for (const x of [0, 182_999, 183_000, 183_000.5, 200_000, 255_000, 255_001]) expect(pagePosition(grid, x)).toEqual(payPosition(grid, x));
    expect(pagePosition(grid, 183_000)).toMatchObject({ percentile: 37.5, band: 'P50-P75' });
    const one = [{ percentile: 50, value: 1 }];
    expect(() => pagePosition(one, 1)).toThrow(RangeError);
    expect(() => payPosition(one, 1)).toThrow(RangeError);
  });

  it('the whole inline script parses, has no "</" and needs no backslash', () => {
    expect(() => new Function(PAY_CHECK_SCRIPT)).not.toThrow();
    expect(PAY_CHECK_SCRIPT).not.toContain('</');
    expect(PAY_CHECK_SCRIPT).not.toContain('\\');
  });
});

const pageAnnualPayIssue = new Function(`${ANNUAL_PAY_JS}\nreturn annualPayIssue;`)() as (v: number) => string | null;

describe('the page\'s annualPayIssue is annualPayIssue() (what a year\'s pay is: one rule with the tools and the keyed API)', () => {
  it('on random amounts and at the bounds', () => {
    const amounts = fc.oneof(fc.double({ min: 0, max: 2e8, noNaN: true }), fc.integer({ min: 0, max: 200_000_000 }), fc.integer({ min: 0, max: 20_000 }), fc.constantFrom(0, 0.5, 420, 999.99, 1_000, 9_999.99, 10_000, 1e8, 1e8 + 0.01));
    fc.assert(fc.property(amounts, (v) => {
      expect(pageAnnualPayIssue(v)).toBe(annualPayIssue(v));
    }), { numRuns: 2_000 });
    expect(pageAnnualPayIssue(420)).toContain('if you meant $420k, give 420000');
  });
});

describe('the field\'s reader is parsePayAmount() (build/contract/pay-amount.ts): the port gives its answers', () => {
  it('on 2,000 random texts', () => {
    const text = fc.oneof(
      fc.string({ unit: fc.constantFrom(...'0123456789.,$ -kKmMe'), maxLength: 14 }),
      fc.tuple(fc.double({ min: 0, max: 5e6, noNaN: true }), fc.constantFrom('', 'k', 'K', 'm', 'M', ' k'), fc.constantFrom('', '$', '-', '$ ')).map(([v, k, p]) => `${p}${v}${k}`),
      fc.string({ maxLength: 12 }),
    );
    fc.assert(fc.property(text, (t) => {
      expect(parsePay(t)).toEqual(parsePayAmount(t));
    }), { numRuns: 2_000 });
  });
});

describe('the field\'s reader', () => {
  it.each([
    ['250000', 250_000], ['250,000', 250_000], ['$250,000', 250_000], [' $ 250 000 ', 250_000], ['250000.50', 250_000.5], ['.5', 0.5], ['0', 0], ['1,2,3', 123],
    ['300k', 300_000], ['300K', 300_000], ['$300k', 300_000], ['$ 300 k', 300_000], ['1.2m', 1_200_000], ['$1.2M', 1_200_000], ['1.15k', 1_150], ['.5m', 500_000], ['-0', 0],
  ])('reads %j as %d', (text, x) => {
    expect(parsePay(text)).toEqual({ state: 'ok', x });
  });
  it.each([['', 'empty'], ['   ', 'empty'], ['abc', 'invalid'], ['250kk', 'invalid'], ['k', 'invalid'], ['$m', 'invalid'], ['250 thousand', 'invalid'], ['1.350.000', 'invalid'], ['1e6', 'invalid'], ['1.2.3', 'invalid'], ['--5', 'invalid'], ['9'.repeat(400), 'invalid'], ['-5', 'negative'], ['-$250,000', 'negative'], ['$-1', 'negative'], ['-300k', 'negative']])(
    'reads %j as %s',
    (text, state) => {
      expect(parsePay(text)).toEqual({ state });
    },
  );
});

/** The box of a page: its section, band rows, figures and grid. */
function box(html: string) {
  const { root, errors } = parseHtml(html);
  expect(errors).toEqual([]);
  const all = [...elements(root!)];
  const section = all.find((e) => e.attrs.class === 'paycheck');
  expect(section, 'no pay-check box').toBeDefined();
  const inside = [...elements(section!)];
  const rows = inside.filter((e) => e.tag === 'tr' && e.attrs['data-band'] !== undefined);
  const grid = section!.attrs['data-pay-grid'];
  const figures = shownFigures(root!).filter((f) => isWithin(f.el, section!));
  return { root: root!, section: section!, inside, rows, grid: grid === undefined ? undefined : (JSON.parse(grid) as [number, number][]), figures };
}

function isWithin(el: HtmlElement, ancestor: HtmlElement): boolean {
  for (let e: HtmlElement | null = el; e; e = e.parent) if (e === ancestor) return true;
  return false;
}

function checkTable(html: string, feed: SpecialtyStateFeed | SpecialtyFeed, bands: string[]) {
  const b = box(html);
  const grid = payCheckGrid(feed);
  expect(b.grid).toEqual(grid.map((g) => [g.percentile, g.value]));
  expect(grid).toEqual(standardGrid({ p10: feed.p10, p25: feed.p25, p50: feed.median, p75: feed.p75, p90: feed.p90 }));
  expect(b.rows.map((r) => r.attrs['data-band'])).toEqual(bands);
  // Accessible table: caption, column headers, a row header per band.
  const table = b.inside.find((e) => e.tag === 'table')!;
  expect(textOf([...elements(table)].find((e) => e.tag === 'caption')!)).toMatch(/: pay bands between the published percentiles$/);
  expect([...elements(table)].filter((e) => e.tag === 'th' && e.attrs.scope === 'col').map(textOf)).toEqual(['Band', 'Total compensation']);
  for (const r of b.rows) expect([...elements(r)].filter((e) => e.tag === 'th' && e.attrs.scope === 'row')).toHaveLength(1);
  // Every dollar bound is a figure of the feed, equal to it, and reads as it.
  const bounds = b.figures.filter((f) => f.field !== 'n');
  expect(bounds.length).toBe(2 * grid.length);
  for (const f of b.figures) {
    const want = (feed as unknown as Record<string, number>)[f.field];
    expect(Number(f.value), f.field).toBe(want);
    expect(numberShown(f.text), f.field).toBe(Math.round(want!));
  }
  // Each band row shows its own bounds: below P.. its lowest point, P a-P b both ends, above P.. the highest.
  const field: Record<number, string> = { 10: 'p10', 25: 'p25', 50: 'median', 75: 'p75', 90: 'p90' };
  b.rows.forEach((r, k) => {
    const fs = [...elements(r)].filter((e) => e.attrs['data-field'] !== undefined).map((e) => e.attrs['data-field']);
    const want = k === 0 ? [grid[0]!] : k === b.rows.length - 1 ? [grid.at(-1)!] : [grid[k - 1]!, grid[k]!];
    expect(fs).toEqual(want.map((g) => field[g.percentile]));
  });
  // The JavaScript part is hidden until the script shows it; its field is labelled and its result is live.
  const form = b.inside.find((e) => e.attrs.class === 'pay-form')!;
  expect(form.attrs.hidden).toBe('');
  const input = b.inside.find((e) => e.tag === 'input')!;
  expect(b.inside.find((e) => e.tag === 'label')!.attrs.for).toBe(input.attrs.id);
  expect(textOf(b.inside.find((e) => e.tag === 'label')!)).toBe('Your total annual compensation, $');
  expect(b.inside.find((e) => e.attrs.id === 'pay-result')!.attrs['aria-live']).toBe('polite');
  expect(b.inside.some((e) => e.tag === 'form')).toBe(false); // nothing to submit
  expect(html).toContain('function payPosition(grid,x)');
  return b;
}

describe('the box without JavaScript', () => {
  const wrvu = feedOf<WrvuFeed>('wrvu/family-medicine.json');

  it('a specialty page: a table of the six bands whose bounds equal the feed', () => {
    const feed = feedOf<SpecialtyFeed>('specialties/family-medicine.json');
    expect(feed.p10).not.toBeNull();
    const html = renderSpecialtyPage(site, { feed, wrvu, states: [] });
    const b = checkTable(html, feed, ['below P10', 'P10-P25', 'P25-P50', 'P50-P75', 'P75-P90', 'above P90']);
    expect(b.figures.find((f) => f.field === 'n')!.value).toBe(String(feed.n));
    expect(textOf(b.section)).toContain(`self-reported reports, not your rank among the individual reports`);
  });

  it('a specialty-in-state page from fewer than 15 reports: P10/P90 withheld, four bands from P25 to P75, ties kept', () => {
    const full = feedOf<SpecialtyStateFeed>('specialties/family-medicine/states/california.json');
    const feed: SpecialtyStateFeed = { ...full, n: 4, p10: null, p90: null, p25: 183_000, median: 183_000, p75: 255_000, mean: 210_000, rounded: true };
    const html = renderSpecialtyStatePage(site, feed);
    const b = checkTable(html, feed, ['below P25', 'P25-P50', 'P50-P75', 'above P75']);
    expect(textOf(b.section)).toContain('P10 and P90 are published only from 15 reports up');
    expect(b.figures.some((f) => f.field === 'p10' || f.field === 'p90')).toBe(false);
  });

  it('a withheld page says no estimate can be given, shows no field and carries no pay-check script', () => {
    const feed = feedOf<SpecialtyStateFeed>('specialties/family-medicine/states/wyoming.json');
    expect(feed.withheld).toBe(true);
    const html = renderSpecialtyStatePage(site, feed);
    const b = box(html);
    expect(b.grid).toBeUndefined();
    expect(b.rows).toHaveLength(0);
    expect(b.inside.some((e) => e.tag === 'input')).toBe(false);
    expect(textOf(b.section)).toContain('No estimate can be given here: the figures for Family Medicine in Wyoming are withheld (fewer than 3 reports).');
    expect(html).not.toContain('function payPosition');
  });
});
