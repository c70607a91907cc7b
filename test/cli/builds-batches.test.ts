/**
 * Recovering a bad night: `builds list` shows each build's release and the import batches it holds (and
 * which it added), `builds diff` what moved between two, `builds rollback` says which batches the build it makes current holds, and the builds
 * commands that change state answer with one JSON object under --json.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliText } from '../helpers/cli.ts';
import { FIXED_NOW, goldenBuildIn } from '../helpers/golden-build.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { batchesNotIn, batchRanges } from '../../build/compute/batch-list.ts';

const tmp = useTempDir('builds-batches');
const HEADER = 'specialty,state,year,total_compensation,base_salary,bonus,hours_per_week,years_in_practice,practice_setting,employment_type,wrvus,submitted_at,status';

function night(name: string, total: number, rows: number): string {
  const lines = [HEADER];
  for (let i = 0; i < rows; i++) lines.push(`Cardiology,CA,2025,${total + i * 100},,,,,,,,2026-11-1${i % 5}T10:00:00.000Z,approved`);
  const path = join(tmp.path, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

describe('batch lists', () => {
  it('runs of ids, and what one build has that another has not', () => {
    expect(batchRanges([7, 1, 2, 3, 9, 10, 3])).toBe('1-3, 7, 9-10');
    expect(batchRanges([])).toBe('');
    expect(batchesNotIn([1, 2, 3], [1, 3])).toEqual([2]);
  });
});

describe('builds list and rollback after a bad night', () => {
  it('names the batches each build holds and added; rollback says what the target holds; --json everywhere', async () => {
    const { db, dist } = goldenBuildIn(tmp.path); // the demo build: no import batch
    const at = (h: number) => ({ now: new Date(FIXED_NOW.getTime() + h * 3_600_000) });
    const build = (h: number) => runCliText(['build', '--db', db, '--out', dist, '--base-url', 'https://physpay.example', '--no-fsync', '--no-precompress', '--force'], at(h));
    expect((await runCliText(['import', 'reports', '--db', db, night('good.csv', 450_000, 20)], at(1))).code).toBe(0);
    expect((await build(2)).code).toBe(0);
    expect((await runCliText(['import', 'reports', '--db', db, night('bad.csv', 300_000, 40)], at(25))).code).toBe(0);
    expect((await build(26)).code).toBe(0);

    const list = await runCliText(['builds', 'list', '--out', dist], at(27));
    const lines = list.out.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^\* \S+ {2}release \d{4}-\d{2}-\d{2}(\.\d+)?, .*, batches 1-2 \(added 2\)$/);
    expect(lines[1]).toMatch(/, batches 1 \(added 1\)$/);
    expect(lines[2]).toMatch(/, no import batches$/);
    const json = JSON.parse((await runCliText(['builds', 'list', '--out', dist, '--json'], at(27))).out) as { builds: { id: string; release: string; batches: number[]; batches_added: number[] }[] };
    expect(json.builds.map((b) => [b.batches, b.batches_added])).toEqual([[[1, 2], [2]], [[1], [1]], [[], []]]);

    // what the bad night changed: builds diff names the figures that moved and the files
    const diff = await runCliText(['builds', 'diff', json.builds[1]!.id, json.builds[0]!.id, '--out', dist], at(27));
    expect(diff.code, diff.err).toBe(0);
    expect(diff.out.split('\n')[0]).toMatch(new RegExp(`^${json.builds[1]!.id} -> ${json.builds[0]!.id}: reports used [\\d,]+ -> [\\d,]+; files \\d+ added, \\d+ removed, [\\d,]+ changed, [\\d,]+ unchanged; \\d+ specialt(y|ies) with a national median or n that moved$`));
    expect(diff.out).toMatch(/^ {2}cardiology: median \$[\d,]+ -> \$[\d,]+ \([+-]\d+\.\d%\), n \d+ -> \d+$/m);
    const dj = JSON.parse((await runCliText(['builds', 'diff', json.builds[1]!.id, json.builds[0]!.id, '--out', dist, '--json'], at(27))).out) as { reports_used: { before: number; after: number }; figures: { specialty: string }[] };
    // reports used: the headline population (the 40 new reports, less any left out as outliers; published
    // counts move by up to 2: README, Disclosure control)
    expect(dj.reports_used.after - dj.reports_used.before).toBeGreaterThan(30);
    expect(dj.reports_used.after - dj.reports_used.before).toBeLessThanOrEqual(42);
    expect(dj.figures.map((f) => f.specialty)).toContain('cardiology');
    expect((await runCliText(['builds', 'diff', 'nope', json.builds[0]!.id, '--out', dist], at(27))).code).toBe(2);

    // the bad night is batch 2: roll back to the build before it, by default
    const back = await runCliText(['builds', 'rollback', '--out', dist], at(28));
    expect(back.code, back.err).toBe(0);
    expect(back.out).toMatch(new RegExp(`^current is now ${json.builds[1]!.id} \\(release ${json.builds[1]!.release.replace(/\./g, '\\.')}\\) \\(was ${json.builds[0]!.id}\\); it holds import batches 1 \\(not 2, which ${json.builds[0]!.id} held\\)$`));
    const forward = JSON.parse((await runCliText(['builds', 'rollback', json.builds[0]!.id, '--out', dist, '--json'], at(29))).out) as Record<string, unknown>;
    expect(forward).toMatchObject({ current: json.builds[0]!.id, previous: json.builds[1]!.id, batches: [1, 2], batches_removed: [], pinned: false, on_publish: null });

    expect(JSON.parse((await runCliText(['builds', 'pin', '--out', dist, '--json'], at(30))).out)).toEqual({ pinned: json.builds[0]!.id, current: json.builds[0]!.id, pins: [json.builds[0]!.id] });
    expect(JSON.parse((await runCliText(['builds', 'unpin', '--out', dist, '--json'], at(31))).out)).toEqual({ unpinned: json.builds[0]!.id, current: json.builds[0]!.id, pins: [] });
    const verified = await runCliText(['builds', 'verify', '--out', dist, '--json'], at(32));
    expect(verified.code).toBe(0);
    expect(JSON.parse(verified.out)).toEqual({ build_id: json.builds[0]!.id, verified: true, problem_count: 0, problems: [] });
  }, 120_000);
});
