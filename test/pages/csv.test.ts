/**
 * CSV downloads (issue 8): served by the open data API like the feeds (text/csv, ETag, 304, CORS, rate
 * limit headers), RFC 4180 (checked with a reader written here, independent of the build's), UTF-8 with a
 * header row, the same figures as the JSON feeds, withheld figures as empty cells with withheld=true, and
 * the licence columns on every row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { get, request } from '../helpers/http.ts';
import { csvField, csvText } from '../../build/compute/open-csv.ts';
import { serveGolden, type Served } from './helpers.ts';

let s: Served;
beforeAll(async () => {
  s = await serveGolden('pages-csv');
}, 120_000);
afterAll(async () => {
  await s?.close();
});

/** Strict RFC 4180: CRLF record ends, quoted fields with doubled quotes, no quote inside an unquoted field. */
function readCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  for (;;) {
    let field = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        const q = text.indexOf('"', i);
        if (q < 0) throw new Error('unterminated quoted field');
        field += text.slice(i, q);
        if (text[q + 1] === '"') {
          field += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
    } else {
      const m = /[^,\r\n"]*/y;
      m.lastIndex = i;
      field = m.exec(text)![0];
      i += field.length;
      if (text[i] === '"') throw new Error(`quote inside an unquoted field at ${i}`);
    }
    row.push(field);
    if (text[i] === ',') {
      i++;
      continue;
    }
    if (text.startsWith('\r\n', i)) {
      rows.push(row);
      row = [];
      i += 2;
      if (i === text.length) return rows;
      continue;
    }
    throw new Error(`expected , or CRLF at offset ${i} (got ${JSON.stringify(text.slice(i, i + 5))})`);
  }
}

function records(text: string): Record<string, string>[] {
  const [header, ...rows] = readCsv(text);
  for (const r of rows) expect(r.length).toBe(header!.length);
  return rows.map((r) => Object.fromEntries(header!.map((h, k) => [h, r[k]!])));
}

const cell = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'number' ? JSON.stringify(v) : String(v));
const LICENCE = ['license', 'license_url', 'citation_url', 'as_of', 'feed_url', 'methodology_url', 'publisher', 'synthetic'];
const FIGS = ['n', 'median', 'mean', 'p10', 'p25', 'p75', 'p90'];

describe('CSV downloads', () => {
  it('are served like the feeds: text/csv, strong ETag, 304, CORS, rate-limit headers, access date untouched', async () => {
    for (const p of ['/data/api/v1/specialties.csv', '/data/api/v1/specialty-states.csv', '/data/api/v1/states.csv', '/data/api/v1/residency/institutions.csv', '/data/api/v1/specialty-offer-components.csv']) {
      const r = await get(s.url, p);
      expect(r.status, p).toBe(200);
      expect(r.headers['content-type'], p).toBe('text/csv; charset=utf-8');
      expect(r.headers.etag, p).toMatch(/^"[^"]+"$/);
      expect(r.headers['cache-control'], p).toBe('public, max-age=3600');
      expect(r.headers['access-control-allow-origin'], p).toBe('*');
      expect(r.headers['ratelimit-policy'], p).toBeTruthy();
      expect(r.headers.ratelimit, p).toMatch(/"minute";r=\d+/);
      expect(r.body[0], `${p} has no byte-order mark`).not.toBe(0xef);
      expect(Buffer.from(r.text, 'utf8').equals(r.body), `${p} is UTF-8`).toBe(true);
      const again = await get(s.url, p, { 'if-none-match': r.headers.etag! });
      expect(again.status, p).toBe(304);
      const head = await request(s.url, p, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.body.length).toBe(0);
    }
  });

  it('specialties.csv has one row per specialty with the figures of specialties.json and each specialty feed', async () => {
    const list = (await get(s.url, '/data/api/v1/specialties.json')).json<{ specialties: Record<string, unknown>[] }>();
    const rows = records((await get(s.url, '/data/api/v1/specialties.csv')).text);
    expect(rows.map((r) => r.slug)).toEqual(list.specialties.map((e) => e.slug));
    let withheld = 0;
    for (const [k, row] of rows.entries()) {
      const entry = list.specialties[k]!;
      for (const f of ['n', 'median', 'p25', 'p75', 'withheld', 'rounded', 'name', 'citation_url', 'feed_url']) expect(row[f], `${row.slug}.${f}`).toBe(cell(entry[f]));
      const doc = (await get(s.url, `/data/api/v1/specialties/${row.slug}.json`)).json();
      for (const f of [...FIGS, ...LICENCE]) expect(row[f], `${row.slug}.${f}`).toBe(cell(doc[f]));
      if (row.withheld === 'true') {
        withheld++;
        for (const f of FIGS) expect(row[f], `${row.slug}.${f} of a withheld row`).toBe('');
      } else expect(row.median).not.toBe('');
      expect(row.license).toBe('CC BY 4.0');
    }
    expect(withheld).toBeGreaterThan(0);
  });

  it('states.csv has one row per state with the figures of states.json and each state feed', async () => {
    const list = (await get(s.url, '/data/api/v1/states.json')).json<{ states: { state: { code: string; slug: string }; n: number | null; median: number | null; withheld: boolean; cost_of_living_index: number | null }[] }>();
    const rows = records((await get(s.url, '/data/api/v1/states.csv')).text);
    expect(rows.map((r) => r.code)).toEqual(list.states.map((e) => e.state.code));
    let withheld = 0;
    for (const [k, row] of rows.entries()) {
      const e = list.states[k]!;
      expect(row.n).toBe(cell(e.n));
      expect(row.median).toBe(cell(e.median));
      expect(row.withheld).toBe(String(e.withheld));
      expect(row.cost_of_living_index).toBe(cell(e.cost_of_living_index));
      const doc = (await get(s.url, `/data/api/v1/states/${e.state.slug}.json`)).json<Record<string, unknown> & { cost_of_living: { index: number | null } }>();
      for (const f of [...FIGS, 'col_adjusted_median', ...LICENCE]) expect(row[f], `${row.code}.${f}`).toBe(cell(doc[f]));
      if (row.withheld === 'true') {
        withheld++;
        for (const f of [...FIGS, 'col_adjusted_median']) expect(row[f]).toBe('');
      }
    }
    expect(withheld).toBeGreaterThan(0);
  });

  it('specialty-states.csv has one row per specialty and state, every pair, with the figures of each specialty-in-state feed', async () => {
    const specialties = (await get(s.url, '/data/api/v1/specialties.json')).json<{ specialties: { slug: string }[] }>().specialties;
    const states = (await get(s.url, '/data/api/v1/states.json')).json<{ states: { state: { code: string; slug: string } }[] }>().states;
    const rows = records((await get(s.url, '/data/api/v1/specialty-states.csv')).text);
    expect(rows.map((r) => `${r.specialty_slug}/${r.state_code}`)).toEqual(specialties.flatMap((sp) => states.map((e) => `${sp.slug}/${e.state.code}`)));
    let withheld = 0;
    let published = 0;
    // every published row and a sample of the withheld ones, against the feed
    for (const [k, row] of rows.entries()) {
      if (row.withheld === 'true' && k % 17 !== 0) {
        withheld++;
        for (const f of FIGS) expect(row[f], `${row.specialty_slug}/${row.state_code}.${f} of a withheld row`).toBe('');
        continue;
      }
      const doc = (await get(s.url, `/data/api/v1/specialties/${row.specialty_slug}/states/${row.state_slug}.json`)).json<Record<string, unknown> & { state: { code: string; name: string }; specialty: { name: string } }>();
      expect([row.state_code, row.state_name, row.specialty_name]).toEqual([doc.state.code, doc.state.name, doc.specialty.name]);
      for (const f of [...FIGS, 'withheld', 'rounded', 'national_median', 'difference_from_national_pct', ...LICENCE]) expect(row[f], `${row.specialty_slug}/${row.state_code}.${f}`).toBe(cell(doc[f]));
      if (row.withheld === 'true') withheld++;
      else published++;
    }
    expect(withheld).toBeGreaterThan(0);
    expect(published).toBeGreaterThan(0);
  });

  it('specialty-offer-components.csv has one row per specialty and item with the figures of each specialty feed\'s components', async () => {
    type Money = { component: string; unit: string; answered: number | null; share_with_pct: number | null; n_with: number | null; p25: number | null; median: number | null; p75: number | null; rounded: boolean; withheld: boolean };
    type Quantity = { unit: string; n: number | null; p25: number | null; median: number | null; p75: number | null; withheld: boolean };
    type Doc = Record<string, unknown> & { components: {
      money: Money[]; pto_weeks: Quantity; call_nights_per_month: Quantity;
      compensation_models: { answered: number | null; models: { model: string; share_pct: number | null; conversion_rate: { n: number | null; median: number | null; withheld: boolean } }[] };
      non_compete: { answered: number | null; share_with_pct: number | null; n_with: number | null; withheld: boolean; median_miles: number | null; median_years: number | null };
      partnership_track: { answered: number | null; share_with_pct: number | null; n_with: number | null; withheld: boolean; median_years: number | null };
    } };
    const specialties = (await get(s.url, '/data/api/v1/specialties.json')).json<{ specialties: { slug: string }[] }>().specialties;
    const rows = records((await get(s.url, '/data/api/v1/specialty-offer-components.csv')).text);
    const ITEMS = ['call_pay', 'signing_bonus', 'retention_bonus', 'relocation', 'loan_repayment', 'cme_allowance', 'pto_weeks', 'call_nights_per_month',
      ...['salary', 'salary_plus_productivity', 'production', 'collections', 'shift'].map((m) => `compensation_model_${m}`), 'non_compete_miles', 'non_compete_years', 'partnership_track_years'];
    expect(rows.map((r) => `${r.specialty_slug}|${r.item}`)).toEqual(specialties.flatMap((sp) => ITEMS.map((i) => `${sp.slug}|${i}`)));
    const counts = { published: 0, withheld: 0, shareOnly: 0 };
    for (const sp of specialties) {
      const doc = (await get(s.url, `/data/api/v1/specialties/${sp.slug}.json`)).json<Doc>();
      const c = doc.components;
      const mine = new Map(rows.filter((r) => r.specialty_slug === sp.slug).map((r) => [r.item, r]));
      /** what each row must say, from the feed (null: an empty cell) */
      const expected = new Map<string, Record<string, unknown>>();
      for (const m of c.money) {
        expected.set(m.component, { unit: m.unit, share_pct: m.share_with_pct, answered: m.answered, n: m.n_with, p25: m.p25, median: m.median, p75: m.p75, withheld: m.withheld, rounded_to: m.withheld ? null : m.rounded ? 1000 : 1 });
      }
      for (const k of ['pto_weeks', 'call_nights_per_month'] as const) {
        const q = c[k];
        expected.set(k, { unit: q.unit, share_pct: null, answered: null, n: q.n, p25: q.p25, median: q.median, p75: q.p75, withheld: q.withheld, rounded_to: q.withheld ? null : 0.5 });
      }
      for (const m of c.compensation_models.models) {
        const r = m.conversion_rate;
        expected.set(`compensation_model_${m.model}`, { unit: 'USD per wRVU', share_pct: m.share_pct, answered: c.compensation_models.answered, n: r.n, p25: null, median: r.median, p75: null, withheld: r.withheld, rounded_to: r.n === null ? null : r.n <= 24 ? 1 : 0.01 });
      }
      const nc = c.non_compete;
      expected.set('non_compete_miles', { unit: 'miles', share_pct: nc.share_with_pct, answered: nc.answered, n: nc.n_with, median: nc.median_miles, withheld: nc.median_miles === null, rounded_to: nc.median_miles === null ? null : nc.n_with! <= 24 ? 5 : 1 });
      expected.set('non_compete_years', { unit: 'years', share_pct: nc.share_with_pct, answered: nc.answered, n: nc.n_with, median: nc.median_years, withheld: nc.median_years === null, rounded_to: nc.median_years === null ? null : 0.5 });
      const pt = c.partnership_track;
      expected.set('partnership_track_years', { unit: 'years', share_pct: pt.share_with_pct, answered: pt.answered, n: pt.n_with, median: pt.median_years, withheld: pt.median_years === null, rounded_to: pt.median_years === null ? null : 0.5 });
      for (const [item, want] of expected) {
        const row = mine.get(item)!;
        for (const [f, v] of Object.entries(want)) expect(row[f], `${sp.slug} ${item} ${f}`).toBe(cell(v));
        for (const f of LICENCE) expect(row[f], `${sp.slug} ${item} ${f}`).toBe(cell(doc[f]));
        expect(row.specialty_name).toBe(cell((doc.specialty as { name: string }).name));
        if (row.withheld === 'true') {
          counts.withheld++;
          for (const f of ['p25', 'median', 'p75', 'rounded_to']) expect(row[f], `${sp.slug} ${item} ${f} of a withheld row`).toBe('');
          if (row.share_pct !== '') counts.shareOnly++;
        } else {
          counts.published++;
          expect(Number(row.n), `${sp.slug} ${item}: figures from at least 5 reports`).toBeGreaterThanOrEqual(5);
        }
      }
    }
    expect(counts.published).toBeGreaterThan(50);
    expect(counts.withheld).toBeGreaterThan(50);
    expect(counts.shareOnly).toBeGreaterThan(10); // an item too rare for quartiles still says how common it is
  });

  it('institutions.csv has each teaching hospital\'s PGY scale and rank as in its feed', async () => {
    const list = (await get(s.url, '/data/api/v1/residency/institutions.json')).json<{ institutions: { institution: { slug: string } }[] }>();
    const text = (await get(s.url, '/data/api/v1/residency/institutions.csv')).text;
    const rows = records(text);
    expect(rows.map((r) => r.slug)).toEqual(list.institutions.map((e) => e.institution.slug));
    for (const row of rows.slice(0, 40)) {
      const doc = (await get(s.url, `/data/api/v1/residency/institutions/${row.slug}.json`)).json<Record<string, unknown> & { pgy_scale: { pgy: number; salary: number }[]; rank: { position: number } | null; institution: { name: string } }>();
      expect(row.name).toBe(doc.institution.name);
      for (const { pgy, salary } of doc.pgy_scale) expect(row[`pgy${pgy}_salary`]).toBe(cell(salary));
      expect(row.pgy1_col_adjusted).toBe(cell(doc.pgy1_col_adjusted));
      expect(row.rank).toBe(cell(doc.rank?.position ?? null));
      for (const f of LICENCE) expect(row[f], `${row.slug}.${f}`).toBe(cell(doc[f]));
    }
  });

  it('residency/pgy-levels.csv has every hospital at every PGY level: PGY-1 as institutions.json, the others as residency/pgy/{n}.json, empty (never 0) past a scale\'s end', async () => {
    type Level = { pgy: number; max_pgy: number; count: number; without_level: number; feed_url: string; citation_url: string; institutions: Record<string, unknown>[] };
    const list = (await get(s.url, '/data/api/v1/residency/institutions.json')).json<{ feed_url: string; citation_url: string; institutions: Record<string, unknown>[] }>();
    const two = (await get(s.url, '/data/api/v1/residency/pgy/2.json')).json<Level>();
    const levels = new Map<number, Level>([[2, two]]);
    for (let pgy = 3; pgy <= two.max_pgy; pgy++) levels.set(pgy, (await get(s.url, `/data/api/v1/residency/pgy/${pgy}.json`)).json<Level>());
    const res = await get(s.url, '/data/api/v1/residency/pgy-levels.csv');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.text.split('\r\n')[0]).toBe('slug,name,city,state_code,state,academic_year,pgy,salary,col_adjusted,rank,rank_of,state_rank,state_rank_of,cost_of_living_index,source_url,as_of,citation_url,feed_url,methodology_url,license,license_url,publisher,synthetic');
    const rows = records(res.text);
    const slugs = list.institutions.map((e) => (e.institution as { slug: string }).slug);
    // long: every hospital (institutions.json's order) at every level 1..max_pgy
    expect(rows.map((r) => `${r.slug}/${r.pgy}`)).toEqual(slugs.flatMap((slug) => Array.from({ length: two.max_pgy }, (_, k) => `${slug}/${k + 1}`)));
    const byKey = new Map(rows.map((r) => [`${r.slug}/${r.pgy}`, r]));
    list.institutions.forEach((e) => {
      const slug = (e.institution as { slug: string }).slug;
      const r = byKey.get(`${slug}/1`)!;
      expect([r.salary, r.col_adjusted, r.rank, r.rank_of]).toEqual([cell(e.pgy1_salary), cell(e.pgy1_col_adjusted), cell(e.rank_position), cell(e.rank_of)]);
      expect([r.citation_url, r.feed_url]).toEqual([list.citation_url, list.feed_url]);
    });
    let empty = 0;
    for (const [pgy, f] of levels) {
      expect(f.count + f.without_level).toBe(slugs.length);
      const listed = new Set(f.institutions.map((e) => (e.institution as { slug: string }).slug));
      for (const e of f.institutions) {
        const r = byKey.get(`${(e.institution as { slug: string }).slug}/${pgy}`)!;
        expect([r.salary, r.col_adjusted, r.rank, r.rank_of, r.state_rank, r.state_rank_of]).toEqual([e.salary, e.col_adjusted, e.rank_position, e.rank_of, e.state_rank, e.state_rank_of].map(cell));
        expect([r.citation_url, r.feed_url]).toEqual([f.citation_url, f.feed_url]);
        // adjusted like PGY-1: salary / (index / 100), whole dollars
        const idx = e.cost_of_living_index as number | null;
        expect(e.col_adjusted).toBe(idx ? Math.round((e.salary as number) / (idx / 100)) : null);
      }
      for (const slug of slugs.filter((x) => !listed.has(x))) {
        const r = byKey.get(`${slug}/${pgy}`)!;
        expect([r.salary, r.col_adjusted, r.rank, r.state_rank]).toEqual(['', '', '', '']);
        empty++;
      }
    }
    expect(empty).toBeGreaterThan(0); // the demo has 3- to 7-year scales
    expect(rows.some((r) => r.salary === '0')).toBe(false);
  });
});

describe('the cell encoder (every CSV the build writes, and moderate list --csv, goes through it)', () => {
  const TRIGGER = /^[=+\-@\t\r]/;
  it('a text cell reads back as itself, or with one leading apostrophe when a spreadsheet would run it as a formula', () => {
    const text = fc.oneof(fc.string({ unit: 'grapheme' }), fc.string(), fc.constantFrom('=', '+', '-', '@', '\t', '\r', '"', ',', '\n').chain((c) => fc.string().map((rest) => c + rest)));
    fc.assert(fc.property(fc.array(text, { minLength: 1, maxLength: 5 }), (cells) => {
      const [row] = readCsv(cells.map((c) => csvField(c)).join(',') + '\r\n');
      expect(row).toEqual(cells.map((c) => (TRIGGER.test(c) ? `'${c}` : c)));
      for (const c of row!) expect(c).not.toMatch(TRIGGER);
    }), { numRuns: 2_000 });
  });

  it('numbers are never changed: a negative number stays -12.5, as the JSON writes it', () => {
    expect(csvField(-12.5)).toBe('-12.5');
    expect(csvText(['a', 'b'], [[-12.5, '-12.5']])).toBe(`a,b\r\n-12.5,"'-12.5"\r\n`); // text that looks like a number is text
    fc.assert(fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
      expect(csvField(n)).toBe(JSON.stringify(n));
    }), { numRuns: 2_000 });
  });
});
