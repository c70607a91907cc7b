/**
 * The reference side of scripts/bench-import.ts: DuckDB reading a reports CSV into a table of a new DuckDB
 * file (`CREATE TABLE reports AS SELECT * FROM read_csv(...)`, types detected, 2 threads), run in a process
 * of its own so that its time and peak memory are measured like the importer's. DuckDB only loads the rows:
 * no validation, normalisation, duplicate check or moderation state, which physpay's importer does.
 *
 *   npx tsx scripts/duckdb-read-csv.ts <csv> <duckdb file>
 */
import { rmSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';

const [csv, file] = process.argv.slice(2);
if (!csv || !file) {
  console.error('usage: duckdb-read-csv.ts <csv> <duckdb file>');
  process.exit(2);
}
rmSync(file, { force: true });
rmSync(`${file}.wal`, { force: true });
const instance = await DuckDBInstance.create(file, { threads: '2' });
const con = await instance.connect();
await con.run(`CREATE TABLE reports AS SELECT * FROM read_csv('${csv.replace(/'/g, "''")}', header = true)`);
const reader = await con.runAndReadAll('SELECT count(*) AS n FROM reports');
console.log(`duckdb: ${String(reader.getRows()[0]![0])} rows read into ${file}`);
con.closeSync();
