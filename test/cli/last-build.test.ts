/**
 * `<out>/last-build.json`: every `physpay build` attempt records its outcome there (unchanged, refused by
 * the sanity diff or by the base-URL rule, published, failed on a missing reports DB; nothing when no data folder exists yet), atomically, next to
 * `current` and never inside a build folder; a usage error (no --db at all) is no attempt and leaves it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { FIXED_NOW, useGoldenDir } from '../helpers/golden-build.ts';
import { createDemoDb } from '../../build/demo/create.ts';
import { LastBuild } from '../../build/contract/last-build.ts';
import { currentBuildId } from '../../build/emit/store.ts';

const g = useGoldenDir('cli-last-build');
const later = (h: number) => new Date(FIXED_NOW.getTime() + h * 3_600_000);
const base = () => ['--out', g.dist, '--base-url', 'https://physpay.example', '--build-date', '2026-11-16', '--no-fsync', '--no-precompress'];
const last = () => LastBuild.parse(JSON.parse(readFileSync(join(g.dist, 'last-build.json'), 'utf8')));

describe('last-build.json', () => {
  it('unchanged, refused (sanity diff, base URL), published, failed; each replaces the last', async () => {
    expect(existsSync(join(g.dist, 'last-build.json'))).toBe(false);

    const same = await runCli(['build', '--db', g.db, ...base()], { now: later(1) });
    expect(same.code).toBe(0);
    expect(last()).toMatchObject({ outcome: 'unchanged', build_id: g.buildId, exit_code: 0, started_at: later(1).toISOString(), finished_at: later(1).toISOString(), message: same.out[0] });
    expect(last().duration_ms).toBeGreaterThan(0);

    const other = join(g.path, 'other.db');
    createDemoDb(other, { reports: 1500, seed: 8, asOf: '2026-11-15', force: true, now: () => FIXED_NOW });
    const diff = await runCli(['build', '--db', other, ...base(), '--max-median-shift', '0', '--max-count-drop', '0'], { now: later(2) });
    expect(diff.code).toBe(1);
    expect(last()).toMatchObject({ outcome: 'refused', build_id: null, exit_code: 1, started_at: later(2).toISOString() });
    expect(last().message).toMatch(/^the new build differs too much from /);

    const url = await runCli(['build', '--db', other, '--out', g.dist, '--no-fsync', '--no-precompress'], { now: later(3) }); // the default base URL over another
    expect(url.code).toBe(2);
    expect(last()).toMatchObject({ outcome: 'refused', build_id: null, exit_code: 2 });
    expect(last().message).toMatch(/^refusing to build: the current build .* was published with base URL https:\/\/physpay\.example/);

    const published = await runCli(['build', '--db', other, ...base(), '--force'], { now: later(4) });
    expect(published.code, published.err.join('\n')).toBe(0);
    const id = currentBuildId(g.dist);
    expect(id).not.toBe(g.buildId);
    expect(last()).toMatchObject({ outcome: 'published', build_id: id, exit_code: 0, message: published.out[0] });

    const failed = await runCli(['build', '--db', join(g.path, 'missing.db'), ...base()], { now: later(5) });
    expect(failed.code).toBe(1);
    expect(last()).toMatchObject({ outcome: 'failed', build_id: null, exit_code: 1, started_at: later(5).toISOString() });
    expect(failed.err.join('\n')).toContain(last().message);

    // no --db at all: a usage error before any attempt; the last attempt's file stays
    const usage = await runCli(['build', ...base()], { now: later(6) });
    expect(usage.code).toBe(2);
    expect(last().started_at).toBe(later(5).toISOString());

    // written next to current, never in a build folder; no temporary file left
    expect(readdirSync(g.dist).filter((n) => n.includes('last-build'))).toEqual(['last-build.json']);
    for (const b of readdirSync(join(g.dist, 'builds'))) expect(existsSync(join(g.dist, 'builds', b, 'last-build.json'))).toBe(false);
  }, 240_000);

  it('a failure before the data folder exists (a new --out) records nothing and creates no folder', async () => {
    const out = join(g.path, 'fresh-out');
    const r = await runCli(['build', '--db', join(g.path, 'missing.db'), '--out', out, '--base-url', 'https://physpay.example'], { now: later(7) });
    expect(r.code).toBe(1);
    expect(existsSync(out)).toBe(false);
  });
});
