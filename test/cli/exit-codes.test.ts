/**
 * Exit codes and messages of bad invocations (issue 18 item 7): every usage or validation error (a bad flag
 * value from a flag or a PHYSPAY_* variable, an unknown option, a missing argument, a bad enum value, a bulk
 * action without confirmation) exits 2 with one sentence naming the flag, its variable when it has one, and
 * the accepted values; never zod's own wording. Runtime failures stay 1.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { REPORT_COLUMNS } from '../../build/import/reports.ts';
import { runCli } from '../helpers/cli.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

const FIXTURES = fileURLToPath(new URL('../fixtures/import/', import.meta.url));
const PACKAGE = JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')) as { version: string };

async function run(args: string[], env: Record<string, string> = {}) {
  for (const [k, v] of Object.entries(env)) vi.stubEnv(k, v);
  return runCli(args, { now: new Date('2026-01-15T12:00:00.000Z') });
}

const tmp = useTempDir('exit');
let dir: string;
let db: string;
let missingDb: string;
let serviceDb: string;

beforeAll(async () => {
  dir = tmp.path;
  db = join(dir, 'reports.db');
  missingDb = join(dir, 'missing.db');
  serviceDb = join(dir, 'service.db');
  expect((await run(['init', '--db', db])).code).toBe(0);
  const csv = join(dir, 'reports.csv');
  const row = 'cardiology,NY,2025,520000,480000,40000,55,12,Private Practice,Partner/Owner,7000,2025-12-01,';
  writeFileSync(csv, `${REPORT_COLUMNS.join(',')}\n${row}\n${row.replace(',NY,', ',TX,')}\n${row.replace('cardiology', 'pediatrics')}\n`);
  expect((await run(['import', 'reports', '--db', db, csv])).code).toBe(0);
});
afterEach(() => vi.unstubAllEnvs());

/** zod's own wording, which must never reach an operator. */
const RAW_ZOD = /Invalid input|expected (number|string)|received|NaN|Too (small|big)|Invalid (url|enum|option)|too_small|invalid_type/i;

interface Case {
  name: string;
  args: () => string[];
  env?: Record<string, string>;
  message: RegExp;
}

// Serve cases point every path at the temp dir and a host that cannot be bound, so a value that slipped
// through validation fails fast instead of starting a server.
const serve = (...a: string[]) => () => ['serve', '--data', dir, '--service-db', serviceDb, '--host', '203.0.113.254', ...a];

const CASES: Case[] = [
  { name: 'serve --port abc', args: serve('--port', 'abc'), message: /^physpay: --port \(PHYSPAY_PORT\) must be a whole number from 0 to 65535 \(got "abc"\)$/ },
  { name: 'PHYSPAY_PORT=70000 serve', args: serve(), env: { PHYSPAY_PORT: '70000' }, message: /^physpay: --port \(PHYSPAY_PORT\) must be a whole number from 0 to 65535 \(got "70000" from PHYSPAY_PORT\)$/ },
  { name: 'serve --port "" (empty is not 0)', args: serve('--port', ''), message: /^physpay: --port \(PHYSPAY_PORT\) must be a whole number from 0 to 65535 \(got ""\)$/ },
  { name: 'serve --port 0x50', args: serve('--port', '0x50'), message: /--port \(PHYSPAY_PORT\) must be a whole number from 0 to 65535 \(got "0x50"\)/ },
  { name: 'serve --workers 1.5', args: serve('--workers', '1.5'), message: /^physpay: --workers \(PHYSPAY_WORKERS\) must be a whole number from 1 to 64 \(got "1\.5"\)$/ },
  { name: 'serve --log-level loud', args: serve('--log-level', 'loud'), message: /^physpay: --log-level \(PHYSPAY_LOG_LEVEL\) must be one of trace, debug, info, warn, error, fatal, silent \(got "loud"\)$/ },
  { name: 'serve --ip-per-minute -1', args: serve('--ip-per-minute', '-1'), message: /^physpay: --ip-per-minute \(PHYSPAY_IP_PER_MINUTE\) must be a whole number of 1 or more \(got "-1"\)$/ },
  { name: 'serve --trust-proxy true', args: serve('--trust-proxy', 'true'), message: /^physpay: --trust-proxy \(PHYSPAY_TRUST_PROXY\) .*not "true"/ },
  { name: 'build --keep 0', args: () => ['build', '--db', db, '--out', join(dir, 'dist'), '--keep', '0'], message: /^physpay: --keep \(PHYSPAY_KEEP_BUILDS\) must be a whole number from 1 to 1000 \(got "0"\)$/ },
  { name: 'PHYSPAY_KEEP_BUILDS=many build', args: () => ['build', '--db', db, '--out', join(dir, 'dist')], env: { PHYSPAY_KEEP_BUILDS: 'many' }, message: /^physpay: --keep \(PHYSPAY_KEEP_BUILDS\) must be a whole number from 1 to 1000 \(got "many" from PHYSPAY_KEEP_BUILDS\)$/ },
  { name: 'build --max-count-drop 2', args: () => ['build', '--db', db, '--out', join(dir, 'dist'), '--max-count-drop', '2'], message: /^physpay: --max-count-drop \(PHYSPAY_MAX_COUNT_DROP\) must be a number from 0 to 1 \(got "2"\)$/ },
  { name: 'build --winsor-lower -5', args: () => ['build', '--db', db, '--out', join(dir, 'dist'), '--winsor-lower', '-5'], message: /^physpay: --winsor-lower \(PHYSPAY_WINSOR_LOWER\) must be a number of 0 or more \(got "-5"\)$/ },
  { name: 'build --base-url example.com', args: () => ['build', '--db', db, '--out', join(dir, 'dist'), '--base-url', 'example.com'], message: /^physpay: --base-url \(PHYSPAY_BASE_URL\) must be an absolute URL such as https:\/\/physpay\.example \(got "example\.com"\)$/ },
  { name: 'build --build-date 2026-13-01', args: () => ['build', '--db', db, '--out', join(dir, 'dist'), '--build-date', '2026-13-01'], message: /^physpay: --build-date \(PHYSPAY_BUILD_DATE\) must be a date YYYY-MM-DD \(got "2026-13-01"\)$/ },
  { name: 'build --winsor-lower above --winsor-upper', args: () => ['build', '--db', db, '--out', join(dir, 'dist'), '--winsor-lower', '500', '--winsor-upper', '400'], message: /^physpay: --winsor-lower \(PHYSPAY_WINSOR_LOWER\) must be below --winsor-upper \(PHYSPAY_WINSOR_UPPER\) \(got 500 and 400\)$/ },
  { name: 'builds list --out ""', args: () => ['builds', 'list', '--out', ''], message: /^physpay: --out \(PHYSPAY_OUT\) must be a non-empty text/ },
  { name: 'demo --reports abc', args: () => ['demo', '--db', missingDb, '--reports', 'abc'], message: /^physpay: --reports \(PHYSPAY_DEMO_REPORTS\) must be a whole number from 1 to 20000000 \(got "abc"\)$/ },
  { name: 'PHYSPAY_DEMO_SEED=-1 demo', args: () => ['demo', '--db', missingDb], env: { PHYSPAY_DEMO_SEED: '-1' }, message: /^physpay: --seed \(PHYSPAY_DEMO_SEED\) must be a whole number from 0 to 4294967295 \(got "-1" from PHYSPAY_DEMO_SEED\)$/ },
  { name: 'demo --as-of 2001-01-01', args: () => ['demo', '--db', missingDb, '--as-of', '2001-01-01'], message: /^physpay: --as-of \(PHYSPAY_DEMO_AS_OF\) must be 2019-03-01 or later \(got "2001-01-01"\)$/ },
  { name: 'demo over a DB holding real reports', args: () => ['demo', '--db', db, '--reports', '100'], message: /^physpay: refusing to replace .* with demo data: it holds 3 real reports \(3 from batch 1 reports\.csv; .*with or without --force/ },
  { name: 'demo --force over a DB holding real reports', args: () => ['demo', '--db', db, '--reports', '100', '--force'], message: /^physpay: refusing to replace .* with demo data: it holds 3 real reports/ },
  { name: 'import bls --year 1900', args: () => ['import', 'bls', '--db', db, join(FIXTURES, 'bls-oews-national.csv'), '--year', '1900'], message: /^physpay: --year \(PHYSPAY_BLS_YEAR\) must be a whole number from 1997 to 2100 \(got "1900"\)$/ },
  { name: 'moderate list --state Texas', args: () => ['moderate', 'list', '--db', db, '--state', 'Texas'], message: /^physpay: --state must be a two-letter state code \(50 states and DC\) \(got "Texas"; did you mean TX\?\)$/ },
  { name: 'moderate list --state ZZ', args: () => ['moderate', 'list', '--db', db, '--state', 'ZZ'], message: /^physpay: --state must be a two-letter state code \(50 states and DC\) \(got "ZZ"\)$/ },
  { name: 'moderate list --status foo', args: () => ['moderate', 'list', '--db', db, '--status', 'foo'], message: /^physpay: --status must be one of pending, approved, rejected, all \(got "foo"\)$/ },
  { name: 'moderate list --specialty astrology', args: () => ['moderate', 'list', '--db', db, '--specialty', 'astrology'], message: /^physpay: --specialty must be a specialty's slug, name or common spelling, e.g\. cardiology, "Family Medicine", ob-gyn \(got "astrology"\)$/ },
  { name: 'moderate list --submitted-before yesterday', args: () => ['moderate', 'list', '--db', db, '--submitted-before', 'yesterday'], message: /^physpay: --submitted-before must be a date YYYY-MM-DD or an ISO 8601 timestamp \(got "yesterday"\)$/ },
  { name: 'moderate list --limit 0', args: () => ['moderate', 'list', '--db', db, '--limit', '0'], message: /^physpay: --limit must be a whole number of 1 or more, or all \(got "0"\)$/ },
  { name: 'moderate list --json --csv', args: () => ['moderate', 'list', '--db', db, '--json', '--csv'], message: /option '--json' cannot be used with option '--csv'/ },
  { name: 'moderate approve (nothing named)', args: () => ['moderate', 'approve', '--db', db], message: /^physpay: nothing to approve: give report ids or --all-pending$/ },
  { name: 'moderate approve --all-pending --state Texas', args: () => ['moderate', 'approve', '--db', db, '--all-pending', '--state', 'Texas', '--yes'], message: /^physpay: --state must be a two-letter state code/ },
  { name: 'moderate approve --all-pending without a TTY or --yes', args: () => ['moderate', 'approve', '--db', db, '--all-pending'], message: /^physpay: refusing to approve 3 reports without confirmation: pass --yes, or --expect-count 3 to go ahead only if exactly 3 match; nothing changed$/ },
  { name: 'moderate reject --all-pending --expect-count 2 (3 match)', args: () => ['moderate', 'reject', '--db', db, '--all-pending', '--expect-count', '2'], message: /^physpay: refusing to reject: --expect-count is 2 but 3 reports match; nothing changed$/ },
  { name: 'moderate approve --expect-count x', args: () => ['moderate', 'approve', '--db', db, '--all-pending', '--expect-count', 'x'], message: /^physpay: --expect-count must be a whole number of 0 or more \(got "x"\)$/ },
  { name: 'moderate reject 1 --reason ""', args: () => ['moderate', 'reject', '--db', db, '1', '--reason', ''], message: /^physpay: --reason must be one line of 1 to 500 characters \(got ""\)$/ },
  { name: 'PHYSPAY_MODERATOR="" moderate approve 1', args: () => ['moderate', 'approve', '--db', db, '1'], env: { PHYSPAY_MODERATOR: ' ' }, message: /^physpay: --moderator \(PHYSPAY_MODERATOR\) must be a non-empty text of at most 100 characters \(got " " from PHYSPAY_MODERATOR\)$/ },
  { name: 'moderate delete 1 without --reason', args: () => ['moderate', 'delete', '--db', db, '1'], message: /required option '--reason <text>' not specified/ },
  { name: 'moderate delete 1 2 without a TTY or --yes', args: () => ['moderate', 'delete', '--db', db, '1', '2', '--reason', 'test'], message: /^physpay: refusing to delete 2 reports without confirmation: pass --yes, or --expect-count 2/ },
  { name: 'keys create --plan gold', args: () => ['keys', 'create', '--service-db', serviceDb, '--plan', 'gold'], message: /^physpay: --plan must be one of starter, professional, enterprise \(got "gold"\)$/ },
  { name: 'keys create --status foo', args: () => ['keys', 'create', '--service-db', serviceDb, '--plan', 'starter', '--status', 'foo'], message: /^physpay: .*status must be one of active, past_due, canceled, suspended \(got "foo"\)$/ },
  { name: 'keys set-status 1 paused', args: () => ['keys', 'set-status', '--service-db', serviceDb, '1', 'paused'], message: /status must be one of active, past_due, canceled, suspended \(got "paused"\)/ },
  { name: 'unknown option', args: serve('--frobnicate'), message: /unknown option '--frobnicate'/ },
  { name: 'missing argument', args: () => ['keys', 'revoke', '--service-db', serviceDb], message: /missing required argument 'key'/ },
  { name: 'unknown command', args: () => ['frobnicate'], message: /unknown command 'frobnicate'/ },
  { name: 'missing --db', args: () => ['init'], message: /required option '--db <path>' not specified \(or set PHYSPAY_DB\)/ },
];

describe('bad invocations exit 2 with a sentence naming the flag and the accepted values', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const r = await run(c.args(), c.env);
    expect(r.code, r.err.join('\n')).toBe(2);
    expect(r.out).toEqual([]);
    const first = r.err[0] ?? '';
    expect(first).toMatch(c.message);
    expect(r.err.join('\n')).not.toMatch(RAW_ZOD);
  });

  it('nothing was changed by the refused moderation commands', async () => {
    const list = await run(['moderate', 'list', '--db', db, '--json']);
    expect(list.code).toBe(0);
    expect((JSON.parse(list.out.join('\n')) as { total: number }).total).toBe(3);
  });
});

describe('runtime failures stay 1', () => {
  it.each([
    ['a missing reports DB', () => ['stats', '--db', missingDb], /^physpay: reports DB not found/],
    ['a missing input file', () => ['import', 'reports', '--db', db, join(dir, 'nope.csv')], /^physpay: cannot read .*nope\.csv/],
    ['an unknown report id', () => ['moderate', 'approve', '--db', db, '999'], /^physpay: no report with id 999; nothing changed/],
  ] as const)('%s', async (_name, args, message) => {
    const r = await run(args());
    expect(r.code).toBe(1);
    expect(r.err[0]).toMatch(message);
  });
});

describe('a reports DB made by a newer physpay', () => {
  it('is refused in one sentence (exit 1, no stack), and nothing is written', async () => {
    const newer = join(dir, 'newer.db');
    expect((await run(['init', '--db', newer])).code).toBe(0);
    const Database = (await import('better-sqlite3')).default;
    const d = new Database(newer);
    d.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (99, 'from the future', '2030-01-01T00:00:00Z')").run();
    d.close();
    const before = readFileSync(newer);
    const r = await run(['stats', '--db', newer]);
    expect(r.code).toBe(1);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toMatch(/^physpay: .*newer\.db has schema version 99, newer than this physpay \(\d+\); upgrade physpay/);
    expect(r.err.join('\n')).not.toMatch(/\n\s+at /);
    expect(readFileSync(newer).equals(before)).toBe(true);
  });
});

describe('physpay --version', () => {
  it.each([['--version'], ['-V']])('%s prints the package version and exits 0', async (flag) => {
    const r = await run([flag]);
    expect(r.code).toBe(0);
    expect(r.out).toEqual([PACKAGE.version]);
    expect(r.err).toEqual([]);
  });
});
