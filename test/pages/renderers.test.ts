/**
 * Unit tests of the page renderers and their checks (pure, no build): escaping, withheld figures, chart
 * geometry from the percentiles, the strict HTML reader, CSV fields, and the audit of pages and CSV.
 */
import { describe, expect, it } from 'vitest';
import { attrs, esc, fmtMoney, fmtPct, fmtRate, withheldText } from '../../build/pages/html.ts';
import { fig, floorOf } from '../../build/pages/figures.ts';
import { CHART_WIDTH, PLOT, niceDomain, percentileBarSvg, percentileGeometry, pgyGeometry, rankedGeometry, PGY } from '../../build/pages/chart.ts';
import { elements, parseHtml, textOf } from '../../build/pages/parse.ts';
import { renderSpecialtyStatePage } from '../../build/pages/specialty-state.ts';
import { renderInstitutionPage } from '../../build/pages/institution.ts';
import { pageFile } from '../../build/pages/site.ts';
import { urlPathOf } from '../../server/builds/loaded-build.ts';
import { href, type SiteContext } from '../../build/pages/layout.ts';
import { labelWidth, placeLabels, type LabelSpec } from '../../build/pages/label-layout.ts';
import fc from 'fast-check';
import type { InstitutionFeed, SpecialtyStateFeed } from '../../build/contract/open-feeds.ts';
import { auditCsv, auditPage } from '../../build/compute/audit-files.ts';
import { csvField, csvText, SPECIALTIES_CSV_HEADER } from '../../build/compute/open-csv.ts';
import { shownFigures } from './helpers.ts';

const site: SiteContext = {
  baseUrl: 'https://physpay.example', publisher: 'PhysPay <Test> & "Co"', synthetic: true, license: 'CC BY 4.0',
  licenseUrl: 'https://creativecommons.org/licenses/by/4.0/', winsorLower: 50_000, winsorUpper: 3_000_000, blsTopCode: 239_200,
};

const EVIL = `Card<script>alert("x")</script> & 'Co'`;
const base = 'https://physpay.example';

function cell(over: Partial<SpecialtyStateFeed> = {}): SpecialtyStateFeed {
  const published = over.withheld !== true;
  return {
    n: published ? 12 : null, median: published ? 301_000 : null, mean: published ? 307_000 : null, p10: null, p25: published ? 260_000 : null, p75: published ? 333_000 : null, p90: null,
    rounded: published, withheld: !published,
    as_of: '2026-10-14', citation_url: `${base}/salaries/cardiology/texas`, methodology_url: `${base}/methodology`, license: 'CC BY 4.0', license_url: 'https://creativecommons.org/licenses/by/4.0/',
    attribution: `PhysPay, "${EVIL} Salary Data, Texas," ${base}/salaries/cardiology/texas (data as of 2026-10-14; accessed 2026-11-16). Licensed under CC BY 4.0.`,
    title: `${EVIL} Salary Data, Texas`, publisher: 'PhysPay', feed_url: `${base}/data/api/v1/specialties/cardiology/states/texas.json`, synthetic: true,
    specialty: { slug: 'cardiology', name: EVIL }, state: { code: 'TX', slug: 'texas', name: 'Texas', region: 'South' }, scope: 'state',
    national_median: 520_000, difference_from_national_pct: published ? -42.1 : null,
    ...(published ? {} : { notice: 'Figures withheld: fewer than 3 approved reports <b>remain</b>.' }),
    ...over,
  } as SpecialtyStateFeed;
}

describe('formatting and escaping', () => {
  it('escapes every character that could open a tag or leave an attribute', () => {
    expect(esc(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    expect(attrs({ title: '"><script>', hidden: false, x: undefined, n: 3 })).toBe(' title="&quot;&gt;&lt;script&gt;" n="3"');
  });

  it('formats dollars, $/wRVU and percents without locale data', () => {
    expect(fmtMoney(1_234_567)).toBe('$1,234,567');
    expect(fmtMoney(999)).toBe('$999');
    expect(fmtRate(54.6)).toBe('$54.60');
    expect(fmtRate(55)).toBe('$55');
    expect(fmtPct(7.25)).toBe('+7.3%');
    expect(fmtPct(-2)).toBe('-2.0%');
    expect(fmtPct(0)).toBe('0.0%');
  });

  it('a page with hostile names and notices stays well-formed and shows the text literally', () => {
    const html = renderSpecialtyStatePage({ ...site }, cell({ withheld: true }));
    const { root, errors } = parseHtml(html);
    expect(errors).toEqual([]);
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<b>remain');
    const h1 = [...elements(root!)].find((e) => e.tag === 'h1')!;
    expect(textOf(h1)).toBe(`${EVIL} salary in Texas`);
    const attribution = shownFigures(root!).find((f) => f.field === 'attribution')!;
    expect(attribution.text).toBe(cell().attribution);
  });
});

describe('link targets', () => {
  it('own URLs become their path, with the query and the #fragment kept; other URLs stay absolute', () => {
    const base = 'https://physpay.example';
    expect(href(`${base}/states/texas#residency`, base)).toBe('/states/texas#residency');
    expect(href(`${base}/contribute?specialty=cardiology&state=TX#form`, base)).toBe('/contribute?specialty=cardiology&state=TX#form');
    expect(href(base, base)).toBe('/');
    expect(href('https://physpay.example.evil/x#y', base)).toBe('https://physpay.example.evil/x#y');
  });
});

describe('chart label layout', () => {
  it('labels keep their side of the figure, stay inside the chart, and never share room on a row (property)', () => {
    const spec = fc.record({ text: fc.stringMatching(/^P\d{2} \$[\d,.]{1,12}$/), x: fc.double({ min: 0, max: 400, noNaN: true }), side: fc.constantFrom('left' as const, 'right' as const), row: fc.integer({ min: 0, max: 1 }) });
    fc.assert(fc.property(fc.array(spec, { minLength: 1, maxLength: 6 }), (specs: LabelSpec[]) => {
      const placed = placeLabels(specs, 400, 6);
      const rooms = placed.map((l, i) => {
        const w = labelWidth(specs[i]!.text);
        expect(l.anchor).toBe(specs[i]!.side === 'left' ? 'end' : 'start');
        expect(l.row).toBeGreaterThanOrEqual(specs[i]!.row);
        const left = l.anchor === 'end' ? l.x - w : l.x;
        expect(left).toBeGreaterThanOrEqual(-0.01);
        if (w <= 400) expect(left + w).toBeLessThanOrEqual(400.01);
        return { row: l.row, left, right: left + w };
      });
      for (let i = 0; i < rooms.length; i++) for (let j = i + 1; j < rooms.length; j++) {
        const a = rooms[i]!, b = rooms[j]!;
        if (a.row === b.row) expect(a.right + 6 <= b.left + 0.02 || b.right + 6 <= a.left + 0.02, `${specs[i]!.text} / ${specs[j]!.text}`).toBe(true);
      }
    }), { seed: 20261128, numRuns: 500 });
  });

  it('the case of the issue: P75 near the right edge slides left but stays right of P25 (no flip over it)', () => {
    const [p25, p75] = placeLabels([{ text: 'P25 $437,782', x: 217.38, side: 'left', row: 0 }, { text: 'P75 $659,857', x: 319.53, side: 'right', row: 0 }], 400, 6);
    expect(p25).toEqual({ row: 0, x: 217.38, anchor: 'end' });
    expect(p75!.row).toBe(0);
    expect(p75!.anchor).toBe('start');
    expect(p75!.x).toBeGreaterThan(217.38 + 6);
  });
});

describe('withheld figures', () => {
  it('say "withheld (fewer than N reports)", never 0 or blank', () => {
    expect(fig('median', null, 'usd', { floor: 5 })).toBe('<span class="withheld" data-field="median" data-value="withheld">withheld (fewer than 5 reports)</span>');
    expect(fig('median', 0, 'usd')).toContain('$0'); // a real zero is shown as such
    expect(withheldText(3)).toBe('withheld (fewer than 3 reports)');
  });

  it('P10/P90 of a published cell name the 15-report floor; a withheld cell names its own floor', () => {
    expect(floorOf({ n: 12 }, 'p10', 3)).toBe(15);
    expect(floorOf({ n: 12 }, 'median', 3)).toBe(3);
    expect(floorOf({ n: null }, 'p90', 3)).toBe(3);
  });

  it('a withheld cell page shows every figure as withheld and draws no chart', () => {
    const { root, errors } = parseHtml(renderSpecialtyStatePage(site, cell({ withheld: true })));
    expect(errors).toEqual([]);
    const figs = shownFigures(root!).filter((f) => f.feed === cell().feed_url && ['n', 'median', 'mean', 'p10', 'p25', 'p75', 'p90'].includes(f.field));
    expect(figs.length).toBeGreaterThanOrEqual(7);
    for (const f of figs) {
      expect(f.value).toBe('withheld');
      expect(f.text).toBe('withheld (fewer than 3 reports)');
    }
    expect([...elements(root!)].some((e) => e.tag === 'svg')).toBe(false);
  });

  it('a small (rounded) cell says its figures are rounded and moved by the disclosure method, with a link to how (issue 45, item 6)', () => {
    const html = renderSpecialtyStatePage(site, cell());
    const note = /<p class="meta" data-note="small-cell">(.*?)<\/p>/.exec(html)?.[1] ?? '';
    expect(note).toContain('rounded: dollar amounts to the nearest $1,000');
    expect(note).toMatch(/disclosure method .* has moved each of them by a secret amount/);
    expect(note).toContain('up to 25.1% at 5 reports, 6.9% at 25');
    expect(note).toMatch(/<a href="[^"]*\/methodology#disclosure">/);
    expect(renderSpecialtyStatePage(site, cell({ rounded: false }))).not.toContain('data-note="small-cell"');
  });

  it('a published cell with n < 15 shows P10/P90 as withheld (fewer than 15 reports) and draws the box without the whisker', () => {
    const html = renderSpecialtyStatePage(site, cell());
    const { root, errors } = parseHtml(html);
    expect(errors).toEqual([]);
    const p10 = shownFigures(root!).filter((f) => f.field === 'p10');
    expect(p10.map((f) => f.text)).toEqual(['withheld (fewer than 15 reports)']);
    const svg = [...elements(root!)].find((e) => e.tag === 'svg')!;
    expect([...elements(svg)].some((e) => e.attrs.class === 'whisker')).toBe(false);
    expect([...elements(svg)].some((e) => e.attrs.class === 'box')).toBe(true);
  });
});

describe('chart geometry', () => {
  const p = { p10: 182_920, p25: 227_700, median: 273_100, p75: 322_500, p90: 384_640 };

  it('places P10 < P25 < median < P75 < P90 left to right inside the plot, on a nice domain holding them all', () => {
    const g = percentileGeometry(p)!;
    expect(g.domain.lo).toBeLessThanOrEqual(p.p10);
    expect(g.domain.hi).toBeGreaterThanOrEqual(p.p90);
    const xs = [g.whisker!.x1, g.box!.x, g.median!, g.box!.x + g.box!.width, g.whisker!.x2];
    expect([...xs].sort((a, b) => a - b)).toEqual(xs);
    for (const x of xs) {
      expect(x).toBeGreaterThanOrEqual(PLOT.left);
      expect(x).toBeLessThanOrEqual(PLOT.right);
    }
    // Linear: the distances between markers are proportional to the dollar distances.
    const unit = (PLOT.right - PLOT.left) / (g.domain.hi - g.domain.lo);
    expect(g.box!.width).toBeCloseTo((p.p75 - p.p25) * unit, 1);
    expect(g.median! - g.box!.x).toBeCloseTo((p.median - p.p25) * unit, 1);
    expect(g.ticks[0]!.x).toBe(PLOT.left);
    expect(g.ticks.at(-1)!.x).toBe(PLOT.right);
  });

  it('leaves out what is withheld, and draws nothing without a median or quartiles', () => {
    const g = percentileGeometry({ ...p, p10: null, p90: null })!;
    expect(g.whisker).toBeNull();
    expect(g.box).not.toBeNull();
    expect(percentileGeometry({ p10: null, p25: null, median: null, p75: null, p90: null })).toBeNull();
    expect(percentileBarSvg({ id: 'c', title: 't', desc: 'd' }, { p10: null, p25: null, median: null, p75: null, p90: null })).toBe('');
  });

  it('the reference marker (national median) widens the domain to include it', () => {
    const g = percentileGeometry(p, 600_000)!;
    expect(g.domain.hi).toBeGreaterThanOrEqual(600_000);
    expect(g.reference!).toBeGreaterThan(g.whisker!.x2);
  });

  it('nice domains use 1, 2, 2.5 or 5 x 10^k steps and never go below 0', () => {
    const d = niceDomain(137_000, 412_000);
    expect([1, 2, 2.5, 5].map((m) => m * 10 ** Math.floor(Math.log10(d.step)))).toContain(d.step);
    expect(d.lo).toBeLessThanOrEqual(137_000);
    expect(d.hi).toBeGreaterThanOrEqual(412_000);
    expect(niceDomain(-10, 5).lo).toBe(0);
  });

  it('ranked bars start at 0 and their lengths are proportional to the values', () => {
    const g = rankedGeometry([{ value: 500_000 }, { value: 250_000 }, { value: 125_000 }]);
    expect(g.domain.lo).toBe(0);
    expect(g.rows[1]!.width * 2).toBeCloseTo(g.rows[0]!.width, 1);
    expect(g.rows[2]!.width * 4).toBeCloseTo(g.rows[0]!.width, 1);
    expect(g.rows[1]!.y).toBeGreaterThan(g.rows[0]!.y);
  });

  it('PGY bars rise from one baseline with heights proportional to salary, left to right by year', () => {
    const g = pgyGeometry([60_000, 65_000, 70_000]);
    for (const b of g.bars) expect(b.y + b.height).toBeCloseTo(g.baseline, 1);
    expect(g.bars[1]!.height / g.bars[0]!.height).toBeCloseTo(65 / 60, 2);
    expect(g.bars[0]!.x).toBeLessThan(g.bars[1]!.x);
    expect(g.bars.at(-1)!.x + g.bars.at(-1)!.width).toBeLessThanOrEqual(CHART_WIDTH - PGY.right);
  });

  it('an institution page draws one bar per PGY level, labelled with the same figures as its table', () => {
    const doc = {
      n: null, as_of: '2026-07-27', citation_url: `${base}/residency/x`, methodology_url: `${base}/methodology`, license: 'CC BY 4.0', license_url: 'https://creativecommons.org/licenses/by/4.0/',
      attribution: 'PhysPay, "X," (accessed 2026-11-16).', title: 'X', publisher: 'PhysPay', feed_url: `${base}/data/api/v1/residency/institutions/x.json`, synthetic: false, release: '2026-11-16', modified: '2026-11-16',
      institution: { slug: 'x', name: 'X & Y Hospital', city: 'Fargo', state: { code: 'ND', slug: 'north-dakota', name: 'North Dakota', region: 'Midwest' } },
      academic_year: '2026-2027', source_url: 'https://gme.example.org/x?a=1&b=2', pgy_scale: [{ pgy: 1, salary: 65_400 }, { pgy: 2, salary: 68_000 }],
      pgy1_salary: 65_400, cost_of_living: { index: 89, source: 'BEA', year: 2022, basis: 'US = 100' }, cost_of_living_index: 89, pgy1_col_adjusted: 73_483,
      rank_position: 113, rank_of: 297,
      rank: { position: 113, of: 297, basis: 'b', academic_year: '2026-2027' }, state_rank: null,
    } satisfies InstitutionFeed;
    const html = renderInstitutionPage(site, doc);
    const { root, errors } = parseHtml(html);
    expect(errors).toEqual([]);
    const svg = [...elements(root!)].find((e) => e.tag === 'svg')!;
    expect([...elements(svg)].filter((e) => e.attrs.class === 'bar')).toHaveLength(2);
    const salaries = shownFigures(root!).filter((f) => f.field.startsWith('pgy_scale['));
    expect(salaries.map((f) => `${f.field}=${f.value}:${f.text}`).sort()).toEqual([
      'pgy_scale[0].salary=65400:$65,400', 'pgy_scale[0].salary=65400:$65,400', 'pgy_scale[1].salary=68000:$68,000', 'pgy_scale[1].salary=68000:$68,000',
    ]);
    expect(html).toContain('href="https://gme.example.org/x?a=1&amp;b=2"'); // external links stay absolute
  });
});

describe('strict HTML reader', () => {
  const wrap = (body: string) => `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>t</title></head><body>${body}</body></html>`;
  it('accepts a clean page', () => {
    expect(parseHtml(wrap('<p class="a">x &amp; y<br></p><svg viewBox="0 0 1 1"><rect x="0" /></svg>')).errors).toEqual([]);
  });
  it.each([
    ['an unclosed element', '<p><span>x</p>'],
    ['an unquoted attribute', '<p class=a>x</p>'],
    ['a single-quoted attribute', "<p class='a'>x</p>"],
    ['a stray <', '<p>1 < 2</p>'],
    ['a bare &', '<p>R&D</p>'],
    ['an end tag of a void element', '<p>x<br></br></p>'],
    ['a self-closing non-void HTML element', '<div />'],
    ['a duplicate attribute', '<p class="a" class="b">x</p>'],
    ['a duplicate id', '<p id="a">x</p><p id="a">y</p>'],
    ['aria-labelledby naming no element', '<svg role="img" aria-labelledby="nope"></svg>'],
    ['an element closed twice', '<p>x</p></p>'],
  ])('rejects %s', (_what, body) => {
    expect(parseHtml(wrap(body)).errors.length).toBeGreaterThan(0);
  });
  it('rejects a page without doctype or with text after the root', () => {
    expect(parseHtml('<html lang="en"></html>').errors.length).toBeGreaterThan(0);
    expect(parseHtml(`${wrap('')}tail`).errors.length).toBeGreaterThan(0);
  });
});

describe('files and audits', () => {
  it('names page files so URLs need no extension', () => {
    expect(pageFile('/')).toBe('index.html');
    expect(pageFile('/salaries')).toBe('salaries.html');
    expect(pageFile('/salaries/cardiology')).toBe('salaries/cardiology.html');
    expect(pageFile('/salaries/cardiology/texas')).toBe('salaries/cardiology/texas.html');
    expect(urlPathOf('public/salaries/cardiology/texas.html')).toBe('/salaries/cardiology/texas');
    expect(urlPathOf('public/index.html')).toBe('/');
    expect(urlPathOf('public/data/api/v1/specialties.csv')).toBe('/data/api/v1/specialties.csv');
  });

  it('the page audit catches a figure below its floor, a figure outside a feed section, and two values of one figure', () => {
    const ok = renderSpecialtyStatePage(site, cell());
    expect(auditPage('public/x/index.html', ok)).toEqual([]);
    const lowN = ok.replaceAll('data-field="n" data-value="12"', 'data-field="n" data-value="2"');
    expect(auditPage('public/x/index.html', lowN).join('\n')).toMatch(/floor 3/);
    const tails = ok.replace('data-field="p10" data-value="withheld"', 'data-field="p10" data-value="150000"');
    expect(auditPage('public/x/index.html', tails).join('\n')).toMatch(/p10 published from 12 reports \(floor 15\)/);
    const unrounded = ok.replace('data-field="mean" data-value="307000"', 'data-field="mean" data-value="307123"');
    expect(auditPage('public/x/index.html', unrounded).join('\n')).toMatch(/not rounded|shown as/);
    const outside = ok.replace('<main>', '<main><span data-field="median" data-value="1">$1</span>');
    expect(auditPage('public/x/index.html', outside).join('\n')).toMatch(/not inside an element naming its feed/);
    const broken = ok.replace('</article>', '');
    expect(auditPage('public/x/index.html', broken).length).toBeGreaterThan(0);
  });

  it('CSV fields follow RFC 4180 and the CSV audit applies the floors to every row', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(null)).toBe('');
    expect(csvField(54.67)).toBe('54.67');
    expect(csvField(true)).toBe('true');
    const licence = ['2026-11-10', `${base}/salaries/a`, `${base}/data/api/v1/specialties/a.json`, `${base}/methodology`, 'CC BY 4.0', 'https://creativecommons.org/licenses/by/4.0/', 'PhysPay', true];
    const good = csvText(SPECIALTIES_CSV_HEADER, [
      ['a', 'A, "the" one', 30, 273_100, 276_339, 182_920, 227_700, 322_500, 384_640, false, false, 2023, 2025, true, ...licence],
      ['b', 'B', null, null, null, null, null, null, null, false, true, 2023, 2025, true, ...licence],
    ]);
    expect(good.split('\r\n')[0]).toBe(SPECIALTIES_CSV_HEADER.join(','));
    expect(auditCsv('public/data/api/v1/specialties.csv', good)).toEqual([]);
    const low = good.replace('a,"A, ""the"" one",30,', 'a,"A, ""the"" one",4,');
    expect(auditCsv('public/data/api/v1/specialties.csv', low).join('\n')).toMatch(/floor 5/);
    const withheldWithMedian = good.replace('b,B,,,', 'b,B,,1000,');
    expect(auditCsv('public/data/api/v1/specialties.csv', withheldWithMedian).join('\n')).toMatch(/withheld but shows a median/);
    expect(auditCsv('public/data/api/v1/specialties.csv', good.replace(/\r\n$/, '')).join('\n')).toMatch(/CRLF/);
  });
});
