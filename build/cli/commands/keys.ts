/**
 * `physpay keys create|list|revoke|set-status|set-plan`: API keys in the service store. The full key is
 * printed once, at creation; the store keeps only its SHA-256 hash. Keys are named by id or key_prefix.
 */
import type { Command } from 'commander';
import { PLAN_TIERS, SUBSCRIPTION_STATUSES } from '../../contract/vocab.ts';
import { option, readSettings } from '../settings.ts';
import { CliError, type CliIo } from '../io.ts';

async function withStore<T>(target: string, fn: (store: import('../../../server/store/types.ts').ServiceStore) => Promise<T>): Promise<T> {
  const { openServiceStore } = await import('../../../server/store/open.ts');
  const { KeyNotFoundError, StoreUnavailableError } = await import('../../../server/store/types.ts');
  let store;
  try {
    store = await openServiceStore(target);
  } catch (err) {
    throw new CliError(`cannot open the service store ${target.replace(/\/\/[^@/]*@/, '//***@')}: ${(err as Error).message}`);
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

function checkPlan(plan: string): string {
  if (!(PLAN_TIERS as readonly string[]).includes(plan)) throw new CliError(`--plan must be one of ${PLAN_TIERS.join(', ')} (got "${plan}")`, 2);
  return plan;
}

function checkStatus(status: string): string {
  if (!(SUBSCRIPTION_STATUSES as readonly string[]).includes(status)) throw new CliError(`status must be one of ${SUBSCRIPTION_STATUSES.join(', ')} (got "${status}")`, 2);
  return status;
}

export function registerKeysCommands(program: Command, io: CliIo): void {
  const keys = program.command('keys').description('create, list, revoke and change API keys of the keyed API');

  keys
    .command('create')
    .description('create an API key; prints the full key once (only its hash is stored)')
    .addOption(option('serviceDb'))
    .requiredOption('--plan <plan>', `plan tier: ${PLAN_TIERS.join(', ')}`)
    .option('--label <text>', 'who the key is for', '')
    .option('--status <status>', `subscription status: ${SUBSCRIPTION_STATUSES.join(', ')}`, 'active')
    .option('--json', 'print one JSON object {key, key_prefix, plan_tier, ...}')
    .action(async (opts) => {
      const { serviceDb } = readSettings(opts, ['serviceDb']);
      const plan = checkPlan(opts.plan);
      const status = checkStatus(opts.status);
      if (String(opts.label).length > 200) throw new CliError('--label is longer than 200 characters', 2);
      const { generateKey, hashKey, keyPrefixOf } = await import('../../../server/keyed/keys.ts');
      const key = generateKey();
      const rec = await withStore(serviceDb, async (s) =>
        s.createKey({ keyHash: hashKey(key), keyPrefix: keyPrefixOf(key), plan, status, label: opts.label, createdAt: io.now().toISOString().replace(/\.\d{3}Z$/, 'Z') }),
      );
      if (opts.json) io.out(JSON.stringify({ key, ...rec }));
      else {
        io.out(key);
        io.err(`created key ${rec.key_prefix}... (id ${rec.id}, ${rec.plan_tier}, ${rec.subscription_status}); store it now: it cannot be shown again`);
      }
    });

  keys
    .command('list')
    .description('list API keys (prefix, plan, status; never the key)')
    .addOption(option('serviceDb'))
    .option('--json', 'one JSON object per key')
    .action(async (opts) => {
      const { serviceDb } = readSettings(opts, ['serviceDb']);
      const list = await withStore(serviceDb, async (s) => s.listKeys());
      if (opts.json) {
        for (const k of list) io.out(JSON.stringify(k));
        return;
      }
      io.out('id\tkey_prefix\tplan_tier\tsubscription_status\tcreated_at\trevoked_at\tlabel');
      for (const k of list) io.out([k.id, k.key_prefix, k.plan_tier, k.subscription_status, k.created_at, k.revoked_at ?? '', k.label].join('\t'));
    });

  keys
    .command('revoke')
    .description('revoke a key (by id or key_prefix): it answers 401 from then on')
    .argument('<key>', 'id or key_prefix')
    .addOption(option('serviceDb'))
    .action(async (ref: string, opts) => {
      const { serviceDb } = readSettings(opts, ['serviceDb']);
      const rec = await withStore(serviceDb, async (s) => s.updateKey(ref, { revokedAt: io.now().toISOString() }));
      io.out(`revoked ${rec.key_prefix} (id ${rec.id})`);
    });

  keys
    .command('set-status')
    .description(`set a key's subscription status (${SUBSCRIPTION_STATUSES.join(', ')}); only active is served`)
    .argument('<key>', 'id or key_prefix')
    .argument('<status>', SUBSCRIPTION_STATUSES.join(' | '))
    .addOption(option('serviceDb'))
    .action(async (ref: string, status: string, opts) => {
      const { serviceDb } = readSettings(opts, ['serviceDb']);
      checkStatus(status);
      const rec = await withStore(serviceDb, async (s) => s.updateKey(ref, { status }));
      io.out(`${rec.key_prefix} (id ${rec.id}) is now ${rec.subscription_status}`);
    });

  keys
    .command('set-plan')
    .description(`move a key to another plan (${PLAN_TIERS.join(', ')})`)
    .argument('<key>', 'id or key_prefix')
    .argument('<plan>', PLAN_TIERS.join(' | '))
    .addOption(option('serviceDb'))
    .action(async (ref: string, plan: string, opts) => {
      const { serviceDb } = readSettings(opts, ['serviceDb']);
      checkPlan(plan);
      const rec = await withStore(serviceDb, async (s) => s.updateKey(ref, { plan }));
      io.out(`${rec.key_prefix} (id ${rec.id}) is now on the ${rec.plan_tier} plan`);
    });
}
