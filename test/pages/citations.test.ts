/**
 * Every citation_url of every feed of the golden build, fetched through a real server, is a page that
 * shows the feed's figures: each figure the page attributes to the feed (data-feed / data-field /
 * data-value) equals the feed's value and its text shows that value; the feed's headline figures, n,
 * as_of and attribution line are all on the page; withheld figures read "withheld (fewer than N
 * reports)". Every page is well-formed (strict reader) and served as text/html with the page headers.
 * Specialty and specialty-in-state pages carry the "Where does my pay fall?" box: its grid is standardGrid()
 * of the feed and its band table shows exactly the feed's published percentiles (checked like every figure).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { get } from '../helpers/http.ts';
import { listFiles } from '../helpers/tree.ts';
import { elements, parseHtml, textOf, type HtmlElement } from '../../build/pages/parse.ts';
import { schemaForPath } from '../../build/contract/artifacts.ts';
import type { FeedKind } from '../../build/contract/open-feeds.ts';
import { standardGrid } from '../../build/compute/pay-position.ts';
import { BASE_URL, getPath, numberShown, serveGolden, shownFigures, type Served } from './helpers.ts';

const DAY = '2026-12-01';
let s: Served;
const clock = () => new Date(`${DAY}T12:00:00.000Z`);

interface Feed {
  path: string;
  kind: FeedKind;
  doc: Record<string, unknown>;
}
let feeds: Feed[] = [];

beforeAll(async () => {
  s = await serveGolden('pages-citations', clock);
  const pub = join(s.buildDir, 'public');
  feeds = listFiles(pub)
    .filter((p) => p.endsWith('.json') && schemaForPath(`public/${p}`)?.feed !== undefined) // feeds only (not search-index.json)
    .map((p) => {
      const text = readFileSync(join(pub, p), 'utf8').split('accessed 2026-11-16)').join(`accessed ${DAY})`);
      return { path: p, kind: schemaForPath(`public/${p}`)!.feed!, doc: JSON.parse(text) as Record<string, unknown> };
    });
}, 120_000);
afterAll(async () => {
  await s?.close();
});

const SUMMARY = ['n', 'median', 'mean', 'p10', 'p25', 'p75', 'p90'];

/** Fields each kind of feed must show on its citation page (besides as_of and attribution). */
function requiredFields(kind: FeedKind, doc: Record<string, unknown>): string[] {
  const list = (key: string, fields: string[]) => ((doc[key] as unknown[]) ?? []).flatMap((_, k) => fields.map((f) => `${key}[${k}].${f}`));
  switch (kind) {
    case 'specialty':
      return [...SUMMARY, 'states_with_data', ...list('top_states', ['n', 'median']), ...list('practice_settings', SUMMARY), ...list('by_year', ['n', 'p25', 'median', 'p75']), ...offerFields(doc)];
    case 'wrvu':
      return SUMMARY;
    case 'specialtyState':
      return [...SUMMARY, 'national_median', 'difference_from_national_pct'];
    case 'state':
      return [...SUMMARY, 'col_adjusted_median', 'cost_of_living.index', 'specialties_with_data', ...list('top_specialties', ['n', 'median', 'national_median', 'difference_from_national_pct'])];
    case 'specialties':
      return ['n', ...list('specialties', ['n', 'p25', 'median', 'p75'])];
    case 'states':
      return ['n', ...list('states', ['n', 'median', 'cost_of_living_index'])];
    case 'institutions':
      return list('institutions', ['pgy1_salary', 'pgy1_col_adjusted', 'rank']);
    case 'institution':
      return ['pgy1_salary', 'pgy1_col_adjusted', 'cost_of_living.index', ...list('pgy_scale', ['salary'])];
    case 'stateInstitutions':
      return list('institutions', ['pgy1_salary', 'pgy1_col_adjusted', 'state_rank']);
    case 'residencyLevel':
      return list('institutions', ['salary', 'col_adjusted', 'rank_position', 'state_rank']);
    case 'comparison':
      return ['specialty_a.median', 'specialty_b.median', 'specialty_a.n', 'specialty_b.n', 'comparison.median_difference', 'comparison.median_difference_pct'];
  }
}

/**
 * The rest of the offer (components) on a specialty page: every item's share and the count behind its
 * figures (a withheld count reads why), and its figures when published; nothing when no question was answered
 * by 5 reports (the section then says so).
 */
function offerFields(doc: Record<string, unknown>): string[] {
  type Item = { answered?: number | null; n?: number | null; n_with?: number | null; withheld: boolean };
  const c = doc.components as { money: Item[]; pto_weeks: Item; call_nights_per_month: Item; compensation_models: { answered: number | null; models: { conversion_rate: Item }[] }; non_compete: Item & { median_years: number | null }; partnership_track: Item } | undefined;
  if (!c) return [];
  const answered = [...c.money, c.non_compete, c.partnership_track].some((x) => x.answered !== null) || c.compensation_models.answered !== null || !c.pto_weeks.withheld || !c.call_nights_per_month.withheld;
  if (!answered) return [];
  const out: string[] = [];
  c.money.forEach((m, k) => out.push(`components.money[${k}].share_with_pct`, `components.money[${k}].n_with`, ...(m.withheld ? [] : ['p25', 'median', 'p75'].map((f) => `components.money[${k}].${f}`))));
  for (const q of ['pto_weeks', 'call_nights_per_month'] as const) out.push(`components.${q}.n`, ...(c[q].withheld ? [] : ['p25', 'median', 'p75'].map((f) => `components.${q}.${f}`)));
  c.compensation_models.models.forEach((m, k) => out.push(`components.compensation_models.models[${k}].share_pct`, `components.compensation_models.models[${k}].conversion_rate.n`, ...(m.conversion_rate.withheld ? [] : [`components.compensation_models.models[${k}].conversion_rate.median`])));
  out.push('components.non_compete.share_with_pct', 'components.non_compete.n_with', ...(c.non_compete.withheld ? [] : ['components.non_compete.median_miles', 'components.non_compete.median_years']));
  out.push('components.partnership_track.share_with_pct', 'components.partnership_track.n_with', ...(c.partnership_track.withheld ? [] : ['components.partnership_track.median_years']));
  return out;
}

const pages = new Map<string, Promise<{ status: number; type: string | undefined; root: HtmlElement | null; errors: string[] }>>();
function fetchPage(path: string) {
  let p = pages.get(path);
  if (!p) {
    p = get(s.url, path).then((r) => {
      const { root, errors } = parseHtml(r.text);
      return { status: r.status, type: r.headers['content-type'], root, errors };
    });
    pages.set(path, p);
  }
  return p;
}

describe('citation pages', () => {
  it('every citation_url of every feed resolves to a well-formed page showing exactly the feed\'s figures', async () => {
    expect(feeds.length).toBeGreaterThan(2000);
    const problems: string[] = [];
    let checkedFigures = 0;
    let withheldShown = 0;
    let notYetPages = 0;
    let payBoxes = 0;
    const kinds = new Set<FeedKind>();
    for (let i = 0; i < feeds.length; i += 24) {
      await Promise.all(feeds.slice(i, i + 24).map(async ({ path, kind, doc }) => {
        kinds.add(kind);
        const cite = String(doc.citation_url);
        expect(cite.startsWith(`${BASE_URL}/`), path).toBe(true);
        const pagePath = cite.slice(BASE_URL.length);
        const page = await fetchPage(pagePath);
        if (page.status !== 200) return void problems.push(`${path}: ${pagePath} answered ${page.status}`);
        if (page.type !== 'text/html; charset=utf-8') problems.push(`${path}: ${pagePath} content-type ${page.type}`);
        if (page.errors.length) return void problems.push(`${pagePath}: not well-formed: ${page.errors.slice(0, 3).join('; ')}`);
        // A specialty below the national floor: its page says once that nothing is published yet and what
        // would publish it (no figure of its national or wRVU feed to show, all being withheld).
        const notYet = [...elements(page.root!)].find((el) => el.attrs.id === 'not-yet');
        if (notYet && doc.withheld === true && (kind === 'specialty' || kind === 'wrvu')) {
          if (!/^Not published yet\. .* has fewer than 5 approved reports nationally\./.test(textOf(notYet))) problems.push(`${pagePath}: the not-yet notice reads ${JSON.stringify(textOf(notYet).slice(0, 120))}`);
          notYetPages++;
          return;
        }
        const shown = shownFigures(page.root!).filter((f) => f.feed === doc.feed_url);
        if (!shown.length) return void problems.push(`${pagePath} shows nothing of ${path}`);
        const fields = new Set(shown.map((f) => f.field));
        for (const f of shown) {
          const want = getPath(doc, f.field);
          checkedFigures++;
          if (f.value === undefined) {
            if (f.text !== want) problems.push(`${pagePath}: ${f.field} text ${JSON.stringify(f.text)} != feed ${JSON.stringify(want)}`);
            continue;
          }
          if (want === null) {
            if (f.value !== 'withheld' && f.value !== 'null') problems.push(`${pagePath}: ${f.field} is null in ${path} but shown as ${f.value}`);
            if (f.value === 'withheld') {
              withheldShown++;
              // compact cells (the by-year table) read just "withheld"; the note under their table names the floor
              if (!/^withheld \(fewer than (3|5|15) reports\)$/.test(f.text) && !(f.text === 'withheld' && /\bcompact\b/.test(f.el.attrs.class ?? ''))) problems.push(`${pagePath}: withheld ${f.field} reads ${JSON.stringify(f.text)}`);
            }
            continue;
          }
          if (typeof want !== 'number') {
            problems.push(`${pagePath}: ${f.field} of ${path} is ${JSON.stringify(want)}, page shows ${f.value}`);
            continue;
          }
          if (Number(f.value) !== want) problems.push(`${pagePath}: ${f.field} = ${f.value}, feed ${path} has ${want}`);
          if (numberShown(f.text) !== want) problems.push(`${pagePath}: ${f.field} reads ${JSON.stringify(f.text)}, feed has ${want}`);
        }
        for (const req of ['as_of', 'attribution', ...(doc.notice ? ['notice'] : []), ...requiredFields(kind, doc)]) {
          if (!fields.has(req)) problems.push(`${pagePath}: does not show ${req} of ${path}`);
        }
        if (kind === 'specialty' || kind === 'specialtyState') {
          const problem = checkPayBox(page.root!, doc, shown);
          if (problem) problems.push(`${pagePath}: pay box: ${problem}`);
          else if (doc.median !== null) payBoxes++;
        }
        // The feed link on the page.
        const feedPath = String(doc.feed_url).slice(BASE_URL.length);
        if (!hasLink(page.root!, feedPath)) problems.push(`${pagePath}: no link to ${feedPath}`);
      }));
    }
    expect(problems.slice(0, 30)).toEqual([]);
    expect(kinds.size).toBe(10); // every feed kind the build writes (comparisons are derived by the server: test/mcp/interfaces.test.ts)
    expect(checkedFigures).toBeGreaterThan(20_000);
    expect(withheldShown).toBeGreaterThan(100); // the golden data has thin cells, so withheld figures really occur
    expect(notYetPages).toBeGreaterThan(0); // and specialties below the national floor
    expect(payBoxes).toBeGreaterThan(75); // every published specialty and specialty-in-state page (30 + 51 in the golden build's headline years)
  }, 180_000);

  it('the methodology page, licence page, home and indexes are served; methodology names the method', async () => {
    const meth = feeds[0]!.doc.methodology_url as string;
    for (const p of [meth.slice(BASE_URL.length), '/license', '/', '/salaries', '/states', '/residency']) {
      const r = await get(s.url, p);
      expect(r.status, p).toBe(200);
      expect(r.headers['content-type'], p).toBe('text/html; charset=utf-8');
      expect(parseHtml(r.text).errors, p).toEqual([]);
    }
    const text = (await get(s.url, '/methodology')).text;
    for (const phrase of ['Tukey', '1.5', 'withheld', '$1,000', 'wRVU', 'Winsorized', '$50,000', '$3,000,000', 'binomial', 'top-code', '$239,200', '40 hours/week', 'self-reported']) {
      expect(text, phrase).toContain(phrase);
    }
    const lic = (await get(s.url, '/license')).text;
    expect(lic).toContain('href="https://creativecommons.org/licenses/by/4.0/"');
    expect(lic).toContain(`accessed ${DAY})`);
  });

  it('pages carry the page headers: strong ETag, 304, one-hour caching, trailing slash, HEAD', async () => {
    const r = await get(s.url, '/salaries/family-medicine');
    expect(r.status).toBe(200);
    expect(r.headers.etag).toMatch(/^"[^"]+"$/);
    expect(r.headers['cache-control']).toBe('public, max-age=3600');
    expect(r.text).toContain(`accessed ${DAY})`);
    expect(r.text).not.toContain('accessed 2026-11-16)');
    const again = await get(s.url, '/salaries/family-medicine', { 'if-none-match': r.headers.etag! });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    const slash = await get(s.url, '/salaries/family-medicine/');
    expect(slash.status).toBe(200);
    expect(slash.text).toBe(r.text);
    const missing = await get(s.url, '/salaries/no-such-specialty');
    expect(missing.status).toBe(404);
  });

  it('the US maps (specialty pages, /states) show every state once, with exactly its feed\'s n and median', async () => {
    const byUrl = new Map(feeds.map((f) => [String(f.doc.feed_url), f.doc]));
    const problems: string[] = [];
    // a specialty below the national floor has no state figures either: its page has no map (see above)
    const maps = feeds.filter((f) => (f.kind === 'specialty' && f.doc.withheld !== true) || f.kind === 'states');
    let shownStates = 0;
    for (const { doc } of maps) {
      const pagePath = String(doc.citation_url).slice(BASE_URL.length);
      const page = await fetchPage(pagePath);
      const map = [...elements(page.root!)].find((e) => e.attrs.class === 'usmap');
      if (!map) {
        problems.push(`${pagePath}: no map`);
        continue;
      }
      const shapes = [...elements(map)].filter((e) => e.attrs['data-state'] !== undefined);
      const codes = shapes.map((e) => e.attrs['data-state']);
      if (codes.length !== 51 || new Set(codes).size !== 51) problems.push(`${pagePath}: ${codes.length} state shapes, ${new Set(codes).size} distinct`);
      const figures = shownFigures(map);
      for (const f of figures) {
        const want = getPath(byUrl.get(f.feed) ?? {}, f.field);
        if (Number(f.value) !== want || numberShown(f.text) !== want) problems.push(`${pagePath}: map ${f.feed} ${f.field} = ${f.value} (${f.text}), feed has ${String(want)}`);
      }
      // every published state has both figures on the map; a withheld one none, and is hatched
      for (const a of shapes) {
        const figs = shownFigures(a);
        const hatched = [...elements(a)].some((e) => e.tag === 'path' && /hatch/.test(e.attrs.fill ?? ''));
        if (hatched !== (figs.length === 0)) problems.push(`${pagePath}: ${a.attrs['data-state']} hatched=${hatched} with ${figs.length} figures`);
        if (figs.length && figs.length !== 2) problems.push(`${pagePath}: ${a.attrs['data-state']} shows ${figs.map((f) => f.field).join(', ')}`);
        if (figs.length) shownStates++;
      }
    }
    expect(problems.slice(0, 20)).toEqual([]);
    expect(maps.length).toBeGreaterThan(28); // 30 published specialties (headline years) and /states in the golden build
    expect(shownStates).toBeGreaterThan(80); // 88 in the golden build (headline years)
  }, 120_000);

  it('a page shows the same attribution line as its feed on the same day', async () => {
    const page = await get(s.url, '/states/texas');
    const feed = (await get(s.url, '/data/api/v1/states/texas.json')).json();
    const { root } = parseHtml(page.text);
    const attribution = shownFigures(root!).find((f) => f.field === 'attribution' && f.feed === feed.feed_url)!;
    expect(attribution.text).toBe(feed.attribution);
  });
});

const PERCENTILE_FIELD: Record<number, string> = { 10: 'p10', 25: 'p25', 50: 'median', 75: 'p75', 90: 'p90' };

/**
 * The "Where does my pay fall?" box of a specialty or specialty-in-state page: withheld figures => no grid
 * and no bands; otherwise data-pay-grid is standardGrid() of the feed, and the figures inside the box are n and
 * the bounds of each band (lowest, each pair, highest), all of them among the page's figures of this feed,
 * which the loop above compares with the feed. Returns a problem, or null.
 */
function checkPayBox(root: HtmlElement, doc: Record<string, unknown>, shown: ReturnType<typeof shownFigures>): string | null {
  const box = [...elements(root)].find((e) => e.attrs.class === 'paycheck');
  if (!box) return 'missing';
  const num = (k: string) => doc[k] as number | null;
  const grid = standardGrid({ p10: num('p10'), p25: num('p25'), p50: num('median'), p75: num('p75'), p90: num('p90') });
  const inBox = (el: HtmlElement) => {
    for (let e: HtmlElement | null = el; e; e = e.parent) if (e === box) return true;
    return false;
  };
  const fields = shown.filter((f) => inBox(f.el)).map((f) => f.field);
  if (doc.median === null) {
    if (box.attrs['data-pay-grid'] !== undefined || fields.length) return 'withheld figures, but a grid or figures are shown';
    return textOf(box).includes('No estimate can be given') ? null : 'withheld figures, but no "no estimate" line';
  }
  const want = JSON.stringify(grid.map((g) => [g.percentile, g.value]));
  if (box.attrs['data-pay-grid'] !== want) return `data-pay-grid ${box.attrs['data-pay-grid']} != ${want}`;
  const bounds = [grid[0]!, ...grid.slice(0, -1).flatMap((g, k) => [g, grid[k + 1]!]), grid.at(-1)!].map((g) => PERCENTILE_FIELD[g.percentile]!);
  if (JSON.stringify(fields) !== JSON.stringify(['n', ...bounds])) return `figures ${fields.join(',')} != n,${bounds.join(',')}`;
  return null;
}

function hasLink(root: HtmlElement, path: string): boolean {
  const stack: HtmlElement[] = [root];
  while (stack.length) {
    const el = stack.pop()!;
    if (el.tag === 'a' && el.attrs.href === path) return true;
    for (const c of el.children) if (c.type === 'element') stack.push(c);
  }
  return false;
}
