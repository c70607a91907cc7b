/**
 * Giving back the space deleted rows leave in a SQLite file. SQLite keeps freed pages for reuse: after
 * `import undo` of a large batch the file stays as large as before, and every backup copies it. VACUUM
 * rewrites the file without them (it needs free disk space about the size of the DB, and holds the write
 * lock while it runs; readers such as a running build carry on with what they had).
 */
import { statSync } from 'node:fs';
import type { Db } from './open.ts';

/** `import undo` suggests `physpay reclaim` when at least this much (and a quarter of the file) is free. */
export const RECLAIM_HINT_BYTES = 8 * 1024 * 1024;

const pragma = (db: Db, name: string) => Number(db.pragma(name, { simple: true }));

/** Bytes of free pages in the file, and their share of it. */
export function freeSpace(db: Db): { bytes: number; share: number } {
  const pageSize = pragma(db, 'page_size');
  const pages = pragma(db, 'page_count');
  const free = pragma(db, 'freelist_count');
  return { bytes: free * pageSize, share: pages > 0 ? free / pages : 0 };
}

export const mbText = (bytes: number) => `${(bytes / 1e6).toLocaleString('en-US', { maximumFractionDigits: bytes < 1e7 ? 1 : 0 })} MB`;

function fileBytes(path: string): number {
  let total = 0;
  for (const suffix of ['', '-wal']) {
    try {
      total += statSync(`${path}${suffix}`).size;
    } catch {
      // no WAL file
    }
  }
  return total;
}

/** VACUUM, then fold the WAL back into the file and truncate it. Sizes count the file and its WAL. */
export function reclaimSpace(db: Db, path: string): { before: number; after: number } {
  db.pragma('wal_checkpoint(TRUNCATE)');
  const before = fileBytes(path);
  db.exec('VACUUM');
  db.pragma('wal_checkpoint(TRUNCATE)');
  return { before, after: fileBytes(path) };
}
