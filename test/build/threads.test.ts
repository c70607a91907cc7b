/**
 * The keyed stage on worker threads (build/compute/keyed-pool.ts) writes the same bytes as the in-process
 * path: the golden build made with one and with two keyed threads matches the golden digest (every file:
 * path, SHA-256, size). Small builds stay in-process by default, so this is the test of the threaded path.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { goldenBuild, makeGoldenDb } from '../helpers/golden-build.ts';
import { GOLDEN_DIR, digestOf } from '../helpers/golden-files.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { defaultKeyedThreads, THREADED_FROM_REPORTS } from '../../build/compute/keyed-pool.ts';

const tmp = useTempDir('threads');
let work: string;
let db: string;
beforeAll(() => {
  work = tmp.path;
  db = makeGoldenDb(work);
});

describe('keyed artifacts on worker threads', () => {
  it.each([1, 2])('%i keyed thread(s): byte-identical to the golden build', (threads) => {
    const r = goldenBuild(db, join(work, `dist-${threads}`), { keyedThreads: threads });
    expect(digestOf(r.dir)).toBe(readFileSync(join(GOLDEN_DIR, 'DIGEST.txt'), 'utf8'));
  }, 120_000);

  it('small builds stay on one thread; big ones use a thread or more', () => {
    expect(defaultKeyedThreads(THREADED_FROM_REPORTS - 1)).toBe(0);
    expect(defaultKeyedThreads(1_000_000)).toBeGreaterThanOrEqual(1);
  });
});
