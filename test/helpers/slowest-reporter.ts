/**
 * A vitest reporter that prints, after the run, the slowest test files (import, hooks and tests together)
 * and the sum of every file's time: where the test suite's minutes go, kept in sight (README: Development).
 * Used beside the default reporter by every config; `PHYSPAY_SLOWEST=N` prints N files (default 12, 0 = none).
 */
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

export interface FileTime {
  file: string;
  seconds: number;
  tests: number;
}

/** Files by time taken, slowest first (ties by name). Pure, for the unit test. */
export function slowestFiles(files: readonly FileTime[], n: number): FileTime[] {
  return [...files].sort((a, b) => b.seconds - a.seconds || a.file.localeCompare(b.file)).slice(0, n);
}

/** The lines printed: a heading with the total, then one line per file. */
export function slowestLines(files: readonly FileTime[], n: number): string[] {
  if (n <= 0 || files.length === 0) return [];
  const total = files.reduce((s, f) => s + f.seconds, 0);
  const top = slowestFiles(files, n);
  const width = Math.max(...top.map((f) => f.seconds.toFixed(1).length));
  return [
    `slowest ${top.length} of ${files.length} test files (${total.toFixed(0)} s summed over all files, which run side by side):`,
    ...top.map((f) => `  ${f.seconds.toFixed(1).padStart(width)} s  ${f.file} (${f.tests} test${f.tests === 1 ? '' : 's'})`),
  ];
}

export default class SlowestFilesReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const n = Number(process.env.PHYSPAY_SLOWEST ?? 12);
    const files = modules.map((m) => {
      const d = m.diagnostic();
      return {
        file: relative(process.cwd(), m.moduleId),
        seconds: (d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration) / 1000,
        tests: [...m.children.allTests()].length,
      };
    });
    const lines = slowestLines(files, Number.isFinite(n) ? n : 12);
    if (lines.length) process.stdout.write(`\n${lines.join('\n')}\n`);
  }
}
