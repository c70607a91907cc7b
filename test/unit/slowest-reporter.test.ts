import { describe, expect, it } from 'vitest';
import { slowestFiles, slowestLines } from '../helpers/slowest-reporter.ts';

const files = [
  { file: 'test/a.test.ts', seconds: 3.25, tests: 4 },
  { file: 'test/b.test.ts', seconds: 41.5, tests: 1 },
  { file: 'test/c.test.ts', seconds: 3.25, tests: 2 },
  { file: 'test/d.test.ts', seconds: 0.1, tests: 9 },
];

describe('the slowest-files reporter', () => {
  it('orders files slowest first, ties by name, and keeps N', () => {
    expect(slowestFiles(files, 3).map((f) => f.file)).toEqual(['test/b.test.ts', 'test/a.test.ts', 'test/c.test.ts']);
    expect(slowestFiles(files, 10)).toHaveLength(4);
  });

  it('prints the total of every file and one aligned line per file', () => {
    expect(slowestLines(files, 2)).toEqual([
      'slowest 2 of 4 test files (48 s summed over all files, which run side by side):',
      '  41.5 s  test/b.test.ts (1 test)',
      '   3.3 s  test/a.test.ts (4 tests)',
    ]);
    expect(slowestLines(files, 0)).toEqual([]);
    expect(slowestLines([], 5)).toEqual([]);
  });
});
