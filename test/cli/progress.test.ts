/**
 * `--progress` of `physpay build` and `physpay import <kind>` when stderr is no terminal (cron, CI): plain
 * progress lines on stderr (a line per step, the elapsed time last), stdout as without it; without the flag
 * nothing is added.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN } from '../server/serve-process.ts';
import { runCli } from '../helpers/cli.ts';
import { FIXED_NOW, useGoldenDir } from '../helpers/golden-build.ts';
import { useReportsDb } from '../import/reports-db.ts';

const PROGRESS = /^physpay: (build|import \w+): /;
const plain = (lines: string[]) => lines.filter((l) => !PROGRESS.test(l));

describe('build --progress', () => {
  const g = useGoldenDir('cli-progress');
  const args = () => ['build', '--db', g.db, '--out', g.dist, '--base-url', 'https://physpay.example', '--build-date', '2026-11-16', '--no-fsync', '--no-precompress'];

  it('writes a line per step and the elapsed time to stderr; nothing without the flag', async () => {
    const quiet = await runCli(args(), { now: FIXED_NOW });
    expect(quiet.code, quiet.err.join('\n')).toBe(0);
    expect(quiet.err.filter((l) => PROGRESS.test(l))).toEqual([]);

    const r = await runCli([...args(), '--progress'], { now: FIXED_NOW });
    expect(r.code, r.err.join('\n')).toBe(0);
    expect(r.out).toEqual(quiet.out); // stdout unchanged
    expect(plain(r.err)).toEqual(quiet.err);
    const lines = r.err.filter((l) => PROGRESS.test(l));
    expect(lines[0]).toBe(`physpay: build: [1/8] reading approved reports (${g.db})`);
    expect(lines).toContain('physpay: build: [7/8] comparing with the published build');
    expect(lines.at(-1)).toMatch(/^physpay: build: finished after \d+\.\d s$/);
    for (const l of r.err) expect(l).not.toMatch(/[\r\u001b]/);
  }, 120_000);

  it('--json keeps stdout one JSON object; a refused build ends with "stopped"', async () => {
    const r = await runCli([...args(), '--progress', '--json'], { now: FIXED_NOW });
    expect(r.code).toBe(0);
    expect(r.out).toHaveLength(1);
    expect(JSON.parse(r.out[0]!)).toMatchObject({ status: 'unchanged' });
    const refused = await runCli(['build', '--db', g.db, '--out', g.dist, '--no-fsync', '--no-precompress', '--progress'], { now: FIXED_NOW }); // default base URL over another: refused
    expect(refused.code).toBe(2);
    expect(refused.err.filter((l) => PROGRESS.test(l))).toEqual([expect.stringMatching(/^physpay: build: stopped after \d+\.\d s$/)]);
  }, 120_000);
});

describe('import reports --progress', () => {
  const f = useReportsDb('cli-progress-import');
  const rows = Array.from({ length: 30 }, (_, i) => `Cardiology,TX,2025,${500_000 + i},,,,,,,,2026-01-0${1 + (i % 9)}T10:00:00.000Z,pending`);

  it('writes the steps and the elapsed time to stderr, also for a small file; nothing without the flag', async () => {
    const quiet = await runCli(['import', 'reports', '--db', f.db, f.csv('a.csv', rows)]);
    expect(quiet.code, quiet.err.join('\n')).toBe(0);
    expect(quiet.err).toEqual([]);

    const r = await runCli(['import', 'reports', '--db', f.db, '--progress', f.csv('b.csv', rows.map((l) => l.replace('Cardiology', 'Neurology')))]);
    expect(r.code, r.err.join('\n')).toBe(0);
    expect(r.out).toEqual(['30 reports imported from b.csv (30 pending); batch 2']);
    expect(r.err[0]).toBe('physpay: import reports: [1/2] checking b.csv');
    expect(r.err).toContain('physpay: import reports: [2/2] importing the rows of b.csv');
    expect(r.err.at(-1)).toMatch(/^physpay: import reports: finished after \d+\.\d s$/);
    expect(plain(r.err)).toEqual([]);
    for (const l of r.err) expect(l).not.toMatch(/[\r\u001b]/);
  });

  it('a refused file ends with "stopped"; the error line stays as it was', async () => {
    const r = await runCli(['import', 'reports', '--db', f.db, '--progress', f.csv('bad.csv', ['Nowhere,TX,2025,1,,,,,,,,2026-01-01T10:00:00.000Z,pending'])]);
    expect(r.code).toBe(1);
    expect(r.err.filter((l) => PROGRESS.test(l)).at(-1)).toMatch(/^physpay: import reports: stopped after /);
    expect(r.err.at(-1)).toMatch(/^physpay: bad\.csv: 1 bad row/);
  });
});

describe('terminal progress follows stderr, where it is written', () => {
  const g = useGoldenDir('cli-progress-tty');
  /** Run `physpay build` with stdout on a terminal (script(1) gives it one) and stderr into a file. */
  function withStdoutOnTerminal(): { code: number | null; stderr: string } {
    const errFile = join(g.path, 'stderr.txt');
    const cmd = `${process.execPath} ${BIN} build --db ${g.db} --out ${g.dist} --base-url https://physpay.example --build-date 2026-11-17 --no-fsync 2> ${errFile}`;
    const r = spawnSync('script', ['-qec', cmd, '/dev/null'], { encoding: 'utf8', timeout: 120_000 });
    return { code: r.status, stderr: readFileSync(errFile, 'utf8') };
  }

  it('stdout a terminal, stderr a file: no redrawn progress (no \\r) in the file', () => {
    if (spawnSync('script', ['--version']).status !== 0) throw new Error('script(1) (util-linux) is needed for this test');
    const r = withStdoutOnTerminal();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/\r/);
  }, 120_000);
});
