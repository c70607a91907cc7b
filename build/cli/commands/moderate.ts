/** `physpay moderate list|approve|reject`: the moderation queue. */
import type { Command } from 'commander';
import { openReportsDb } from '../../db/open.ts';
import { countReports, listReports, moderateIds, moderatePending, type ReportFilter } from '../../db/moderation.ts';
import { REPORT_STATUSES, type ReportStatus } from '../../contract/vocab.ts';
import { option, readSettings } from '../settings.ts';
import { CliError, type CliIo } from '../io.ts';

function filterFrom(opts: Record<string, string | undefined>): ReportFilter {
  return { specialty: opts.specialty, state: opts.state, submittedBefore: opts.submittedBefore };
}

function parseIds(ids: string[]): number[] {
  return ids.map((s) => {
    if (!/^\d+$/.test(s)) throw new CliError(`report ids are whole numbers (got "${s}")`, 2);
    return Number(s);
  });
}

export function registerModerateCommands(program: Command, io: CliIo): void {
  const mod = program.command('moderate').description('list pending reports, approve or reject them by id or in bulk');

  mod
    .command('list')
    .description('list reports awaiting moderation (oldest first)')
    .addOption(option('db').makeOptionMandatory())
    .option('--status <status>', `pending, approved or rejected`, 'pending')
    .option('--specialty <name>', 'only this specialty (slug, name or common spelling)')
    .option('--state <code>', 'only this state (two-letter code)')
    .option('--submitted-before <date>', 'only reports submitted before this date')
    .option('--limit <n>', 'at most this many rows', '50')
    .option('--json', 'one JSON object per line')
    .action((opts) => {
      const { db: path } = readSettings(opts, ['db']);
      if (!REPORT_STATUSES.includes(opts.status)) throw new CliError(`--status must be one of ${REPORT_STATUSES.join(', ')}`, 2);
      const limit = Number(opts.limit);
      if (!Number.isInteger(limit) || limit < 1) throw new CliError('--limit must be a positive whole number', 2);
      const db = openReportsDb(path);
      try {
        const filter = { ...filterFrom(opts), status: opts.status as ReportStatus };
        const rows = listReports(db, filter, limit);
        const total = countReports(db, filter);
        if (opts.json) {
          for (const r of rows) io.out(JSON.stringify(r));
          return;
        }
        io.out('id\tsubmitted_at\tspecialty\tstate\tyear\ttotal_compensation\tpractice_setting\temployment_type');
        for (const r of rows) {
          io.out([r.id, r.submitted_at.slice(0, 10), r.specialty, r.state, r.year, r.total_compensation, r.practice_setting ?? '', r.employment_type ?? ''].join('\t'));
        }
        io.out(`${rows.length} of ${total.toLocaleString('en-US')} ${opts.status} report(s) shown`);
      } finally {
        db.close();
      }
    });

  for (const action of ['approve', 'reject'] as const) {
    mod
      .command(action)
      .description(`${action} reports by id, or every pending report matching the filters with --all-pending`)
      .argument('[ids...]', 'report ids')
      .addOption(option('db').makeOptionMandatory())
      .option('--all-pending', `${action} every pending report (narrow it with the filters below)`)
      .option('--specialty <name>', 'with --all-pending: only this specialty')
      .option('--state <code>', 'with --all-pending: only this state')
      .option('--submitted-before <date>', 'with --all-pending: only reports submitted before this date')
      .action((ids: string[], opts) => {
        const { db: path } = readSettings(opts, ['db']);
        if (ids.length > 0 && opts.allPending) throw new CliError('give report ids or --all-pending, not both', 2);
        if (ids.length === 0 && !opts.allPending) throw new CliError(`nothing to ${action}: give report ids or --all-pending`, 2);
        if (ids.length > 0 && (opts.specialty || opts.state || opts.submittedBefore)) {
          throw new CliError('--specialty, --state and --submitted-before only apply with --all-pending', 2);
        }
        const db = openReportsDb(path);
        try {
          const now = io.now();
          const result = opts.allPending ? moderatePending(db, action, filterFrom(opts), now) : moderateIds(db, action, parseIds(ids), now);
          const verb = action === 'approve' ? 'approved' : 'rejected';
          io.out(`${result.changed} report(s) ${verb}${result.unchanged.length ? `; already ${verb}: ${result.unchanged.join(', ')}` : ''}`);
        } finally {
          db.close();
        }
      });
  }
}
