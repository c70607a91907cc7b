/**
 * A build never switches the published data between synthetic demo data and real reports by accident:
 * publishing a DB marked synthetic over a current build of real reports needs --allow-synthetic-over-real,
 * and real reports over a demo build --allow-real-over-synthetic (--force, the sanity diff's override, is
 * not enough). Refused: exit 2, nothing published, `current` unchanged, `status: "refused"` in --json. With
 * the flag the build is published, says so on stderr and in --json (`data_switch`), and the sanity diff is
 * not run (demo figures and real ones cannot be compared). Demo over demo (what `npm start` does on every
 * run: demo --force, then build --force) is not a switch.
 */
import { copyFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { FIXED_NOW, GOLDEN_DEMO, goldenBuildIn, type GoldenFiles } from '../helpers/golden-build.ts';
import { runCliText } from '../helpers/cli.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { currentBuildId } from '../../build/emit/store.ts';
import { dataSwitch } from '../../build/compute/data-switch.ts';

vi.setConfig({ testTimeout: 240_000, hookTimeout: 180_000 });

const tmp = useTempDir('synthetic-switch');
let golden: GoldenFiles;
let realDb: string;
let minutes = 0;
/** each run a minute later than the last (build ids and staging folders carry the time) */
const clock = () => new Date(FIXED_NOW.getTime() + ++minutes * 60_000);
const build = (db: string, ...extra: string[]) =>
  runCliText(['build', '--db', db, '--out', golden.dist, '--base-url', 'https://physpay.example', '--build-date', '2026-11-16', '--no-fsync', '--no-precompress', ...extra], { now: clock });
const buildJson = (id: string) => JSON.parse(readFileSync(join(golden.dist, 'builds', id, 'build.json'), 'utf8')) as { synthetic: boolean; forced: boolean };
const builds = () => readdirSync(join(golden.dist, 'builds')).sort();

beforeAll(() => {
  golden = goldenBuildIn(tmp.path); // the golden demo DB and its build, current in golden.dist
  // the same reports in a DB not marked synthetic: real reports, as far as the build can tell
  realDb = join(tmp.path, 'real.db');
  copyFileSync(golden.db, realDb);
  const d = new Database(realDb);
  d.prepare("DELETE FROM dataset_meta WHERE key = 'synthetic'").run();
  d.close();
});

describe('dataSwitch (pure)', () => {
  it('names the switch between the current build and this one; none for a first build or the same kind', () => {
    expect(dataSwitch(null, true)).toBeNull();
    expect(dataSwitch(true, true)).toBeNull();
    expect(dataSwitch(false, false)).toBeNull();
    expect(dataSwitch(false, true)).toBe('synthetic-over-real');
    expect(dataSwitch(true, false)).toBe('real-over-synthetic');
  });
});

describe('switching between synthetic and real data', () => {
  it('demo over demo, as npm start runs it again: demo --force and build --force, no flag needed', async () => {
    const demo = await runCliText(['demo', '--db', golden.db, '--force', '--reports', String(GOLDEN_DEMO.reports), '--seed', String(GOLDEN_DEMO.seed), '--as-of', GOLDEN_DEMO.asOf], { now: clock });
    expect(demo.code, demo.err).toBe(0);
    const r = await build(golden.db, '--force');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^no change: same content as the current build /);
    expect(currentBuildId(golden.dist)).toBe(golden.buildId);
  });

  it('real reports over the demo build: refused (exit 2) even with --force, nothing published; --allow-real-over-synthetic publishes it', async () => {
    const before = builds();
    for (const extra of [[], ['--force'], ['--allow-synthetic-over-real']]) {
      const r = await build(realDb, ...extra);
      expect(r.code, `${extra.join(' ')}: ${r.err}`).toBe(2);
      expect(r.out).toBe('');
      expect(r.err).toBe(
        `physpay: refusing to publish real reports (${realDb} is not marked synthetic) over the current build ${golden.buildId}, which is synthetic demo data; nothing was published. ` +
          'To replace the demo data with real reports, re-run with --allow-real-over-synthetic (the sanity diff is then not run: demo figures say nothing about real ones); or build into another --out folder',
      );
    }
    const json = await build(realDb, '--json');
    expect(json.code).toBe(2);
    expect(JSON.parse(json.out)).toMatchObject({ status: 'refused', build_id: null, current: golden.buildId, error: expect.stringMatching(/^refusing to publish real reports/) });
    expect(currentBuildId(golden.dist)).toBe(golden.buildId);
    expect(builds()).toEqual(before); // and no staging folder left

    const ok = await build(realDb, '--allow-real-over-synthetic', '--json');
    expect(ok.code, ok.err).toBe(0);
    const j = JSON.parse(ok.out);
    expect(j).toMatchObject({ status: 'published', synthetic: false, previous: golden.buildId, data_switch: 'real-over-synthetic', warnings: [] });
    expect(ok.err).toBe(`warning: published real reports over the synthetic demo build ${golden.buildId} (--allow-real-over-synthetic); the sanity diff against it was not run`);
    expect(currentBuildId(golden.dist)).toBe(j.build_id);
    expect(buildJson(j.build_id).synthetic).toBe(false);
  });

  it('demo data over the real build: refused (exit 2) even with --force or the other flag; --allow-synthetic-over-real publishes it', async () => {
    const real = currentBuildId(golden.dist)!;
    expect(buildJson(real).synthetic).toBe(false);
    const before = builds();
    for (const extra of [[], ['--force'], ['--allow-real-over-synthetic']]) {
      const r = await build(golden.db, ...extra);
      expect(r.code, `${extra.join(' ')}: ${r.err}`).toBe(2);
      expect(r.err).toBe(
        `physpay: refusing to publish synthetic demo data (${golden.db} is marked synthetic) over the current build ${real}, which holds real reports; nothing was published. ` +
          'To replace the real figures with demo data, re-run with --allow-synthetic-over-real; to try the demo, build it into another --out folder',
      );
    }
    expect(currentBuildId(golden.dist)).toBe(real);
    expect(builds()).toEqual(before);

    const ok = await build(golden.db, '--allow-synthetic-over-real');
    expect(ok.code, ok.err).toBe(0);
    expect(ok.out).toMatch(/^built \S+: [\d,]+ reports used of 1,4\d\d approved, .*\(SYNTHETIC demo data\); published as current/);
    expect(ok.err).toBe(`warning: published synthetic demo data over the build of real reports ${real} (--allow-synthetic-over-real); the sanity diff against it was not run`);
    expect(buildJson(currentBuildId(golden.dist)!).synthetic).toBe(true);
  });
});
