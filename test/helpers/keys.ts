/**
 * API keys for tests: created in a service store (an open store, or a store opened by its SQLite path or
 * PostgreSQL URL), or with the real CLI (`physpay keys create --json`) in a child process.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { generateKey, hashKey, keyPrefixOf } from '../../server/keyed/keys.ts';
import { openServiceStore } from '../../server/store/open.ts';
import type { ServiceStore } from '../../server/store/types.ts';
import { BIN } from '../server/serve-process.ts';

export interface TestKey {
  key: string;
  id: number;
  prefix: string;
}

/** A key of `plan` written straight into `store`. */
export async function createKey(store: ServiceStore, plan: string, status = 'active', createdAt = '2026-11-01T08:30:00Z'): Promise<TestKey> {
  const key = generateKey();
  const rec = await store.createKey({ keyHash: hashKey(key), keyPrefix: keyPrefixOf(key), plan, status, label: 'test', createdAt });
  return { key, id: rec.id, prefix: rec.key_prefix };
}

export type PlanKeys = Record<'starter' | 'professional' | 'enterprise', TestKey>;

/** One active key of each plan, created in this order (starter first: ids ascending). */
export async function planKeys(store: ServiceStore): Promise<PlanKeys> {
  const starter = await createKey(store, 'starter');
  const professional = await createKey(store, 'professional');
  const enterprise = await createKey(store, 'enterprise');
  return { starter, professional, enterprise };
}

/**
 * A key created now in the service store at `serviceDb` (SQLite path or PostgreSQL URL; before or while
 * servers run: the store is shared), with `used` requests already counted today.
 */
export async function addKey(serviceDb: string, plan: string, opts: { status?: string; used?: number } = {}): Promise<string> {
  const store = await openServiceStore(serviceDb);
  try {
    const { key, id } = await createKey(store, plan, opts.status ?? 'active', new Date().toISOString());
    const now = new Date().toISOString();
    for (let i = 0; i < (opts.used ?? 0); i++) await store.hitQuota(id, { day: now.slice(0, 10), month: now.slice(0, 7) }, { daily: 1e9, monthly: 1e9 });
    return key;
  } finally {
    await store.close();
  }
}

export interface CliKey {
  key: string;
  id: number;
  key_prefix: string;
}

const run = promisify(execFile);

/** `physpay keys create --service-db <serviceDb> --plan <plan> --json` as a child process: the key it printed. */
export async function createKeyCli(serviceDb: string, plan: string): Promise<CliKey> {
  const { stdout } = await run(process.execPath, [BIN, 'keys', 'create', '--service-db', serviceDb, '--plan', plan, '--json'], { env: { ...process.env, NO_COLOR: '1' } });
  return JSON.parse(stdout.trim()) as CliKey;
}
