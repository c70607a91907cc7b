/**
 * The whole offer in the moderation queue (issue 43, item 3): `physpay moderate list` shows a report's offer
 * where it gives one (a last column of the table only on a page with an offer; the 14 columns at the end of
 * --json and --csv), and flags its implausible values beside the total's (call pay over 40% of the total, a
 * conversion rate far from the specialty's $/wRVU once 5 approved reports give wRVUs, ...), with a legend
 * line; approving prints them; an import of approved rows names them like any flag.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { REPORT_COLUMNS } from '../../build/import/reports.ts';
import { OFFER_COLUMNS } from '../../build/contract/offer-terms.ts';
import { runCli } from '../helpers/cli.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

const NOW = new Date('2026-01-15T12:00:00.000Z');
const run = (args: string[]) => runCli(args, { now: NOW });
const tmp = useTempDir('moderate-offer', { each: true });
let db: string;

const HEADER = [...REPORT_COLUMNS, 'call_pay', 'call_nights_per_month', 'signing_bonus', 'pto_weeks', 'compensation_model', 'wrvu_conversion_rate', 'non_compete_miles', 'non_compete_years'].join(',');
let files = 0;
async function importRows(rows: string[]): Promise<{ out: string[]; err: string[] }> {
  const path = join(tmp.path, `r${++files}.csv`);
  writeFileSync(path, `${[HEADER, ...rows].join('\n')}\n`);
  const r = await run(['import', 'reports', '--db', db, path]);
  expect(r.code, r.err.join('\n')).toBe(0);
  return r;
}
/** A cardiology report: the 13 columns, then the offer columns of HEADER. */
const row = (total: number, wrvus: string, status: string, offer: string, day = 1) => `cardiology,NY,2025,${total},,,50,8,,,${wrvus},2025-12-${String(day).padStart(2, '0')},${status},${offer}`;
const NO_OFFER = ',,,,,,,';

const CALL_FLAG = 'call pay $230,000 is 46% of the total (above 40%)';
const RATE_FLAG = "conversion rate $150.00/wRVU: 2.4x the specialty's $62.50/wRVU";
const SALARY_FLAG = 'conversion rate $55.00/wRVU with pay model salary (a salary converts no wRVUs)';

beforeEach(async () => {
  db = join(tmp.path, 'reports.db');
  files = 0;
  expect((await run(['init', '--db', db])).code).toBe(0);
  // four approved cardiologists with wRVUs: $/wRVU 60, 62, 63, 65 (too few for the specialty's $/wRVU)
  await importRows([
    row(480_000, '8000', 'approved', NO_OFFER, 1), row(496_000, '8000', 'approved', NO_OFFER, 2),
    row(504_000, '8000', 'approved', NO_OFFER, 3), row(520_000, '8000', 'approved', NO_OFFER, 4),
  ]);
  // pending 5-9: an ordinary offer, call pay of 46%, a rate 2.4x the specialty's, salary with a rate, no offer
  await importRows([
    row(500_000, '', '', '40000,6,25000,5,production,62.5,20,2', 10),
    row(500_000, '', '', '230000,8,,,,,none,', 11),
    row(500_000, '', '', ',,,,salary_plus_productivity,150,,', 12),
    row(500_000, '', '', ',,,,Salary,55,,', 13),
    row(510_000, '', '', NO_OFFER, 14),
  ]);
});

describe('moderate list', () => {
  it('the table: an offer column where a report gives one, its flags in `outlier`, a legend line; the specialty\'s $/wRVU from 5 approved reports with wRVUs', async () => {
    let r = await run(['moderate', 'list', '--db', db]);
    expect(r.code).toBe(0);
    const [header, ...rows] = r.out;
    expect(header!.split(/\s{2,}/).slice(-3)).toEqual(['reason', 'signals', 'offer']);
    const cells = (id: number) => rows.find((l) => l.startsWith(`${id} `))!.split(/\s{2,}/);
    expect(cells(5).at(-1)).toBe('call pay $40,000 (6 nights a month), sign-on $25,000, 5 weeks off, pay model wRVU production at $62.50/wRVU, non-compete 20 miles for 2 years');
    expect(cells(5)[13]).toBe('-');
    expect(cells(6)[13]).toBe(CALL_FLAG);
    expect(cells(6).at(-1)).toBe('call pay $230,000 (8 nights a month), no non-compete');
    expect(cells(7)[13]).toBe('-'); // 4 approved reports with wRVUs: no specialty $/wRVU yet
    expect(cells(8)[13]).toBe(SALARY_FLAG);
    expect(cells(9).at(-1)).toBe('-');
    expect(r.out.at(-1)).toBe("offer flags: call pay above 40% of the total, a sign-on bonus above 50% of it, loan repayment above $300,000, more than 12 weeks off, a conversion rate with pay model salary, outside $20-$200/wRVU or beyond 0.5x-2x its specialty's $/wRVU (the median of its approved reports with wRVUs, from 5)");
    // a fifth approved report with wRVUs: the specialty's $/wRVU is their median, $62.50
    await importRows([row(500_000, '8000', 'approved', NO_OFFER, 5)]);
    r = await run(['moderate', 'list', '--db', db]);
    expect(r.out.find((l) => l.startsWith('7 '))!.split(/\s{2,}/)[13]).toBe(RATE_FLAG);
  });

  it('a page of reports without an offer has no offer column and no offer legend', async () => {
    const r = await run(['moderate', 'list', '--db', db, '--status', 'approved']);
    expect(r.out[1]).toMatch(/^1 +2025-12-01 +cardiology/);
    expect(r.out[0]!.split(/\s{2,}/).at(-1)).toBe('signals');
    expect(r.out.some((l) => l.startsWith('offer flags'))).toBe(false);
  });

  it('--json and --csv: the 14 offer columns last, unknown as null or empty', async () => {
    const doc = JSON.parse((await run(['moderate', 'list', '--db', db, '--json'])).out.join('\n'));
    const five = doc.rows.find((x: { id: number }) => x.id === 5);
    expect(Object.keys(five).slice(-15)).toEqual(['signals', ...OFFER_COLUMNS]);
    expect(five).toMatchObject({
      call_pay: 40_000, call_nights_per_month: 6, signing_bonus: 25_000, retention_bonus: null, pto_weeks: 5, compensation_model: 'production',
      wrvu_conversion_rate: 62.5, non_compete_miles: 20, non_compete_years: 2, partnership_track_years: null, outlier: null,
    });
    expect(doc.rows.find((x: { id: number }) => x.id === 6).outlier).toBe(CALL_FLAG);
    const csv = (await run(['moderate', 'list', '--db', db, '--csv'])).out;
    expect(csv[0]!.endsWith(`,signals,${OFFER_COLUMNS.join(',')}`)).toBe(true);
    expect(csv.find((l) => l.startsWith('5,'))!.endsWith(',csv batch 2,,40000,6,25000,,,,,,5,production,62.5,20,2,')).toBe(true);
  });
});

describe('decisions and imports name the offer\'s flags', () => {
  it('approving a flagged report prints them', async () => {
    const r = await run(['moderate', 'approve', '--db', db, '5', '6', '8', '--moderator', 'alice']);
    expect(r.code).toBe(0);
    expect(r.err).toEqual([
      `report 6 (cardiology, total $500,000) approved with its flag: ${CALL_FLAG}`,
      `report 8 (cardiology, total $500,000) approved with its flag: ${SALARY_FLAG}`,
    ]);
    expect(r.out).toEqual(['3 reports approved by alice']);
  });

  it('an import of approved rows names them (the specialty\'s $/wRVU from the approved reports before it)', async () => {
    await importRows([row(500_000, '8000', 'approved', NO_OFFER, 5)]);
    const r = await importRows([row(505_000, '', 'approved', ',,,,production,150,,', 20), row(506_000, '', 'approved', ',,,20,,,,', 21)]);
    expect(r.err).toEqual([
      `r4.csv line 2: report 11 (cardiology, total $505,000) imported as approved with its flag: ${RATE_FLAG}`,
      'r4.csv line 3: report 12 (cardiology, total $506,000) imported as approved with its flag: 20 weeks of paid time off (above 12)',
    ]);
  });
});
