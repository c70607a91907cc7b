/**
 * A build killed (SIGKILL) at any moment leaves `current` on a good build: either the previous one, or, if
 * the kill came after the final switch, the new one complete and verified. Never a partial build.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { useTempDir } from '../helpers/temp-dir.ts';
import { makeGoldenDb } from '../helpers/golden-build.ts';
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
let run = 0;
/** Each build has its own base URL, so every file differs from the current build's and the build would publish (an unchanged one is not). */
const buildArgs = () => [BIN, 'build', '--db', db, '--out', out, '--build-date', '2026-11-16', '--base-url', `https://kill-${run++}.physpay.example`, '--force', '--no-fsync', '--no-precompress'];

beforeAll(() => {
  work = tmp.path;
  // the golden DB (1,500 reports): a build of it writes as many files as a big one (feeds, pages, CSVs, keyed
  // artifacts of every specialty), which is where a kill can land; a bigger DB only makes each build longer
  db = makeGoldenDb(work);
  out = join(work, 'dist');
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
    const verified = new Set<string>([good]);
    for (const f of fractions) {
      await killAfter(Math.round(fullMs * f));
      const cur = currentBuildId(out);
      expect(cur, `after a kill at ${Math.round(f * 100)}%`).toBeTruthy();
      expect(verifyBuildDir(join(buildsDir(out), cur!)), `current build after a kill at ${Math.round(f * 100)}%`).toEqual([]);
      // every build left is complete: each new one verified now, all of them again at the end
      for (const b of listBuilds(out)) {
        if (verified.has(b.id)) continue;
        expect(verifyBuildDir(join(buildsDir(out), b.id)), b.id).toEqual([]);
        verified.add(b.id);
      }
    }
    for (const b of listBuilds(out)) expect(verifyBuildDir(join(buildsDir(out), b.id)), b.id).toEqual([]);
    // The next build takes over the dead owner's lock, removes abandoned staging folders and publishes.
    const next = spawnSync(process.execPath, buildArgs(), { encoding: 'utf8' });
    expect(next.status, next.stderr).toBe(0);
    const cur = currentBuildId(out)!;
    expect(verifyBuildDir(join(buildsDir(out), cur))).toEqual([]);
    const leftovers = spawnSync('ls', ['-a', buildsDir(out)], { encoding: 'utf8' }).stdout;
    expect(leftovers).not.toMatch(/\.staging-/);
  }, 300_000); // seven builds of ~5,400 files each (feeds, pages, CSV), fsynced, plus verifies, on shared cores
});
