/**
 * `physpay moderate list|approve|reject|delete`: the moderation queue.
 *
 * list shows every field a moderator needs and its flags (the build's outlier rule, from 5 approved reports
 * of the specialty, beside it the reference-level rule: build/compute/plausibility.ts, and the whole offer's
 * flags: build/compute/offer-plausibility.ts), the offer in a column of its own where a report gives one, as an aligned
 * table, one JSON object (--json) or CSV (--csv); approving a flagged report prints its flags (stderr) and
 * approves it. Each decision records the moderator (--moderator, PHYSPAY_MODERATOR, else the OS user), a
 * reason (--reason) and the time. Bulk actions (--all-pending) and deleting several reports print what would
 * change with --dry-run, and otherwise need a count confirmation (build/cli/confirm.ts): a question on a
 * terminal, or --yes, or --expect-count N matching exactly.
 */
import { userInfo } from 'node:os';
import { Option, type Command } from 'commander';
import { openReportsDb, type Db } from '../../db/open.ts';
import {
  CountMismatchError, countReports, deleteReports, describeSelection, flagCount, flagDetails, flaggedReports, flagText, iterateReports, listReports,
  moderateIds, moderatePending, moderationFlags, planIds, specialtyFences, specialtyRates, specialtyReferences,
  type FlaggedReports, type ListedReport, type ModerationResult, type ReportFilter, type SpecialtyFences,
} from '../../db/moderation.ts';
import { FENCES_MIN_APPROVED, IMPLAUSIBLE_FACTOR, type ReferenceLevel } from '../../compute/plausibility.ts';
import { OFFER_FLAG_LIMITS, type SpecialtyRate } from '../../compute/offer-plausibility.ts';
import { OFFER_COLUMNS, hasOfferTerms } from '../../contract/offer-terms.ts';
import { offerSummary } from '../offer-summary.ts';
import { REPORT_STATUSES, type ReportStatus } from '../../contract/vocab.ts';
import { csvField } from '../../compute/open-csv.ts';
import { confirmCount, parseExpectCount, reportsText as reports } from '../confirm.ts';
import { signalsText } from '../../import/submissions.ts';
import { option, readSettings } from '../settings.ts';
import { CliError, type CliIo } from '../io.ts';

const LIST_STATUSES = [...REPORT_STATUSES, 'all'] as const;
const fmt = (n: number) => n.toLocaleString('en-US');

function filterFrom(opts: Record<string, string | undefined>): Omit<ReportFilter, 'status'> {
  return { specialty: opts.specialty, state: opts.state, submittedBefore: opts.submittedBefore };
}

function parseIds(ids: string[]): number[] {
  return ids.map((s) => {
    if (!/^\d+$/.test(s)) throw new CliError(`report ids are whole numbers (got "${s}")`, 2);
    return Number(s);
  });
}

function parseReason(reason: unknown): string | null {
  if (reason === undefined) return null;
  const r = String(reason).trim();
  if (r.length < 1 || r.length > 500 || /[\r\n]/.test(r)) throw new CliError(`--reason must be one line of 1 to 500 characters (got ${JSON.stringify(reason)})`, 2);
  return r;
}

/** --moderator, PHYSPAY_MODERATOR, else the OS user. */
function moderatorName(opts: Record<string, unknown>): string {
  const { moderator } = readSettings(opts, ['moderator']);
  if (moderator) return moderator;
  try {
    const name = userInfo().username;
    if (name) return name;
  } catch {
    // no passwd entry for this uid (some containers)
  }
  return process.env.USER || process.env.LOGNAME || `uid ${process.getuid?.() ?? 'unknown'}`;
}

function withDb<T>(path: string, fn: (db: Db) => T): T {
  const db = openReportsDb(path);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/** The DB re-checks the confirmed count in the same transaction as the change. */
function rethrowMismatch(verb: string, err: unknown, userGaveCount: boolean): never {
  if (err instanceof CountMismatchError) {
    throw new CliError(
      userGaveCount
        ? `refusing to ${verb}: --expect-count is ${fmt(err.expected)} but ${reports(err.actual)} ${err.actual === 1 ? 'matches' : 'match'}; nothing changed`
        : `the reports matching changed while you confirmed (${fmt(err.expected)} then, ${fmt(err.actual)} now); nothing changed`,
      2,
    );
  }
  throw err;
}

const dollars = (v: number) => `$${fmt(Math.round(v))}`;

/** At most this many flagged reports are named one per line after an approval; one line counts the rest. */
const FLAGS_SHOWN = 20;

/**
 * Run a decision; an approval first reads the flags of the reports it approves (against the approved reports
 * before it), in the same transaction, so the flags printed are those of exactly the reports approved.
 */
function decide(
  db: Db,
  action: 'approve' | 'reject',
  sel: { ids: number[] } | { filter: ReportFilter },
  change: () => ModerationResult,
): ModerationResult & { flagged: FlaggedReports | null } {
  if (action !== 'approve') return { ...change(), flagged: null };
  return db
    .transaction(() => {
      // By id, only the reports this approval changes (not those approved already).
      const which = 'ids' in sel ? { ids: planIds(db, 'approve', sel.ids).change } : sel;
      const flagged = flaggedReports(db, which, FLAGS_SHOWN);
      return { ...change(), flagged };
    })
    .immediate();
}

/** Approving stays possible: each flagged report approved is named on stderr with its flag. */
function printFlags(io: CliIo, flagged: FlaggedReports): void {
  for (const { report: r, flags } of flagged.first) {
    io.err(`report ${r.id} (${r.specialty}, total ${dollars(r.total_compensation)}) approved with its ${flagCount(flags) > 1 ? 'flags' : 'flag'}: ${flagDetails(flags)}`);
  }
  const rest = flagged.count - flagged.first.length;
  if (rest > 0) io.err(`... and ${fmt(rest)} more flagged ${rest === 1 ? 'report' : 'reports'} approved`);
}

/** The --json answer of approve, reject and delete: one object on stdout (flags in it, not on stderr). */
function decisionJson(io: CliIo, o: { action: string; changed: number; moderator: string; already?: number[]; flagged?: FlaggedReports | null }): void {
  io.out(JSON.stringify({
    action: o.action, changed: o.changed, moderator: o.moderator, already: o.already ?? [],
    flagged: o.flagged ? { count: o.flagged.count, first: o.flagged.first.map(({ report, flags }) => ({ id: report.id, specialty: report.specialty, total_compensation: report.total_compensation, flags: flagDetails(flags) })) } : { count: 0, first: [] },
  }));
}

function dryRun(io: CliIo, what: string, sel: ReturnType<typeof describeSelection>, extra = '', pending = false): void {
  const top = sel.bySpecialty.slice(0, 10).map(([slug, n]) => `${slug} ${fmt(n)}`);
  const rest = sel.bySpecialty.slice(10);
  if (rest.length) top.push(`${rest.length} other specialties ${fmt(rest.reduce((a, [, n]) => a + n, 0))}`);
  const by = top.join(', ');
  const count = pending ? `${fmt(sel.count)} pending ${sel.count === 1 ? 'report' : 'reports'}` : reports(sel.count);
  io.out(`dry run: would ${what} ${count}${by ? ` (${by})` : ''}${extra}; nothing changed`);
  if (sel.count > 0) io.out(`ids: ${sel.ids.join(', ')}${sel.count > sel.ids.length ? `, ... and ${fmt(sel.count - sel.ids.length)} more` : ''}`);
}

// ------------------------------------------------------------------------------------------------- list

/** Columns of --csv and keys of each --json row, in order: the whole offer's columns last. */
const ROW_KEYS = [
  'id', 'submitted_at', 'specialty', 'state', 'year', 'total_compensation', 'base_salary', 'bonus', 'hours_per_week', 'wrvus',
  'years_in_practice', 'practice_setting', 'employment_type', 'status', 'outlier', 'moderated_at', 'moderated_by', 'moderation_reason',
  'source', 'signals', ...OFFER_COLUMNS,
] as const;
/**
 * `outlier`: `high` or `low` (Tukey fences), `implausible: ...` (reference level), both (`low; implausible: ...`), then the offer's flags
 * (`call pay 45% of the total (...)`), or null. `source`: `web` (sent through /contribute), `csv batch N`, or null (written straight into the
 * DB, e.g. the demo data); `signals`: how a web report arrived, in words (null for CSV).
 */
type Row = ListedReport & { outlier: string | null; signals: string | null };

/** What the flags of a page or an export are judged against: per specialty slug. */
interface FlagLevels {
  fences: Map<string, SpecialtyFences>;
  references: Map<string, ReferenceLevel>;
  rates: Map<string, SpecialtyRate>;
}

function exportRow(r: ListedReport, levels: FlagLevels): Row {
  // a report with neither (the demo data, written straight into the DB) has no source to show
  const source = r.source === 'web' ? 'web' : r.batch_id !== null ? `csv batch ${r.batch_id}` : null;
  const outlier = flagText(moderationFlags(r, levels.fences, levels.references, levels.rates));
  const withFlag = { ...r, source, signals: r.source === 'web' ? signalsText(r.intake_signals) || null : null, outlier } as Row;
  return Object.fromEntries(ROW_KEYS.map((k) => [k, withFlag[k]])) as unknown as Row;
}

/** The legend under the table: the fences, the specialties they cannot judge yet, the reference rule and the offer's rules when they flagged a row. */
function legend(shown: Row[], fences: Map<string, SpecialtyFences>, offerFlagged: boolean): string[] {
  const specialties = [...new Set(shown.map((r) => r.specialty))];
  const none = specialties.filter((s) => !fences.has(s));
  const few = specialties.filter((s) => fences.has(s) && fences.get(s)!.approved < FENCES_MIN_APPROVED);
  const lines = [
    `outlier: total outside the Tukey fences of its specialty's approved totals (the build's rule)${none.length ? `; no approved reports to compare: ${none.join(', ')}` : ''}${
      few.length ? `; fewer than ${FENCES_MIN_APPROVED} approved: ${few.map((s) => `${s} (${fences.get(s)!.approved})`).join(', ')}` : ''
    }`,
  ];
  if (shown.some((r) => r.outlier?.includes('implausible:'))) {
    lines.push(
      `implausible: the report is checked against its specialty's reference level (the BLS median, else the national level) whatever the number of approved reports, beside the fences: a total above ${IMPLAUSIBLE_FACTOR}x the level, or pay at 40 hours a week below ${100 / IMPLAUSIBLE_FACTOR}% of it`,
    );
  }
  if (offerFlagged) {
    const L = OFFER_FLAG_LIMITS;
    lines.push(
      `offer flags: call pay above ${L.callPayShare * 100}% of the total, a sign-on bonus above ${L.signingBonusShare * 100}% of it, loan repayment above $${L.loanRepayment.toLocaleString('en-US')}, more than ${L.ptoWeeks} weeks off, a conversion rate with pay model salary, outside $${L.conversionRate.min}-$${L.conversionRate.max}/wRVU or beyond ${1 / L.conversionRateFactor}x-${L.conversionRateFactor}x its specialty's $/wRVU (the median of its approved reports with wRVUs, from ${FENCES_MIN_APPROVED})`,
    );
  }
  return lines;
}

const dash = (v: string | null | undefined) => (v === null || v === undefined || v === '' ? '-' : v);
const money = (v: number | null) => (v === null ? '-' : fmt(Math.round(v)));
const num = (v: number | null) => (v === null ? '-' : v.toLocaleString('en-US', { maximumFractionDigits: 1 }));

/** The text table: header, then what a moderator needs to decide, one report per line. */
const TABLE: [string, (r: Row) => string][] = [
  ['id', (r) => String(r.id)],
  ['submitted', (r) => r.submitted_at.slice(0, 10)],
  ['specialty', (r) => r.specialty],
  ['state', (r) => r.state],
  ['year', (r) => String(r.year)],
  ['total', (r) => money(r.total_compensation)],
  ['base', (r) => money(r.base_salary)],
  ['bonus', (r) => money(r.bonus)],
  ['hours', (r) => num(r.hours_per_week)],
  ['wRVUs', (r) => num(r.wrvus)],
  ['years', (r) => (r.years_in_practice === null ? '-' : String(r.years_in_practice))],
  ['setting', (r) => dash(r.practice_setting)],
  ['employment', (r) => dash(r.employment_type)],
  ['outlier', (r) => dash(r.outlier)],
  ['status', (r) => r.status],
  ['decided', (r) => dash(r.moderated_at?.slice(0, 10))],
  ['by', (r) => dash(r.moderated_by)],
  ['source', (r) => dash(r.source)],
  ['reason', (r) => dash(r.moderation_reason?.replace(/\s+/g, ' '))],
  ['signals', (r) => dash(r.signals)],
];
/** The whole offer in words: a last column, shown when a report on the page gives any of it. */
const OFFER_COLUMN: [string, (r: Row) => string] = ['offer', (r) => dash(offerSummary(r))];

function printTable(io: CliIo, rows: Row[]): void {
  const table = rows.some((r) => hasOfferTerms(r)) ? [...TABLE, OFFER_COLUMN] : TABLE;
  const cells = rows.map((r) => table.map(([, get]) => get(r)));
  const widths = table.map(([h], i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((v, i) => (i === c.length - 1 ? v : v.padEnd(widths[i]!))).join('  ');
  io.out(line(table.map(([h]) => h)));
  for (const c of cells) io.out(line(c));
}

export function registerModerateCommands(program: Command, io: CliIo): void {
  const mod = program.command('moderate').description('list reports for moderation; approve, reject or delete them by id or in bulk');

  mod
    .command('list')
    .description('list reports for moderation (pending by default), oldest first, with every field and an outlier flag')
    .addOption(option('db').makeOptionMandatory())
    .option('--status <status>', `${LIST_STATUSES.join(', ')}`, 'pending')
    .option('--specialty <name>', 'only this specialty (slug, name or common spelling)')
    .option('--state <code>', 'only this state (two-letter code)')
    .option('--submitted-before <date>', 'only reports submitted before this date')
    .option('--limit <n>', 'at most this many rows, or all', '50')
    .addOption(new Option('--json', 'print one JSON object {status, filters, total, shown, limit, fences, rows}').conflicts('csv'))
    .addOption(new Option('--csv', 'print CSV (header row, RFC 4180 quoting)').conflicts('json'))
    .action((opts) => {
      const { db: path } = readSettings(opts, ['db']);
      if (!(LIST_STATUSES as readonly string[]).includes(opts.status)) {
        throw new CliError(`--status must be one of ${LIST_STATUSES.join(', ')} (got ${JSON.stringify(opts.status)})`, 2);
      }
      const limit = opts.limit === 'all' ? null : /^\d+$/.test(opts.limit) && Number(opts.limit) >= 1 ? Number(opts.limit) : NaN;
      if (Number.isNaN(limit)) throw new CliError(`--limit must be a whole number of 1 or more, or all (got ${JSON.stringify(opts.limit)})`, 2);
      const status = opts.status === 'all' ? undefined : (opts.status as ReportStatus);
      const filter: ReportFilter = { ...filterFrom(opts), status };
      withDb(path, (db) => {
        db.exec('BEGIN'); // one snapshot: the count, the fences and the rows agree
        try {
          const total = countReports(db, filter);
          // A page reads the fences of its own specialties; an export of everything streams its rows.
          const page = limit === null && (opts.json || opts.csv) ? null : listReports(db, filter, limit);
          const slugs = page ? [...new Set(page.map((r) => r.specialty))] : undefined;
          const fences = specialtyFences(db, slugs);
          const references = specialtyReferences(db, slugs);
          const levels: FlagLevels = { fences, references, rates: specialtyRates(db, slugs) };
          const rows: Iterable<ListedReport> = page ?? iterateReports(db, filter, null);
          if (opts.json) {
            const head = {
              status: opts.status,
              filters: { specialty: filter.specialty ?? null, state: filter.state ?? null, submitted_before: filter.submittedBefore ?? null },
              total,
              shown: Math.min(total, limit ?? total),
              limit,
              fences: Object.fromEntries(fences),
            };
            // Streamed one row per line (an export of every pending report is never one big string).
            io.out(`${JSON.stringify(head).slice(0, -1)},"rows":[`);
            let previous: string | null = null;
            for (const r of rows) {
              if (previous !== null) io.out(`${previous},`);
              previous = JSON.stringify(exportRow(r, levels));
            }
            if (previous !== null) io.out(previous);
            io.out(']}');
            return;
          }
          if (opts.csv) {
            io.out(ROW_KEYS.join(','));
            for (const r of rows) {
              const row = exportRow(r, levels);
              io.out(ROW_KEYS.map((k) => csvField(row[k])).join(','));
            }
            return;
          }
          const shown = [...rows].map((r) => exportRow(r, levels));
          const what = `${status ? `${status} ` : ''}${total === 1 ? 'report' : 'reports'}`;
          if (shown.length === 0) {
            io.out(`0 of ${fmt(total)} ${what} shown`);
            return;
          }
          printTable(io, shown);
          io.out(`${fmt(shown.length)} of ${fmt(total)} ${what} shown, oldest first${shown.length < total ? ' (--limit N or all for more; --csv or --json to export)' : ''}`);
          const offerFlagged = shown.some((r) => (moderationFlags(r, fences, references, levels.rates)?.offer.length ?? 0) > 0);
          for (const line of legend(shown, fences, offerFlagged)) io.out(line);
        } finally {
          db.exec('COMMIT');
        }
      });
    });

  for (const action of ['approve', 'reject'] as const) {
    const verb = action === 'approve' ? 'approved' : 'rejected';
    mod
      .command(action)
      .description(`${action} reports by id, or every pending report matching the filters with --all-pending (asks first)`)
      .argument('[ids...]', 'report ids')
      .addOption(option('db').makeOptionMandatory())
      .option('--all-pending', `${action} every pending report (narrow it with the filters below)`)
      .option('--specialty <name>', 'with --all-pending: only this specialty')
      .option('--state <code>', 'with --all-pending: only this state')
      .option('--submitted-before <date>', 'with --all-pending: only reports submitted before this date')
      .option('--reason <text>', 'why (recorded with the decision; shown by moderate list)')
      .addOption(option('moderator'))
      .option('--dry-run', 'print what would change; change nothing')
      .option('--yes', 'with --all-pending: go ahead without asking')
      .option('--expect-count <n>', 'go ahead only if exactly this many reports would change (no question asked)')
      .option('--json', 'print one JSON object {action, changed, moderator, already, flagged: {count, first}} (flags in it, not on stderr)')
      .action(async (ids: string[], opts) => {
        const { db: path } = readSettings(opts, ['db']);
        if (ids.length > 0 && opts.allPending) throw new CliError('give report ids or --all-pending, not both', 2);
        if (ids.length === 0 && !opts.allPending) throw new CliError(`nothing to ${action}: give report ids or --all-pending`, 2);
        if (ids.length > 0 && (opts.specialty || opts.state || opts.submittedBefore)) {
          throw new CliError('--specialty, --state and --submitted-before only apply with --all-pending', 2);
        }
        const idList = parseIds(ids);
        const reason = parseReason(opts.reason);
        const expectCount = parseExpectCount(opts.expectCount);
        const moderator = moderatorName(opts);
        const db = openReportsDb(path);
        try {
          if (!opts.allPending) {
            const plan = planIds(db, action, idList);
            if (plan.missing.length) throw new CliError(`no report with id ${plan.missing.join(', ')}; nothing changed`);
            const already = plan.unchanged.length ? `; already ${verb}: ${plan.unchanged.join(', ')}` : '';
            if (opts.dryRun) return dryRun(io, action, describeSelection(db, { ids: plan.change }), already);
            let result;
            try {
              result = decide(db, action, { ids: idList }, () => moderateIds(db, action, idList, io.now(), { moderator, reason, expectCount }));
            } catch (err) {
              rethrowMismatch(action, err, true);
            }
            if (opts.json) return decisionJson(io, { action, changed: result.changed, moderator, already: plan.unchanged, flagged: result.flagged });
            if (result.flagged) printFlags(io, result.flagged);
            io.out(`${reports(result.changed)} ${verb} by ${moderator}${already}`);
            return;
          }
          const filter = filterFrom(opts);
          const sel = describeSelection(db, { filter: { ...filter, status: 'pending' } });
          if (opts.dryRun) return dryRun(io, action, sel, '', true);
          if (sel.count === 0 && expectCount === undefined) {
            if (opts.json) return decisionJson(io, { action, changed: 0, moderator });
            io.out(`no pending reports match; nothing ${verb}`);
            return;
          }
          await confirmCount(io, { verb: action, count: sel.count, yes: opts.yes, expectCount });
          let result;
          try {
            const pending: ReportFilter = { ...filter, status: 'pending' };
            result = decide(db, action, { filter: pending }, () => moderatePending(db, action, filter, io.now(), { moderator, reason, expectCount: sel.count }));
          } catch (err) {
            rethrowMismatch(action, err, expectCount !== undefined);
          }
          if (opts.json) return decisionJson(io, { action, changed: result.changed, moderator, flagged: result.flagged });
          if (result.flagged) printFlags(io, result.flagged);
          io.out(`${reports(result.changed)} ${verb} by ${moderator}`);
        } finally {
          db.close();
        }
      });
  }

  mod
    .command('delete')
    .description('delete reports by id, recording who, why and when (asks first when deleting several)')
    .argument('<ids...>', 'report ids')
    .addOption(option('db').makeOptionMandatory())
    .requiredOption('--reason <text>', 'why (kept with the deleted report in the moderation log)')
    .addOption(option('moderator'))
    .option('--dry-run', 'print what would be deleted; delete nothing')
    .option('--yes', 'go ahead without asking')
    .option('--expect-count <n>', 'go ahead only if exactly this many reports would be deleted (no question asked)')
    .option('--json', 'print one JSON object {action, changed, moderator, already, flagged}')
    .action(async (ids: string[], opts) => {
      const { db: path } = readSettings(opts, ['db']);
      const idList = parseIds(ids);
      const reason = parseReason(opts.reason);
      const expectCount = parseExpectCount(opts.expectCount);
      const moderator = moderatorName(opts);
      const db = openReportsDb(path);
      try {
        const plan = planIds(db, 'delete', idList);
        if (plan.missing.length) throw new CliError(`no report with id ${plan.missing.join(', ')}; nothing changed`);
        if (opts.dryRun) return dryRun(io, 'delete', describeSelection(db, { ids: plan.change }));
        if (plan.change.length > 1 || expectCount !== undefined) await confirmCount(io, { verb: 'delete', count: plan.change.length, yes: opts.yes, expectCount });
        let result;
        try {
          result = deleteReports(db, plan.change, io.now(), { moderator, reason, expectCount: plan.change.length });
        } catch (err) {
          rethrowMismatch('delete', err, expectCount !== undefined);
        }
        if (opts.json) decisionJson(io, { action: 'delete', changed: result.deleted, moderator });
        else io.out(`${reports(result.deleted)} deleted by ${moderator}`);
      } finally {
        db.close();
      }
    });
}
