/**
 * Counts printed to an operator have thousands separators (issue 28, item 6: "numbers printed without
 * separators in some lines"): `builds list` (files), an undo refused twice (reports removed), the sanity
 * diff's refusal (approved reports; medians as dollars). Identifiers stay bare: line numbers, batch and key ids,
 * and the value to type after --expect-count.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPORT_COLUMNS } from '../../build/import/reports.ts';
import { compareBuilds, DEFAULT_THRESHOLDS } from '../../build/compute/diff.ts';
import { runCli } from '../helpers/cli.ts';
import { useGoldenDir } from '../helpers/golden-build.ts';

const NOW = new Date('2026-01-15T12:00:00.000Z');
const run = (...args: string[]) => runCli(args, { now: NOW });
const golden = useGoldenDir('number-format');

/** a number of four digits or more written without separators */
const BARE = /(?<![\d.,:T-])\d{4,}(?![\d-])/;

describe('thousands separators in CLI output', () => {
  it('builds list: the files of a build', async () => {
    const r = await run('builds', 'list', '--out', golden.dist);
    expect(r.code).toBe(0);
    expect(r.out).toHaveLength(1);
    expect(r.out[0]).toMatch(/ \d{1,3}(,\d{3})* reports used of \d{1,3}(,\d{3})* approved, \d,\d{3} files, data as of /); // 5,000+ files
    expect(r.out[0]!.replace(golden.buildId, '').replace(/\d{4}-\d{2}-\d{2}/g, '')).not.toMatch(BARE);
  });

  it('import undo of a batch already undone: the reports it removed', async () => {
    const db = join(golden.path, 'undo.db');
    expect((await run('init', '--db', db)).code).toBe(0);
    const csv = join(golden.path, 'many.csv');
    const row = 'cardiology,NY,2025,520000,480000,40000,55,12,Private Practice,Partner/Owner,7000,2025-12-01,';
    writeFileSync(csv, `${[REPORT_COLUMNS.join(','), ...Array.from({ length: 1200 }, () => row)].join('\n')}\n`);
    const imported = await run('import', 'reports', '--db', db, csv, '--allow-duplicates');
    expect(imported.code).toBe(0);
    expect(imported.out.at(-1)).toMatch(/^1,200 reports imported from many\.csv/);
    const undo = await run('import', 'undo', '1', '--db', db, '--yes');
    expect(undo.code).toBe(0);
    expect(undo.out[0]).toMatch(/undone: 1,200 reports removed/);
    const twice = await run('import', 'undo', '1', '--db', db, '--yes');
    expect(twice.code).toBe(2);
    expect(twice.err).toEqual([`physpay: batch 1 was already undone on ${NOW.toISOString()} (1,200 reports removed); nothing changed`]);
  });

  it('the sanity diff: approved reports, and national medians as dollars', () => {
    const problems = compareBuilds(
      { reports_used: 959_064, medians: { cardiology: 512_000 }, counts: { cardiology: 30_000 } },
      { reports_used: 700_000, medians: { cardiology: 640_000 }, counts: { cardiology: 22_000 } },
      DEFAULT_THRESHOLDS,
    );
    expect(problems).toEqual([
      'approved reports fell from 959,064 to 700,000 (-27.0%, limit 20%)',
      'cardiology: national median moved from $512,000 to $640,000 (25.0%, limit 15%)',
    ]);
  });
});
