/**
 * The config file (physpay.config.json in the working directory, or --config / PHYSPAY_CONFIG) and the
 * guards of `physpay build` that need no real build: a base URL that silently differs from the published
 * build's, and an empty first build.
 */
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

const NOW = new Date('2026-01-15T12:00:00.000Z');

const run = (...args: string[]) => runCli(args, { now: NOW });

const tmp = useTempDir('config', { each: true });
let dir: string;

beforeEach(() => {
  dir = tmp.path;
  for (const k of Object.keys(process.env)) if (k.startsWith('PHYSPAY_')) vi.stubEnv(k, undefined);
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

function writeConfig(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

/** `builds list --json` is the cheapest command that shows a setting (--out) it used. */
async function outUsed(...args: string[]): Promise<string> {
  const r = await run('builds', 'list', '--json', ...args);
  expect(r.code, r.err.join('\n')).toBe(0);
  expect(r.out).toHaveLength(1);
  return (JSON.parse(r.out[0]!) as { out: string }).out;
}

describe('config file', () => {
  it('physpay.config.json in the working directory supplies settings, even a mandatory --db', async () => {
    const db = join(dir, 'reports.db');
    expect((await run('init', '--db', db)).code).toBe(0);
    writeConfig('physpay.config.json', { db });
    vi.spyOn(process, 'cwd').mockReturnValue(dir);
    const r = await run('stats', '--json');
    expect(r.err).toEqual([]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out[0]!)).toMatchObject({ db });
  });

  it('--config (before or after the command) and PHYSPAY_CONFIG name the file; flag > variable > file > default', async () => {
    const file = writeConfig('nightly.json', { out: join(dir, 'from-file') });
    expect(await outUsed()).toBe('dist-data');
    expect(await outUsed('--config', file)).toBe(join(dir, 'from-file'));
    expect((await run('--config', file, 'builds', 'list', '--json')).out).toEqual([expect.stringContaining('from-file')]);
    vi.stubEnv('PHYSPAY_CONFIG', file);
    expect(await outUsed()).toBe(join(dir, 'from-file'));
    vi.stubEnv('PHYSPAY_OUT', join(dir, 'from-env'));
    expect(await outUsed()).toBe(join(dir, 'from-env'));
    expect(await outUsed('--out', join(dir, 'from-flag'))).toBe(join(dir, 'from-flag'));
  });

  it('accepts a flag spelling ("base-url", "max-count-drop") and numbers as JSON numbers', async () => {
    const file = writeConfig('c.json', { 'base-url': 'https://physpay.example', 'max-count-drop': 0.5, keep: 3, out: join(dir, 'dist') });
    expect(await outUsed('--config', file)).toBe(join(dir, 'dist'));
  });

  it.each([
    ['an unknown key', { db: 'x.db', baseurl: 'https://physpay.example' }, /unknown key "baseurl" in config file .*c\.json/],
    ['a bad value', { keep: -1 }, /bad value for "keep" in config file .*c\.json: .*--keep.*-1/],
    ['a bad URL', { baseUrl: 'physpay.example' }, /bad value for "baseUrl" in config file .*c\.json: .*--base-url.*"physpay\.example"/],
    ['a string where a number belongs', { port: 'eighty' }, /bad value for "port" in config file .*c\.json: .*--port.*"eighty"/],
    ['both spellings of one setting', { baseUrl: 'https://a.example', 'base-url': 'https://b.example' }, /"base-url" in config file .*c\.json repeats "baseUrl"/],
    ['not an object', '["db"]', /config file .*c\.json must hold one JSON object/],
    ['broken JSON', '{"db": ', /config file .*c\.json is not valid JSON/],
    ['the config key itself', { config: 'other.json' }, /unknown key "config" in config file .*c\.json/],
  ])('%s fails fast with exit 2 and one line naming the key and the file', async (_what, content, message) => {
    const file = writeConfig('c.json', content);
    const r = await run('builds', 'list', '--config', file);
    expect(r.code).toBe(2);
    expect(r.out).toEqual([]);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toMatch(/^physpay: /);
    expect(r.err[0]).toMatch(message);
    expect(r.err[0]).not.toMatch(/ZodError|\n|at .*\.ts:\d+/);
  });

  it('a --config file that does not exist is a usage error; a missing default file is fine', async () => {
    const r = await run('builds', 'list', '--config', join(dir, 'nope.json'));
    expect(r.code).toBe(2);
    expect(r.err).toEqual([expect.stringMatching(/^physpay: config file .*nope\.json not found \(--config, PHYSPAY_CONFIG\)/)]);
    vi.spyOn(process, 'cwd').mockReturnValue(dir);
    expect(await outUsed()).toBe('dist-data');
  });
});

/** A published build as far as the base-URL check is concerned: current -> builds/<id> with a build.json. */
function fakePublished(out: string, baseUrl: string): string {
  const id = '20260101T000000000Z-0123456789';
  mkdirSync(join(out, 'builds', id), { recursive: true });
  writeFileSync(
    join(out, 'builds', id, 'build.json'),
    JSON.stringify({
      build_id: id, created_at: '2026-01-01T00:00:00.000Z', build_date: '2026-01-01', base_url: baseUrl, publisher: 'PhysPay',
      synthetic: false, data_as_of: '2025-12-31', reports_used: 10, specialties_published: 1, medians: {}, counts: {}, files: 1, bytes: 1, forced: false,
    }),
  );
  writeFileSync(join(out, 'builds', id, 'manifest.json'), JSON.stringify({ format: 1, build_id: id, build_date: '2026-01-01', files: {} }));
  symlinkSync(join('builds', id), join(out, 'current'));
  return id;
}

describe('physpay build: base URL of the published build', () => {
  it('refuses (exit 2, one sentence naming both URLs) to publish over a build with another base URL when --base-url was not given', async () => {
    const out = join(dir, 'dist');
    const id = fakePublished(out, 'https://physpay.example');
    const r = await run('build', '--db', join(dir, 'missing.db'), '--out', out);
    expect(r.code).toBe(2);
    expect(r.out).toEqual([]);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toContain('https://physpay.example');
    expect(r.err[0]).toContain('http://localhost:8080');
    expect(r.err[0]).toContain(id);
    expect(r.err[0]).toMatch(/--base-url/);
    expect(r.err[0]).toMatch(/PHYSPAY_BASE_URL/);
    expect(readdirSync(join(out, 'builds'))).toEqual([id]);

    const json = await run('build', '--db', join(dir, 'missing.db'), '--out', out, '--json');
    expect(json.code).toBe(2);
    expect(json.out).toHaveLength(1);
    expect(JSON.parse(json.out[0]!)).toMatchObject({ status: 'refused', build_id: null, current: id, error: expect.stringContaining('https://physpay.example') });
  });

  it.each([
    ['the flag', ['--base-url', 'http://localhost:8080'], {}, null],
    ['the variable', [], { PHYSPAY_BASE_URL: 'http://localhost:8080/' }, null],
    ['the config file', [], {}, { baseUrl: 'http://localhost:8080' }],
  ])('a base URL given explicitly by %s is used as given (the build goes on)', async (_how, args, env, config) => {
    const out = join(dir, 'dist');
    fakePublished(out, 'https://physpay.example');
    for (const [k, v] of Object.entries(env)) vi.stubEnv(k, v);
    const extra = config ? ['--config', writeConfig('c.json', config)] : [];
    const r = await run('build', '--db', join(dir, 'missing.db'), '--out', out, ...args, ...extra);
    expect(r.code).toBe(1); // past the base-URL check: the (missing) reports DB is the next thing to fail
    expect(r.err.join('\n')).toMatch(/reports DB not found/);
  });

  it('the same base URL as the published build needs no flag', async () => {
    const out = join(dir, 'dist');
    fakePublished(out, 'http://localhost:8080');
    const r = await run('build', '--db', join(dir, 'missing.db'), '--out', out);
    expect(r.code).toBe(1);
    expect(r.err.join('\n')).toMatch(/reports DB not found/);
  });
});

describe('physpay build: an empty first build', () => {
  it('is refused (exit 1, nothing written) unless --allow-empty', { timeout: 120_000 }, async () => {
    const db = join(dir, 'reports.db');
    expect((await run('init', '--db', db)).code).toBe(0);
    const out = join(dir, 'dist');
    const r = await run('build', '--db', db, '--out', out, '--no-fsync', '--no-precompress');
    expect(r.code).toBe(1);
    expect(r.out).toEqual([]);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toMatch(/^physpay: .*no approved reports.*--allow-empty/);
    expect(existsSync(join(out, 'current'))).toBe(false);
    expect(existsSync(join(out, 'builds')) ? readdirSync(join(out, 'builds')) : []).toEqual([]);

    const json = await run('build', '--db', db, '--out', out, '--no-fsync', '--no-precompress', '--json');
    expect(json.code).toBe(1);
    expect(json.out).toHaveLength(1);
    expect(JSON.parse(json.out[0]!)).toMatchObject({ status: 'refused', build_id: null, current: null, error: expect.stringMatching(/--allow-empty/) });

    const allowed = await run('build', '--db', db, '--out', out, '--no-fsync', '--no-precompress', '--allow-empty', '--json');
    expect(allowed.err).toEqual([]);
    expect(allowed.code).toBe(0);
    expect(JSON.parse(allowed.out[0]!)).toMatchObject({ status: 'published', reports_used: 0 });
    expect(existsSync(join(out, 'current'))).toBe(true);
  });
});
