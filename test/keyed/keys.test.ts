/**
 * API keys: the format (pcb_live_ + 32 base62, key_prefix = first 12 characters), the `physpay keys`
 * commands (create, list, revoke, set-status, set-plan; each once as a real process, repeats in-process)
 * against the service DB a running `physpay serve` uses (changes apply at once), and the key's absence from the database file's
 * bytes, the server's log lines and every response body.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCliText } from '../helpers/cli.ts';
import { useGoldenDir } from '../helpers/golden-build.ts';
import { closeAfterAll } from '../helpers/server.ts';
import { BIN, spawnServe, type ServeProcess } from '../server/serve-process.ts';
import { generateKey, hashKey, keyPrefixOf, KEY_PATTERN } from '../../server/keyed/keys.ts';
import { SqliteServiceStore } from '../../server/store/sqlite.ts';
import { main } from '../../build/cli/main.ts';
import { UsageResponse } from '../../build/contract/keyed-api.ts';
import { call, expectError, rateHeaders } from './harness.ts';

const run = promisify(execFile);

const work = useGoldenDir('keyed-keys');
const stopLater = closeAfterAll();
let serviceDb: string;
let serve: ServeProcess;

beforeAll(async () => {
  serviceDb = join(work.path, 'service.db');
  serve = stopLater(await spawnServe(['--data', work.dist, '--service-db', serviceDb, '--port', '0', '--poll-ms', '60000', '--log-level', 'info']));
}, 60_000);

async function physpay(...args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run(process.execPath, [BIN, 'keys', ...args, '--service-db', serviceDb], { env: { ...process.env, NO_COLOR: '1' } });
}

/** In-process CLI (for the refusals), capturing its output and exit code. */
async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  return cliAt(new Date(), ...args);
}

/** The same with the CLI's clock fixed at `at`. */
async function cliAt(at: Date, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  return runCliText(['keys', ...args, '--service-db', serviceDb], { now: at });
}

const created: string[] = [];

/** `keys list --json`: one JSON object. */
function listJson(r: { code: number; out: string }): { store: string; as_of: string; day: string; month: string; keys: Record<string, unknown>[] } {
  expect(r.code).toBe(0);
  expect(r.out.split('\n')).toHaveLength(1);
  return JSON.parse(r.out) as { store: string; as_of: string; day: string; month: string; keys: Record<string, unknown>[] };
}

describe('key format', () => {
  it('pcb_live_ + 32 base62 characters, uniformly drawn; key_prefix is the first 12 characters; SHA-256 hash', () => {
    const keys = Array.from({ length: 3000 }, () => generateKey());
    expect(new Set(keys).size).toBe(keys.length);
    const freq = new Map<string, number>();
    for (const k of keys) {
      expect(k).toMatch(/^pcb_live_[0-9A-Za-z]{32}$/);
      expect(k).toHaveLength(41);
      expect(KEY_PATTERN.test(k)).toBe(true);
      expect(keyPrefixOf(k)).toBe(k.slice(0, 12));
      expect(hashKey(k)).toBe(createHash('sha256').update(k).digest('hex'));
      for (const c of k.slice(9)) freq.set(c, (freq.get(c) ?? 0) + 1);
    }
    // all 62 characters occur, none far from the uniform 3000 * 32 / 62 ~ 1548 (chi-square, 61 dof: p < 1e-6 above ~130)
    expect(freq.size).toBe(62);
    const e = (3000 * 32) / 62;
    const chi2 = [...freq.values()].reduce((a, o) => a + (o - e) ** 2 / e, 0);
    expect(chi2).toBeLessThan(130);
  });
});

describe('physpay keys (real processes) against a running server', () => {
  it('create --json prints one object with the full key; the server accepts it at once', async () => {
    const { stdout, stderr } = await physpay('create', '--plan', 'starter', '--label', 'Acme Health', '--json');
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const rec = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(Object.keys(rec).sort()).toEqual(['created_at', 'id', 'key', 'key_prefix', 'label', 'plan_tier', 'revoked_at', 'store', 'subscription_status']);
    expect(rec.store).toBe(serviceDb);
    expect(rec.key).toMatch(/^pcb_live_[0-9A-Za-z]{32}$/);
    expect(rec.key_prefix).toBe((rec.key as string).slice(0, 12));
    expect(rec).toMatchObject({ plan_tier: 'starter', subscription_status: 'active', label: 'Acme Health', revoked_at: null });
    expect(rec.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(Math.abs(Date.parse(rec.created_at as string) - Date.now())).toBeLessThan(120_000);
    expect(stderr).not.toContain(rec.key as string);
    created.push(rec.key as string);
    const r = await call(serve.url, '/me/usage', rec.key as string);
    const u = UsageResponse.parse(r.json());
    expect(u).toMatchObject({ plan_tier: 'starter', subscription_status: 'active', key_prefix: rec.key_prefix, created_at: rec.created_at });
  });

  it('create without --json prints only the key on stdout; the note on stderr names the prefix, not the key', async () => {
    const { stdout, stderr } = await physpay('create', '--plan', 'enterprise', '--status', 'past_due');
    const key = stdout.trim();
    expect(key).toMatch(/^pcb_live_[0-9A-Za-z]{32}$/);
    expect(stdout).toBe(`${key}\n`);
    expect(stderr).toContain(key.slice(0, 12));
    expect(stderr).not.toContain(key);
    expect(stderr).toMatch(/cannot be shown again/);
    created.push(key);
    expectError(await call(serve.url, '/specialties', key), 403, /subscription is past_due/);
  });

  it('list shows prefix, plan and status of every key, never the key or its hash', async () => {
    const table = await physpay('list');
    const rows = table.stdout.trim().split('\n');
    expect(rows[0]).toBe('id\tkey_prefix\tstate\tplan_tier\tcreated_at\trevoked_at\tlast_used_at\tused_today\tused_this_month\tcustomer\tsubscription\tlabel');
    expect(rows).toHaveLength(1 + created.length);
    const json = listJson(await cli('list', '--json')).keys;
    expect(json).toHaveLength(created.length);
    expect(json.map((k) => k.key_prefix)).toEqual(created.map((k) => k.slice(0, 12)));
    expect(json.map((k) => k.plan_tier)).toEqual(['starter', 'enterprise']);
    expect(json.map((k) => k.subscription_status)).toEqual(['active', 'past_due']);
    for (const k of json) {
      expect(Object.keys(k).sort()).toEqual(['created_at', 'customer_id', 'id', 'key_prefix', 'label', 'last_used_at', 'plan_tier', 'revoked_at', 'state', 'subscription_id', 'subscription_status', 'used_this_month', 'used_today']);
      expect([k.customer_id, k.subscription_id]).toEqual([null, null]); // made by hand, not by a checkout
    }
    for (const key of created) {
      for (const out of [table.stdout, JSON.stringify(json)]) {
        expect(out).not.toContain(key);
        expect(out).not.toContain(key.slice(12));
        expect(out).not.toContain(hashKey(key));
      }
    }
  });

  it('set-plan, set-status and revoke (by prefix or id) apply to the next request', async () => {
    const [starterKey, enterpriseKey] = created as [string, string];
    const ids = listJson(await cli('list', '--json')).keys.map((k) => k.id as number);

    let r = await call(serve.url, '/benchmarks?specialty=Cardiology', starterKey);
    expect(r.status).toBe(200);
    expect('trending' in r.json<{ data: object }>().data).toBe(false);
    const before = rateHeaders(r);
    expect(before.limitDaily).toBe(100);

    const plan = await physpay('set-plan', starterKey.slice(0, 12), 'professional');
    expect(plan.stdout.trim()).toBe(`${starterKey.slice(0, 12)} (id ${ids[0]}) is now on the professional plan`);
    r = await call(serve.url, '/benchmarks?specialty=Cardiology', starterKey);
    expect(r.status).toBe(200);
    expect('trending' in r.json<{ data: object }>().data).toBe(true);
    expect(rateHeaders(r)).toMatchObject({ limitDaily: 500, limitMonthly: 15000, remainingDaily: 500 - 2 });

    const status = await physpay('set-status', String(ids[1]), 'active');
    expect(status.stdout.trim()).toBe(`${enterpriseKey.slice(0, 12)} (id ${ids[1]}) is now active`);
    r = await call(serve.url, '/benchmarks?specialty=Cardiology&year_start=2023', enterpriseKey);
    expect(r.status).toBe(200);
    for (const s of ['suspended', 'canceled']) {
      expect((await cli('set-status', enterpriseKey.slice(0, 12), s)).code).toBe(0);
      expectError(await call(serve.url, '/specialties', enterpriseKey), 403, new RegExp(`subscription is ${s}`));
    }

    const revoked = await physpay('revoke', starterKey.slice(0, 12));
    expect(revoked.stdout.trim()).toMatch(new RegExp(`^revoked ${starterKey.slice(0, 12)} \\(id ${ids[0]}\\) at \\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z$`));
    r = await call(serve.url, '/me/usage', starterKey);
    expectError(r, 401, /invalid API key/);
    expect(r.headers['x-ratelimit-limit-daily']).toBeUndefined();
    const listed = listJson(await cli('list', '--json')).keys;
    expect(listed[0]!.revoked_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(listed[0]!.state).toBe('revoked');
    expect(listed[1]!.revoked_at).toBeNull();
  });

  it('refusals: unknown plan or status (exit 2), unknown or ambiguous key (exit 1)', async () => {
    const badPlan = await cli('create', '--plan', 'gold');
    expect(badPlan.code).toBe(2);
    expect(badPlan.err).toMatch(/--plan must be one of starter, professional, enterprise/);
    expect(badPlan.out).toBe('');
    const badStatus = await cli('create', '--plan', 'starter', '--status', 'trial');
    expect(badStatus.code).toBe(2);
    expect(badStatus.err).toMatch(/status must be one of active, past_due, canceled, suspended/);
    const badSet = await cli('set-status', '1', 'paused');
    expect(badSet.code).toBe(2);
    const badSetPlan = await cli('set-plan', '1', 'platinum');
    expect(badSetPlan.code).toBe(2);
    const missing = await cli('revoke', 'pcb_live_zzz');
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/no API key pcb_live_zzz/);
    // two keys sharing a prefix (1 in 238,328 per pair): named by id only
    const store = new SqliteServiceStore(serviceDb);
    try {
      for (let i = 0; i < 2; i++) {
        const key = generateKey().replace(/^(pcb_live_).../, '$1AAA');
        store.createKey({ keyHash: hashKey(key), keyPrefix: keyPrefixOf(key), plan: 'starter', status: 'active', label: '', createdAt: new Date().toISOString() });
      }
    } finally {
      store.close();
    }
    const ambiguous = await cli('revoke', 'pcb_live_AAA');
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.err).toMatch(/pcb_live_AAA matches 2 keys; use the id/);
    const unreachable = await main(['node', 'physpay', 'keys', 'list', '--service-db', 'postgres://postgres@127.0.0.1:9/none'], { out: () => {}, err: () => {}, now: () => new Date(), isTty: false });
    expect(unreachable).toBe(1);
  });
});

describe('the key is never stored, logged or echoed', () => {
  it('service DB file bytes (main file and WAL) hold the hash, never the key', async () => {
    // more traffic so the WAL holds recent pages too
    const key = created[1]!;
    expect((await cli('set-status', key.slice(0, 12), 'active')).code).toBe(0);
    for (let i = 0; i < 5; i++) expect((await call(serve.url, '/specialties', key)).status).toBe(200);
    const bytes = Buffer.concat(['', '-wal', '-shm'].map((s) => serviceDb + s).filter(existsSync).map((p) => readFileSync(p)));
    expect(bytes.length).toBeGreaterThan(4096);
    for (const k of created) {
      expect(bytes.includes(Buffer.from(k)), 'full key').toBe(false);
      expect(bytes.includes(Buffer.from(k.slice(12))), 'secret part').toBe(false);
      expect(bytes.includes(Buffer.from(k.slice(9))), 'random part').toBe(false);
      expect(bytes.includes(Buffer.from(hashKey(k))), 'hash present').toBe(true);
    }
  });

  it('log lines and response bodies never carry the key, whatever the request', async () => {
    const key = created[1]!;
    const unknown = generateKey();
    const attempts: [string, Record<string, string>][] = [
      ['/api/v1/benchmarks?specialty=Cardiology', { 'x-api-key': key }],
      [`/api/v1/benchmarks?specialty=Cardiology&api_key=${key}`, { 'x-api-key': key }],
      ['/api/v1/me/usage', { 'x-api-key': key }],
      ['/api/v1/specialties', { 'x-api-key': unknown }],
      ['/api/v1/specialties', { 'x-api-key': `${key}x` }],
      [`/api/v1/specialties?key=${unknown}`, {}],
      ['/api/v1/nope', { 'x-api-key': key }],
      ['/data/api/v1/specialties.json', { 'x-api-key': key }],
    ];
    for (const [path, headers] of attempts) {
      const r = await call(serve.url, path, undefined, headers);
      expect(r.status).toBeLessThan(500);
      expect(r.text, path).not.toContain(key);
      expect(r.text, path).not.toContain(unknown);
    }
    await new Promise((res) => setTimeout(res, 300)); // let the logger flush
    const log = serve.stderr();
    expect(log).toMatch(/"route":"\/api\/v1\/benchmarks"/); // request lines are written (the scan is meaningful)
    expect(log.split('\n').filter((l) => l.includes('"status":401')).length).toBeGreaterThanOrEqual(2);
    for (const k of [...created, unknown]) {
      expect(log).not.toContain(k);
      expect(log).not.toContain(k.slice(12));
    }
  });
});

describe('key lifecycle (issue 18 item 9): true state, last use and usage, rotation, revocation is final', () => {
  const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
  const row = async (id: number) => listJson(await cli('list', '--json')).keys.find((k) => k.id === id)!;

  it('revoking twice within the same second still says the second time that it was already revoked', async () => {
    const made = JSON.parse((await cli('create', '--plan', 'starter', '--label', 'Twice Co', '--json')).out) as { id: number; key_prefix: string };
    const at = new Date('2026-11-20T10:00:00.400Z');
    expect((await cliAt(at, 'revoke', String(made.id))).out).toBe(`revoked ${made.key_prefix} (id ${made.id}) at 2026-11-20T10:00:00Z`);
    const again = await cliAt(new Date('2026-11-20T10:00:00.900Z'), 'revoke', String(made.id));
    expect(again.code).toBe(0);
    expect(again.out).toBe(`${made.key_prefix} (id ${made.id}) was already revoked at 2026-11-20T10:00:00Z`);
  });

  it('list shows a revoked key as revoked; set-status and set-plan on it are refused (exit 2) and it stays 401', async () => {
    const made = JSON.parse((await cli('create', '--plan', 'starter', '--label', 'Revoked Co', '--json')).out) as { key: string; id: number; key_prefix: string };
    expect((await call(serve.url, '/specialties', made.key)).status).toBe(200);
    expect((await cli('revoke', String(made.id))).code).toBe(0);
    const before = await row(made.id);
    expect(before).toMatchObject({ state: 'revoked', subscription_status: 'active', label: 'Revoked Co' });
    expect(before.revoked_at).toMatch(ISO);
    const table = (await physpay('list')).stdout.split('\n').find((l) => l.startsWith(`${made.id}\t`))!;
    expect(table.split('\t').slice(0, 4)).toEqual([String(made.id), made.key_prefix, 'revoked', 'starter']);

    const status = await cli('set-status', made.key_prefix, 'active');
    expect(status.code).toBe(2);
    expect(status.out).toBe('');
    expect(status.err).toBe(`physpay: key ${made.key_prefix} (id ${made.id}) was revoked at ${before.revoked_at}, so its status cannot change; create a new key with physpay keys create`);
    const plan = await cli('set-plan', String(made.id), 'enterprise');
    expect(plan.code).toBe(2);
    expect(plan.err).toBe(`physpay: key ${made.key_prefix} (id ${made.id}) was revoked at ${before.revoked_at}, so its plan cannot change; create a new key with physpay keys create`);
    expectError(await call(serve.url, '/specialties', made.key), 401, /invalid API key/);
    expect(await row(made.id)).toEqual(before);
    // revoking again keeps the first time and says so
    const again = await cli('revoke', String(made.id));
    expect(again.code).toBe(0);
    expect(again.out).toBe(`${made.key_prefix} (id ${made.id}) was already revoked at ${before.revoked_at}`);
  });

  it('list shows the last use and the requests counted today and this month', async () => {
    const made = JSON.parse((await cli('create', '--plan', 'professional', '--json')).out) as { key: string; id: number; created_at: string };
    expect(await row(made.id)).toMatchObject({ state: 'active', last_used_at: null, used_today: 0, used_this_month: 0, created_at: made.created_at });
    const t0 = Date.now();
    for (let i = 0; i < 3; i++) expect((await call(serve.url, '/specialties', made.key)).status).toBe(200);
    expect((await call(serve.url, '/me/usage', made.key)).status).toBe(200); // never counted
    const after = await row(made.id);
    expect(after).toMatchObject({ state: 'active', used_today: 3, used_this_month: 3 });
    expect(after.last_used_at).toMatch(ISO);
    expect(Math.abs(Date.parse(after.last_used_at as string) - t0)).toBeLessThan(60_000);
    const list = listJson(await cli('list', '--json'));
    expect(list.store).toBe(serviceDb);
    expect(list.as_of).toMatch(ISO);
    expect(list.day).toBe(list.as_of.slice(0, 10));
    expect(list.month).toBe(list.as_of.slice(0, 7));
    for (const k of list.keys) for (const f of ['created_at', 'revoked_at', 'last_used_at']) if (k[f] !== null) expect(k[f], f).toMatch(ISO);
  });

  it('rotate: a new key for the same account printed once; the old key is refused at once; --json', async () => {
    const made = JSON.parse((await cli('create', '--plan', 'professional', '--label', 'Rotate Health', '--json')).out) as { key: string; id: number; key_prefix: string };
    for (let i = 0; i < 2; i++) expect((await call(serve.url, '/specialties', made.key)).status).toBe(200);
    const r = await physpay('rotate', made.key_prefix);
    const fresh = r.stdout.trim();
    expect(fresh).toMatch(/^pcb_live_[0-9A-Za-z]{32}$/);
    expect(r.stdout).toBe(`${fresh}\n`);
    expect(r.stderr).not.toContain(fresh);
    const newId = made.id + 1;
    const old = await row(made.id);
    expect(r.stderr.trim()).toBe(
      `rotated key ${made.key_prefix} (id ${made.id}, revoked at ${old.revoked_at}) to ${fresh.slice(0, 12)}... (id ${newId}, professional, active) in the service DB ${serviceDb}; store it now: it cannot be shown again`,
    );
    expect(old).toMatchObject({ state: 'revoked' });
    expectError(await call(serve.url, '/specialties', made.key), 401, /invalid API key/);
    const u = UsageResponse.parse((await call(serve.url, '/me/usage', fresh)).json());
    expect(u).toMatchObject({ plan_tier: 'professional', subscription_status: 'active', key_prefix: fresh.slice(0, 12) });
    expect(u.usage.requests_today).toBe(2); // the account's use carries over
    expect(await row(newId)).toMatchObject({ state: 'active', plan_tier: 'professional', label: 'Rotate Health', used_today: 2 });

    // --json: one object with the new key, and the key it replaced
    const j = await cli('rotate', String(newId), '--json');
    expect(j.code).toBe(0);
    const o = JSON.parse(j.out) as Record<string, unknown>;
    expect(Object.keys(o).sort()).toEqual(['created_at', 'id', 'key', 'key_prefix', 'label', 'plan_tier', 'replaced', 'revoked_at', 'store', 'subscription_status']);
    expect(o).toMatchObject({ id: newId + 1, plan_tier: 'professional', subscription_status: 'active', label: 'Rotate Health', revoked_at: null, store: serviceDb });
    expect(o.created_at).toMatch(ISO);
    expect(o.replaced).toEqual({ id: newId, key_prefix: fresh.slice(0, 12), revoked_at: o.created_at });
    expectError(await call(serve.url, '/specialties', fresh), 401, /invalid API key/);
    expect((await call(serve.url, '/specialties', o.key as string)).status).toBe(200);

    // a revoked key cannot be rotated
    const refused = await cli('rotate', String(made.id));
    expect(refused.code).toBe(2);
    expect(refused.err).toBe(`physpay: key ${made.key_prefix} (id ${made.id}) was revoked at ${old.revoked_at}, so it cannot be rotated; create a new key with physpay keys create`);
    expect((await cli('rotate', 'pcb_live_nope')).code).toBe(1);
  });
});
