/**
 * `physpay billing events`: the Stripe events the webhook received, newest first, with what each changed
 * (or why it changed nothing: an unknown price, an older state, a type not acted on). Duplicates are not
 * listed again: each event id is recorded once.
 */
import type { Command } from 'commander';
import { option, readSettings } from '../settings.ts';
import { CliError, type CliIo } from '../io.ts';
import { describeStore, isoSeconds, withStore } from './keys.ts';

export function registerBillingCommands(program: Command, io: CliIo): void {
  const billing = program.command('billing').description('Stripe billing: the events received by the webhook');
  billing
    .command('events')
    .description('list the Stripe events received, newest first, with what each changed')
    .addOption(option('serviceDb'))
    .option('--limit <n>', 'at most this many events', '50')
    .option('--json', 'print one JSON object {store, events: [{event_id, type, subscription_id, received_at, outcome}]}')
    .action(async (opts) => {
      const { serviceDb } = readSettings(opts, ['serviceDb']);
      const limit = Number(opts.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 100_000) throw new CliError(`--limit must be a whole number from 1 to 100000 (got ${JSON.stringify(opts.limit)})`, 2);
      const events = (await withStore(serviceDb, false, async (s) => s.listBillingEvents(limit))).map((e) => ({ ...e, received_at: isoSeconds(e.received_at) }));
      if (opts.json) {
        io.out(JSON.stringify({ store: describeStore(serviceDb), events }));
        return;
      }
      io.out('received_at\tevent_id\ttype\tsubscription_id\toutcome');
      for (const e of events) io.out([e.received_at, e.event_id, e.type, e.subscription_id ?? '-', e.outcome].join('\t'));
    });
}
