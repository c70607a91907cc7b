/**
 * `physpay keys create|list|rotate|revoke|set-status|set-plan`: API keys in the service store. The full key
 * is printed once, at creation or rotation; the store keeps only its SHA-256 hash. Keys are named by id or
 * key_prefix. Every time printed is ISO 8601 UTC to the second (2026-11-23T08:30:00Z).
 */
import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { PLAN_TIERS, SUBSCRIPTION_STATUSES } from '../../contract/vocab.ts';
import { missingDbError } from '../../db/kind.ts';
import { option, readSettings } from '../settings.ts';
import { CliError, type CliIo } from '../io.ts';
import type { ApiKeyRecord, ServiceStore } from '../../../server/store/types.ts';

const isPostgres = (target: string) => /^postgres(ql)?:\/\//.test(target);

/** The store named for the operator: a SQLite file's absolute path, or a postgres:// URL without its password. */
export function describeStore(target: string): string {
  if (!isPostgres(target)) return resolve(target);
  try {
    const u = new URL(target);
    u.password = '';
    u.searchParams.delete('password');
    return u.toString().replace(/\?$/, '');
  } catch {
    return target.replace(/\/\/[^@/]*@/, '//***@');
  }
}

const storeNoun = (target: string) => (isPostgres(target) ? `the service store ${describeStore(target)}` : `the service DB ${describeStore(target)}`);

/** ISO 8601 UTC to the second, whatever precision the time was stored with. */
export function isoSeconds(t: string | Date): string;
export function isoSeconds(t: string | Date | null): string | null;
export function isoSeconds(t: string | Date | null): string | null {
  if (t === null) return null;
  const d = typeof t === 'string' ? new Date(t) : t;
  return Number.isNaN(d.getTime()) ? String(t) : d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

const printable = (k: ApiKeyRecord): ApiKeyRecord => ({ ...k, created_at: isoSeconds(k.created_at), revoked_at: isoSeconds(k.revoked_at) });

/**
 * Open the store, run `fn`, close it. Only `create` makes a new SQLite file; the other commands refuse a
 * missing one (a typo must not leave an empty service DB behind). A wrong --service-db is exit 2.
 */
export async function withStore<T>(target: string, create: boolean, fn: (store: ServiceStore) => Promise<T>): Promise<T> {
  const { openServiceStore } = await import('../../../server/store/open.ts');
  const { KeyNotFoundError, StoreUnavailableError } = await import('../../../server/store/types.ts');
  const { DbKindError } = await import('../../db/kind.ts');
  if (!isPostgres(target) && !create && !existsSync(target)) {
    const { checkDbPath } = await import('../../db/kind.ts');
    checkDbPath(target, 'service'); // a missing folder is named as such
    throw missingDbError(target, 'service');
  }
  let store;
  try {
    store = await openServiceStore(target);
  } catch (err) {
    if (err instanceof DbKindError) throw err;
    throw new CliError(`cannot open ${storeNoun(target)}: ${(err as Error).message}`);
  }
  try {
    return await fn(store);
  } catch (err) {
    if (err instanceof KeyNotFoundError || err instanceof StoreUnavailableError) throw new CliError((err as Error).message);
    throw err;
  } finally {
    await store.close();
  }
}

/** A change asked of a revoked key: exit 2, one sentence. */
async function refuseRevoked<T>(what: string, step: () => Promise<T>): Promise<T> {
  const { KeyRevokedError } = await import('../../../server/store/types.ts');
  try {
    return await step();
  } catch (err) {
    if (err instanceof KeyRevokedError) {
      const k = err.key;
      throw new CliError(`key ${k.key_prefix} (id ${k.id}) was revoked at ${isoSeconds(k.revoked_at)}, so ${what}; create a new key with physpay keys create`, 2);
    }
    throw err;
  }
}

function checkPlan(plan: string): string {
  if (!(PLAN_TIERS as readonly string[]).includes(plan)) throw new CliError(`--plan must be one of ${PLAN_TIERS.join(', ')} (got "${plan}")`, 2);
  return plan;
}

function checkStatus(status: string): string {
  if (!(SUBSCRIPTION_STATUSES as readonly string[]).includes(status)) throw new CliError(`status must be one of ${SUBSCRIPTION_STATUSES.join(', ')} (got "${status}")`, 2);
  return status;
}

export function registerKeysCommands(program: Command, io: CliIo): void {
  const keys = program.command('keys').description('create, list, rotate, revoke and change API keys of the keyed API');
  const now = () => isoSeconds(io.now());

  keys
    .command('create')
    .description('create an API key; prints the full key once (only its hash is stored)')
    .addOption(option('serviceDb'))
    .requiredOption('--plan <plan>', `plan tier: ${PLAN_TIERS.join(', ')}`)
    .option('--label <text>', 'who the key is for', '')
    .option('--status <status>', `subscription status: ${SUBSCRIPTION_STATUSES.join(', ')}`, 'active')
    .option('--json', 'print one JSON object {key, key_prefix, plan_tier, ..., store}')
    .action(async (opts) => {
      const { serviceDb } = readSettings(opts, ['serviceDb']);
      const plan = checkPlan(opts.plan);
      const status = checkStatus(opts.status);
      if (String(opts.label).length > 200) throw new CliError('--label is longer than 200 characters', 2);
      const { generateKey, hashKey, keyPrefixOf } = await import('../../../server/keyed/keys.ts');
      const key = generateKey();
      const rec = printable(await withStore(serviceDb, true, async (s) =>
        s.createKey({ keyHash: hashKey(key), keyPrefix: keyPrefixOf(key), plan, status, label: opts.label, createdAt: now() }),
      ));
      if (opts.json) io.out(JSON.stringify({ key, ...rec, store: describeStore(serviceDb) }));
      else {
        io.out(key);
        io.err(`created key ${rec.key_prefix}... (id ${rec.id}, ${rec.plan_tier}, ${rec.subscription_status}) in ${storeNoun(serviceDb)}; store it now: it cannot be shown again`);
      }
    });

  keys
    .command('list')
    .description('list API keys: state (revoked, or the subscription status), plan, last use, requests today and this month, the billing customer and subscription (Stripe; - for keys made by hand); never the key')
    .addOption(option('serviceDb'))
    .option('--json', 'print one JSON object {store, as_of, day, month, keys: [...]}')
    .action(async (opts) => {
      const { serviceDb } = readSettings(opts, ['serviceDb']);
      const { quotaWindows } = await import('../../../server/keyed/quota-time.ts');
      const at = io.now();
      const w = quotaWindows(at);
      const list = (await withStore(serviceDb, false, async (s) => s.listKeyUsage(w))).map((k) => ({
        id: k.id,
        key_prefix: k.key_prefix,
        state: k.revoked_at ? 'revoked' : k.subscription_status,
        plan_tier: k.plan_tier,
        subscription_status: k.subscription_status,
        label: k.label,
        created_at: isoSeconds(k.created_at),
        revoked_at: isoSeconds(k.revoked_at),
        last_used_at: isoSeconds(k.last_used_at),
        used_today: k.used_today,
        used_this_month: k.used_this_month,
        customer_id: k.customer_id,
        subscription_id: k.subscription_id,
      }));
      if (opts.json) {
        io.out(JSON.stringify({ store: describeStore(serviceDb), as_of: isoSeconds(at), day: w.day, month: w.month, keys: list }));
        return;
      }
      io.out('id\tkey_prefix\tstate\tplan_tier\tcreated_at\trevoked_at\tlast_used_at\tused_today\tused_this_month\tcustomer\tsubscription\tlabel');
      for (const k of list) {
        io.out([k.id, k.key_prefix, k.state, k.plan_tier, k.created_at, k.revoked_at ?? '-', k.last_used_at ?? '-', k.used_today, k.used_this_month, k.customer_id ?? '-', k.subscription_id ?? '-', k.label].join('\t'));
      }
    });

  keys
    .command('rotate')
    .description('issue a new key for the same account (same plan, status, label; quota counts carry over) and revoke the old one at once; prints the new key once')
    .argument('<key>', 'id or key_prefix of the key to replace')
    .addOption(option('serviceDb'))
    .option('--json', 'print one JSON object {key, key_prefix, plan_tier, ..., store, replaced: {id, key_prefix, revoked_at}}')
    .action(async (ref: string, opts) => {
      const { serviceDb } = readSettings(opts, ['serviceDb']);
      const { generateKey, hashKey, keyPrefixOf } = await import('../../../server/keyed/keys.ts');
      const key = generateKey();
      const at = now();
      const r = await withStore(serviceDb, false, (s) =>
        refuseRevoked('it cannot be rotated', async () => s.rotateKey(ref, { keyHash: hashKey(key), keyPrefix: keyPrefixOf(key), createdAt: at }, at)),
      );
      const rec = printable(r.key);
      const old = printable(r.old);
      if (opts.json) {
        io.out(JSON.stringify({ key, ...rec, store: describeStore(serviceDb), replaced: { id: old.id, key_prefix: old.key_prefix, revoked_at: old.revoked_at } }));
        return;
      }
      io.out(key);
      io.err(
        `rotated key ${old.key_prefix} (id ${old.id}, revoked at ${old.revoked_at}) to ${rec.key_prefix}... (id ${rec.id}, ${rec.plan_tier}, ${rec.subscription_status}) in ${storeNoun(serviceDb)}; store it now: it cannot be shown again`,
      );
    });

  keys
    .command('revoke')
    .description('revoke a key (by id or key_prefix): it answers 401 from then on; revocation is final')
    .argument('<key>', 'id or key_prefix')
    .addOption(option('serviceDb'))
    .action(async (ref: string, opts) => {
      const { serviceDb } = readSettings(opts, ['serviceDb']);
      const at = now();
      // "already revoked" is read from the key before this call, not from the timestamps (both can fall in one second)
      const { rec, already } = await withStore(serviceDb, false, async (s) => {
        const before = (await s.listKeys()).find((k) => String(k.id) === ref || k.key_prefix === ref);
        return { rec: printable(await s.updateKey(ref, { revokedAt: at })), already: Boolean(before?.revoked_at) };
      });
      if (!already) io.out(`revoked ${rec.key_prefix} (id ${rec.id}) at ${rec.revoked_at}`);
      else io.out(`${rec.key_prefix} (id ${rec.id}) was already revoked at ${rec.revoked_at}`);
    });

  keys
    .command('set-status')
    .description(`set a key's subscription status (${SUBSCRIPTION_STATUSES.join(', ')}); only active is served; refused for a revoked key`)
    .argument('<key>', 'id or key_prefix')
    .argument('<status>', SUBSCRIPTION_STATUSES.join(' | '))
    .addOption(option('serviceDb'))
    .action(async (ref: string, status: string, opts) => {
      const { serviceDb } = readSettings(opts, ['serviceDb']);
      checkStatus(status);
      const rec = await withStore(serviceDb, false, (s) => refuseRevoked('its status cannot change', async () => s.updateKey(ref, { status })));
      io.out(`${rec.key_prefix} (id ${rec.id}) is now ${rec.subscription_status}`);
    });

  keys
    .command('set-plan')
    .description(`move a key to another plan (${PLAN_TIERS.join(', ')}); refused for a revoked key`)
    .argument('<key>', 'id or key_prefix')
    .argument('<plan>', PLAN_TIERS.join(' | '))
    .addOption(option('serviceDb'))
    .action(async (ref: string, plan: string, opts) => {
      const { serviceDb } = readSettings(opts, ['serviceDb']);
      checkPlan(plan);
      const rec = await withStore(serviceDb, false, (s) => refuseRevoked('its plan cannot change', async () => s.updateKey(ref, { plan })));
      io.out(`${rec.key_prefix} (id ${rec.id}) is now on the ${rec.plan_tier} plan`);
    });
}
