/**
 * A build killed (SIGKILL) at any moment leaves `current` on a good build: either the previous one, or, if
 * the kill came after the final switch, the new one complete and verified. Never a partial build.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { useTempDir } from '../helpers/temp-dir.ts';
import { createDemoDb } from '../../build/demo/create.ts';
import { currentBuildId, listBuilds, buildsDir } from '../../build/emit/store.ts';
import { verifyBuildDir } from '../../build/emit/verify.ts';
import { BIN } from '../server/serve-process.ts';

const tmp = useTempDir('kill');
let work: string;
let db: string;
let out: string;
let fullMs = 0;

// --no-fsync: a SIGKILL loses nothing the kernel was given (fsync guards against power loss, which this
// test does not simulate), and the seven builds take half the time
const buildArgs = () => [BIN, 'build', '--db', db, '--out', out, '--build-date', '2026-11-16', '--force', '--no-fsync'];

beforeAll(() => {
  work = tmp.path;
  db = join(work, 'r.db');
  out = join(work, 'dist');
  createDemoDb(db, { reports: 20_000, seed: 3, asOf: '2026-11-15', force: true });
  const t0 = performance.now();
  const first = spawnSync(process.execPath, buildArgs(), { encoding: 'utf8' });
  fullMs = performance.now() - t0;
  expect(first.status, first.stderr).toBe(0);
}, 120_000);

function killAfter(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, buildArgs(), { stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.on('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

describe('killed builds', () => {
  it('SIGKILL at many points never leaves a bad build current, and the next build recovers', async () => {
    const good = currentBuildId(out)!;
    expect(good).toBeTruthy();
    const fractions = [0.05, 0.3, 0.6, 0.85, 0.97];
    for (const f of fractions) {
      await killAfter(Math.round(fullMs * f));
      const cur = currentBuildId(out);
      expect(cur, `after a kill at ${Math.round(f * 100)}%`).toBeTruthy();
      expect(verifyBuildDir(join(buildsDir(out), cur!)), `current build after a kill at ${Math.round(f * 100)}%`).toEqual([]);
      for (const b of listBuilds(out)) expect(verifyBuildDir(join(buildsDir(out), b.id)), b.id).toEqual([]);
    }
    // The next build takes over the dead owner's lock, removes abandoned staging folders and publishes.
    const next = spawnSync(process.execPath, buildArgs(), { encoding: 'utf8' });
    expect(next.status, next.stderr).toBe(0);
    const cur = currentBuildId(out)!;
    expect(verifyBuildDir(join(buildsDir(out), cur))).toEqual([]);
    const leftovers = spawnSync('ls', ['-a', buildsDir(out)], { encoding: 'utf8' }).stdout;
    expect(leftovers).not.toMatch(/\.staging-/);
  }, 300_000); // seven builds of ~5,400 files each (feeds, pages, CSV), fsynced, plus verifies, on shared cores
});
