/**
 * Rows imported as approved skip moderation (issue 42, item 3): `physpay import reports` prints the flags of
 * the approved reports it imports (as `moderate approve` does), and refuses an approved row that fails the
 * hard plausibility rule (build/compute/plausibility.ts: hardIssues) unless --keep-implausible is given.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { useReportsDb } from './reports-db.ts';

const fx = useReportsDb('approved-plausibility');
const { csv, query } = fx;

/**
 * A shifted export: hours and years swapped, base and bonus swapped, and amounts no physician earns, every
 * row marked approved. Line 2 is ordinary.
 */
const SHIFTED = [
  'dermatology,NY,2025,480000,40000,420000,12,45,Private Practice,Partner/Owner,,2025-12-01,approved', // line 2: plausible (a big bonus is not a rule)
  'dermatology,NY,2025,"$19,500,000",,,50,12,,,,2025-12-01,approved', // line 3: 41.5x the level
  'pediatrics,OH,2025,"$3,500",,,50,5,,,,2025-12-01,approved', // line 4: 1.4% of the level
  'pediatrics,OH,2025,$350,,,20,5,,,,2025-12-01,approved', // line 5: $700 at 40 hours
  'cardiology,TX,2025,520000,,,4,55,,,,2025-12-01,approved', // line 6: 4 hours a week
  'cardiology,TX,2025,"$19,500,000",,,4,55,,,,2025-12-01,', // line 7: pending: a moderator will see it
];

describe('an approved row that fails the hard plausibility rule', () => {
  it('is a bad row: the file is refused (all or nothing), each line names the rule, the values and the way out', async () => {
    const r = await runCli(['import', 'reports', '--db', fx.db, csv('shifted.csv', SHIFTED)]);
    expect(r.code).toBe(1);
    expect(r.err).toEqual([
      'shifted.csv line 3: total_compensation: implausible for a report imported as approved (got $19,500,000, 41.5x the national level of $470,000: import it as pending for a moderator, or give --keep-implausible)',
      'shifted.csv line 4: total_compensation: implausible for a report imported as approved (got $3,500, 1.4% of the national level of $255,000: import it as pending for a moderator, or give --keep-implausible)',
      'shifted.csv line 5: total_compensation: implausible for a report imported as approved (got $350 ($700 at 40 hours a week), 0.3% of the national level of $255,000: import it as pending for a moderator, or give --keep-implausible)',
      'shifted.csv line 6: hours_per_week: implausible for a report imported as approved (got 4, outside 10 to 100 hours a week: import it as pending for a moderator, or give --keep-implausible)',
      'physpay: shifted.csv: 4 bad row(s); nothing was imported (the attempt is listed as batch 1)',
    ]);
    expect(query('SELECT count(*) AS n FROM reports')).toEqual([{ n: 0 }]);
  });

  it('two issues of one row are one bad row with both', async () => {
    const r = await runCli(['import', 'reports', '--db', fx.db, csv('both.csv', ['pediatrics,OH,2025,350,,,2,5,,,,2025-12-01,approved'])]);
    expect(r.code).toBe(1);
    expect(r.err[0]).toBe(
      'both.csv line 2: total_compensation: implausible for a report imported as approved (got $350 ($7,000 at 40 hours a week), 2.7% of the national level of $255,000); hours_per_week: implausible for a report imported as approved (got 2, outside 10 to 100 hours a week: import it as pending for a moderator, or give --keep-implausible)',
    );
  });

  it('the same row as pending is imported without a word (moderate list flags it)', async () => {
    const r = await runCli(['import', 'reports', '--db', fx.db, csv('pending.csv', SHIFTED.map((l) => l.replace(/,approved$/, ',')))]);
    expect(r.code, r.err.join('\n')).toBe(0);
    expect(r.err).toEqual([]);
    expect(r.out).toEqual(['6 reports imported from pending.csv (6 pending); 4 values normalised (4 with $ or thousands separators); batch 1']);
  });

  it('--keep-implausible imports them, and names each with its flags', async () => {
    const r = await runCli(['import', 'reports', '--db', fx.db, '--keep-implausible', csv('shifted.csv', SHIFTED)]);
    expect(r.code, r.err.join('\n')).toBe(0);
    expect(r.err).toEqual([
      'shifted.csv line 3: report 2 (dermatology, total $19,500,000) imported as approved with its flag: implausible: 41.5x the national level ($470,000)',
      'shifted.csv line 4: report 3 (pediatrics, total $3,500) imported as approved with its flag: implausible: 1.4% of the national level ($255,000)',
      'shifted.csv line 5: report 4 (pediatrics, total $350) imported as approved with its flag: implausible: 0.3% of the national level ($255,000) at 40 hours a week',
      'shifted.csv line 6: report 5 (cardiology, total $520,000) imported as approved with its flag: implausible hours: 4 a week (outside 10 to 100)',
    ]);
    expect(r.out).toEqual([
      '6 reports imported from shifted.csv (1 pending, 5 approved); 4 approved reports flagged (on stderr); 4 values normalised (4 with $ or thousands separators); batch 1',
    ]);
    expect(query("SELECT count(*) AS n FROM reports WHERE status = 'approved'")).toEqual([{ n: 5 }]);
  });
});

describe('approved rows that pass are imported, with the flags moderate approve would print', () => {
  it('a Tukey outlier against the approved reports before the import is named, and imported', async () => {
    const five = [230, 240, 250, 260, 270].map((k, i) => `pediatrics,OH,2025,${k}000,,,,,,,,2025-07-0${i + 1},approved`);
    expect((await runCli(['import', 'reports', '--db', fx.db, csv('five.csv', five)])).err).toEqual([]);
    // fences of the five: [210,000, 290,000]; the file's own approved rows do not move them
    const r = await runCli(['import', 'reports', '--db', fx.db, csv('more.csv', [
      'pediatrics,OH,2025,300000,,,,,,,,2025-08-01,approved',
      'pediatrics,OH,2025,250000,,,,,,,,2025-08-02,approved',
      'pediatrics,OH,2025,900000,,,,,,,,2025-08-03,', // pending: no line
      ...Array.from({ length: 20 }, (_, i) => `pediatrics,OH,2025,${500_000 + i},,,,,,,,2025-08-04,approved`),
    ])]);
    expect(r.code, r.err.join('\n')).toBe(0);
    expect(r.err[0]).toBe('more.csv line 2: report 6 (pediatrics, total $300,000) imported as approved with its flag: high (above the upper Tukey fence, $290,000)');
    expect(r.err[1]).toBe('more.csv line 5: report 9 (pediatrics, total $500,000) imported as approved with its flag: high (above the upper Tukey fence, $290,000)');
    expect(r.err).toHaveLength(21);
    expect(r.err[20]).toBe('more.csv: ... and 1 more approved report flagged');
    expect(r.out).toEqual(['23 reports imported from more.csv (1 pending, 22 approved); 21 approved reports flagged (on stderr); batch 2']);
  });

  it('an ordinary file prints no flag', async () => {
    const r = await runCli(['import', 'reports', '--db', fx.db, csv('ok.csv', ['cardiology,NY,2025,520000,480000,40000,55,12,Private Practice,Partner/Owner,7000,2025-12-01,approved'])]);
    expect(r.code).toBe(0);
    expect(r.err).toEqual([]);
    expect(r.out).toEqual(['1 reports imported from ok.csv (1 approved); batch 1']);
  });
});
