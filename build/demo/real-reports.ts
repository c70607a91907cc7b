/**
 * Which reports of an existing reports DB are real, so that `physpay demo` never replaces them.
 *
 * A report is real when it did not come from `physpay demo`:
 *   - every report of a DB that is not marked synthetic (`dataset_meta.synthetic` is not 'true'): a DB made
 *     by `physpay init`, whatever wrote its reports;
 *   - every report that came from an import batch (`physpay import reports`, `physpay import submissions`),
 *     also in a DB marked synthetic (real reports imported into a demo DB). An undone batch has no reports left.
 * Reference data (institutions, BLS, cost of living) are not reports: an initialised DB holding only them
 * may be replaced.
 */
import type Database from 'better-sqlite3';

export interface RealReportsBatch {
  id: number;
  file: string;
  reports: number;
}

export interface RealReports {
  total: number;
  /** reports of import batches, by batch (oldest batch first) */
  batches: RealReportsBatch[];
  /** reports of a DB not marked synthetic that no batch imported (written by other means) */
  outsideBatches: number;
}

const hasColumn = (db: Database.Database, table: string, column: string) =>
  (db.prepare(`SELECT 1 FROM pragma_table_info('${table}') WHERE name = ?`).get(column) as unknown) !== undefined;

/** Read the real reports of a reports DB (any schema version this code knows; read only). */
export function realReportsIn(db: Database.Database): RealReports {
  if (!hasColumn(db, 'reports', 'id')) return { total: 0, batches: [], outsideBatches: 0 };
  const synthetic = (db.prepare("SELECT value FROM dataset_meta WHERE key = 'synthetic'").get() as { value: string } | undefined)?.value === 'true';
  // import_batches (schema v3 on); before it, `imports` and reports.import_id
  const [batchColumn, batchTable] = hasColumn(db, 'reports', 'batch_id') ? ['batch_id', 'import_batches'] : ['import_id', 'imports'];
  const groups = db.prepare(`SELECT r.${batchColumn} AS id, b.file_name AS file, count(*) AS reports
    FROM reports r LEFT JOIN ${batchTable} b ON b.id = r.${batchColumn} GROUP BY r.${batchColumn} ORDER BY r.${batchColumn}`).all() as { id: number | null; file: string | null; reports: number }[];
  const batches = groups.filter((g) => g.id !== null).map((g) => ({ id: g.id!, file: g.file ?? '(unknown file)', reports: g.reports }));
  const outsideBatches = synthetic ? 0 : groups.find((g) => g.id === null)?.reports ?? 0;
  return { total: batches.reduce((n, b) => n + b.reports, 0) + outsideBatches, batches, outsideBatches };
}

const fmt = (n: number) => n.toLocaleString('en-US');
const plural = (n: number, word: string) => `${fmt(n)} ${word}${n === 1 ? '' : 'es'}`;

/** Batches named in the refusal; the rest are counted. */
export const NAMED_BATCHES = 5;

/** The one sentence refusing to replace `path` (pure), or null when it holds no real report. */
export function realReportsRefusal(path: string, r: RealReports): string | null {
  if (r.total === 0) return null;
  const named = r.batches.slice(0, NAMED_BATCHES).map((b) => `${fmt(b.reports)} from batch ${b.id} ${b.file}`);
  const rest = r.batches.slice(NAMED_BATCHES);
  if (rest.length) named.push(`and ${fmt(rest.reduce((n, b) => n + b.reports, 0))} more from ${plural(rest.length, 'other batch')}`);
  if (r.outsideBatches) named.push(`${fmt(r.outsideBatches)} not from any import batch, in a DB not marked synthetic`);
  return `refusing to replace ${path} with demo data: it holds ${fmt(r.total)} real report${r.total === 1 ? '' : 's'} (${named.join(', ')}; ` +
    `physpay import list --db ${path} lists the batches); physpay demo never replaces real reports, with or without --force: give another --db path for the demo DB`;
}
