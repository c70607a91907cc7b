/**
 * Golden output of the build for a small fixed DB. On a mismatch the new files are written beside the
 * expected ones under test-output/golden-changed/ for review. Regenerate intentionally changed output with
 * `npx tsx scripts/update-golden.ts` (never in CI).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { goldenBuildIn } from '../helpers/golden-build.ts';
import { GOLDEN_DIR, GOLDEN_SAMPLES, digestOf } from '../helpers/golden-files.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import type { BuildResult } from '../../build/run-build.ts';

const CHANGED_DIR = join(process.cwd(), 'test-output', 'golden-changed');
const tmp = useTempDir('golden');
let work: string;
let result: Pick<BuildResult, 'dir'>;

beforeAll(() => {
  work = tmp.path;
  // the run's shared golden build (a new build of the golden DB writes the same bytes: publish.test.ts)
  result = { dir: goldenBuildIn(work).buildDir };
});

function compare(rel: string, actual: string, expected: string): void {
  if (actual !== expected) {
    const target = join(CHANGED_DIR, rel);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, actual);
  }
  expect(actual, `${rel} differs from the golden file (new version written to ${join(CHANGED_DIR, rel)})`).toBe(expected);
}

describe('golden build', () => {
  it.each(GOLDEN_SAMPLES)('%s matches the golden file', (rel) => {
    compare(rel, readFileSync(join(result.dir, rel), 'utf8'), readFileSync(join(GOLDEN_DIR, rel), 'utf8'));
  });

  it('every file of the build matches the golden digest (path, SHA-256, size)', () => {
    compare('DIGEST.txt', digestOf(result.dir), readFileSync(join(GOLDEN_DIR, 'DIGEST.txt'), 'utf8'));
  });
});
