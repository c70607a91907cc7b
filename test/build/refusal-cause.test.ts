/**
 * A build refused by the sanity diff names the likely cause when there is one: a batch undone since the
 * current build was made (its file, the reports removed, when), and where to look (physpay import list).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliText } from '../helpers/cli.ts';
import { FIXED_NOW, goldenBuildIn } from '../helpers/golden-build.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { undoneSince } from '../../build/compute/diff.ts';

const tmp = useTempDir('refusal-cause');

describe('the sanity-diff refusal', () => {
  it('names a batch undone since the current build, and import list', async () => {
    const { db, dist } = goldenBuildIn(tmp.path);
    // a batch of 1,000 approved reports imported, built, then undone: the next build loses them
    const rows = ['specialty,state,year,total_compensation,base_salary,bonus,hours_per_week,years_in_practice,practice_setting,employment_type,wrvus,submitted_at,status'];
    for (let i = 0; i < 1_000; i++) rows.push(`Family Medicine,OH,2024,${250_000 + i * 10},,,,,,,,2026-11-0${1 + (i % 9)}T10:00:00.000Z,approved`);
    const csv = join(tmp.path, 'night.csv');
    writeFileSync(csv, `${rows.join('\n')}\n`);
    const later = (h: number) => new Date(FIXED_NOW.getTime() + h * 3_600_000);
    const imported = await runCliText(['import', 'reports', '--db', db, csv], { now: later(1) });
    expect(imported.code, imported.err).toBe(0);
    const built = await runCliText(['build', '--db', db, '--out', dist, '--base-url', 'https://physpay.example', '--no-fsync', '--no-precompress', '--force'], { now: later(2) });
    expect(built.code, built.err).toBe(0);
    const undone = await runCliText(['import', 'undo', '1', '--db', db, '--yes'], { now: later(3) });
    expect(undone.code, undone.err).toBe(0);
    const refused = await runCliText(['build', '--db', db, '--out', dist, '--base-url', 'https://physpay.example', '--no-fsync', '--no-precompress'], { now: later(4) });
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/differs too much/);
    expect(refused.err).toMatch(/likely cause: batch 1 \(night\.csv, 1,000 reports\) was undone at 2026-11-16T06:00:00\.000Z, after that build was made \(physpay import list\)/);
  }, 120_000);

  it('words nothing when no batch was undone since', () => {
    expect(undoneSince([], '2026-11-16T00:00:00.000Z')).toBe('');
    expect(undoneSince([{ id: 3, file_name: 'a.csv', reports_removed: 2, undone_at: '2026-11-15T00:00:00.000Z', status: 'undone' }], '2026-11-16T00:00:00.000Z')).toBe('');
  });
});
