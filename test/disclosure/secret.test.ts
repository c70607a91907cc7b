/**
 * The disclosure-control secret never leaves the reports DB: not in any file of a build (public or private),
 * not in the CLI's output. Checked for the raw bytes and their hex and base64 spellings.
 */
import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { goldenBuildIn } from '../helpers/golden-build.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* files(p);
    else yield p;
  }
}

describe('the record-key secret', () => {
  const tmp = useTempDir('secret');
  it('appears in no file of a build and in no CLI output', () => {
    const work = tmp.path;
    const golden = goldenBuildIn(work); // the golden DB and its build (the run's shared one, copied)
    const db = golden.db;
    const secret = (() => {
      const d = new Database(db, { readonly: true });
      try {
        return (d.prepare('SELECT secret FROM record_key_secret WHERE id = 1').get() as { secret: Buffer }).secret;
      } finally {
        d.close();
      }
    })();
    expect(secret.length).toBe(32);
    const built = { dir: golden.buildDir };
    const needles = [secret, Buffer.from(secret.toString('hex')), Buffer.from(secret.toString('hex').toUpperCase()), Buffer.from(secret.toString('base64')), Buffer.from(secret.toString('base64url'))];
    let checked = 0;
    for (const f of files(built.dir)) {
      const bytes = readFileSync(f);
      for (const n of needles) expect(bytes.includes(n), f).toBe(false);
      checked++;
    }
    expect(checked).toBeGreaterThan(1000);
    const cli = (...args: string[]) => execFileSync(process.execPath, [join(import.meta.dirname, '../../bin/physpay.js'), ...args], { encoding: 'buffer', stdio: ['ignore', 'pipe', 'pipe'] });
    for (const out of [cli('stats', '--db', db, '--json'), cli('stats', '--db', db), cli('builds', 'list', '--out', join(work, 'dist'), '--json')]) {
      for (const n of needles) expect(out.includes(n)).toBe(false);
    }
  }, 120_000);
});
