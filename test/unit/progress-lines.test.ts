/**
 * `--progress` lines: the wording of each line (a pure function), and the writer's throttle on a fixed
 * clock: a line per step, a counting line every tenth or every 5 s, one end line with the elapsed time;
 * never a carriage return or an escape code.
 */
import { describe, expect, it } from 'vitest';
import { lineProgress, progressLine } from '../../build/cli/progress-lines.ts';

describe('progressLine', () => {
  it('words a step, a count, a file read and the end', () => {
    expect(progressLine('build', { kind: 'stage', step: 1, steps: 8, name: 'reading approved reports', detail: 'reports.db' }))
      .toBe('physpay: build: [1/8] reading approved reports (reports.db)');
    expect(progressLine('build', { kind: 'stage', step: 7, steps: 8, name: 'comparing with the published build' }))
      .toBe('physpay: build: [7/8] comparing with the published build');
    expect(progressLine('build', { kind: 'count', step: 1, steps: 8, name: 'reading reports', done: 250_000, total: 1_000_000 }))
      .toBe('physpay: build: [1/8] reading reports: 250,000 of 1,000,000 (25%)');
    expect(progressLine('import reports', { kind: 'count', step: 1, steps: 2, name: 'checking a.csv', done: 2_000, total: 5_482, unit: 'bytes' }))
      .toBe('physpay: import reports: [1/2] checking a.csv: 2,000 of 5,482 bytes (36%)');
    expect(progressLine('import reports', { kind: 'bytes', step: 2, steps: 2, name: 'importing the rows of a.csv', done: 4_920_000, size: 12_300_000, rows: 40_000 }))
      .toBe('physpay: import reports: [2/2] importing the rows of a.csv: 40% of 12.3 MB, 40,000 rows');
    expect(progressLine('build', { kind: 'end', ok: true, elapsedMs: 12_345 })).toBe('physpay: build: finished after 12.3 s');
    expect(progressLine('import bls', { kind: 'end', ok: false, elapsedMs: 40 })).toBe('physpay: import bls: stopped after 0.0 s');
  });

  it('never says more than 100% and never divides by zero', () => {
    expect(progressLine('build', { kind: 'count', step: 1, steps: 1, name: 'x', done: 12, total: 10 })).toMatch(/\(100%\)$/);
    expect(progressLine('build', { kind: 'bytes', step: 1, steps: 1, name: 'x', done: 0, size: 0, rows: 1 })).toBe('physpay: build: [1/1] x: 0% of 0.0 MB, 1 row');
  });
});

describe('lineProgress', () => {
  it('a line per step, counts every 10% or 5 s, one end line; no \\r or escape', () => {
    let t = 1_000;
    const lines: string[] = [];
    const p = lineProgress((l) => lines.push(l), { command: 'build', steps: 2, now: () => t });
    p.tick(50, 100); // before any step: nothing
    p.stage('reading reports', 'r.db');
    for (let done = 1; done <= 100; done++) p.tick(done, 100); // same instant: every 10%
    expect(lines).toHaveLength(11);
    expect(lines.slice(1, 3)).toEqual(['physpay: build: [1/2] reading reports: 10 of 100 (10%)', 'physpay: build: [1/2] reading reports: 20 of 100 (20%)']);
    p.stage('writing files');
    p.tick(1, 1000);
    t += 4_999;
    p.tick(2, 1000); // not yet 5 s
    t += 1;
    p.tick(3, 1000); // 5 s since the step's line
    p.done();
    t += 500;
    p.end(true);
    p.end(false); // once only
    p.stage('late'); // after the end: nothing
    expect(lines.slice(11)).toEqual([
      'physpay: build: [2/2] writing files',
      'physpay: build: [2/2] writing files: 3 of 1,000 (0%)',
      'physpay: build: finished after 5.5 s',
    ]);
    for (const l of lines) expect(l).not.toMatch(/[\r\n\u001b]/);
  });
});
