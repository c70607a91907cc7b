/**
 * The home page (build/pages/home.ts) over the golden build, and rendered from thin feeds (most specialties
 * withheld): the headline figures are the feeds' own (published specialties, specialties.json's n, as_of),
 * the map colours exactly the states with n >= 15, the ranking is specialties.json's order and n, withheld
 * specialties are named once in one line, the honest "N of 44" line links /contribute, the trend is drawn only
 * from two published years, the search box is in the page (not the header), and nothing points to another
 * host but the licence deed.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { goldenBuildIn } from '../helpers/golden-build.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { elements, parseHtml, textOf, type HtmlElement } from '../../build/pages/parse.ts';
import { auditPage } from '../../build/compute/audit-files.ts';
import { headlineSpecialty, renderHomePage } from '../../build/pages/home.ts';
import { MAP_COLOURS } from '../../build/pages/us-map.ts';
import type { SiteContext } from '../../build/pages/layout.ts';
import { RANKING_MIN_N, type InstitutionsFeed, type SpecialtiesFeed, type SpecialtyFeed, type StatesFeed } from '../../build/contract/open-feeds.ts';
import { FLOORS } from '../../build/compute/stats.ts';
import { BASE_URL, getPath, shownFigures } from './helpers.ts';

const work = useTempDir('home');
let pub: string;
let html: string;
let root: HtmlElement;
let sp: SpecialtiesFeed;
let st: StatesFeed;
let inst: InstitutionsFeed;
const specialtyFeeds = new Map<string, SpecialtyFeed>();
const feed = <T>(p: string) => JSON.parse(readFileSync(join(pub, 'data/api/v1', p), 'utf8')) as T;

const parse = (h: string) => {
  const r = parseHtml(h);
  expect(r.errors).toEqual([]);
  return r.root!;
};
const all = (r: HtmlElement, pred: (e: HtmlElement) => boolean) => [...elements(r)].filter(pred);
const byId = (r: HtmlElement, id: string) => all(r, (e) => e.attrs.id === id)[0];
const hasClass = (e: HtmlElement, c: string) => (e.attrs.class ?? '').split(/\s+/).includes(c);
/** The rows of a table: [row header text, figure values by data-field suffix]. */
const tableRows = (table: HtmlElement) => all(table, (e) => e.tag === 'tr' && e.parent?.tag === 'tbody').map((tr) => ({
  name: textOf(all(tr, (e) => e.tag === 'th')[0]!).trim(),
  rank: all(tr, (e) => e.tag === 'td' && e.attrs['data-field'] === undefined)[0]?.attrs['data-value'],
  figures: Object.fromEntries(all(tr, (e) => e.attrs['data-field'] !== undefined).map((e) => [e.attrs['data-field']!.replace(/^.*\./, ''), e.attrs['data-field']!])),
}));
const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

beforeAll(() => {
  pub = join(goldenBuildIn(work.path).buildDir, 'public');
  html = readFileSync(join(pub, 'index.html'), 'utf8');
  root = parse(html);
  sp = feed('specialties.json');
  st = feed('states.json');
  inst = feed('residency/institutions.json');
  for (const e of sp.specialties) specialtyFeeds.set(e.slug, feed(`specialties/${e.slug}.json`));
}, 180_000);

describe('home page over the golden build', () => {
  it('is well-formed, passes the build\'s figure audit, and every figure is its feed\'s value', () => {
    expect(auditPage('index.html', html)).toEqual([]);
    const docs = new Map<string, unknown>([[sp.feed_url, sp], [st.feed_url, st], ...[...specialtyFeeds.values()].map((f) => [f.feed_url, f] as [string, unknown])]);
    const figs = shownFigures(root);
    expect(figs.length).toBeGreaterThan(100);
    for (const f of figs) {
      const doc = docs.get(f.feed);
      expect(doc, f.feed).toBeDefined();
      const v = getPath(doc, f.field);
      if (f.value === undefined) expect(f.text, f.field).toBe(String(v));
      else expect(f.value, `${f.feed} ${f.field}`).toBe(v === null ? 'withheld' : String(v));
    }
  });

  it('headline figures: published specialties "N of 44", the reports of specialties.json (a published, exact sum >= floors), as_of', () => {
    const published = sp.specialties.filter((e) => !e.withheld);
    expect(sp.count).toBe(44);
    expect(textOf(byId(root, 'published-count')!)).toBe(String(published.length));
    const stats = all(root, (e) => e.tag === 'dl' && hasClass(e, 'stats'))[0]!;
    expect(textOf(stats)).toContain(`${published.length} of ${sp.count}`);
    const section = all(root, (e) => e.attrs['data-feed'] === sp.feed_url && all(e, (x) => x === stats).length > 0)[0]!;
    const n = all(section, (e) => e.attrs['data-field'] === 'n')[0]!;
    expect(Number(n.attrs['data-value'])).toBe(sp.n);
    // The count shown is the feed's own n: the sum of the published specialties' n, each at or above the floor.
    expect(sp.n).toBe(published.reduce((a, e) => a + e.n!, 0));
    for (const e of published) expect(e.n!).toBeGreaterThanOrEqual(FLOORS.national);
    expect(textOf(n)).toBe(sp.n!.toLocaleString('en-US'));
    const asOf = all(section, (e) => e.attrs['data-field'] === 'as_of')[0]!;
    expect(textOf(asOf)).toBe(sp.as_of);
    expect(asOf.attrs.datetime).toBe(sp.as_of);
  });

  it('the map colours exactly the states with n >= 15; the others are hatched "not enough reports" without figures', () => {
    const shapes = all(root, (e) => e.tag === 'a' && e.attrs['data-state'] !== undefined);
    expect(shapes.length).toBe(51);
    let coloured = 0;
    for (const a of shapes) {
      const s = st.states.find((x) => x.state.code === a.attrs['data-state'])!;
      const fill = all(a, (e) => e.tag === 'path')[0]!.attrs.fill!;
      const shown = s.median !== null && s.n !== null && s.n >= RANKING_MIN_N;
      expect(MAP_COLOURS.includes(fill as (typeof MAP_COLOURS)[number]), s.state.code).toBe(shown);
      if (shown) {
        coloured++;
        const i = st.states.indexOf(s);
        expect(all(a, (e) => e.attrs['data-field'] !== undefined).map((e) => e.attrs['data-field'])).toEqual([`states[${i}].median`, `states[${i}].n`]);
      } else {
        expect(fill).toBe('url(#map-hatch)');
        expect(a.attrs['aria-label']).toBe(`${s.state.name}: not enough reports (fewer than ${RANKING_MIN_N})`);
        expect(all(a, (e) => e.attrs['data-field'] !== undefined)).toEqual([]);
      }
    }
    // The golden data has both kinds, including published states below 15 reports.
    expect(coloured).toBeGreaterThan(5);
    expect(st.states.some((s) => s.median !== null && s.n! < RANKING_MIN_N)).toBe(true);
    // Text alternative: a table of the mapped states and one line naming the others.
    const rows = tableRows(byId(root, 'map-table')!);
    expect(rows.map((r) => r.name)).toEqual(st.states.filter((s) => s.median !== null && s.n! >= RANKING_MIN_N).map((s) => s.state.name).sort(byName));
    expect(textOf(all(root, (e) => e.tag === 'details' && all(e, (x) => x.attrs.id === 'map-table').length > 0)[0]!)).toContain(`Not enough reports for the map (fewer than ${RANKING_MIN_N}): ${st.states.filter((s) => !(s.median !== null && s.n! >= RANKING_MIN_N)).map((s) => s.state.name).sort(byName).join(', ')}.`);
  });

  it('ranking: the published specialties by national median with specialties.json\'s n; ranks only from n >= 15; the withheld named once in one line', () => {
    const order = (list: typeof sp.specialties) => [...list].sort((a, b) => b.median! - a.median! || byName(a.name, b.name));
    const published = sp.specialties.filter((e) => !e.withheld);
    const ranked = tableRows(byId(root, 'ranked')!);
    const expectRanked = order(published.filter((e) => e.n! >= RANKING_MIN_N));
    expect(ranked.map((r) => r.name)).toEqual(expectRanked.map((e) => e.name));
    ranked.forEach((r, k) => {
      const i = sp.specialties.indexOf(expectRanked[k]!);
      expect(r.figures).toEqual({ n: `specialties[${i}].n`, median: `specialties[${i}].median` });
      // shared ranks for equal medians, else the position
      const prev = expectRanked[k - 1];
      expect(Number(r.rank)).toBe(prev && prev.median === expectRanked[k]!.median ? Number(ranked[k - 1]!.rank) : k + 1);
    });
    const unranked = tableRows(byId(root, 'unranked')!);
    expect(unranked.map((r) => r.name)).toEqual(order(published.filter((e) => e.n! < RANKING_MIN_N)).map((e) => e.name));
    // n and median cells show the feed's values (checked against the feed in the first test via data-field)
    const section = all(root, (e) => e.attrs['aria-labelledby'] === 'ranked-h')[0]!;
    const withheld = sp.specialties.filter((e) => e.withheld).map((e) => e.name).sort(byName);
    expect(withheld.length).toBeGreaterThan(0);
    expect(textOf(byId(root, 'withheld-line')!)).toBe(`Not published yet, fewer than ${FLOORS.national} reports nationally (${withheld.length} specialties): ${withheld.join(', ')}.`);
    expect(textOf(section)).not.toMatch(/withheld/i);
    for (const name of withheld) expect(textOf(section).split(name).length - 1, name).toBe(1);
  });

  it('the honest line: "N of 44 specialties have enough reports to publish; help by contributing", linking /contribute', () => {
    const published = sp.specialties.filter((e) => !e.withheld).length;
    const line = byId(root, 'contribute-line')!;
    expect(textOf(line)).toContain(`${published} of ${sp.count} specialties have enough reports to publish; help by contributing`);
    expect(all(line, (e) => e.tag === 'a').map((a) => a.attrs.href)).toEqual(['/contribute']);
    expect(hasClass(line, 'note')).toBe(true); // most are published in the golden data: not the warning box
    // The ways in stay.
    const hrefs = new Set(all(root, (e) => e.tag === 'a').map((a) => a.attrs.href));
    for (const h of ['/salaries', '/states', '/residency', '/methodology', '/license', '/data/api/v1/', '/contribute']) expect(hrefs.has(h), h).toBe(true);
  });

  it('the trend of the specialty with the most reports, drawn from two or more published years', () => {
    const head = headlineSpecialty(sp, specialtyFeeds)!;
    const top = [...sp.specialties].filter((e) => !e.withheld).sort((a, b) => b.n! - a.n!)[0]!;
    expect(head.specialty.slug).toBe(top.slug);
    const section = all(root, (e) => e.tag === 'section' && e.attrs['data-feed'] === head.feed_url)[0]!;
    expect(textOf(all(section, (e) => e.tag === 'h2')[0]!)).toBe(`Pay over time: ${head.specialty.name}`);
    expect(head.by_year.filter((r) => r.median !== null).length).toBeGreaterThanOrEqual(2);
    expect(all(section, (e) => e.attrs['data-chart'] === 'trend').length).toBe(1);
    expect(tableRows(byId(section, 'by-year')!).length).toBe(head.by_year.length);
  });

  it('the search box is in the page, prominent, once; headings go h1 then h2', () => {
    const boxes = all(root, (e) => hasClass(e, 'site-search'));
    expect(boxes.length).toBe(1);
    expect(hasClass(boxes[0]!, 'prominent')).toBe(true);
    let p: HtmlElement | null = boxes[0]!;
    while (p && p.tag !== 'main' && p.tag !== 'header') p = p.parent;
    expect(p?.tag).toBe('main');
    const levels = all(root, (e) => /^h[1-6]$/.test(e.tag)).map((e) => Number(e.tag[1]));
    expect(levels[0]).toBe(1);
    expect(levels.filter((l) => l === 1).length).toBe(1);
    for (let k = 1; k < levels.length; k++) expect(levels[k]! - levels[k - 1]!).toBeLessThanOrEqual(1);
    // every table has a caption
    for (const t of all(root, (e) => e.tag === 'table')) expect(all(t, (e) => e.tag === 'caption').length, t.attrs.id).toBe(1);
  });

  it('no outside URLs: every src and href is on this site, but the licence deed', () => {
    const outside: string[] = [];
    for (const e of elements(root)) {
      for (const a of ['src', 'href', 'data-search-index', 'action']) {
        const v = e.attrs[a];
        if (v === undefined) continue;
        if (v.startsWith('/') && !v.startsWith('//')) continue;
        if (v.startsWith('#')) continue;
        if (v === sp.license_url || v === `${BASE_URL}/`) continue; // the deed; the canonical link
        outside.push(`${e.tag} ${a}=${v}`);
      }
    }
    expect(outside).toEqual([]);
    expect(all(root, (e) => e.tag === 'img' || e.tag === 'iframe' || (e.tag === 'script' && e.attrs.src !== undefined))).toEqual([]);
    expect(html).not.toMatch(/url\((?!#)/); // CSS and SVG fills refer to the page's own patterns only
  });
});

describe('home page from thin feeds (most specialties withheld)', () => {
  const site: SiteContext = {
    baseUrl: BASE_URL, publisher: 'PhysPay', synthetic: false, license: 'CC BY 4.0',
    licenseUrl: 'https://creativecommons.org/licenses/by/4.0/', winsorLower: 50_000, winsorUpper: 3_000_000, blsTopCode: 239_200,
  };
  let thin: { html: string; root: HtmlElement; sp: SpecialtiesFeed; st: StatesFeed; head: SpecialtyFeed };

  beforeAll(() => {
    // Keep 3 specialties (family medicine and two others); withhold every other one. Two states keep 15+ reports.
    const keep = new Set(['family-medicine', 'cardiology', 'urgent-care']);
    const specialties = sp.specialties.map((e) => (keep.has(e.slug) ? e : { ...e, n: null, median: null, p25: null, p75: null, withheld: true }));
    const tsp: SpecialtiesFeed = { ...sp, specialties, n: specialties.reduce((a, e) => a + (e.n ?? 0), 0) };
    const big = new Set(['CA', 'TX']);
    const tst: StatesFeed = { ...st, states: st.states.map((e) => (big.has(e.state.code) || e.n === null ? e : { ...e, n: Math.min(e.n, 9) })) };
    const fm = specialtyFeeds.get('family-medicine')!;
    const head: SpecialtyFeed = { ...fm, by_year: fm.by_year.map((r) => (r.partial ? r : { ...r, n: null, median: null, p25: null, p75: null, withheld: true })) };
    const feeds = new Map([...specialtyFeeds].map(([k, v]) => [k, k === 'family-medicine' ? head : v]));
    const h = renderHomePage(site, tsp, tst, inst, feeds);
    thin = { html: h, root: parse(h), sp: tsp, st: tst, head };
  });

  it('says "3 of 44" prominently, with the contribute link', () => {
    const line = byId(thin.root, 'contribute-line')!;
    expect(textOf(line)).toContain('3 of 44 specialties have enough reports to publish; help by contributing');
    expect(hasClass(line, 'notice')).toBe(true);
    expect(textOf(byId(thin.root, 'published-count')!)).toBe('3');
    expect(textOf(byId(thin.root, 'withheld-line')!)).toContain('(41 specialties)');
  });

  it('colours only the two states with 15 or more reports', () => {
    const coloured = all(thin.root, (e) => e.tag === 'a' && e.attrs['data-state'] !== undefined)
      .filter((a) => all(a, (e) => e.tag === 'path')[0]!.attrs.fill !== 'url(#map-hatch)')
      .map((a) => a.attrs['data-state']);
    expect(coloured.sort()).toEqual(['CA', 'TX']);
  });

  it('a single published year is named in words, not drawn', () => {
    expect(all(thin.root, (e) => e.attrs['data-chart'] === 'trend')).toEqual([]);
    const partial = thin.head.by_year.find((r) => r.partial)!;
    expect(textOf(thin.root)).toContain(`Only ${partial.year} (the current year, still being reported) has ${FLOORS.national} or more reports so far, so there is no trend to draw yet.`);
  });

  it('passes the figure audit', () => {
    expect(auditPage('index.html', thin.html)).toEqual([]);
  });
});
