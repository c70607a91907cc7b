/**
 * `--on-publish <command>` of `physpay build` and `physpay builds rollback`: run once the new build is
 * current, with the build in its environment; not run when nothing was published; its failure exits 1
 * with one sentence, and the build stays published.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { currentBuildId } from '../../build/emit/store.ts';
import { FIXED_NOW, makeGoldenDb } from '../helpers/golden-build.ts';
import { runCli } from '../helpers/cli.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { createDemoDb } from '../../build/demo/create.ts';

const run = (args: string[], now = FIXED_NOW) => runCli(args, { now });

const tmp = useTempDir('onpublish');
let dir: string;
let db: string;
let db2: string;
let out: string;
const base = () => ['--out', out, '--base-url', 'https://physpay.example', '--build-date', '2026-11-16', '--no-fsync', '--no-precompress'];

beforeAll(() => {
  dir = tmp.path;
  db = makeGoldenDb(dir);
  db2 = join(dir, 'second.db');
  createDemoDb(db2, { reports: 1500, seed: 8, asOf: '2026-11-15', force: true, now: () => FIXED_NOW });
  out = join(dir, 'dist');
}, 60_000);

describe('--on-publish', () => {
  it('runs after a publish with the build in its environment; JSON output carries its result', async () => {
    const log = join(dir, 'hook.log');
    const r = await run(['build', '--db', db, ...base(), '--json', '--on-publish', `echo "$PHYSPAY_EVENT $PHYSPAY_BUILD_ID [$PHYSPAY_PREVIOUS_BUILD_ID] $PHYSPAY_OUT" >> ${log}`]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out.at(-1)!) as { status: string; build_id: string; on_publish: { ok: boolean; exit_code: number; command: string } };
    expect(j.status).toBe('published');
    expect(j.on_publish).toMatchObject({ ok: true, exit_code: 0 });
    expect(readFileSync(log, 'utf8')).toBe(`published ${j.build_id} [] ${out}\n`);
    expect(currentBuildId(out)).toBe(j.build_id);
  }, 60_000);

  it('is not run when nothing was published (same content)', async () => {
    const marker = join(dir, 'not-run.log');
    const r = await run(['build', '--db', db, ...base(), '--on-publish', `touch ${marker}`]);
    expect(r.code).toBe(0);
    expect(r.out.join('\n')).toMatch(/^no change/);
    expect(() => readFileSync(marker)).toThrow();
  }, 60_000);

  it('a failing command exits 1 with one sentence; the new build stays published', async () => {
    const before = currentBuildId(out)!;
    const r = await run(['build', '--db', db2, ...base(), '--force', '--on-publish', 'echo purge failed >&2; exit 3']);
    expect(r.code).toBe(1);
    const now = currentBuildId(out)!;
    expect(now).not.toBe(before);
    expect(r.out.join('\n')).toMatch(new RegExp(`^built ${now}`));
    expect(r.err.join('\n')).toContain(`build ${now} is published and current, but the --on-publish command failed: it exited with code 3`);
  }, 60_000);

  it('--json: a failing hook still prints one object (status published, on_publish.ok false) and exits 1', async () => {
    // a later night (the build id names the time: the same reports at the same time would be the same build)
    const r = await run(['build', '--db', db, ...base(), '--force', '--json', '--on-publish', 'exit 4'], new Date('2026-11-17T03:00:00Z'));
    expect(r.code).toBe(1);
    expect(r.out).toHaveLength(1);
    const j = JSON.parse(r.out[0]!) as { status: string; on_publish: { ok: boolean; exit_code: number; error: string } };
    expect(j.status).toBe('published');
    expect(j.on_publish).toMatchObject({ ok: false, exit_code: 4, error: 'it exited with code 4' });
  }, 60_000);

  it('builds rollback runs it with PHYSPAY_EVENT=rollback', async () => {
    const log = join(dir, 'rollback.log');
    const current = currentBuildId(out)!;
    const r = await run(['builds', 'rollback', '--out', out, '--on-publish', `echo "$PHYSPAY_EVENT $PHYSPAY_BUILD_ID $PHYSPAY_PREVIOUS_BUILD_ID" > ${log}`]);
    expect(r.code).toBe(0);
    const target = currentBuildId(out)!;
    expect(target).not.toBe(current);
    expect(readFileSync(log, 'utf8')).toBe(`rollback ${target} ${current}\n`);
  });

  it('an empty command is a usage error (exit 2) naming the flag and its variable', async () => {
    const r = await run(['build', '--db', db, ...base(), '--on-publish', '  ']);
    expect(r.code).toBe(2);
    expect(r.err.join('\n')).toMatch(/--on-publish \(PHYSPAY_ON_PUBLISH\)/);
  });
});
