/**
 * The whole offer at /contribute (issue 43, item 2): the form asks for it in a folded "rest of the offer"
 * group (five sub-groups, numeric keyboards on a phone), the form and the JSON endpoint take it with the
 * importer's rules and messages, a wrong value comes back by its field (the group unfolded, the answers
 * kept), a report stores only the offer values given, and the repeat check tells two offers apart.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { goldenBuildIn } from '../helpers/golden-build.ts';
import { request } from '../helpers/http.ts';
import { closeAfterAll, startTestServer } from '../helpers/server.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import type { RunningServer } from '../../server/main.ts';
import { openForm, postForm, postJson, REPORT, solve } from './harness.ts';
import { IntakeError, IntakeRequest } from '../../build/contract/intake.ts';
import { COMPENSATION_MODELS, OFFER_COLUMNS } from '../../build/contract/offer-terms.ts';

const later = closeAfterAll();
const tmp = useTempDir('contribute-offer');
let now = new Date('2026-11-20T12:00:00Z');
let s: RunningServer;
let ipNo = 0;
const nextIp = () => `198.51.100.${++ipNo}`;
const wait = (seconds: number) => void (now = new Date(now.getTime() + seconds * 1000));
const pending = async () => s.store.pendingSubmissions(1000);

beforeAll(async () => {
  const { dist } = goldenBuildIn(tmp.path, join(tmp.path, 'dist'));
  s = later(await startTestServer(dist, join(tmp.path, 'service.db'), { clock: () => now, trustProxy: 1 }));
}, 60_000);

/** The offer as a survey export or a person writes it. */
const OFFER = {
  call_pay: '$30,000', call_nights_per_month: '5', signing_bonus: '25,000', retention_bonus: 'None', relocation: '10000', loan_repayment: '$90,000',
  loan_repayment_years: '3', cme_allowance: '$3,500', pto_weeks: '5.5', compensation_model: 'Salary + productivity', wrvu_conversion_rate: '$52.50',
  non_compete_miles: '15', non_compete_years: '2', partnership_track_years: 'none',
};
const STORED = {
  call_pay: 30_000, call_nights_per_month: 5, signing_bonus: 25_000, retention_bonus: 0, relocation: 10_000, loan_repayment: 90_000,
  loan_repayment_years: 3, cme_allowance: 3_500, pto_weeks: 5.5, compensation_model: 'salary_plus_productivity', wrvu_conversion_rate: 52.5,
  non_compete_miles: 15, non_compete_years: 2, partnership_track_years: 0,
};
const BASE = { ...REPORT, total_compensation: '' };

describe('the form', () => {
  it('folds the rest of the offer away: five groups, every field optional, numeric keyboards, the pay models with their meaning', async () => {
    const f = await openForm(s.url, nextIp());
    const html = f.page.text;
    expect(html).toMatch(/<details class="offer" id="offer"><summary>The rest of the offer \(optional\)<\/summary>/); // closed
    const legends = [...html.matchAll(/<legend>([^<]+)<\/legend>/g)].map((m) => m[1]);
    expect(legends).toEqual(['Call', 'One-time payments', 'Benefits', 'Pay model', 'Contract terms']);
    for (const c of OFFER_COLUMNS) {
      const control = new RegExp(`<(input|select) id="f-${c}" name="${c}"( aria-describedby="[^"]+")?( type="text" inputmode="(numeric|decimal)")?`);
      expect(html, c).toMatch(control);
      expect(html, c).not.toMatch(new RegExp(`name="${c}" required`));
    }
    const offer = html.slice(html.indexOf('<details class="offer"'), html.indexOf('</details>\n<p id="pow-status"'));
    expect(offer.match(/inputmode="(numeric|decimal)"/g)).toHaveLength(13);
    for (const m of COMPENSATION_MODELS) {
      expect(offer).toContain(`<option value="${m.value}">${m.label}</option>`);
      expect(offer).toContain(`<dt>${m.label}</dt>`);
    }
  });
});

describe('accepted', () => {
  it('the form: every offer value in the forms people write, stored as the importer reads them', async () => {
    const ip = nextIp();
    const f = await openForm(s.url, ip);
    wait(10);
    const r = await postForm(s.url, ip, f, { ...BASE, total_compensation: '291,000', ...OFFER });
    expect(r.status, r.text.slice(0, 300)).toBe(201);
    const p = (await pending()).find((x) => x.report.total_compensation === 291_000)!;
    expect(p.report).toEqual({
      specialty: 'Family Medicine', state: 'TX', year: 2025, total_compensation: 291_000, base_salary: 250_000, bonus: 35_000, hours_per_week: 50,
      years_in_practice: 8, practice_setting: 'Hospital Employed', employment_type: 'Full-Time (W-2)', wrvus: null, ...STORED,
    });
  });

  it('JSON: numbers or strings, the pay model by its value; only the values given are stored', async () => {
    const ip = nextIp();
    const f = await openForm(s.url, ip);
    const body = { ...BASE, total_compensation: 292_000, call_pay: 0, pto_weeks: 6, compensation_model: 'shift', non_compete_miles: 'NONE', signing_bonus: '', altcha: await solve(f.challenge) };
    IntakeRequest.parse(body); // the documented request
    const r = await postJson(s.url, ip, body);
    expect(r.status, r.text).toBe(201);
    const p = (await pending()).find((x) => x.report.total_compensation === 292_000)!;
    expect(Object.fromEntries(OFFER_COLUMNS.filter((c) => c in p.report).map((c) => [c, p.report[c]]))).toEqual({ call_pay: 0, pto_weeks: 6, compensation_model: 'shift', non_compete_miles: 0 });
  });

  it('a report without the offer is stored as before: no offer keys at all', async () => {
    const ip = nextIp();
    const f = await openForm(s.url, ip);
    const r = await postJson(s.url, ip, { ...BASE, total_compensation: 293_000, altcha: await solve(f.challenge) });
    expect(r.status).toBe(201);
    const p = (await pending()).find((x) => x.report.total_compensation === 293_000)!;
    expect(Object.keys(p.report).filter((k) => (OFFER_COLUMNS as readonly string[]).includes(k))).toEqual([]);
  });

  it('the repeat check: the same report with another offer is another report (201), with the same offer a repeat (409)', async () => {
    const ip = nextIp();
    const send = async (over: Record<string, string>) => postJson(s.url, ip, { ...BASE, total_compensation: 294_000, ...over, altcha: await solve((await request(s.url, '/contribute/challenge')).json()) });
    expect((await send({ pto_weeks: '5' })).status).toBe(201);
    expect((await send({ pto_weeks: '6' })).status).toBe(201);
    expect((await send({ pto_weeks: '6.0' })).status).toBe(409);
  });
});

describe('refused: the importer\'s message by its field', () => {
  it('the form: 422, the message by the field, the group unfolded, every answer kept', async () => {
    const ip = nextIp();
    const f = await openForm(s.url, ip);
    wait(10);
    const r = await postForm(s.url, ip, f, { ...BASE, total_compensation: '295,000', ...OFFER, pto_weeks: '30', compensation_model: 'hourly' });
    expect(r.status).toBe(422);
    expect(r.text).toContain('2 answers need a change');
    expect(r.text).toMatch(/<details class="offer" id="offer" open>/);
    expect(r.text).toContain('<p class="error" id="f-pto_weeks-error">Paid time off must be between 0 and 26 (got 30)</p>');
    expect(r.text).toContain('id="f-compensation_model-error">How the contract pays &quot;hourly&quot; is not one of: salary, salary_plus_productivity');
    expect(r.text).toMatch(/<input id="f-pto_weeks" name="pto_weeks" aria-describedby="f-pto_weeks-hint f-pto_weeks-error" aria-invalid="true" type="text" inputmode="decimal" autocomplete="off" value="30">/);
    expect(r.text).toContain('value="$90,000"'); // the other answers are kept
    expect((await pending()).some((p) => p.report.total_compensation === 295_000)).toBe(false);
  });

  it('the rule across fields, by the field it is about (form and JSON)', async () => {
    const ip = nextIp();
    const f = await openForm(s.url, ip);
    wait(10);
    const form = await postForm(s.url, ip, f, { ...BASE, total_compensation: '296,000', call_pay: '$300,000' });
    expect(form.status).toBe(422);
    expect(form.text).toContain('<p class="error" id="f-call_pay-error">Call pay (300000) is part of total_compensation and cannot exceed it (296000)</p>');
    const cases: [Record<string, string>, Record<string, string>][] = [
      [{ call_pay: '300000' }, { call_pay: '(300000) is part of total_compensation and cannot exceed it (296000)' }],
      [{ loan_repayment_years: '3' }, { loan_repayment_years: 'needs a loan_repayment amount above 0' }],
      [{ non_compete_miles: '20' }, { non_compete_years: 'is needed for a non-compete with a radius (non_compete_miles above 0): give its length in years' }],
      [{ non_compete_miles: 'none', non_compete_years: '1' }, { non_compete_years: 'is above 0 but non_compete_miles says there is no non-compete (0)' }],
      [{ signing_bonus: '$2,000,000', wrvu_conversion_rate: '0', call_nights_per_month: 'none' }, {
        signing_bonus: 'must be between 0 and 1000000 (got $2,000,000)',
        wrvu_conversion_rate: 'must be between 1 and 500 (got 0)',
        call_nights_per_month: 'must be a number: write 0 for none, or leave it empty when unknown (got "none")',
      }],
    ];
    for (const [over, fields] of cases) {
      const j = await postJson(s.url, ip, { ...BASE, total_compensation: '296,000', ...over, altcha: await solve(f.challenge) });
      expect(j.status).toBe(422);
      expect(IntakeError.parse(j.json())).toEqual({ error: 'Some answers need a change.', fields });
    }
  });
});
