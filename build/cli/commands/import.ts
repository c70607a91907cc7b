/**
 * `physpay import reports|institutions|bls|col --db <db> <file.csv>`, `physpay import list` and
 * `physpay import undo <batch>`. Every import is a batch; a batch of reports can be undone. An import is all
 * rows or none, except `import reports --rejects FILE`: the good rows, the bad ones written to FILE, exit 3.
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { openReportsDb } from '../../db/open.ts';
import { ImportRejected, importFile, type DuplicateRow, type ImportKind, type ImportOptions, type ImportResult } from '../../import/run.ts';
import { BatchError, listBatches, undoBatch, type Batch } from '../../import/batches.ts';
import type { RowError } from '../../import/csv.ts';
import { reasonOf } from '../../import/row-log.ts';
import { approvedFlagText, type ApprovedFlag } from '../../import/approved-rows.ts';
import { RejectsFile } from '../../import/rejects.ts';
import { failedJson, importedJson, refusedJson, undoJson, type ImportJson } from './import-json.ts';
import { REPORT_COLUMNS, REPORT_OFFER_COLUMNS, REPORT_REQUIRED_COLUMNS } from '../../import/reports.ts';
import { COMPENSATION_MODELS, OFFER_RANGES } from '../../contract/offer-terms.ts';
import { INSTITUTION_COLUMNS } from '../../import/institutions.ts';
import { BLS_COLUMNS } from '../../import/bls.ts';
import { COL_COLUMNS } from '../../import/col.ts';
import { parseDateFormat } from '../../import/fields.ts';
import { CountMismatchError } from '../../db/moderation.ts';
import { RECLAIM_HINT_BYTES, freeSpace, mbText } from '../../db/reclaim.ts';
import { confirmCount, parseExpectCount, reportsText } from '../confirm.ts';
import { option, readSettings } from '../settings.ts';
import { CliError, type CliIo } from '../io.ts';
import { lineProgress, PROGRESS_HELP } from '../progress-lines.ts';

const KINDS: { kind: ImportKind; description: string; columns: readonly string[] }[] = [
  { kind: 'reports', description: 'import salary reports (reports already in the DB are skipped; re-importing the same file does nothing)', columns: REPORT_COLUMNS },
  { kind: 'institutions', description: 'import teaching hospitals and their PGY pay scales (replaces each listed scale)', columns: INSTITUTION_COLUMNS },
  { kind: 'bls', description: 'import BLS OEWS national wages (official columns OCC_CODE, OCC_TITLE, A_MEDIAN)', columns: BLS_COLUMNS },
  { kind: 'col', description: 'import a cost-of-living index per state (replaces each listed state)', columns: COL_COLUMNS },
];

/** The exit code of `import reports --rejects FILE` when it wrote bad rows to FILE (the good ones were imported). */
export const EXIT_REJECTED = 3;

/** At most this many row lines (bad rows, duplicates) are printed; the rest is one summary line. */
export const MAX_ROW_LINES = 20;

const fmt = (n: number) => n.toLocaleString('en-US');

/** "... and 2,980 more rows refused: 1,500 x 'unknown specialty', ..." for the errors not printed. */
function refusedTail(rest: RowError[], omitted: Map<string, number>): string {
  const byReason = new Map(omitted);
  for (const e of rest) byReason.set(reasonOf(e.message), (byReason.get(reasonOf(e.message)) ?? 0) + 1);
  const count = [...byReason.values()].reduce((a, n) => a + n, 0);
  const sorted = [...byReason].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const shown = sorted.slice(0, 5).map(([reason, n]) => `${fmt(n)} x '${reason}'`);
  if (sorted.length > 5) shown.push(`${fmt(sorted.slice(5).reduce((a, [, n]) => a + n, 0))} x other reasons`);
  return `... and ${fmt(count)} more ${count === 1 ? 'row' : 'rows'} refused: ${shown.join(', ')}`;
}

function duplicateLine(d: DuplicateRow): string {
  if (d.firstLine !== undefined) return `duplicate of line ${d.firstLine}, skipped`;
  return `duplicate of report ${d.reportId} (${d.batchId === null || d.batchId === undefined ? 'not from an import' : `batch ${d.batchId}`}), skipped`;
}

function printRefused(io: CliIo, file: string, errors: RowError[], omitted: Map<string, number>): void {
  for (const e of errors.slice(0, MAX_ROW_LINES)) io.err(`${file} line ${e.line}: ${e.message}`);
  const rest = errors.slice(MAX_ROW_LINES);
  if (rest.length || omitted.size) io.err(`${file}: ${refusedTail(rest, omitted)}`);
}

/**
 * The rejects file of --rejects, opened before anything is imported. Refused (exit 2) when it is the file
 * imported, a folder, or in a folder that does not exist or cannot be written.
 */
function openRejects(path: string, imported: string): RejectsFile {
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return resolve(p);
    }
  };
  if (real(path) === real(imported)) throw new CliError(`--rejects must name another file than the one imported (got "${path}")`, 2);
  const cannot = (why: string) => new CliError(`--rejects: cannot write ${path}: ${why}; nothing was imported`, 2);
  if (existsSync(path) && statSync(path).isDirectory()) throw cannot('it is a folder');
  try {
    return new RejectsFile(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw cannot('its folder does not exist');
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') throw cannot('permission denied');
    throw err;
  }
}

function printDuplicates(io: CliIo, file: string, duplicates: DuplicateRow[], count: number): void {
  for (const d of duplicates.slice(0, MAX_ROW_LINES)) io.err(`${file} line ${d.line}: ${duplicateLine(d)}`);
  const rest = count - MAX_ROW_LINES;
  if (rest > 0) io.err(`${file}: ... and ${fmt(rest)} more ${rest === 1 ? 'duplicate' : 'duplicates'} skipped`);
}

/** Approved reports imported with a flag, as `moderate approve` names them: at most MAX_ROW_LINES, then a count. */
function printFlagged(io: CliIo, file: string, flagged: ApprovedFlag[], count: number): void {
  for (const f of flagged.slice(0, MAX_ROW_LINES)) io.err(`${file} line ${f.line}: ${approvedFlagText(f)}`);
  const rest = count - Math.min(flagged.length, MAX_ROW_LINES);
  if (rest > 0) io.err(`${file}: ... and ${fmt(rest)} more approved ${rest === 1 ? 'report' : 'reports'} flagged`);
}

/**
 * Import one file: with `rejectsName`, the rejects file is opened first (a bad one refused, exit 2), and
 * written only when the import went through and read the file.
 */
function runImport(dbPath: string, kind: ImportKind, file: string, rejectsName: string | undefined, options: Omit<ImportOptions, 'rejects'>): ImportResult {
  const db = openReportsDb(dbPath);
  let rejects: RejectsFile | undefined;
  try {
    rejects = rejectsName === undefined ? undefined : openRejects(rejectsName, file);
    const result = importFile(db, kind, file, { ...options, rejects });
    // a file imported before read nothing: the rejects file of that import stays
    if (result.alreadyImported) rejects?.discard();
    else rejects?.commit();
    rejects = undefined;
    return result;
  } finally {
    rejects?.discard();
    db.close();
  }
}

/**
 * What the operator is told when an import did not go through: the error to exit with (the bad rows are
 * printed first), and its --json object (none for a usage error, exit 2).
 */
function importFailure(io: CliIo, file: string, err: unknown): { error: unknown; json: ((db: string) => ImportJson) | null } {
  if (err instanceof ImportRejected) {
    // A file that cannot be imported is a runtime failure (exit 1), like a missing one.
    if (err.fileLevel) {
      const message = `${err.file} ${err.detail}; nothing was imported`;
      return { error: new CliError(message), json: (db) => refusedJson(db, file, err, message) };
    }
    printRefused(io, err.file, err.errors, err.omitted);
    const listed = err.batchId !== undefined ? ` (the attempt is listed as batch ${err.batchId})` : '';
    const message = `${err.file}: ${fmt(err.errorCount)} bad row(s); nothing was imported${listed}`;
    return { error: new CliError(message), json: (db) => refusedJson(db, file, err, message) };
  }
  const code = (err as NodeJS.ErrnoException).code;
  const readError = code === 'ENOENT' ? `cannot read ${file}: no such file` : code === 'EISDIR' ? `cannot read ${file}: it is a folder; name the CSV file to import (one file per import); nothing was imported` : null;
  if (readError) return { error: new CliError(readError), json: (db) => failedJson(db, file, readError) };
  if (err instanceof CliError && err.exitCode === 2) return { error: err, json: null };
  return { error: err, json: (db) => failedJson(db, file, (err as Error).message) };
}

/** A plain text table: numbers right-aligned, text left-aligned, the last column unpadded. */
function table(header: string[], rows: (string | number)[][]): string[] {
  const cells = rows.map((r) => r.map((c) => (typeof c === 'number' ? fmt(c) : c)));
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i]!.length)));
  const numeric = header.map((_, i) => rows.length > 0 && rows.every((r) => typeof r[i] === 'number'));
  const line = (r: string[]) =>
    r.map((c, i) => (i === r.length - 1 ? c : numeric[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ');
  return [line(header.map((h, i) => (numeric[i] ? h.padStart(widths[i]!) : h))), ...cells.map(line)];
}

function byStatusText(byStatus: Record<string, number>): string {
  const parts = Object.entries(byStatus).filter(([, n]) => n > 0).map(([k, n]) => `${fmt(n)} ${k}`);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

/** The columns a kind's file holds, for --help (header names match with spaces and underscores alike). */
function columnsHelp(k: (typeof KINDS)[number]): string {
  if (k.kind === 'reports') {
    const none = REPORT_OFFER_COLUMNS.filter((c) => c !== 'compensation_model' && OFFER_RANGES[c].none);
    return `${k.columns.join(',')} (any order; required: ${REPORT_REQUIRED_COLUMNS.join(', ')}; the others may be left out)
The whole offer, optional too: ${REPORT_OFFER_COLUMNS.join(',')}
  compensation_model: ${COMPENSATION_MODELS.map((m) => m.value).join(', ')} (or a label: ${COMPENSATION_MODELS.map((m) => m.label).join(', ')}); "none" reads as 0 in ${none.join(', ')} (README: Input files)`;
  }
  return `${k.columns.join(',')}${k.kind === 'bls' ? ' (other columns of the official file are ignored)' : ' (any order)'}`;
}

export function registerImportCommands(program: Command, io: CliIo): void {
  const imp = program
    .command('import')
    .description('import a CSV file into the reports DB (all rows or none, or for reports with --rejects the good ones; each import is a batch), list batches, undo one');
  for (const k of KINDS) {
    const cmd = imp
      .command(k.kind)
      .description(k.description)
      .argument('<file>', 'CSV file (UTF-8, header row)')
      .addOption(option('db').makeOptionMandatory())
      .option('--progress', PROGRESS_HELP)
      .addHelpText('after', `\nColumns: ${columnsHelp(k)}`);
    if (k.kind === 'bls') cmd.addOption(option('year')).addOption(option('topCode'));
    if (k.kind === 'reports') {
      cmd
        .option('--allow-duplicates', 'import rows even when the same report is already in the DB or earlier in the file')
        .option('--no-restore-decisions', "rows removed by `import undo` come back with the file's status, not their last moderation decision")
        .option('--rejects <file>', 'import the good rows and write the bad ones to this CSV file (line, reason, the row as it was); exit code 3 when there were any')
        .option('--keep-implausible', 'import approved rows that fail the plausibility rules (total far from the specialty\'s level, hours outside 10-100) instead of refusing them; they are named with their flags')
        .option('--date-format <order>', 'how to read submitted_at dates with the year last, e.g. 11/03/2026: MDY (month first) or DMY (day first); YMD: all dates put the year first')
        .option('--json', 'print one JSON object {status, db, file, batch_id, rows_read, imported, by_status, decisions_restored, duplicates, flagged, normalised, bad_rows, rejects_file, error, message}');
    }
    cmd.action((file: string, opts) => {
      const dateFormat = opts.dateFormat === undefined ? undefined : parseDateFormat(String(opts.dateFormat));
      if (typeof dateFormat === 'object') throw new CliError(dateFormat.error, 2);
      const settings = readSettings(opts, k.kind === 'bls' ? ['db', 'year', 'topCode'] : ['db']);
      const json = Boolean(opts.json);
      const rejectsName = opts.rejects === undefined ? undefined : String(opts.rejects);
      const progressLog = opts.progress ? lineProgress((line) => io.err(line), { command: `import ${k.kind}`, steps: k.kind === 'reports' ? 2 : 3 }) : undefined;
      let result: ImportResult;
      try {
        result = runImport(settings.db, k.kind, file, rejectsName, {
          progressLog,
          now: () => io.now(),
          allowDuplicates: Boolean(opts.allowDuplicates),
          restoreDecisions: opts.restoreDecisions !== false,
          keepImplausible: Boolean(opts.keepImplausible),
          progress: io.isTty ? (text) => process.stderr.write(text) : undefined,
          ...('year' in settings ? { year: settings.year as number | undefined, topCode: settings.topCode as number } : {}),
          ...(dateFormat ? { dateFormat } : {}),
        });
      } catch (err) {
        progressLog?.end(false);
        const failure = importFailure(io, file, err);
        if (json && failure.json) io.out(JSON.stringify(failure.json(settings.db)));
        throw failure.error;
      }
      progressLog?.end(true);
      printDuplicates(io, result.file, result.duplicates, result.duplicateCount);
      printFlagged(io, result.file, result.flagged ?? [], result.flaggedCount ?? 0);
      if (result.rejected) printRefused(io, result.file, result.rejected.errors, result.rejected.omitted);
      const rejected = result.rejected;
      const error = rejected
        ? `${result.file}: ${fmt(rejected.rows)} bad ${rejected.rows === 1 ? 'row' : 'rows'} rejected, written to ${rejectsName}; ${
          result.rows > 0 ? `the other rows were imported as batch ${result.batchId}` : `no other row was imported (batch ${result.batchId})`
        }`
        : null;
      io.out(json ? JSON.stringify(importedJson(settings.db, result, rejectsName, error)) : result.summary);
      if (error) throw new CliError(error, EXIT_REJECTED);
    });
  }

  imp
    .command('submissions')
    .description('move the reports physicians sent through /contribute from the service store into the reports DB, as one batch of pending reports; safe to run again or to stop midway')
    .addOption(option('db').makeOptionMandatory())
    .addOption(option('serviceDb'))
    .option('--json', 'print one JSON object {db, store, batch_id, imported, already_imported, duplicates, duplicate_of: [{id, report_id}], refused: [{id, reason}]}')
    .action(async (opts) => {
      const { db: path, serviceDb } = readSettings(opts, ['db', 'serviceDb']);
      // no file there: say where submissions are kept, not how to create a folder or a DB
      if (!/^postgres(ql)?:\/\//.test(serviceDb) && !existsSync(serviceDb)) {
        throw new CliError(
          `no service DB at ${serviceDb} (--service-db): the reports physicians send through /contribute are kept in the service DB ` +
            '`physpay serve` uses (its --service-db, or PHYSPAY_SERVICE_DB); give that file or its postgres:// URL. Nothing was imported',
          2,
        );
      }
      const { withStore, describeStore } = await import('./keys.ts');
      const { importSubmissions } = await import('../../import/submissions.ts');
      const stamp = io.now().toISOString();
      const r = await withStore(serviceDb, false, async (store) => {
        const pending = await store.pendingSubmissions(100_000);
        if (pending.length === 0) return null;
        const db = openReportsDb(path);
        let done;
        try {
          done = importSubmissions(db, pending, stamp); // step 1: the reports DB, one transaction
        } finally {
          db.close();
        }
        // step 2: only now are they marked taken (a run stopped before this finds them in the reports DB next time)
        const byBatch = new Map<number, string[]>();
        const add = (batch: number, id: string) => byBatch.set(batch, [...(byBatch.get(batch) ?? []), id]);
        for (const id of done.imported) add(done.batchId!, id);
        for (const id of done.alreadyImported) add(done.batchOf.get(id)!, id);
        for (const d of done.duplicates) add(done.batchId ?? 0, d.id);
        for (const [batch, ids] of byBatch) await store.markSubmissionsTaken(ids, batch, stamp);
        return done;
      });
      const where = describeStore(serviceDb);
      if (opts.json) {
        io.out(JSON.stringify({
          db: path, store: where, batch_id: r?.batchId ?? null, imported: r?.imported.length ?? 0, already_imported: r?.alreadyImported.length ?? 0,
          duplicates: r?.duplicates.length ?? 0, duplicate_of: (r?.duplicates ?? []).map((d) => ({ id: d.id, report_id: d.reportId })), refused: r?.refused ?? [],
        }));
        return;
      }
      if (!r) {
        io.out(`no submissions are waiting in ${where}`);
        return;
      }
      const parts = [
        r.batchId !== null ? `imported ${fmt(r.imported.length)} submission${r.imported.length === 1 ? '' : 's'} as pending reports (batch ${r.batchId})` : 'imported nothing new',
        ...(r.alreadyImported.length ? [`${fmt(r.alreadyImported.length)} imported by an earlier run that stopped before marking them, now marked`] : []),
        ...(r.duplicates.length ? [`${fmt(r.duplicates.length)} skipped: the same report is already in the DB (listed on stderr)`] : []),
        ...(r.refused.length ? [`${fmt(r.refused.length)} refused by the importer's rules, left waiting (reasons on stderr)`] : []),
      ];
      io.out(`${parts.join('; ')}; next: physpay moderate list --db ${path}`);
      for (const d of r.duplicates) io.err(`submission ${d.id}: skipped, the same report as report ${d.reportId} already in the DB (the time it was sent aside)`);
      for (const x of r.refused) io.err(`submission ${x.id}: ${x.reason}`);
    });

  imp
    .command('list')
    .description('list import batches, newest first: file, time, rows read, imported, duplicates skipped, refused, status')
    .addOption(option('db').makeOptionMandatory())
    .option('--json', 'print one JSON object {db, batches: [...]}')
    .action((opts) => {
      const { db: path } = readSettings(opts, ['db']);
      const db = openReportsDb(path);
      let batches: Batch[];
      try {
        batches = listBatches(db);
      } finally {
        db.close();
      }
      if (opts.json) {
        io.out(JSON.stringify({ db: path, batches }));
        return;
      }
      if (!batches.length) {
        io.out(`no import batches in ${path}`);
        return;
      }
      const header = ['batch', 'kind', 'imported at', 'read', 'imported', 'duplicates', 'refused', 'status', 'file'];
      const rows = batches.map((b) => [b.id, b.kind, b.imported_at, b.rows_read, b.rows_imported, b.duplicates_skipped, b.rows_refused, b.status, b.file_name]);
      for (const line of table(header, rows)) io.out(line);
    });

  imp
    .command('undo')
    .description('remove the reports imported by one batch (all of them, whatever their status), in one transaction; asks first')
    .argument('<batch>', 'batch id, as shown by physpay import list')
    .addOption(option('db').makeOptionMandatory())
    .option('--dry-run', 'say what would be removed, change nothing')
    .option('--yes', 'go ahead without asking')
    .option('--expect-count <n>', 'go ahead only if exactly this many reports would be removed (no question asked)')
    .option('--json', 'print one JSON object {status, db, batch_id, file_name, imported_at, removed, by_status, reports_in_db, decisions_kept, reclaim, message}')
    .action(async (batch: string, opts) => {
      const { db: path } = readSettings(opts, ['db']);
      if (!/^\d+$/.test(batch)) throw new CliError(`<batch> must be a batch id, a whole number as shown by physpay import list (got "${batch}")`, 2);
      const expectCount = parseExpectCount(opts.expectCount);
      const db = openReportsDb(path);
      try {
        const plan = undoBatch(db, Number(batch), { dryRun: true, dbName: path });
        const what = `batch ${plan.batch.id} (${plan.batch.file_name}, imported ${plan.batch.imported_at})`;
        const share = plan.reportsInDb > 0 ? `, ${Math.round((100 * plan.removed) / plan.reportsInDb)}% of the ${reportsText(plan.reportsInDb)} in the DB` : '';
        if (opts.dryRun) {
          const message = `dry run: undoing ${what} would remove ${reportsText(plan.removed)}${byStatusText(plan.byStatus)}${share}; nothing changed`;
          io.out(opts.json ? JSON.stringify(undoJson(path, plan, message)) : message);
          return;
        }
        if (plan.removed > 0 || expectCount !== undefined) {
          await confirmCount(io, { verb: `undo batch ${plan.batch.id}`, what: `${what} would remove`, count: plan.removed, detail: `${byStatusText(plan.byStatus)}${share}`, yes: opts.yes, expectCount });
        }
        let r;
        try {
          r = undoBatch(db, Number(batch), { now: () => io.now(), dbName: path, expectCount: plan.removed });
        } catch (err) {
          if (err instanceof CountMismatchError) throw new CliError(`the reports of batch ${batch} changed while you confirmed (${fmt(err.expected)} then, ${fmt(err.actual)} now); nothing changed`, 2);
          throw err;
        }
        const kept = r.decisionsKept
          ? `; ${fmt(r.decisionsKept)} moderation ${r.decisionsKept === 1 ? 'decision' : 'decisions'} kept: importing the same rows again restores ${r.decisionsKept === 1 ? 'it' : 'them'}`
          : '';
        const message = `${what} undone: ${reportsText(r.removed)} removed${byStatusText(r.byStatus)}${kept}`;
        const free = freeSpace(db);
        const reclaim = free.bytes >= RECLAIM_HINT_BYTES && free.share >= 0.25
          ? `${path} keeps the ${mbText(free.bytes)} the removed reports used (${Math.round(free.share * 100)}% of the file, copied by every backup); \`physpay reclaim --db ${path}\` gives it back`
          : null;
        if (opts.json) io.out(JSON.stringify(undoJson(path, r, message, reclaim)));
        else for (const line of [message, reclaim]) if (line) io.out(line);
      } catch (err) {
        if (err instanceof BatchError) throw new CliError(err.message, 2);
        throw err;
      } finally {
        db.close();
      }
    });
}
