/**
 * The service DB's default place (issue 42, item 6): `service.db` beside dist-data/, not inside it, so that
 * clearing or restoring the published data cannot take the API keys and the reports waiting from
 * /contribute with it. An install whose DB is still at the old default (dist-data/service.db) is refused
 * with the move to make, never given a new empty DB; serve says in its log which store it opened.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { oldDefaultProblem } from '../../build/cli/service-db-location.ts';
import { SETTINGS } from '../../build/cli/settings.ts';
import { BIN } from '../server/serve-process.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

const tmp = useTempDir('service-db-location');

/** `physpay ...args` in `cwd`, as an operator runs it from the install's folder (no PHYSPAY_SERVICE_DB). */
function physpay(cwd: string, ...args: string[]) {
  const env = { ...process.env };
  delete env.PHYSPAY_SERVICE_DB;
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, env, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: r.stdout.trim(), err: r.stderr.trim() };
}

describe('oldDefaultProblem (pure)', () => {
  const files = (...present: string[]) => (p: string) => present.includes(p);
  it('refuses only the default, when the old place holds a DB and the new one does not', () => {
    expect(oldDefaultProblem(false, 'service.db', files('dist-data/service.db'))).toMatch(/^the service DB .* is now looked for at service\.db, .* has it at dist-data\/service\.db; move it .*: mv dist-data\/service\.db service\.db .* or keep it there with --service-db dist-data\/service\.db/);
    expect(oldDefaultProblem(false, 'service.db', files())).toBeNull(); // a new install
    expect(oldDefaultProblem(false, 'service.db', files('service.db', 'dist-data/service.db'))).toBeNull(); // moved already
    expect(oldDefaultProblem(true, 'service.db', files('dist-data/service.db'))).toBeNull(); // given explicitly
    expect(oldDefaultProblem(false, 'other.db', files('dist-data/service.db'))).toBeNull();
  });
  it('the default is service.db', () => {
    expect(SETTINGS.serviceDb.default).toBe('service.db');
  });
});

describe('a command run with the default --service-db', () => {
  it('creates the service DB beside dist-data/, not in it', () => {
    const cwd = join(tmp.path, 'new-install');
    mkdirSync(join(cwd, 'dist-data'), { recursive: true });
    const r = physpay(cwd, 'keys', 'create', '--plan', 'starter', '--label', 'ops@example.org');
    expect(r.code, r.err).toBe(0);
    expect(existsSync(join(cwd, 'service.db'))).toBe(true);
    expect(existsSync(join(cwd, 'dist-data', 'service.db'))).toBe(false);
  }, 60_000);

  it('refuses (exit 2, nothing created) when the DB is still at the old default place; --service-db keeps it there', () => {
    const cwd = join(tmp.path, 'old-install');
    mkdirSync(join(cwd, 'dist-data'), { recursive: true });
    const made = physpay(cwd, 'keys', 'create', '--plan', 'starter', '--label', 'ops@example.org', '--service-db', 'dist-data/service.db');
    expect(made.code, made.err).toBe(0);
    for (const args of [['keys', 'list'], ['serve', '--port', '0']]) {
      const r = physpay(cwd, ...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err, args.join(' ')).toBe(`physpay: ${oldDefaultProblem(false, 'service.db', (p) => existsSync(join(cwd, p)))}`);
      expect(existsSync(join(cwd, 'service.db')), args.join(' ')).toBe(false);
    }
    const kept = physpay(cwd, 'keys', 'list', '--service-db', 'dist-data/service.db');
    expect(kept.code, kept.err).toBe(0);
    expect(kept.out).toContain('ops@example.org');
  }, 120_000);
});
